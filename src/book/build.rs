//! `chariot book build`: counts how many games or lines play each move in each position (up
//! to a ply limit), keeps the pairs played at least `min_games` times, and writes them with
//! the count as the weight. Positions are keyed by their canonical (mirror-folded) key, so a
//! line and its mirror image add to the same records.

use super::Book;
use super::format::{FLAG_SOURCE, NO_SCORE, Record};
use super::mirror::{canonical_key, stored_move};
use super::pgn::{GameLine, looks_like_pgn, parse_lines, parse_pgn};
use crate::core::notation::parse_any;
use crate::core::{Move, Position};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Moves after this many plies of a game are not counted.
    pub max_ply: usize,
    /// A position-move pair needs this many games (or lines) to be kept.
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 40,
            min_games: 1,
        }
    }
}

/// Gathers games and lines; [`Builder::finish`] makes the book.
#[derive(Default)]
pub struct Builder {
    options: BuildOptions,
    counts: HashMap<(u64, u16), u32>,
    names: HashMap<u64, String>,
    pub games: usize,
    /// Problems with PGN games (the game is kept up to the bad move).
    pub warnings: Vec<String>,
}

impl Builder {
    pub fn new(options: BuildOptions) -> Builder {
        Builder {
            options,
            ..Builder::default()
        }
    }

    /// Adds one game or line. Returns the error of its first unreadable or illegal move
    /// (the moves before it are counted).
    pub fn add_line(&mut self, line: &GameLine) -> Result<(), String> {
        let mut pos = match &line.fen {
            Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
            None => Position::startpos(),
        };
        self.games += 1;
        let mut seen: HashSet<(u64, u16)> = HashSet::new();
        let mut result = Ok(());
        for (ply, text) in line.moves.iter().enumerate() {
            let m = match parse_any(&pos, text) {
                Ok(m) => m,
                Err(e) => {
                    result = Err(format!("move {} '{text}': {e}", ply + 1));
                    break;
                }
            };
            if ply < self.options.max_ply {
                let (key, stored) = stored_move(&pos, m);
                // a game that comes back to a position counts once for it
                if seen.insert((key, stored.bits())) {
                    *self.counts.entry((key, stored.bits())).or_insert(0) += 1;
                }
            }
            pos.make_move(m);
        }
        if result.is_ok()
            && let Some(name) = &line.name
        {
            let (key, _) = canonical_key(&pos);
            self.names.entry(key).or_insert_with(|| name.clone());
        }
        result
    }

    /// Adds a file's text: PGN when it starts with a tag pair, move lines otherwise. A bad
    /// move line is an error (lines are written by hand and must be right); a bad PGN game
    /// is a warning and the games go on.
    pub fn add_text(&mut self, text: &str, source: &str) -> Result<(), String> {
        if looks_like_pgn(text) {
            for g in parse_pgn(text) {
                if let Err(e) = self.add_line(&g) {
                    self.warnings
                        .push(format!("{source}: game at line {}: {e}", g.line));
                }
            }
            Ok(())
        } else {
            for l in parse_lines(text) {
                self.add_line(&l)
                    .map_err(|e| format!("{source}:{}: {e}", l.line))?;
            }
            Ok(())
        }
    }

    /// The book: pairs with at least `min_games` games, weight = games (capped at 65535).
    pub fn finish(self) -> Book {
        let min = self.options.min_games.max(1);
        let records = self
            .counts
            .into_iter()
            .filter(|&(_, n)| n >= min)
            .filter_map(|((key, bits), n)| {
                Some(Record {
                    key,
                    mv: Move::from_bits(bits)?,
                    weight: n.min(u32::from(u16::MAX)) as u16,
                    score: NO_SCORE,
                    depth: 0,
                    flags: FLAG_SOURCE,
                })
            })
            .collect();
        Book::from_records(records, self.names.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_become_weights_and_mirrors_fold() {
        let mut b = Builder::new(BuildOptions::default());
        b.add_text("h2e2 h9g7 ; 中炮\nh2e2 b9c7\nb2e2 b9c7\n", "t")
            .unwrap();
        let book = b.finish();
        let mut pos = Position::startpos();
        let first = book.probe(&pos);
        // h2e2 and b2e2 are one choice in the symmetric start: 3 games, both shown
        let first: Vec<(String, u16)> =
            first.iter().map(|m| (m.mv.to_string(), m.weight)).collect();
        assert_eq!(first, [("b2e2".to_string(), 3), ("h2e2".to_string(), 3)]);
        pos.make_move(Move::parse_iccs("h2e2").unwrap());
        let second: Vec<(String, u16)> = book
            .probe(&pos)
            .iter()
            .map(|m| (m.mv.to_string(), m.weight))
            .collect();
        // after b2e2 b9c7 mirrors to h2e2 h9g7
        assert_eq!(second, [("h9g7".to_string(), 2), ("b9c7".to_string(), 1)]);
        assert!(b_err("h2e2 h2e2").contains("t:1: move 2"));
    }

    fn b_err(text: &str) -> String {
        let mut b = Builder::new(BuildOptions::default());
        b.add_text(text, "t").unwrap_err()
    }
}
