//! Time allocation: how long to think on this move, from the clock the GUI sends.

use std::time::Duration;

use super::params::Tunables;

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

/// (soft, hard): stop starting iterations after `soft`, stop at once after `hard`. Never
/// more than the time left less `overhead` (the GUI's and the pipe's delay), so a game is
/// not lost on time. In sudden death `p.tm_moves` moves are assumed still to play; the
/// shares are the time-management tunables of [`Tunables`].
pub fn allocate(clock: Clock, overhead: Duration, p: &Tunables) -> (Duration, Duration) {
    let usable = clock.left.saturating_sub(overhead);
    // the tunables' table keeps each share in its range; `max` only guards the casts
    let moves = clock
        .moves_to_go
        .unwrap_or(p.tm_moves.max(1) as u32)
        .clamp(1, 60);
    let increment_share = clock.increment.saturating_mul(p.tm_increment.max(0) as u32) / 100;
    let share = (usable / moves).saturating_add(increment_share);
    let soft = share.min(usable / 2).max(Duration::from_millis(1));
    // with one move left in the period the whole period is ours, but keep a margin
    let cap = if moves == 1 {
        (usable / 10).saturating_mul(7)
    } else {
        usable / p.tm_hard_divisor.max(1) as u32
    };
    let hard = (soft.saturating_mul(p.tm_hard.max(0) as u32) / 100)
        .min(cap)
        .max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The default tunables, and each time-management tunable at its least and its most.
    fn tunable_sets() -> Vec<Tunables> {
        let mut sets = vec![Tunables::DEFAULT];
        for name in ["TmMoves", "TmIncrement", "TmHard", "TmHardDivisor"] {
            let t = Tunables::find(name).unwrap();
            for v in [t.min, t.max] {
                let mut p = Tunables::DEFAULT;
                p.set(name, v).unwrap();
                sets.push(p);
            }
        }
        sets
    }

    #[test]
    fn never_more_than_the_clock_holds() {
        for p in tunable_sets() {
            for left in [0, 1, 10, 50, 1000, 60_000, 5_400_000] {
                for inc in [0, 10, 1000] {
                    for mtg in [None, Some(1), Some(2), Some(40)] {
                        let clock = Clock {
                            left: ms(left),
                            increment: ms(inc),
                            moves_to_go: mtg,
                        };
                        let (soft, hard) = allocate(clock, ms(30), &p);
                        assert!(soft <= hard);
                        assert!(
                            hard <= ms(left).saturating_sub(ms(30)).max(ms(1)),
                            "{left} {inc} {mtg:?} {p:?}: {hard:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_tunables_move_the_limits_the_way_they_say() {
        let with = |name: &str, v: i32, left: u64| {
            let mut p = Tunables::DEFAULT;
            p.set(name, v).unwrap();
            let clock = Clock {
                left: ms(left),
                increment: ms(200),
                moves_to_go: None,
            };
            allocate(clock, ms(50), &p)
        };
        // fewer moves assumed to go: more time for this one
        assert!(with("TmMoves", 20, 20_000).0 > with("TmMoves", 40, 20_000).0);
        // a bigger share of the increment: more time
        assert!(with("TmIncrement", 100, 20_000).0 > with("TmIncrement", 0, 20_000).0);
        // the soft limit does not depend on the hard one's shares
        assert_eq!(with("TmHard", 200, 20_000).0, with("TmHard", 500, 20_000).0);
        assert!(with("TmHard", 200, 20_000).1 < with("TmHard", 500, 20_000).1);
        // on a low clock the cap binds: a smaller divisor lets the hard limit reach further
        let (soft, hard) = with("TmHardDivisor", 8, 2_000);
        assert!(hard < soft.saturating_mul(3), "{soft:?} {hard:?}");
        assert!(with("TmHardDivisor", 2, 2_000).1 > hard);
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
            &Tunables::DEFAULT,
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
            &Tunables::DEFAULT,
        );
        assert!(soft > ms(100_000) && soft < ms(150_000), "{soft:?}");
        assert!(hard >= soft);
    }
}
