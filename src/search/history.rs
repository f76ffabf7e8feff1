//! Per-thread move-ordering statistics: the history of quiet moves (by piece and target
//! point, rewarded on a beta cutoff and penalised when another quiet move cut instead) and
//! the countermove table (the quiet move that last refuted a given previous move, indexed by
//! the piece that moved and where it went). They live as long as the search thread: a new
//! game clears them.

use super::params::HISTORY_MAX;
use crate::core::{Move, Position};

const PIECES: usize = 14;
const POINTS: usize = 90;

pub struct History {
    quiet: Box<[[i32; POINTS]; PIECES]>,
    counter: Box<[[Option<Move>; POINTS]; PIECES]>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            quiet: Box::new([[0; POINTS]; PIECES]),
            counter: Box::new([[None; POINTS]; PIECES]),
        }
    }

    pub fn clear(&mut self) {
        *self.quiet = [[0; POINTS]; PIECES];
        *self.counter = [[None; POINTS]; PIECES];
    }

    /// The history score of quiet move `m` in `pos`.
    #[inline]
    pub fn quiet(&self, pos: &Position, m: Move) -> i32 {
        pos.piece_on(m.from())
            .map_or(0, |p| self.quiet[p.index()][m.to().index()])
    }

    /// Adds `bonus` (negative: a penalty) to quiet move `m`, with gravity: scores stay
    /// within ±HISTORY_MAX and a full table still learns.
    #[inline]
    pub fn update_quiet(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(p) = pos.piece_on(m.from()) {
            let h = &mut self.quiet[p.index()][m.to().index()];
            *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        }
    }

    /// The countermove to the last move played in `pos` (none after a null move).
    #[inline]
    pub fn counter(&self, pos: &Position) -> Option<Move> {
        let prev = pos.history().last()?.mv?;
        let p = pos.piece_on(prev.to())?;
        self.counter[p.index()][prev.to().index()]
    }

    /// Remembers `m` as the refutation of the last move played in `pos`.
    #[inline]
    pub fn set_counter(&mut self, pos: &Position, m: Move) {
        if let Some(prev) = pos.history().last().and_then(|u| u.mv)
            && let Some(p) = pos.piece_on(prev.to())
        {
            self.counter[p.index()][prev.to().index()] = Some(m);
        }
    }
}
