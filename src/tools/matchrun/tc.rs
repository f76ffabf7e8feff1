//! Time controls and the clocks that keep them: Fischer (`<base>+<inc>`), rule-book periods
//! (`40/5400:10/900`: 40 moves in 90 minutes, then 10 moves in every 15, the last period
//! repeating; a last period without a move count is sudden death), a fixed time per move
//! (`st=<sec>`), and the limits that need no clock (`nodes=<N>`, `depth=<D>`).

use std::fmt;
use std::time::Duration;

/// One period of a clock: `moves` to play (None = the rest of the game) in `time`, with
/// `increment` added after each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Period {
    pub moves: Option<u32>,
    pub time: Duration,
    pub increment: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Periods played in turn; the last one repeats.
    Clock(Vec<Period>),
    /// A fixed time for every move.
    MoveTime(Duration),
    Nodes(u64),
    Depth(u32),
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("time control: {what} '{text}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1.0e7).contains(&v) {
        return Err(format!(
            "time control: {what} '{text}' is not from 0 to 10,000,000 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

impl TimeControl {
    /// Parses `1+0.01`, `60`, `40/5400:10/900`, `40/300+1`, `st=2`, `nodes=2000`, `depth=8`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let t = text.trim();
        if let Some(v) = t.strip_prefix("st=") {
            let d = seconds(v, "st")?;
            if d.is_zero() {
                return Err("time control: st must be more than 0 seconds".into());
            }
            return Ok(TimeControl::MoveTime(d));
        }
        if let Some(v) = t.strip_prefix("nodes=") {
            return match v.parse::<u64>() {
                Ok(n) if n > 0 => Ok(TimeControl::Nodes(n)),
                _ => Err(format!(
                    "time control: nodes '{v}' is not a whole number above 0"
                )),
            };
        }
        if let Some(v) = t.strip_prefix("depth=") {
            return match v.parse::<u32>() {
                Ok(n) if (1..=128).contains(&n) => Ok(TimeControl::Depth(n)),
                _ => Err(format!("time control: depth '{v}' is not from 1 to 128")),
            };
        }
        if t.is_empty() {
            return Err(
                "time control: empty (try 10+0.1, 40/5400:10/900, st=1, nodes=2000 or depth=8)"
                    .into(),
            );
        }
        let parts: Vec<&str> = t.split(':').collect();
        let mut periods = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let (moves, rest) = match part.split_once('/') {
                Some((m, r)) => match m.trim().parse::<u32>() {
                    Ok(n) if n > 0 => (Some(n), r),
                    _ => {
                        return Err(format!(
                            "time control: '{m}' in '{part}' is not a number of moves above 0"
                        ));
                    }
                },
                None => (None, *part),
            };
            if moves.is_none() && i + 1 < parts.len() {
                return Err(format!(
                    "time control: '{part}' has no move count but is not the last period"
                ));
            }
            let (base, inc) = match rest.split_once('+') {
                Some((b, inc)) => (seconds(b, "base")?, seconds(inc, "increment")?),
                None => (seconds(rest, "base")?, Duration::ZERO),
            };
            if base.is_zero() && inc.is_zero() {
                return Err(format!("time control: '{part}' gives no time at all"));
            }
            periods.push(Period {
                moves,
                time: base,
                increment: inc,
            });
        }
        Ok(TimeControl::Clock(periods))
    }
}

fn secs_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// The same text `parse` reads (also the PGN `TimeControl` tag).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(d) => write!(f, "st={}", secs_text(*d)),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Clock(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    if let Some(m) = p.moves {
                        write!(f, "{m}/")?;
                    }
                    f.write_str(&secs_text(p.time))?;
                    if !p.increment.is_zero() {
                        write!(f, "+{}", secs_text(p.increment))?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    periods: Vec<Period>,
    period: usize,
    /// Moves made in the current period.
    made: u32,
    left: Duration,
}

/// The clock ran out: `used` against `had` (plus the margin allowed).
#[derive(Clone, Copy, Debug)]
pub struct Flagged {
    pub used: Duration,
    pub had: Duration,
}

impl Clock {
    /// A clock for a clocked time control, None for the others.
    pub fn new(tc: &TimeControl) -> Option<Clock> {
        match tc {
            TimeControl::Clock(periods) if !periods.is_empty() => Some(Clock {
                left: periods[0].time,
                periods: periods.clone(),
                period: 0,
                made: 0,
            }),
            _ => None,
        }
    }

    pub fn left(&self) -> Duration {
        self.left
    }

    pub fn increment(&self) -> Duration {
        self.periods[self.period].increment
    }

    /// Moves still to play in this period (None in sudden death).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.periods[self.period]
            .moves
            .map(|m| m.saturating_sub(self.made).max(1))
    }

    /// Charges a move that took `used`: a flag fall if it took more than the time left plus
    /// `margin`; otherwise the time comes off (never below zero), the increment is added,
    /// and at the end of a period the next period's time is added (the last one repeats).
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Flagged> {
        if used > self.left + margin {
            return Err(Flagged {
                used,
                had: self.left,
            });
        }
        self.left = self.left.saturating_sub(used) + self.increment();
        self.made += 1;
        if let Some(m) = self.periods[self.period].moves
            && self.made >= m
        {
            self.period = (self.period + 1).min(self.periods.len() - 1);
            self.made = 0;
            self.left += self.periods[self.period].time;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_and_prints_every_kind() {
        for text in [
            "1+0.01",
            "60",
            "40/5400:10/900",
            "40/300+1",
            "40/5400:900",
            "st=2",
            "st=0.5",
            "nodes=2000",
            "depth=8",
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!(
            TimeControl::parse("1+0.01").unwrap(),
            TimeControl::Clock(vec![Period {
                moves: None,
                time: ms(1000),
                increment: ms(10)
            }])
        );
    }

    #[test]
    fn bad_time_controls_are_refused() {
        for text in [
            "", "abc", "1+x", "0/10", "10:40/60", "nodes=0", "nodes=-5", "depth=0", "st=0", "0+0",
            "-1+1", "40/", "1e9",
        ] {
            assert!(TimeControl::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn fischer_clock() {
        let mut c = Clock::new(&TimeControl::parse("1+0.01").unwrap()).unwrap();
        assert_eq!(c.moves_to_go(), None);
        c.charge(ms(300), ms(0)).unwrap();
        assert_eq!(c.left(), ms(710));
        // over the time left but within the margin: no flag, the clock stays at zero
        c.charge(ms(750), ms(50)).unwrap();
        assert_eq!(c.left(), ms(10));
        let f = c.charge(ms(61), ms(50)).unwrap_err();
        assert_eq!((f.used, f.had), (ms(61), ms(10)));
    }

    #[test]
    fn periods_repeat_as_in_the_rule_books() {
        // 2 moves in 10 s, then 1 move in every 3 s
        let mut c = Clock::new(&TimeControl::parse("2/10:1/3").unwrap()).unwrap();
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(ms(4000), ms(0)).unwrap();
        assert_eq!((c.left(), c.moves_to_go()), (ms(6000), Some(1)));
        c.charge(ms(1000), ms(0)).unwrap();
        // unused time is kept: 5 s + the next period's 3 s
        assert_eq!((c.left(), c.moves_to_go()), (ms(8000), Some(1)));
        c.charge(ms(2000), ms(0)).unwrap();
        assert_eq!((c.left(), c.moves_to_go()), (ms(9000), Some(1)));
        // 40/5400 then sudden death 900
        let mut c = Clock::new(&TimeControl::parse("1/60:30").unwrap()).unwrap();
        c.charge(ms(10_000), ms(0)).unwrap();
        assert_eq!((c.left(), c.moves_to_go()), (ms(80_000), None));
        assert!(Clock::new(&TimeControl::Nodes(5)).is_none());
    }
}
