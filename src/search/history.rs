//! Per-thread move-ordering statistics: the history of quiet moves (by piece and target
//! point, rewarded on a beta cutoff and penalised when another quiet move cut instead) and
//! the countermove table (the quiet move that last refuted a given previous move, indexed by
//! the piece that moved and where it went). They live as long as the search thread: a new
//! game clears them. Continuation histories score a quiet move by the one or two moves
//! before it (piece and target of each), which catches follow-ups and answers that the
//! plain history averages away.

use super::params::{HISTORY_BONUS_MAX, HISTORY_BONUS_OFFSET, HISTORY_BONUS_SLOPE, HISTORY_MAX};
use crate::core::{Move, Position};

const PIECES: usize = 14;
const POINTS: usize = 90;

/// A (piece, point) pair as a table index.
pub type Slot = usize;
const SLOTS: usize = PIECES * POINTS;

/// The moves before the current node that index the continuation histories: one and two
/// plies ago (none after a null move or at the start of the game).
#[derive(Copy, Clone, Default, Debug)]
pub struct Context {
    pub prev: [Option<Slot>; 2],
}

impl Context {
    pub fn of(pos: &Position) -> Context {
        let h = pos.history();
        let n = h.len();
        let mut prev = [None; 2];
        if n >= 1
            && let Some(m1) = h[n - 1].mv
        {
            prev[0] = pos
                .piece_on(m1.to())
                .map(|p| p.index() * POINTS + m1.to().index());
            if n >= 2
                && let Some(m2) = h[n - 2].mv
            {
                // the piece that moved two plies ago may just have been captured
                let piece = if m1.to() == m2.to() {
                    h[n - 1].captured
                } else {
                    pos.piece_on(m2.to())
                };
                prev[1] = piece.map(|p| p.index() * POINTS + m2.to().index());
            }
        }
        Context { prev }
    }
}

pub struct History {
    quiet: Box<[[i32; POINTS]; PIECES]>,
    counter: Box<[[Option<Move>; POINTS]; PIECES]>,
    /// `[previous slot][this slot]`, for one and two plies back.
    continuation: [Vec<i16>; 2],
    /// Captures: `[moving piece][target point][victim kind]`.
    capture: Vec<i16>,
}

/// The history bonus of a cutoff at `depth` (the penalty of the moves tried before it).
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_SLOPE * depth - HISTORY_BONUS_OFFSET).clamp(1, HISTORY_BONUS_MAX)
}

/// A history score `v` after adding `bonus` (negative: a penalty) with gravity: scores stay
/// within ±HISTORY_MAX and a full table still learns.
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    v + bonus - v * bonus.abs() / HISTORY_MAX
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
            continuation: [vec![0; SLOTS * SLOTS], vec![0; SLOTS * SLOTS]],
            capture: vec![0; SLOTS * 7],
        }
    }

    #[inline]
    fn capture_slot(pos: &Position, m: Move) -> Option<usize> {
        let p = pos.piece_on(m.from())?;
        let victim = pos.piece_on(m.to())?;
        Some((p.index() * POINTS + m.to().index()) * 7 + victim.kind().index())
    }

    /// The history of capture `m` (how often it cut, against the captures tried beside it).
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        Self::capture_slot(pos, m).map_or(0, |i| i32::from(self.capture[i]))
    }

    /// Rewards (or penalises, with a negative bonus) capture `m`.
    #[inline]
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(i) = Self::capture_slot(pos, m) {
            let h = &mut self.capture[i];
            *h = gravity(i32::from(*h), bonus) as i16;
        }
    }

    pub fn clear(&mut self) {
        *self.quiet = [[0; POINTS]; PIECES];
        *self.counter = [[None; POINTS]; PIECES];
        for c in &mut self.continuation {
            c.iter_mut().for_each(|v| *v = 0);
        }
        self.capture.iter_mut().for_each(|v| *v = 0);
    }

    /// The ordering score of quiet move `m`: its history plus its continuation histories.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move, ctx: &Context) -> i32 {
        let Some(p) = pos.piece_on(m.from()) else {
            return 0;
        };
        let slot = p.index() * POINTS + m.to().index();
        let mut s = self.quiet[p.index()][m.to().index()];
        for (k, prev) in ctx.prev.iter().enumerate() {
            if let Some(prev) = prev {
                s += i32::from(self.continuation[k][prev * SLOTS + slot]);
            }
        }
        s
    }

    /// Rewards (or with a negative bonus penalises) quiet move `m` in every table.
    #[inline]
    pub fn update_all(&mut self, pos: &Position, m: Move, ctx: &Context, bonus: i32) {
        self.update_quiet(pos, m, bonus);
        let Some(p) = pos.piece_on(m.from()) else {
            return;
        };
        let slot = p.index() * POINTS + m.to().index();
        for (k, prev) in ctx.prev.iter().enumerate() {
            if let Some(prev) = prev {
                let h = &mut self.continuation[k][prev * SLOTS + slot];
                *h = gravity(i32::from(*h), bonus) as i16;
            }
        }
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
            *h = gravity(*h, bonus);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_follows_what_the_search_learns_now() {
        // a quiet move that failed a hundred times, then cut five times at depth 10,
        // ranks above the moves that never came up: recent cutoffs outweigh old failures
        let mut h = History::new();
        let pos = Position::startpos();
        let m = Move::parse_iccs("h2e2").unwrap();
        let ctx = Context::of(&pos);
        for _ in 0..100 {
            h.update_all(&pos, m, &ctx, -bonus(10));
        }
        assert!(h.quiet_score(&pos, m, &ctx) < -HISTORY_MAX / 2);
        for _ in 0..5 {
            h.update_all(&pos, m, &ctx, bonus(10));
        }
        assert!(h.quiet(&pos, m) > 0, "{}", h.quiet(&pos, m));
        // deeper cutoffs weigh more, every cutoff counts, and one never fills the table
        assert!((1..=9).all(|d| bonus(d) < bonus(d + 1) || bonus(d) == HISTORY_BONUS_MAX));
        assert!((0..100).all(|d| (1..=HISTORY_MAX / 4).contains(&bonus(d))));
    }

    #[test]
    fn capture_history_rewards_and_penalises() {
        let mut h = History::new();
        // in the start position the red cannon on b2 takes the horse on b9 over the b7 cannon
        let pos = Position::startpos();
        let m = Move::parse_iccs("b2b9").unwrap();
        assert!(pos.is_legal(m) && pos.piece_on(m.to()).is_some());
        assert_eq!(h.capture_score(&pos, m), 0);
        h.update_capture(&pos, m, 400);
        assert!(h.capture_score(&pos, m) > 0);
        for _ in 0..1000 {
            h.update_capture(&pos, m, -400);
        }
        let s = h.capture_score(&pos, m);
        assert!((-HISTORY_MAX..0).contains(&s), "{s}");
    }
}
