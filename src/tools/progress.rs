//! A one-line progress bar on stderr for long runs (`chariot analyze`): positions done of
//! all, games done, time elapsed and an estimate of the time left, redrawn in place with
//! `\r` at most ten times a second and cleared at the end. It writes only when it is made
//! enabled, which the caller does only when stderr is a terminal, so pipes, files and tests
//! see no byte of it. Its own few lines rather than a progress-bar crate: see
//! `docs/analyze.md` for the measurement.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Columns of the bar itself.
const BAR: usize = 20;
/// The least time between two redraws.
const REDRAW: Duration = Duration::from_millis(100);

/// `m:ss`, or `h:mm:ss` from an hour.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The line drawn: `[#####...............] 120/480 positions, 1/4 games, 0:42, ETA 2:06`.
/// The estimate is the time per position so far times the positions left (`?` before the
/// first one); the bar is filled in proportion, never past full.
pub fn line(
    done: usize,
    total: usize,
    games_done: usize,
    games: usize,
    elapsed: Duration,
) -> String {
    let total = total.max(1);
    let done = done.min(total);
    let filled = done * BAR / total;
    let eta = if done == 0 {
        "?".to_string()
    } else {
        clock(elapsed.mul_f64((total - done) as f64 / done as f64))
    };
    format!(
        "[{}{}] {done}/{total} positions, {games_done}/{games} games, {}, ETA {eta}",
        "#".repeat(filled),
        ".".repeat(BAR - filled),
        clock(elapsed)
    )
}

/// The bar's counters; shared by the threads that search (every method takes `&self`).
pub struct Progress {
    enabled: bool,
    total: usize,
    games: usize,
    start: Instant,
    done: AtomicUsize,
    games_done: AtomicUsize,
    /// When it was last drawn, and the width drawn (to clear it).
    drawn: Mutex<(Option<Instant>, usize)>,
}

impl Progress {
    /// A bar over `total` positions in `games` games; it draws nothing unless `enabled`.
    pub fn new(enabled: bool, total: usize, games: usize) -> Progress {
        Progress {
            enabled,
            total,
            games,
            start: Instant::now(),
            done: AtomicUsize::new(0),
            games_done: AtomicUsize::new(0),
            drawn: Mutex::new((None, 0)),
        }
    }

    /// `n` more positions done.
    pub fn positions(&self, n: usize) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.draw(false);
    }

    /// One more game done.
    pub fn game(&self) {
        self.games_done.fetch_add(1, Ordering::Relaxed);
        self.draw(true);
    }

    fn draw(&self, now: bool) {
        if !self.enabled {
            return;
        }
        let Ok(mut drawn) = self.drawn.lock() else {
            return;
        };
        let t = Instant::now();
        if !now && drawn.0.is_some_and(|last| t - last < REDRAW) {
            return;
        }
        let text = line(
            self.done.load(Ordering::Relaxed),
            self.total,
            self.games_done.load(Ordering::Relaxed),
            self.games,
            t - self.start,
        );
        let pad = drawn.1.saturating_sub(text.len());
        // a failed write to stderr only loses the bar
        let _ = write!(std::io::stderr(), "\r{text}{}", " ".repeat(pad));
        *drawn = (Some(t), text.len());
    }

    /// Clears the line, so what follows starts at its left.
    pub fn finish(&self) {
        if let Ok(drawn) = self.drawn.lock()
            && self.enabled
            && drawn.0.is_some()
        {
            let _ = write!(std::io::stderr(), "\r{}\r", " ".repeat(drawn.1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_positions_and_games_and_estimates_the_rest() {
        let l = line(120, 480, 1, 4, Duration::from_secs(42));
        assert_eq!(
            l,
            "[#####...............] 120/480 positions, 1/4 games, 0:42, ETA 2:06"
        );
        // nothing done yet: no estimate; all done: a full bar and nothing left
        assert!(
            line(0, 10, 0, 1, Duration::ZERO).ends_with("0/10 positions, 0/1 games, 0:00, ETA ?")
        );
        assert!(
            line(10, 10, 1, 1, Duration::from_secs(5))
                .starts_with(&format!("[{}]", "#".repeat(BAR)))
        );
        assert!(line(10, 10, 1, 1, Duration::from_secs(5)).ends_with("ETA 0:00"));
        // more done than counted (a game cut short is counted whole) stays a full bar
        assert!(line(12, 10, 1, 1, Duration::from_secs(5)).contains("10/10 positions"));
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(clock(Duration::from_secs(59)), "0:59");
    }

    #[test]
    fn a_disabled_bar_draws_nothing_and_counts_all_the_same() {
        let p = Progress::new(false, 5, 1);
        p.positions(3);
        p.game();
        p.finish();
        assert_eq!(p.done.load(Ordering::Relaxed), 3);
        assert!(p.drawn.lock().unwrap().0.is_none());
    }
}
