//! `chariot book grow`: checks the book's lines with Chariot's own search and extends them.
//!
//! The book is walked breadth-first from the start position, one ply at a time, each
//! position once (mirror images are one position). In a position that has book moves, each
//! move is searched to a fixed depth (the best move by a normal search, every other book move
//! by a search restricted to it); a move is kept only when its score is within `margin` of
//! the best. Where the book's lines end, the search's best moves (up to `width` of them,
//! each within `add_margin` of the best) are added, for `extend` plies past the end of the
//! line; their weight runs from 10 (the best) down to 1 (`add_margin` below it). Book moves
//! keep the weight they came with.
//!
//! Every search is one thread on a cleared table from the position's FEN (no history), so
//! the result does not depend on the order of the work or on the number of threads.

use crate::book::format::{FLAG_GROWN, FLAG_VETTED, Record};
use crate::book::mirror::{canonical_key, mirror_position, stored_move};
use crate::book::{Book, BookMove};
use crate::core::{Move, Position};
use crate::engine::{Engine, Options};
use crate::rules::RuleSet;
use crate::search::{Limits, mate_plies};
use rayon::prelude::*;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct GrowOptions {
    /// Search depth of every check.
    pub depth: i32,
    /// A book move is kept when its score is at most this many centipawns below the best.
    pub margin: i32,
    /// A move of the search is added when it scores at most this far below the best.
    pub add_margin: i32,
    /// Moves added at most in a position past the end of a line.
    pub width: usize,
    /// Plies added past the end of each line (0: only check).
    pub extend: usize,
    /// No position deeper than this is looked at.
    pub max_ply: usize,
    pub threads: usize,
    pub hash_mib: usize,
    pub rules: RuleSet,
}

impl Default for GrowOptions {
    fn default() -> GrowOptions {
        GrowOptions {
            depth: 8,
            margin: 60,
            add_margin: 30,
            width: 3,
            extend: 4,
            max_ply: 40,
            threads: 1,
            hash_mib: 8,
            rules: RuleSet::Cxa,
        }
    }
}

/// What a grow run did.
#[derive(Clone, Debug, Default)]
pub struct GrowReport {
    pub positions: usize,
    pub searches: usize,
    pub vetted: usize,
    pub dropped: Vec<String>,
    pub added: usize,
    /// Records of the input that no kept line reaches from the start position.
    pub unreachable: usize,
}

/// A searcher for one worker: one thread, its own table, cleared before every search.
struct Worker {
    engine: Engine,
    depth: i32,
    searches: usize,
}

impl Worker {
    fn new(o: &GrowOptions) -> Worker {
        Worker {
            engine: Engine::new(Options {
                hash_mib: o.hash_mib,
                threads: 1,
                rules: o.rules,
            }),
            depth: o.depth,
            searches: 0,
        }
    }

    /// The best `lines` moves with their scores, best first.
    fn best(&mut self, pos: &Position, lines: usize, banned: Vec<Move>) -> Vec<(Move, i32)> {
        self.searches += 1;
        self.engine.new_game();
        if self.engine.set_position(Some(&pos.fen()), &[]).is_err() {
            return Vec::new();
        }
        let mut last: HashMap<usize, (i32, Move, i32)> = HashMap::new();
        let limits = Limits {
            depth: Some(self.depth),
            multipv: lines,
            banned,
            ..Limits::default()
        };
        let r = self.engine.go(limits, |info| {
            if let Some(&m) = info.pv.first() {
                last.insert(info.multipv, (info.depth, m, info.score));
            }
        });
        let mut out: Vec<(Move, i32)> = (1..=lines)
            .filter_map(|k| last.get(&k).map(|&(_, m, s)| (m, s)))
            .collect();
        if out.is_empty()
            && let Some(m) = r.best
        {
            out.push((m, r.score));
        }
        out
    }

    /// The score of `m` alone (every other root move banned).
    fn score_of(&mut self, pos: &Position, m: Move) -> Option<i32> {
        let banned: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&x| x != m)
            .collect();
        self.best(pos, 1, banned).first().map(|&(_, s)| s)
    }
}

/// Scores as centipawns for the margin test: mates count as ±30000.
fn comparable(score: i32) -> i32 {
    match mate_plies(score) {
        Some(n) if n > 0 => 30000 - n,
        Some(n) => -30000 - n,
        None => score.clamp(-20000, 20000),
    }
}

/// The result for one position.
struct Done {
    records: Vec<Record>,
    dropped: Vec<String>,
    vetted: usize,
    added: usize,
    /// Positions after the moves kept, with their "plies past the line" count.
    children: Vec<(Position, usize)>,
    searches: usize,
}

fn weight_for_gap(gap: i32, margin: i32) -> u16 {
    let m = margin.max(1);
    (1 + 9 * (m - gap.clamp(0, m)) / m) as u16
}

fn process(
    book: &Book,
    pos: &Position,
    ext: usize,
    ply: usize,
    o: &GrowOptions,
    w: &mut Worker,
) -> Done {
    let before = w.searches;
    let mut done = Done {
        records: Vec::new(),
        dropped: Vec::new(),
        vetted: 0,
        added: 0,
        children: Vec::new(),
        searches: 0,
    };
    let listed: Vec<BookMove> = book.probe(pos);
    // in a symmetric position a move and its mirror are one record: check each once
    let mut source: Vec<(Move, u16, u8)> = Vec::new();
    for b in &listed {
        let (_, sm) = stored_move(pos, b.mv);
        if sm == b.mv || !listed.iter().any(|x| x.mv == sm) {
            source.push((b.mv, b.weight, b.flags));
        }
    }
    let mut kept_source = false;
    if !source.is_empty() {
        let best = w.best(pos, 1, Vec::new());
        if let Some(&(best_move, best_score)) = best.first() {
            for &(m, weight, flags) in &source {
                let s = if m == best_move {
                    Some(best_score)
                } else {
                    w.score_of(pos, m)
                };
                let Some(s) = s else { continue };
                let gap = comparable(best_score) - comparable(s);
                if gap <= o.margin {
                    let (key, sm) = stored_move(pos, m);
                    done.records.push(Record {
                        key,
                        mv: sm,
                        weight,
                        score: s.clamp(-32767, 32767) as i16,
                        depth: o.depth.clamp(1, 255) as u8,
                        flags: flags | FLAG_VETTED,
                    });
                    done.vetted += 1;
                    kept_source = true;
                    let mut child = pos.clone();
                    child.make_move(m);
                    done.children.push((child, 0));
                } else {
                    done.dropped.push(format!(
                        "{} ; {m} scores {s}, {gap} below {best_move} ({best_score}) at depth {}",
                        pos.fen(),
                        o.depth
                    ));
                }
            }
        }
    }
    if !kept_source && ext < o.extend && ply < o.max_ply {
        let lines = w.best(pos, o.width.max(1), Vec::new());
        if let Some(&(_, best_score)) = lines.first() {
            let mut seen = Vec::new();
            for &(m, s) in &lines {
                let gap = comparable(best_score) - comparable(s);
                let (key, sm) = stored_move(pos, m);
                if gap > o.add_margin || seen.contains(&sm) {
                    continue;
                }
                seen.push(sm);
                done.records.push(Record {
                    key,
                    mv: sm,
                    weight: weight_for_gap(gap, o.add_margin),
                    score: s.clamp(-32767, 32767) as i16,
                    depth: o.depth.clamp(1, 255) as u8,
                    flags: FLAG_GROWN | FLAG_VETTED,
                });
                done.added += 1;
                let mut child = pos.clone();
                child.make_move(m);
                done.children.push((child, ext + 1));
            }
        }
    }
    done.searches = w.searches - before;
    done
}

/// Checks and extends `book`; `progress` gets a line per ply.
pub fn grow(
    book: &Book,
    o: &GrowOptions,
    mut progress: impl FnMut(&str),
) -> Result<(Book, GrowReport), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", o.threads))?;
    let mut report = GrowReport::default();
    let mut records: Vec<Record> = Vec::new();
    let mut visited: HashMap<u64, usize> = HashMap::new();
    let mut level: Vec<(Position, usize)> = vec![(Position::startpos(), 0)];
    for ply in 0..=o.max_ply {
        // one representative per mirror pair, in the canonical orientation, sorted by key
        let mut by_key: HashMap<u64, (Position, usize)> = HashMap::new();
        for (pos, ext) in level.drain(..) {
            let (key, mirrored) = canonical_key(&pos);
            if visited.contains_key(&key) {
                continue;
            }
            let canon = if mirrored {
                mirror_position(&pos)
            } else {
                Position::from_fen(&pos.fen()).unwrap_or(pos)
            };
            by_key
                .entry(key)
                .and_modify(|e| e.1 = e.1.min(ext))
                .or_insert((canon, ext));
        }
        let mut work: Vec<(u64, Position, usize)> =
            by_key.into_iter().map(|(k, (p, e))| (k, p, e)).collect();
        work.sort_by_key(|w| w.0);
        if work.is_empty() {
            break;
        }
        for w in &work {
            visited.insert(w.0, ply);
        }
        let results: Vec<Done> = pool.install(|| {
            work.par_iter()
                .map_init(
                    || Worker::new(o),
                    |worker, (_, pos, ext)| process(book, pos, *ext, ply, o, worker),
                )
                .collect()
        });
        let mut next = Vec::new();
        let (mut added, mut vetted) = (0, 0);
        for d in results {
            records.extend(d.records);
            report.dropped.extend(d.dropped);
            report.searches += d.searches;
            vetted += d.vetted;
            added += d.added;
            if ply < o.max_ply {
                next.extend(d.children);
            }
        }
        report.positions += work.len();
        report.vetted += vetted;
        report.added += added;
        progress(&format!(
            "ply {ply}: {} positions, {vetted} book moves kept, {added} added, {} searches so far",
            work.len(),
            report.searches
        ));
        level = next;
    }
    report.unreachable = book
        .records()
        .iter()
        .filter(|r| !visited.contains_key(&r.key))
        .count();
    report.dropped.sort();
    let names = book
        .names()
        .iter()
        .filter(|n| visited.contains_key(&n.0))
        .cloned()
        .collect();
    Ok((Book::from_records(records, names), report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_weights() {
        assert_eq!(weight_for_gap(0, 40), 10);
        assert_eq!(weight_for_gap(40, 40), 1);
        assert!(weight_for_gap(20, 40) > 1 && weight_for_gap(20, 40) < 10);
    }
}
