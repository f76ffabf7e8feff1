//! `chariot book export --balanced`: start positions for matches. Every position the book
//! reaches from the start within a ply range is a candidate (mirror images count once); the
//! candidates are shuffled with a fixed seed and searched to a fixed depth, and those whose
//! score is near equal are written as EPD lines until enough are found.

use crate::book::Book;
use crate::book::mirror::canonical_key;
use crate::core::Position;
use crate::engine::{Engine, Options};
use crate::rules::RuleSet;
use crate::search::Limits;
use rand_free::shuffle;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::Mutex;

#[derive(Clone, Debug)]
pub struct ExportOptions {
    pub min_ply: usize,
    pub max_ply: usize,
    pub depth: i32,
    /// Keep positions with |score| at most this (centipawns, side to move).
    pub max_score: i32,
    /// Stop after this many positions.
    pub count: usize,
    pub seed: u64,
    pub threads: usize,
    pub hash_mib: usize,
    pub rules: RuleSet,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            min_ply: 6,
            max_ply: 12,
            depth: 10,
            max_score: 40,
            count: 200,
            seed: 1,
            threads: 1,
            hash_mib: 16,
            rules: RuleSet::Cxa,
        }
    }
}

/// One exported opening.
#[derive(Clone, Debug)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<String>,
    pub ply: usize,
    pub score: i32,
    pub depth: i32,
    pub name: Option<String>,
}

impl Opening {
    /// The EPD line: `FEN ;ce S ;acd D ;pm "moves" ;c0 "name"` (FEN with its six fields).
    pub fn epd(&self) -> String {
        let mut l = format!(
            "{} ;ce {} ;acd {} ;c1 \"{}\"",
            self.fen,
            self.score,
            self.depth,
            self.moves.join(" ")
        );
        if let Some(n) = &self.name {
            l.push_str(&format!(" ;c0 \"{}\"", n.replace('"', "'")));
        }
        l
    }
}

/// Every position reachable by book moves of positive weight at plies `min..=max`, once per
/// mirror pair, in a fixed order, with the moves that reach it and the last name on the way.
pub fn candidates(
    book: &Book,
    min: usize,
    max: usize,
) -> Vec<(Position, Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let start = Position::startpos();
    let mut level = vec![(start, Vec::<String>::new(), None::<String>)];
    seen.insert(canonical_key(&level[0].0).0);
    for ply in 0..=max {
        if ply >= min {
            out.extend(level.iter().cloned());
        }
        if ply == max {
            break;
        }
        let mut next = Vec::new();
        for (pos, moves, name) in &level {
            for b in book.probe(pos) {
                if b.weight == 0 {
                    continue;
                }
                let mut child = pos.clone();
                child.make_move(b.mv);
                if !seen.insert(canonical_key(&child).0) {
                    continue;
                }
                let mut ms = moves.clone();
                ms.push(b.mv.to_string());
                let n = book
                    .name(&child)
                    .map(str::to_string)
                    .or_else(|| name.clone());
                next.push((child, ms, n));
            }
        }
        level = next;
    }
    out
}

/// Balanced openings: candidates searched in a seeded random order until `count` are found.
pub fn balanced(
    book: &Book,
    o: &ExportOptions,
    mut progress: impl FnMut(&str),
) -> Result<Vec<Opening>, String> {
    let mut cands = candidates(book, o.min_ply, o.max_ply);
    progress(&format!(
        "{} candidate positions at plies {}..{}",
        cands.len(),
        o.min_ply,
        o.max_ply
    ));
    shuffle(&mut cands, o.seed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", o.threads))?;
    // one engine a worker, made once: a search starts from a new game (cleared table and
    // histories), so which engine searches a candidate does not change its score
    let workers = o.threads.max(1);
    let engines: Vec<Mutex<Engine>> = (0..workers)
        .map(|_| {
            Mutex::new(Engine::new(Options {
                hash_mib: o.hash_mib,
                threads: 1,
                rules: o.rules,
            }))
        })
        .collect();
    let mut found = Vec::new();
    // batches keep the output independent of thread timing: a batch is searched in full
    let batch = 4 * workers;
    for chunk in cands.chunks(batch) {
        let scored: Vec<Option<Opening>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|(pos, moves, name)| {
                    let slot = rayon::current_thread_index().unwrap_or(0) % workers;
                    let mut engine = engines[slot].lock().unwrap_or_else(|e| e.into_inner());
                    engine.new_game();
                    engine.set_position(Some(&pos.fen()), &[]).ok()?;
                    let r = engine.go(
                        Limits {
                            depth: Some(o.depth),
                            ..Limits::default()
                        },
                        |_| {},
                    );
                    r.best?;
                    Some(Opening {
                        fen: pos.fen(),
                        moves: moves.clone(),
                        ply: moves.len(),
                        score: r.score,
                        depth: r.depth,
                        name: name.clone(),
                    })
                })
                .collect()
        });
        for op in scored.into_iter().flatten() {
            if op.score.abs() <= o.max_score && found.len() < o.count {
                found.push(op);
            }
        }
        if found.len() >= o.count {
            break;
        }
    }
    progress(&format!("{} balanced positions found", found.len()));
    Ok(found)
}

/// A seeded Fisher-Yates shuffle (no `rand` crate).
mod rand_free {
    use crate::book::Rng;

    pub fn shuffle<T>(v: &mut [T], seed: u64) {
        let mut rng = Rng::new(seed);
        for i in (1..v.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}
