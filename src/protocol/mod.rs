//! The protocol loop: UCCI and Pikafish-style UCI on stdin/stdout. A reader thread feeds
//! lines through a channel (end of input acts as `quit`); searches run on their own thread,
//! so `stop`, `isready` and `ponderhit` are answered while thinking. Bad input never ends
//! the loop: it gets one `info string` line.

mod command;

use crate::engine::{Engine, Options};
use crate::search::params::MATE_BOUND;
use crate::search::{Info, Limits, mate_plies};
use command::{Command, GoParams, parse};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
}

/// Writes whole lines to stdout, one at a time, flushed.
fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

struct Session {
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Counts searches, so a ponder timer cannot stop a later search.
    search_id: Arc<AtomicU64>,
    /// Set while a `go ponder` / `go infinite` search must hold its bestmove.
    hold: Arc<AtomicBool>,
    ponder_clock: Option<(Duration, Duration)>,
    dialect: Dialect,
    use_millisec: bool,
    overhead: Duration,
    banned: Vec<String>,
    debug: bool,
}

/// Runs the loop on stdin until `quit` or end of input.
pub fn run() {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut buf = Vec::new();
        let mut lock = stdin.lock();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let engine = Engine::new(Options::default());
    let stop = engine.stop_handle();
    let mut s = Session {
        engine: Arc::new(Mutex::new(engine)),
        stop,
        search: None,
        search_id: Arc::new(AtomicU64::new(0)),
        hold: Arc::new(AtomicBool::new(false)),
        ponder_clock: None,
        dialect: Dialect::Ucci,
        use_millisec: true,
        overhead: Duration::from_millis(30),
        banned: Vec::new(),
        debug: false,
    };
    while let Ok(line) = rx.recv() {
        if !s.handle(&line) {
            return;
        }
    }
    // end of input: a search with limits of its own may finish (scripts pipe `go depth N`
    // and read the answer); one that would wait for `stop` is stopped
    if let Some(h) = s.search.take() {
        if s.hold.load(Ordering::Relaxed) {
            s.stop.store(true, Ordering::Relaxed);
            s.hold.store(false, Ordering::Relaxed);
        }
        let _ = h.join();
    }
    if s.dialect == Dialect::Ucci {
        send("bye");
    }
}

impl Session {
    fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Stops a running search and waits for it (it prints its bestmove).
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::Relaxed);
            self.hold.store(false, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    fn info(&self, text: &str) {
        send(&format!("info string {text}"));
    }

    /// Handles one line; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse(line, self.dialect) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                self.info(&format!("error: {e}"));
                return true;
            }
        };
        match cmd {
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                send(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
                send(&format!("id version {}", env!("CARGO_PKG_VERSION")));
                send("id author the Chariot developers");
                send("option usemillisec type check default true");
                send("option hashsize type spin min 1 max 65536 default 16");
                send("option threads type spin min 1 max 256 default 1");
                send("option rules type combo var cxa var axf default cxa");
                send("option newgame type button");
                send("ucciok");
            }
            Command::Uci => {
                self.dialect = Dialect::Uci;
                send(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
                send("id author the Chariot developers");
                send("option name Threads type spin default 1 min 1 max 256");
                send("option name Hash type spin default 16 min 1 max 65536");
                send("option name Clear Hash type button");
                send("option name Move Overhead type spin default 30 min 0 max 5000");
                send("option name Rules type combo default cxa var cxa var axf");
                send("uciok");
            }
            Command::IsReady => send("readyok"),
            Command::SetOption { name, value } => {
                self.finish_search();
                self.set_option(&name, value.as_deref());
            }
            Command::NewGame => {
                self.finish_search();
                self.engine_lock().new_game();
            }
            Command::Position { fen, moves } => {
                self.finish_search();
                self.banned.clear();
                let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.engine_lock().set_position(fen.as_deref(), &refs) {
                    self.info(&format!("error: {e}"));
                }
            }
            Command::BanMoves(moves) => self.banned = moves,
            Command::Go(params) => {
                self.finish_search();
                self.go(params);
            }
            Command::PonderHit => {
                self.hold.store(false, Ordering::Relaxed);
                if let Some((soft, _hard)) = self.ponder_clock.take() {
                    // the clock runs from now: stop when the soft share is used
                    let stop = Arc::clone(&self.stop);
                    let ids = Arc::clone(&self.search_id);
                    let id = ids.load(Ordering::Relaxed);
                    std::thread::spawn(move || {
                        std::thread::sleep(soft);
                        if ids.load(Ordering::Relaxed) == id {
                            stop.store(true, Ordering::Relaxed);
                        }
                    });
                }
            }
            Command::Stop => {
                if self.searching() || self.search.is_some() {
                    self.finish_search();
                } else if self.dialect == Dialect::Ucci {
                    send("nobestmove");
                }
            }
            Command::Quit => {
                self.finish_search();
                if self.dialect == Dialect::Ucci {
                    send("bye");
                }
                return false;
            }
            Command::Display => {
                self.finish_search();
                let text = self.engine_lock().position().to_string();
                for l in text.lines() {
                    send(l);
                }
            }
            Command::Perft(depth) => {
                self.finish_search();
                let mut pos = self.engine_lock().position().clone();
                let start = std::time::Instant::now();
                let counts = crate::tools::perft::divide(&pos, depth, 1);
                for (m, n) in &counts {
                    send(&format!("{m}: {n}"));
                }
                let total: u64 = if counts.is_empty() {
                    crate::tools::perft::perft(&mut pos, depth)
                } else {
                    counts.iter().map(|c| c.1).sum()
                };
                send(&format!(
                    "total {total} time_ms {}",
                    start.elapsed().as_millis()
                ));
            }
            Command::Eval => {
                self.finish_search();
                let score = crate::eval::evaluate(self.engine_lock().position());
                send(&format!("info string eval {score} (side to move)"));
            }
            Command::Unknown(word) => self.info(&format!("unknown command '{word}'")),
        }
        true
    }

    fn engine_lock(&self) -> std::sync::MutexGuard<'_, Engine> {
        match self.engine.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        let number = || value.and_then(|v| v.trim().parse::<u64>().ok());
        let flag =
            || value.map(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "true" | "on" | "1"));
        match key.as_str() {
            "hashsize" | "hash" => match number() {
                Some(n) if (1..=65536).contains(&n) => self.engine_lock().set_hash(n as usize),
                _ => self.info(&format!(
                    "error: {name} needs a size in MiB from 1 to 65536"
                )),
            },
            "threads" => match number() {
                Some(n) if (1..=256).contains(&n) => self.engine_lock().set_threads(n as usize),
                _ => self.info(&format!("error: {name} needs a number from 1 to 256")),
            },
            "rules" => match value.map(str::parse) {
                Some(Ok(r)) => self.engine_lock().set_rules(r),
                _ => self.info("error: rules must be cxa or axf"),
            },
            "usemillisec" => self.use_millisec = flag().unwrap_or(true),
            "moveoverhead" => match number() {
                Some(n) if n <= 5000 => self.overhead = Duration::from_millis(n),
                _ => self.info("error: Move Overhead needs milliseconds from 0 to 5000"),
            },
            "newgame" | "clearhash" => self.engine_lock().new_game(),
            "debug" => self.debug = flag().unwrap_or(false),
            // accepted, not used yet
            "batch" | "ponder" | "usebook" | "bookfiles" | "idle" | "randomness" | "style"
            | "useegtb" | "egtbpaths" | "multipv" | "uci_showwdl" | "promotion" | "knowledge"
            | "pruning" => {}
            _ => {
                if self.debug {
                    self.info(&format!("unknown option '{name}'"));
                }
            }
        }
    }

    fn go(&mut self, p: GoParams) {
        let unit = |v: u64| {
            if self.use_millisec || self.dialect == Dialect::Uci {
                Duration::from_millis(v)
            } else {
                Duration::from_secs(v)
            }
        };
        let engine = Arc::clone(&self.engine);
        let side = self.engine_lock().position().side_to_move();
        let clock = p.clock(side).map(|c| crate::search::time::Clock {
            left: unit(c.0),
            increment: unit(c.1),
            moves_to_go: c.2,
        });
        let mut limits = Limits {
            depth: p.depth,
            nodes: p.nodes,
            ..Limits::default()
        };
        let hold = p.infinite || p.ponder;
        if let Some(mt) = p.movetime {
            let t = unit(mt)
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            limits.soft_time = Some(t);
            limits.hard_time = Some(t);
        } else if let Some(c) = clock {
            let (soft, hard) = crate::search::time::allocate(c, self.overhead);
            if p.ponder {
                self.ponder_clock = Some((soft, hard));
            } else {
                limits.soft_time = Some(soft);
                limits.hard_time = Some(hard);
            }
        }
        if p.depth.is_none() && p.nodes.is_none() && limits.hard_time.is_none() && !hold {
            // a bare `go`: think a fixed short while rather than forever
            limits.depth = Some(crate::tools::bench::DEFAULT_DEPTH);
        }
        {
            let e = self.engine_lock();
            let pos = e.position();
            limits.banned = self
                .banned
                .iter()
                .filter_map(|t| crate::core::Move::parse_iccs(t).filter(|&m| pos.is_legal(m)))
                .collect();
        }
        self.hold.store(hold, Ordering::Relaxed);
        self.stop.store(false, Ordering::Relaxed);
        self.search_id.fetch_add(1, Ordering::Relaxed);
        let hold_flag = Arc::clone(&self.hold);
        let dialect = self.dialect;
        self.search = Some(std::thread::spawn(move || {
            let mut e = match engine.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            let result = e.search(limits, |info| send(&info_line(info, dialect)));
            // in `go infinite` and `go ponder` the bestmove waits for `stop` or `ponderhit`
            while hold_flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            match result.best {
                Some(m) => match result.ponder {
                    Some(p) => send(&format!("bestmove {m} ponder {p}")),
                    None => send(&format!("bestmove {m}")),
                },
                None if dialect == Dialect::Uci => send("bestmove (none)"),
                None => send("nobestmove"),
            }
        }));
    }
}

fn info_line(info: &Info, dialect: Dialect) -> String {
    let score = match (mate_plies(info.score), dialect) {
        (Some(n), Dialect::Uci) => {
            format!("score mate {}", if n > 0 { (n + 1) / 2 } else { n / 2 })
        }
        (Some(n), Dialect::Ucci) => format!("score {}", if n > 0 { 10000 - n } else { -10000 - n }),
        (None, Dialect::Uci) => format!("score cp {}", info.score.clamp(-19999, 19999)),
        (None, Dialect::Ucci) => {
            // rules wins (长将, 长捉) show as large, non-mate scores
            let s = if info.score.abs() >= MATE_BOUND / 2 {
                info.score.signum() * 9900
            } else {
                info.score.clamp(-9800, 9800)
            };
            format!("score {s}")
        }
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let ms = info.time.as_millis();
    let nps = info.nodes as u128 * 1000 / ms.max(1);
    format!(
        "info depth {} seldepth {} {score} time {ms} nodes {} nps {nps} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        pv.join(" ")
    )
}
