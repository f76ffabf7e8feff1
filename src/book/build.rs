//! `chariot book build`: counts how many games or lines play each move in each position (up
//! to a ply limit), keeps the pairs played at least `min_games` times, and writes them with
//! the count as the weight. Positions are keyed by their canonical (mirror-folded) key, so a
//! line and its mirror image add to the same records.

use super::Book;
use super::format::{FLAG_SOURCE, NO_SCORE, Record};
use super::mirror::{canonical_key, stored_move};
use super::pgn::{GameLine, parse_lines};
use crate::core::notation::parse_any;
use crate::core::{Move, Position};
use crate::records::{self, Format, Game, pgn::looks_like_pgn, text};
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
    /// Bad games of records that were skipped, one line each (file, game, ply, reason).
    pub warnings: Vec<String>,
}

impl Builder {
    pub fn new(options: BuildOptions) -> Builder {
        Builder {
            options,
            ..Builder::default()
        }
    }

    /// Adds one move line. Returns the error of its first unreadable or illegal move (the
    /// moves before it are counted).
    pub fn add_line(&mut self, line: &GameLine) -> Result<(), String> {
        let start = match &line.fen {
            Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
            None => Position::startpos(),
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(line.moves.len());
        let mut result = Ok(());
        for (ply, text) in line.moves.iter().enumerate() {
            match parse_any(&pos, text) {
                Ok(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                Err(e) => {
                    result = Err(format!("move {} '{text}': {e}", ply + 1));
                    break;
                }
            }
        }
        let name = line.name.as_deref().filter(|_| result.is_ok());
        self.count(start, &moves, name);
        result
    }

    /// Adds one game of a record, named by its `Opening` (and `Variation`) tags.
    pub fn add_game(&mut self, game: &Game) {
        let name = match (game.tag("Opening"), game.tag("Variation")) {
            (Some(o), Some(v)) => Some(format!("{o} {v}")),
            (o, _) => o.map(str::to_string),
        };
        self.count(game.start.clone(), &game.moves, name.as_deref());
    }

    /// Counts a line's legal moves up to the ply limit; the name goes to the position after
    /// all of them.
    fn count(&mut self, mut pos: Position, moves: &[Move], name: Option<&str>) {
        self.games += 1;
        let mut seen: HashSet<(u64, u16)> = HashSet::new();
        for (ply, &m) in moves.iter().enumerate() {
            if ply < self.options.max_ply {
                let (key, stored) = stored_move(&pos, m);
                // a game that comes back to a position counts once for it
                if seen.insert((key, stored.bits())) {
                    *self.counts.entry((key, stored.bits())).or_insert(0) += 1;
                }
            }
            pos.make_move(m);
        }
        if let Some(name) = name {
            let (key, _) = canonical_key(&pos);
            self.names.entry(key).or_insert_with(|| name.to_string());
        }
    }

    /// Adds a file: a game record (XQF, or PGN in UTF-8 or GBK, read by `records`) or move
    /// lines. A bad move line is an error (lines are written by hand and must be right). A
    /// bad game of a record is an error too, unless `skip_bad`: then its line goes to
    /// [`Builder::warnings`] and the batch goes on with the next game.
    pub fn add_bytes(&mut self, bytes: &[u8], source: &str, skip_bad: bool) -> Result<(), String> {
        let text = match Format::detect(bytes, source) {
            Format::Xqf => None,
            Format::Pgn => Some(text::decode(bytes).0),
        };
        match text {
            Some(t) if !looks_like_pgn(&t) => {
                for l in parse_lines(&t) {
                    self.add_line(&l)
                        .map_err(|e| format!("{source}:{}: {e}", l.line))?;
                }
            }
            _ => {
                for entry in records::read_bytes(bytes, source) {
                    match entry {
                        Ok(g) => self.add_game(&g),
                        Err(bad) if skip_bad => self.warnings.push(bad.error.to_string()),
                        Err(bad) => return Err(bad.error.to_string()),
                    }
                }
            }
        }
        Ok(())
    }

    /// [`Builder::add_bytes`] for text, bad games skipped.
    pub fn add_text(&mut self, text: &str, source: &str) -> Result<(), String> {
        self.add_bytes(text.as_bytes(), source, true)
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

    #[test]
    fn records_add_games_and_bad_ones_stop_or_are_skipped() {
        let pgn = "[Opening \"中炮\"]\n1. 炮二平五 马８进７ *\n\n[Event \"bad\"]\n1. h2e2 h2h9 *\n\n\
                   [Event \"3\"]\n1. b2e2 b9c7 1-0 trailing text\n";
        let mut b = Builder::new(BuildOptions::default());
        let e = b.add_bytes(pgn.as_bytes(), "g.pgn", false).unwrap_err();
        assert_eq!(e, "g.pgn: game 2, ply 2: notation: 'h2h9' is illegal here");
        let mut b = Builder::new(BuildOptions::default());
        b.add_bytes(pgn.as_bytes(), "g.pgn", true).unwrap();
        assert_eq!(b.games, 2);
        assert_eq!(b.warnings, [e]);
        let book = b.finish();
        let pos = Position::startpos();
        let first: Vec<u16> = book.probe(&pos).iter().map(|m| m.weight).collect();
        assert_eq!(first, [2, 2], "h2e2 and its mirror b2e2: two games");
        assert_eq!(book.names().len(), 1);
    }

    fn b_err(text: &str) -> String {
        let mut b = Builder::new(BuildOptions::default());
        b.add_text(text, "t").unwrap_err()
    }
}
