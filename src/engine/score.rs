//! Search scores as the protocols and tools read them: centipawns, a mate in so many plies,
//! or a game decided by a repetition rule (长将, 长捉), which the search scores like a distant
//! mate without being one.

use crate::search::mate_plies;
use crate::search::params::{MAX_PLY, REPETITION_WIN};

/// What a search score means, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An evaluation in centipawns.
    Centipawns(i32),
    /// Mate in this many plies: positive when the side to move mates, negative when it is
    /// mated.
    Mate(i32),
    /// Won (`true`) or lost (`false`) by a repetition rule rather than by mate.
    RulesDecided(bool),
}

impl Score {
    /// Reads a score of [`crate::engine::SearchResult`] or [`crate::engine::Info`].
    pub fn of(score: i32) -> Score {
        match mate_plies(score) {
            Some(n) => Score::Mate(n),
            None if score.abs() >= REPETITION_WIN - MAX_PLY as i32 => {
                Score::RulesDecided(score > 0)
            }
            None => Score::Centipawns(score),
        }
    }

    /// The side to move has lost (mated, or a rule decides against it).
    pub fn is_lost(self) -> bool {
        matches!(self, Score::Mate(n) if n < 0) || self == Score::RulesDecided(false)
    }

    /// Mate in moves as UCI counts them (`score mate N`): positive for the side to move.
    pub fn mate_moves(self) -> Option<i32> {
        match self {
            Score::Mate(n) if n > 0 => Some((n + 1) / 2),
            Score::Mate(n) => Some(n / 2),
            _ => None,
        }
    }
}

/// Win/draw/loss permille from a score: a logistic model whose two parameters were fitted
/// by `scripts/wdl-calibrate.py` on Chariot self-play at depth 5 (two runs of 40 games,
/// about 6,500 positions each, gave centre 220 / scale 180 and 320 / 250; the values below
/// lie between them). Refit when the evaluation changes. Shared by the protocols' `UCI_ShowWDL` and
/// `chariot analyze`.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    const CENTRE: f64 = 270.0;
    const SCALE: f64 = 215.0;
    let s = score.clamp(-4000, 4000) as f64;
    let win = 1000.0 / (1.0 + ((CENTRE - s) / SCALE).exp());
    let loss = 1000.0 / (1.0 + ((CENTRE + s) / SCALE).exp());
    let (w, l) = (win.round() as u32, loss.round() as u32);
    (w, 1000u32.saturating_sub(w + l), l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::MATE;

    #[test]
    fn scores_read_as_mates_rules_wins_or_centipawns() {
        assert_eq!(Score::of(MATE - 3), Score::Mate(3));
        assert_eq!(Score::of(MATE - 3).mate_moves(), Some(2));
        assert_eq!(Score::of(-(MATE - 4)), Score::Mate(-4));
        assert_eq!(Score::of(-(MATE - 4)).mate_moves(), Some(-2));
        assert!(Score::of(-(MATE - 4)).is_lost());
        assert_eq!(Score::of(REPETITION_WIN - 5), Score::RulesDecided(true));
        assert_eq!(Score::of(-(REPETITION_WIN - 5)), Score::RulesDecided(false));
        assert!(Score::of(-(REPETITION_WIN - 5)).is_lost());
        assert!(!Score::of(REPETITION_WIN - 5).is_lost());
        assert_eq!(Score::of(-123), Score::Centipawns(-123));
        assert!(!Score::of(-5000).is_lost());
    }
}
