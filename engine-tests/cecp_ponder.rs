//! CECP pondering (`hard`), driven line by line against the built binary: after its move
//! the engine thinks on the reply it expects (`hint` names it); that reply played goes on
//! with the same search (no fresh depth-1 line) and moves within the clock, another reply
//! starts a fresh search, and any other command stops pondering with the game's position
//! restored. The idle behaviour (ping at once, `?` ignored, `easy`, quit and end of input
//! while pondering) is in `engine-tests/protocol/cecp_ponder.txt`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            child,
            stdin,
            lines,
        };
        e.send("xboard");
        e.send("protover 2");
        e.until(|l| l == "feature done=1", 10);
        e
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that satisfies `pred` (panics after
    /// `secs` seconds).
    fn until(&mut self, pred: impl Fn(&str) -> bool, secs: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = pred(&l);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no expected line within {secs} s; saw {seen:?}"),
            }
        }
    }

    /// Starts a game where the engine (Black) has answered `h2e2` and now ponders, `post`
    /// on; returns the reply it ponders on.
    fn pondering_game(&mut self) -> String {
        for l in ["new", "hard", "post", "st 1", "usermove h2e2"] {
            self.send(l);
        }
        self.until(|l| l.starts_with("move "), 10);
        // the ponder search shows its thinking: a few iterations in
        self.until(|l| depth_of(l).is_some_and(|d| d >= 6), 10);
        self.send("hint");
        let hint = self.until(|l| l.starts_with("Hint: "), 5);
        hint.last().expect("a hint")[6..].to_string()
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status:?}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The depth of a thinking line (`DEPTH SCORE TIME NODES PV`).
fn depth_of(line: &str) -> Option<u32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 5 || words[1..4].iter().any(|w| w.parse::<i64>().is_err()) {
        return None;
    }
    words[0].parse().ok()
}

#[test]
fn the_expected_reply_goes_on_with_the_ponder_search() {
    let mut e = Engine::start();
    let hint = e.pondering_game();
    e.send("time 6000");
    e.send("otim 6000");
    let sent = Instant::now();
    e.send(&format!("usermove {hint}"));
    let seen = e.until(|l| l.starts_with("move "), 10);
    let took = sent.elapsed();
    let fresh: Vec<&String> = seen.iter().filter(|l| depth_of(l) == Some(1)).collect();
    assert!(
        fresh.is_empty(),
        "a hit goes on with the ponder search, not a new one: {seen:?}"
    );
    assert!(
        took < Duration::from_millis(2500),
        "st 1 after a hit: moved after {took:?}"
    );
    assert!(!seen.iter().any(|l| l.starts_with("Illegal")), "{seen:?}");
    e.quit();
}

#[test]
fn another_reply_starts_a_fresh_search() {
    let mut e = Engine::start();
    let hint = e.pondering_game();
    let other = if hint == "a3a4" { "i3i4" } else { "a3a4" };
    e.send(&format!("usermove {other}"));
    let seen = e.until(|l| l.starts_with("move "), 10);
    assert!(
        seen.iter().any(|l| depth_of(l) == Some(1)),
        "a miss searches afresh: {seen:?}"
    );
    assert!(!seen.iter().any(|l| l.starts_with("Illegal")), "{seen:?}");
    e.quit();
}

#[test]
fn force_stops_pondering_and_the_game_is_where_it_was() {
    let mut e = Engine::start();
    let hint = e.pondering_game();
    // in force mode the user plays the expected reply and then a move for the engine's
    // side: both legal only if the engine is back on the game's position
    e.send("force");
    e.send(&format!("usermove {hint}"));
    e.send("usermove i9i8");
    e.send("ping 7");
    let seen = e.until(|l| l == "pong 7", 5);
    assert!(
        !seen
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("move ")),
        "{seen:?}"
    );
    // `easy`, then `go`: the engine moves (Red) and does not ponder afterwards
    e.send("easy");
    e.send("nopost");
    e.send("go");
    e.until(|l| l.starts_with("move "), 10);
    e.send("hint");
    e.send("ping 8");
    let seen = e.until(|l| l == "pong 8", 5);
    assert!(!seen.iter().any(|l| l.starts_with("Hint")), "{seen:?}");
    e.quit();
}
