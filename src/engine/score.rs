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
