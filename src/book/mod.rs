//! The opening book: the file format ([`format`](mod@format)), probing with mirrored positions
//! ([`mirror`]), weighted choice ([`choose`]) and building from PGN and move lines
//! ([`build`], [`pgn`]). It sits below the engine and uses only `core`; the tools that grow
//! or export a book with the engine's search live above it, in `tools::book`.
//!
//! A book maps a position to moves with weights. Each position is stored once for itself and
//! its left-right mirror (under the smaller key); a probe looks up the position's key and its
//! mirror's key and maps the moves found under the latter back. Only legal moves come out of
//! a probe, so a key collision can never yield an illegal move.

pub mod build;
pub mod choose;
pub mod format;
pub mod mirror;
pub mod pgn;

pub use choose::{Randomness, Rng};
pub use format::{BookError, NO_SCORE, Record};

use crate::core::{Move, Position};
use mirror::{mirror_key, mirror_move};
use std::path::Path;

/// A book loaded in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    records: Vec<Record>,
    names: Vec<(u64, String)>,
    /// `index[b]..index[b + 1]`: the records whose key has top bits `b` (keys are uniform,
    /// so a bucket holds about one record and a lookup touches two or three cache lines).
    index: Vec<u32>,
    shift: u32,
}

/// A move a probe found, in the probed position's orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    /// Search score for the side to move, when `grow` searched it.
    pub score: Option<i16>,
    pub depth: u8,
    pub flags: u8,
}

impl Book {
    /// A book from records in any order: sorted, and duplicates of a (key, move) merged
    /// (weights added, the deeper search kept, flags joined). Names likewise (first kept).
    pub fn from_records(mut records: Vec<Record>, mut names: Vec<(u64, String)>) -> Book {
        records.sort_by_key(|r| (r.key, r.mv.bits()));
        let mut merged: Vec<Record> = Vec::with_capacity(records.len());
        for r in records {
            match merged.last_mut() {
                Some(last) if last.key == r.key && last.mv == r.mv => {
                    last.weight = last.weight.saturating_add(r.weight);
                    if r.depth > last.depth {
                        last.score = r.score;
                        last.depth = r.depth;
                    }
                    last.flags |= r.flags;
                }
                _ => merged.push(r),
            }
        }
        names.sort_by_key(|n| n.0);
        names.dedup_by_key(|n| n.0);
        Book::indexed(merged, names)
    }

    /// A book over sorted, unique records, with its bucket index built.
    fn indexed(records: Vec<Record>, names: Vec<(u64, String)>) -> Book {
        let bits = (usize::BITS - records.len().leading_zeros()).clamp(1, 24);
        let shift = 64 - bits;
        let buckets = 1usize << bits;
        let mut index = Vec::with_capacity(buckets + 1);
        let mut i = 0usize;
        for b in 0..=buckets {
            while i < records.len() && ((records[i].key >> shift) as usize) < b {
                i += 1;
            }
            index.push(i as u32);
        }
        Book {
            records,
            names,
            index,
            shift,
        }
    }

    /// Reads and checks a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path)
            .map_err(|e| BookError::Io(format!("cannot read {}: {e}", path.display())))?;
        Book::from_bytes(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (records, names) = format::decode(bytes)?;
        Ok(Book::indexed(records, names))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(&self.records, &self.names)
    }

    /// Writes the book (through a temporary file, so a failed write leaves no half book).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("book-tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    pub fn names(&self) -> &[(u64, String)] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The records stored under `key` (stored orientation).
    #[inline]
    pub fn lookup(&self, key: u64) -> &[Record] {
        let b = (key >> self.shift) as usize;
        let (Some(&lo), Some(&hi)) = (self.index.get(b), self.index.get(b + 1)) else {
            return &[];
        };
        let bucket = &self.records[lo as usize..hi as usize];
        let start = bucket.partition_point(|r| r.key < key);
        let len = bucket[start..].partition_point(|r| r.key == key);
        &bucket[start..start + len]
    }

    /// The name a line of the source gave to `pos` (or to its mirror).
    pub fn name(&self, pos: &Position) -> Option<&str> {
        let (key, _) = mirror::canonical_key(pos);
        self.names
            .binary_search_by_key(&key, |n| n.0)
            .ok()
            .map(|i| self.names[i].1.as_str())
    }

    /// The legal book moves of `pos`, heaviest first (ties by move encoding), with moves
    /// stored for the mirrored position mapped back. Weight-0 moves are included. In a
    /// symmetric position a move and its mirror image are listed both, with the same weight
    /// (they are one choice: [`choose::book_move`] counts them once).
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        let mkey = mirror_key(pos);
        let (here, there) = (
            self.lookup(key),
            if mkey != key { self.lookup(mkey) } else { &[] },
        );
        let mut out: Vec<BookMove> = Vec::with_capacity(2 * (here.len() + there.len()));
        let mut add = |r: &Record, mv: Move| {
            if !pos.is_legal(mv) {
                return;
            }
            match out.iter_mut().find(|b| b.mv == mv) {
                Some(b) => {
                    b.weight = b.weight.saturating_add(r.weight);
                    if r.depth > b.depth {
                        b.score = r.searched();
                        b.depth = r.depth;
                    }
                    b.flags |= r.flags;
                }
                None => out.push(BookMove {
                    mv,
                    weight: r.weight,
                    score: r.searched(),
                    depth: r.depth,
                    flags: r.flags,
                }),
            }
        };
        for r in here {
            add(r, r.mv);
            if mkey == key && mirror_move(r.mv) != r.mv {
                // a symmetric position: the move and its mirror image are one choice
                add(r, mirror_move(r.mv));
            }
        }
        for r in there {
            add(r, mirror_move(r.mv));
        }
        out.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.mv.bits().cmp(&b.mv.bits())));
        out
    }

    /// Is `pos` (or its mirror) in the book at all?
    #[inline]
    pub fn contains(&self, pos: &Position) -> bool {
        !self.lookup(pos.key()).is_empty() || !self.lookup(mirror_key(pos)).is_empty()
    }
}

/// The books a session uses, probed in order: the first that has playable moves for a
/// position answers.
#[derive(Clone, Debug, Default)]
pub struct BookSet {
    pub books: Vec<(String, Book)>,
}

impl BookSet {
    /// Loads every file of a `;`-separated list; the errors say which file and why.
    pub fn load_list(list: &str) -> (BookSet, Vec<String>) {
        let mut set = BookSet::default();
        let mut errors = Vec::new();
        for path in list.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match Book::load(Path::new(path)) {
                Ok(b) => set.books.push((path.to_string(), b)),
                Err(e) => errors.push(format!("{path}: {e}")),
            }
        }
        (set, errors)
    }

    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }
}

/// Where the shipped book is looked for when no file is named: `chariot.book` and
/// `book/chariot.book` beside the executable and in the folders above it (a cargo build
/// lives in `target/release/`), then `book/chariot.book` and `chariot.book` in the working
/// directory.
pub fn default_book_path() -> Option<std::path::PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        for d in dir.ancestors().take(4) {
            candidates.push(d.join("chariot.book"));
            candidates.push(d.join("book").join("chariot.book"));
        }
    }
    candidates.push(Path::new("book").join("chariot.book"));
    candidates.push(Path::new("chariot.book").to_path_buf());
    candidates.into_iter().find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::mirror::{mirror_position, stored_move};

    fn rec(pos: &Position, text: &str, weight: u16) -> Record {
        let mv = Move::parse_iccs(text).unwrap();
        let (key, mv) = stored_move(pos, mv);
        Record {
            key,
            mv,
            weight,
            score: NO_SCORE,
            depth: 0,
            flags: format::FLAG_SOURCE,
        }
    }

    #[test]
    fn probe_maps_mirrored_moves_back() {
        let mut pos = Position::startpos();
        pos.make_move(Move::parse_iccs("h2e2").unwrap());
        let book = Book::from_records(
            vec![
                rec(&pos, "h9g7", 5),
                rec(&pos, "b9c7", 2),
                rec(&pos, "h9g7", 1),
            ],
            vec![],
        );
        assert_eq!(book.len(), 2, "duplicates merge");
        let moves = book.probe(&pos);
        let texts: Vec<String> = moves.iter().map(|b| b.mv.to_string()).collect();
        assert_eq!(texts, ["h9g7", "b9c7"]);
        assert_eq!(moves[0].weight, 6);
        let mirrored = mirror_position(&pos);
        let mtexts: Vec<String> = book
            .probe(&mirrored)
            .iter()
            .map(|b| b.mv.to_string())
            .collect();
        assert_eq!(mtexts, ["b9c7", "h9g7"], "mirror of h9g7 is b9c7");
        let bytes = book.to_bytes();
        let again = Book::from_bytes(&bytes).unwrap();
        assert_eq!(again.records(), book.records());
    }
}
