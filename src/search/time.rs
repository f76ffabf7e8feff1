//! Time allocation: how long to think on this move, from the clock the GUI sends.

use std::time::Duration;

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Time left on the clock.
    pub left: Duration,
    /// Added after each move (Fischer increment).
    pub increment: Duration,
    /// Moves to make before the clock is topped up (sudden death when `None`).
    pub moves_to_go: Option<u32>,
}

/// Moves assumed still to play in sudden death.
const SUDDEN_DEATH_MOVES: u32 = 30;

/// (soft, hard): stop starting iterations after `soft`, stop at once after `hard`. Never
/// more than the time left less `overhead` (the GUI's and the pipe's delay), so a game is
/// not lost on time.
pub fn allocate(clock: Clock, overhead: Duration) -> (Duration, Duration) {
    let usable = clock.left.saturating_sub(overhead);
    let moves = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).clamp(1, 60);
    let share = (usable / moves).saturating_add(clock.increment.saturating_mul(3) / 4);
    let soft = share.min(usable / 2).max(Duration::from_millis(1));
    // with one move left in the period the whole period is ours, but keep a margin
    let cap = if moves == 1 {
        (usable / 10).saturating_mul(7)
    } else {
        usable / 3
    };
    let hard = soft.saturating_mul(3).min(cap).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_more_than_the_clock_holds() {
        for left in [0, 1, 10, 50, 1000, 60_000, 5_400_000] {
            for inc in [0, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        left: ms(left),
                        increment: ms(inc),
                        moves_to_go: mtg,
                    };
                    let (soft, hard) = allocate(clock, ms(30));
                    assert!(soft <= hard);
                    assert!(
                        hard <= ms(left).saturating_sub(ms(30)).max(ms(1)),
                        "{left} {inc} {mtg:?}: {hard:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let huge = Duration::from_secs(u64::MAX);
        let (soft, hard) = allocate(
            Clock {
                left: huge,
                increment: huge,
                moves_to_go: Some(1),
            },
            ms(30),
        );
        assert!(soft <= hard);
    }

    #[test]
    fn forty_moves_in_ninety_minutes() {
        let (soft, hard) = allocate(
            Clock {
                left: ms(90 * 60_000),
                increment: ms(0),
                moves_to_go: Some(40),
            },
            ms(50),
        );
        assert!(soft > ms(100_000) && soft < ms(150_000), "{soft:?}");
        assert!(hard >= soft);
    }
}
