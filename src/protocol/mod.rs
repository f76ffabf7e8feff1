//! The protocol loop: UCCI, Pikafish-style UCI and CECP (XBoard) on stdin/stdout, one
//! session state with a translator per dialect: `command.rs` parses UCCI/UCI, `ucci.rs`
//! formats their replies, `cecp/` is the whole CECP dialect (its command words in
//! `cecp_commands.rs`), `help.rs` is what a person at the keyboard reads (the greeting and
//! `help`). A reader thread feeds lines
//! through a channel (end of input acts as `quit`); searches run on their own thread, so
//! `stop`, `isready`, `ponderhit`, `probe` (and CECP's `ping`, `?`) are answered while
//! thinking. Bad input never ends the loop: it gets one `info string` line (CECP: one
//! `Error (…): …` line). The same channel carries the session's own events (a CECP search
//! that has moved asks for pondering), so every change of state happens on the loop's thread.

mod cecp;
mod cecp_commands;
mod command;
mod help;
pub mod options;
mod ucci;

use crate::core::{Move, Position};
pub use crate::engine::wdl;
use crate::engine::{Clock, Engine, Limits, Options, Score, TableReader, Tunables, allocate_time};
use command::{Command, GoParams, parse};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use ucci::{info_line, ucci_score};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
    /// XBoard/WinBoard protocol version 2, chosen by a first `xboard` line.
    Cecp,
}

/// What the loop receives: a line of input, the end of input, or an event of the session.
enum Input {
    Line(String),
    Eof,
    /// The CECP search `id` played its move after `plies` moves of the game and expects
    /// `reply`: ponder on it (if pondering is on and nothing has changed since).
    Ponder {
        id: u64,
        plies: usize,
        reply: Move,
    },
}

/// Writes whole lines to stdout, one at a time, flushed.
fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Settings of the session that shape replies (the engine holds the rest).
#[derive(Clone, Copy)]
struct Settings {
    dialect: Dialect,
    use_millisec: bool,
    overhead: Duration,
    multipv: usize,
    show_wdl: bool,
    /// `UCI_LimitStrength` and `UCI_Elo` (kept apart so either may come first).
    limit_strength: bool,
    elo: i64,
    draw_accept: i32,
    resign: bool,
    debug: bool,
    /// The search's tunable numbers are options (started for tuning).
    tunables: bool,
    /// A `ucci`, `uci` or `xboard` line has fixed the dialect: a later one is answered
    /// within it.
    dialect_fixed: bool,
}

struct Session {
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Counts searches, so a ponder timer cannot stop a later search.
    search_id: Arc<AtomicU64>,
    /// Set while a `go ponder` / `go infinite` search must hold its bestmove.
    hold: Arc<AtomicBool>,
    /// The opponent offers a draw (`go draw`, `ponderhit draw`).
    draw_offered: Arc<AtomicBool>,
    /// Set by the search thread when it gives its bestmove: from then on a `stop` finds
    /// the engine idle.
    answered: Arc<AtomicBool>,
    ponder_clock: Option<(Duration, Duration)>,
    /// The search's tunable numbers as last set, for the time allocation, which must not
    /// wait for the engine's lock (a pondering search holds it).
    search_params: Tunables,
    /// The engine's hash table, readable while a search holds the engine (`None` only
    /// while the table is being resized).
    table: Option<TableReader>,
    banned: Vec<String>,
    settings: Settings,
    /// The CECP game and modes (unused in the other dialects).
    cecp: cecp::State,
    /// The loop's own channel, for events from search threads.
    events: mpsc::Sender<Input>,
    /// The command line's subcommands (name, summary), for `help`.
    subcommands: Vec<(String, String)>,
}

/// How the loop is started: what only the binary knows.
#[derive(Clone, Debug, Default)]
pub struct Start {
    /// Offer the search's tunable numbers as options (`chariot --tunables`: for tuners and
    /// match runners, never for GUIs).
    pub tunables: bool,
    /// Print the greeting first: standard input is a terminal, so a person, not a GUI, is at
    /// the other end (`main` passes `stdin().is_terminal()`). GUIs and match runners always
    /// talk through pipes and never see it.
    pub greet: bool,
    /// The command line's subcommands (name, one-line summary), for `help`; `main` takes
    /// them from the command line's own definition.
    pub subcommands: Vec<(String, String)>,
}

/// Runs the loop on stdin until `quit` or end of input.
pub fn run() {
    run_with(Start::default())
}

/// The greeting a person sees when the engine starts in a terminal (one line).
pub fn greeting() -> String {
    help::greeting()
}

/// [`run`], started as `start` says.
pub fn run_with(start: Start) {
    let Start {
        tunables,
        greet,
        subcommands,
    } = start;
    if greet {
        // on stdout, like every other line of the loop: a person reads one stream in order
        // (and `chariot | tee log` keeps it); only a terminal on stdin gets it, so no GUI
        // or match runner, whose pipes are never terminals, sees it
        send(&greeting());
    }
    let (tx, rx) = mpsc::channel::<Input>();
    let events = tx.clone();
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
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Input::Eof);
    });
    let engine = Engine::new(Options::default());
    let stop = engine.stop_handle();
    let table = Some(engine.table_reader());
    let search_params = *engine.tunables();
    let mut s = Session {
        engine: Arc::new(Mutex::new(engine)),
        stop,
        search: None,
        search_id: Arc::new(AtomicU64::new(0)),
        hold: Arc::new(AtomicBool::new(false)),
        draw_offered: Arc::new(AtomicBool::new(false)),
        answered: Arc::new(AtomicBool::new(true)),
        ponder_clock: None,
        search_params,
        table,
        banned: Vec::new(),
        settings: Settings {
            dialect: Dialect::Ucci,
            use_millisec: true,
            overhead: Duration::from_millis(30),
            multipv: 1,
            show_wdl: false,
            limit_strength: false,
            elo: crate::engine::skill::ELO_MAX,
            draw_accept: 0,
            resign: true,
            debug: false,
            tunables,
            dialect_fixed: false,
        },
        cecp: cecp::State::default(),
        events,
        subcommands,
    };
    while let Ok(input) = rx.recv() {
        match input {
            Input::Line(line) => {
                if !s.handle(&line) {
                    return;
                }
            }
            Input::Ponder { id, plies, reply } => s.cecp_ponder(id, plies, reply),
            Input::Eof => break,
        }
    }
    if s.settings.dialect == Dialect::Cecp {
        s.cecp_end_of_input();
        return;
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
    if s.settings.dialect == Dialect::Ucci {
        send("bye");
    }
}

impl Session {
    /// Stops the running search after `time` from now (a ponder hit: the clock starts
    /// then), unless another search has started by then.
    fn stop_after(&self, time: Duration) {
        let stop = Arc::clone(&self.stop);
        let ids = Arc::clone(&self.search_id);
        let id = ids.load(Ordering::Relaxed);
        std::thread::spawn(move || {
            std::thread::sleep(time);
            if ids.load(Ordering::Relaxed) == id {
                stop.store(true, Ordering::Relaxed);
            }
        });
    }

    /// Stops a running search and waits for it (it prints its bestmove).
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop.store(true, Ordering::Relaxed);
            self.hold.store(false, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    /// The session dialect's handshake: identity, options, `ucciok` / `uciok`.
    fn handshake(&self) {
        let version = env!("CARGO_PKG_VERSION");
        match self.settings.dialect {
            Dialect::Ucci => {
                send(&format!("id name Chariot {version}"));
                send(&format!("id version {version}"));
                send("id copyright the Chariot developers");
                send("id author the Chariot developers");
                send("id user unknown");
                for l in options::ucci_lines() {
                    send(&l);
                }
            }
            Dialect::Uci => {
                send(&format!("id name Chariot {version}"));
                send("id author the Chariot developers");
                for l in options::uci_lines() {
                    send(&l);
                }
            }
            // CECP has no handshake of this kind (`protover 2` gets the features)
            Dialect::Cecp => return,
        }
        if self.settings.tunables {
            for l in options::tunable_lines(self.settings.dialect == Dialect::Uci) {
                send(&l);
            }
        }
        send(match self.settings.dialect {
            Dialect::Ucci => "ucciok",
            _ => "uciok",
        });
    }

    fn info(&self, text: &str) {
        if self.settings.dialect == Dialect::Cecp {
            // CECP: errors as `Error (…): …`, other notes as comment lines
            match text.strip_prefix("error: ") {
                Some(rest) => send(&format!("Error (option): {rest}")),
                None => send(&format!("# {text}")),
            }
            return;
        }
        send(&format!("info string {text}"));
    }

    /// `help`: the session's commands, the debug commands and the command line's
    /// subcommands. Before a handshake the text is plain: a GUI's first line is always its
    /// handshake, so only a person (or a script) asks then. In UCCI and UCI every line is
    /// an `info string`: help lines start with command words (`go`, `position`, …) that a
    /// GUI sending `help` by accident, or showing its engine console, must not take for
    /// replies, and `info string` is the text those protocols define. In CECP every line
    /// is a `#` comment, which XBoard ignores.
    fn help(&self) {
        let dialect = self.settings.dialect_fixed.then_some(self.settings.dialect);
        let prefix = match dialect {
            None => "",
            Some(Dialect::Ucci | Dialect::Uci) => "info string ",
            Some(Dialect::Cecp) => "# ",
        };
        for l in help::lines(dialect, &self.subcommands) {
            send(&format!("{prefix}{l}"));
        }
    }

    fn engine_lock(&self) -> std::sync::MutexGuard<'_, Engine> {
        match self.engine.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Hands `UCI_LimitStrength` / `UCI_Elo` to the engine: the rating when strength is
    /// limited, else none (`Skill Level` rules).
    fn apply_strength_limit(&self) {
        let elo = self.settings.limit_strength.then_some(self.settings.elo);
        self.engine_lock().set_elo_limit(elo);
    }

    /// Handles one line; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        if self.settings.dialect == Dialect::Cecp {
            return self.handle_cecp(line);
        }
        let cmd = match parse(line, self.settings.dialect) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                self.info(&format!("error: {e}"));
                return true;
            }
        };
        match cmd {
            Command::Ucci | Command::Uci => {
                // the first handshake fixes the dialect; a later `uci` or `ucci` gets the
                // session's own handshake again (a GUI checking the engine is alive), so
                // formats never change mid-session
                if !self.settings.dialect_fixed {
                    self.settings.dialect = if matches!(cmd, Command::Ucci) {
                        Dialect::Ucci
                    } else {
                        Dialect::Uci
                    };
                    self.settings.dialect_fixed = true;
                }
                self.handshake();
            }
            Command::Xboard if !self.settings.dialect_fixed => {
                // the first handshake line picks CECP for the session; `xboard` has no
                // reply (`protover 2` comes next)
                self.settings.dialect = Dialect::Cecp;
                self.settings.dialect_fixed = true;
            }
            Command::Xboard => {
                // answered within the session's dialect: formats never change mid-session
                let name = if self.settings.dialect == Dialect::Uci {
                    "UCI"
                } else {
                    "UCCI"
                };
                self.info(&format!(
                    "unknown command 'xboard' (this session speaks {name})"
                ));
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
            Command::PonderHit { draw } => {
                if draw {
                    self.draw_offered.store(true, Ordering::Relaxed);
                }
                self.hold.store(false, Ordering::Relaxed);
                if let Some((soft, _hard)) = self.ponder_clock.take() {
                    // the clock runs from now: stop when the soft share is used
                    self.stop_after(soft);
                }
            }
            Command::Stop => {
                if self.search.is_some() && !self.answered.load(Ordering::Acquire) {
                    self.finish_search();
                } else {
                    // idle: a finished search already gave its bestmove
                    self.finish_search();
                    if self.settings.dialect == Dialect::Ucci {
                        send("nobestmove");
                    }
                }
            }
            Command::Probe { fen, moves } => self.probe(fen.as_deref(), &moves),
            Command::Quit => {
                self.finish_search();
                if self.settings.dialect == Dialect::Ucci {
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
                let pos = self.engine_lock().position().clone();
                let start = std::time::Instant::now();
                let counts = crate::core::perft::divide(&pos, depth, 1);
                for (m, n) in &counts {
                    send(&format!("{m}: {n}"));
                }
                let total: u64 = counts.iter().map(|c| c.1).sum();
                send(&format!(
                    "total {total} time_ms {}",
                    start.elapsed().as_millis()
                ));
            }
            Command::Eval => {
                self.finish_search();
                let score = self.engine_lock().static_eval();
                send(&format!("info string eval {score} (side to move's view)"));
            }
            Command::Bench => {
                self.finish_search();
                if let Err(e) = crate::engine::bench::run(
                    crate::engine::bench::DEFAULT_DEPTH,
                    1,
                    16,
                    "nnue",
                    send,
                ) {
                    self.info(&format!("error: {e}"));
                }
            }
            Command::Help => self.help(),
            Command::Unknown(word) => self.info(&format!("unknown command '{word}'")),
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(opt) = options::find(name) else {
            if self.settings.tunables && crate::engine::Tunables::find(name).is_some() {
                let v = value.map(str::trim).unwrap_or("");
                let set = match v.parse::<i32>() {
                    Ok(n) => {
                        let (set, params) = {
                            let mut e = self.engine_lock();
                            (e.set_tunable(name, n), *e.tunables())
                        };
                        self.search_params = params;
                        set
                    }
                    Err(_) => Err(format!("bad value '{v}' for option {name}")),
                };
                if let Err(e) = set {
                    self.info(&format!("error: {e}"));
                }
                return;
            }
            if self.settings.debug {
                self.info(&format!("unknown option '{name}'"));
            }
            return;
        };
        let v = value.map(str::trim).unwrap_or("");
        let number = |min: i64, max: i64| v.parse::<i64>().ok().filter(|n| (min..=max).contains(n));
        let flag = || match v.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" | "" => Some(true),
            "false" | "off" | "0" => Some(false),
            _ => None,
        };
        let bad = |s: &Session| s.info(&format!("error: bad value '{v}' for option {}", opt.ucci));
        match (opt.ucci, opt.kind) {
            (key, options::Kind::Spin { min, max }) => match number(min, max) {
                None => bad(self),
                Some(n) => match key {
                    "hashsize" => {
                        // drop this handle first so the old table is freed before the
                        // new one is allocated
                        self.table = None;
                        let table = {
                            let mut e = self.engine_lock();
                            e.set_hash(n as usize);
                            e.table_reader()
                        };
                        self.table = Some(table);
                    }
                    "threads" => self.engine_lock().set_threads(n as usize),
                    "multipv" => self.settings.multipv = n as usize,
                    "skilllevel" => self.engine_lock().set_skill_level(n as u8),
                    "elo" => {
                        self.settings.elo = n;
                        self.apply_strength_limit();
                    }
                    "moveoverhead" => self.settings.overhead = Duration::from_millis(n as u64),
                    "drawacceptscore" => self.settings.draw_accept = n as i32,
                    _ => {}
                },
            },
            (key, options::Kind::Check) => match flag() {
                None => bad(self),
                Some(b) => match key {
                    "usemillisec" => self.settings.use_millisec = b,
                    "showwdl" => self.settings.show_wdl = b,
                    "limitstrength" => {
                        self.settings.limit_strength = b;
                        self.apply_strength_limit();
                    }
                    "resign" => self.settings.resign = b,
                    "debug" => self.settings.debug = b,
                    "usenn" => {
                        let text = {
                            let mut e = self.engine_lock();
                            e.set_use_nnue(b);
                            e.eval_description()
                        };
                        self.info(&text);
                    }
                    "usebook" => {
                        let warnings = self.engine_lock().set_use_book(b);
                        for w in warnings {
                            self.info(&w);
                        }
                    }
                    _ => {}
                },
            },
            ("bookfiles", _) => {
                let warnings = self.engine_lock().set_book_files(v);
                for w in warnings {
                    self.info(&w);
                }
            }
            ("evalfile", _) => {
                let loaded = self.engine_lock().set_eval_file(v);
                match loaded {
                    Ok(text) => self.info(&text),
                    Err(e) => self.info(&format!("error: {e}; the net in use stays")),
                }
            }
            ("rules", _) => match v.parse() {
                Ok(r) => self.engine_lock().set_rules(r),
                Err(_) => bad(self),
            },
            (_, options::Kind::Combo(vars)) if !vars.iter().any(|x| x.eq_ignore_ascii_case(v)) => {
                bad(self)
            }
            ("randomness", _) => {
                let set = self.engine_lock().set_book_randomness(v);
                if set.is_err() {
                    bad(self)
                }
            }
            ("newgame", options::Kind::Button) => self.engine_lock().new_game(),
            _ => {}
        }
    }

    /// UCCI `probe`: `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]`.
    fn probe(&mut self, fen: Option<&str>, moves: &[String]) {
        let pos = match fen
            .map(Position::from_fen)
            .unwrap_or_else(|| Ok(Position::startpos()))
        {
            Ok(p) => p,
            Err(e) => return self.info(&format!("error: {e}")),
        };
        let mut pos = pos;
        for (i, t) in moves.iter().enumerate() {
            match Move::parse_iccs(t).filter(|&m| pos.is_legal(m)) {
                Some(m) => pos.make_move(m),
                None => {
                    return self.info(&format!(
                        "error: move {} '{t}' is illegal or malformed",
                        i + 1
                    ));
                }
            }
        }
        let entry = self.table.as_ref().and_then(|t| t.probe(&pos));
        let mut line = String::from("pophash");
        if let Some(e) = entry {
            if let Some(m) = e.mv {
                line.push_str(&format!(" bestmove {m}"));
            }
            let v = ucci_score(e.score);
            if e.lower {
                line.push_str(&format!(" lowerbound {v} depth {}", e.depth));
            }
            if e.upper {
                line.push_str(&format!(" upperbound {v} depth {}", e.depth));
            }
        }
        send(&line);
    }

    /// Answers from the book when it has a playable move: the offered moves as `info` lines
    /// (UCCI as ElephantEye prints them: `info depth 0 score <weight> pv <move>`), then the
    /// chosen move. False when the position is not in the book or no book move is playable.
    fn play_book_move(&mut self) -> bool {
        let (pos, choice) = {
            let mut e = self.engine_lock();
            if !e.use_book() {
                return false;
            }
            let pos = e.position().clone();
            let banned: Vec<Move> = self
                .banned
                .iter()
                .filter_map(|t| Move::parse_iccs(t).filter(|&m| pos.is_legal(m)))
                .collect();
            (pos, e.book_move(&banned))
        };
        let Some(choice) = choice else {
            return false;
        };
        let total: u32 = choice.offered.iter().map(|b| u32::from(b.weight)).sum();
        for b in &choice.offered {
            match self.settings.dialect {
                Dialect::Ucci => send(&format!("info depth 0 score {} pv {}", b.weight, b.mv)),
                _ => send(&format!(
                    "info string book move {} {} weight {} of {total}",
                    b.mv,
                    crate::core::notation::to_chinese(&pos, b.mv),
                    b.weight
                )),
            }
        }
        send(&format!("bestmove {}", choice.mv));
        true
    }

    fn go(&mut self, p: GoParams) {
        let st = self.settings;
        if p.depth == Some(0) {
            // UCCI: `go depth 0` asks for no search at all
            send(if st.dialect == Dialect::Uci {
                "bestmove (none)"
            } else {
                "nobestmove"
            });
            return;
        }
        if !p.infinite && !p.ponder && self.play_book_move() {
            return;
        }
        let unit = |v: u64| {
            if st.use_millisec || st.dialect == Dialect::Uci {
                Duration::from_millis(v)
            } else {
                Duration::from_secs(v)
            }
        };
        let engine = Arc::clone(&self.engine);
        let side = self.engine_lock().position().side_to_move();
        let clock = p.clock(side).map(|c| Clock {
            left: unit(c.0),
            increment: unit(c.1),
            moves_to_go: c.2,
        });
        let mut limits = Limits {
            depth: p.depth,
            nodes: p.nodes,
            multipv: st.multipv,
            ..Limits::default()
        };
        let hold = p.infinite || p.ponder;
        self.ponder_clock = None;
        if let Some(mt) = p.movetime {
            // the overhead comes off a fixed move time too, but never more than half of it
            let t = unit(mt)
                .saturating_sub(st.overhead)
                .max(unit(mt) / 2)
                .max(Duration::from_millis(1));
            limits.soft_time = Some(t);
            limits.hard_time = Some(t);
        } else if let Some(c) = clock {
            let (soft, hard) = allocate_time(c, st.overhead, &self.search_params);
            if p.ponder {
                self.ponder_clock = Some((soft, hard));
            } else {
                limits.soft_time = Some(soft);
                limits.hard_time = Some(hard);
            }
        }
        if p.depth.is_none() && p.nodes.is_none() && limits.hard_time.is_none() && !hold {
            // a bare `go`: think to a fixed depth rather than forever
            limits.depth = Some(crate::engine::bench::DEFAULT_DEPTH);
        }
        {
            let e = self.engine_lock();
            let pos = e.position();
            limits.banned = self
                .banned
                .iter()
                .filter_map(|t| Move::parse_iccs(t).filter(|&m| pos.is_legal(m)))
                .collect();
        }
        self.hold.store(hold, Ordering::Relaxed);
        self.draw_offered.store(p.draw, Ordering::Relaxed);
        self.stop.store(false, Ordering::Relaxed);
        self.search_id.fetch_add(1, Ordering::Relaxed);
        let hold_flag = Arc::clone(&self.hold);
        let draw_flag = Arc::clone(&self.draw_offered);
        self.answered.store(false, Ordering::Release);
        let answered = Arc::clone(&self.answered);
        self.search = Some(std::thread::spawn(move || {
            let mut e = match engine.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            let result = e.search(limits, |info| send(&info_line(info, &st)));
            // in `go infinite` and `go ponder` the bestmove waits for `stop` or `ponderhit`
            while hold_flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            answered.store(true, Ordering::Release);
            let Some(m) = result.best else {
                send(if st.dialect == Dialect::Uci {
                    "bestmove (none)"
                } else {
                    "nobestmove"
                });
                return;
            };
            let mut line = format!("bestmove {m}");
            if let Some(p) = result.ponder {
                line.push_str(&format!(" ponder {p}"));
            }
            let lost = Score::of(result.score).is_lost();
            if draw_flag.load(Ordering::Relaxed) && result.score <= st.draw_accept {
                line.push_str(" draw");
            } else if st.resign && lost && st.dialect == Dialect::Ucci {
                line.push_str(" resign");
            }
            send(&line);
        }));
    }
}
