//! The engine's opening book: which books are open, how randomly a move is chosen, and the
//! choice itself, so every front end (UCCI, UCI, the command line) plays the same book moves.
//! Books are loaded when the book is switched on (or its files change while it is on), so a
//! missing file costs nothing until the book is wanted.

use crate::book::choose::book_move;
use crate::book::{BookSet, Randomness, Rng};
use crate::core::{Move, Position};

pub use crate::book::BookMove;
pub use crate::book::choose::BookChoice;

pub(super) struct BookState {
    on: bool,
    /// The `bookfiles` value; empty = the shipped book.
    files: String,
    randomness: Randomness,
    books: BookSet,
    rng: Rng,
}

impl BookState {
    pub(super) fn new() -> BookState {
        // `CHARIOT_BOOK_SEED` fixes the choices (tests); otherwise the clock seeds them
        let rng = std::env::var("CHARIOT_BOOK_SEED")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .map_or_else(Rng::from_time, Rng::new);
        BookState {
            on: false,
            files: String::new(),
            randomness: Randomness::None,
            books: BookSet::default(),
            rng,
        }
    }

    pub(super) fn is_on(&self) -> bool {
        self.on
    }

    /// Switches the book on or off; switching it on loads the books. Returns the problems
    /// met, as warnings.
    pub(super) fn set_on(&mut self, on: bool) -> Vec<String> {
        self.on = on;
        if on { self.load() } else { Vec::new() }
    }

    /// Names the book files (`;`-separated; empty or `<empty>`: the shipped book), loading
    /// them when the book is on. Returns the problems met, as warnings.
    pub(super) fn set_files(&mut self, files: &str) -> Vec<String> {
        // UCI GUIs send `<empty>` for an empty string
        self.files = if files == "<empty>" {
            String::new()
        } else {
            files.to_string()
        };
        if self.on { self.load() } else { Vec::new() }
    }

    pub(super) fn set_randomness(&mut self, level: &str) -> Result<(), String> {
        self.randomness = level.parse()?;
        Ok(())
    }

    /// Loads the books named (or the shipped one); the problems as warning texts.
    fn load(&mut self) -> Vec<String> {
        let list = if self.files.trim().is_empty() {
            match crate::book::default_book_path() {
                Some(p) => p.display().to_string(),
                None => {
                    self.books = BookSet::default();
                    return vec![
                        "warning: no book file given and book/chariot.book not found beside the executable or in the working directory; playing without a book".into(),
                    ];
                }
            }
        } else {
            self.files.clone()
        };
        let (books, errors) = BookSet::load_list(&list);
        self.books = books;
        let mut out: Vec<String> = errors
            .into_iter()
            .map(|e| format!("warning: {e}"))
            .collect();
        if self.books.is_empty() && out.is_empty() {
            out.push("warning: no book file named; playing without a book".into());
        }
        out
    }

    /// The move to play from the book in `pos`, avoiding `banned`; `None` when the book is
    /// off, the position is not in it, or nothing it offers is playable.
    pub(super) fn choose(&mut self, pos: &Position, banned: &[Move]) -> Option<BookChoice> {
        if !self.on || self.books.is_empty() {
            return None;
        }
        book_move(&self.books, pos, self.randomness, &mut self.rng, banned)
    }
}
