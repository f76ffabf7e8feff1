//! One engine process and the protocol spoken to it: start-up and dialect detection (UCCI
//! or UCI), options, new games, `position` + `go` with the clocks, and reading the answer.
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so every
//! wait has a deadline (`recv_timeout`); an engine that misses it is stopped, and killed by
//! process id when it does not answer `stop` either.

use super::tc::{Clock, TimeControl};
use crate::core::Color;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which dialect to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Ucci,
    Uci,
}

/// The `proto=` choice: `auto` sends `ucci` first and falls back to `uci`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtoChoice {
    Auto,
    Ucci,
    Uci,
}

/// How long `auto` waits for a first answer to `ucci` before trying `uci`: a UCI engine
/// that says "unknown command" ends the wait at once, and an engine that answers with
/// `id` or `option` lines is given the whole start-up timeout to reach `ucciok`.
const UCCI_PROBE: Duration = Duration::from_millis(3000);
/// How long an engine that missed its deadline gets to answer `stop` before it is killed.
const STOP_GRACE: Duration = Duration::from_millis(500);
/// How long `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// One `--engine`: what to run and how to talk to it.
#[derive(Debug)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: ProtoChoice,
    /// `option.<Name>=<value>`, in the order given.
    pub options: Vec<(String, String)>,
    /// The options that came from `--each` alone (not also from this engine's own words):
    /// sent whether the engine offers them or not, where the engine's own must be offered.
    pub each_only: Vec<String>,
    pub tc: TimeControl,
    /// Time over the clock an engine may take before it loses on time.
    pub margin: Duration,
    /// The dialect `auto` found the first time (0 unknown, 1 UCCI, 2 UCI), so restarts do
    /// not probe again.
    pub detected: AtomicU8,
}

impl EngineSpec {
    /// The command line as typed (for messages and the PGN).
    pub fn command_line(&self) -> String {
        let mut s = self.program.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s
    }
}

/// A shared log of every line to and from the engines (`--log`).
pub struct Log {
    start: Instant,
    out: Mutex<Box<dyn Write + Send>>,
}

impl Log {
    pub fn new(out: Box<dyn Write + Send>) -> Log {
        Log {
            start: Instant::now(),
            out: Mutex::new(out),
        }
    }

    /// One line; `at` is when it was read (None: now).
    fn write(&self, who: &str, dir: &str, line: &str, at: Option<Instant>) {
        let at = at.unwrap_or_else(Instant::now);
        let ms = at.saturating_duration_since(self.start).as_secs_f64() * 1000.0;
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{ms:10.3} {who} {dir} {line}");
        }
    }

    pub fn flush(&self) {
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
    }
}

enum Event {
    Line(Instant, String),
    Eof,
}

/// Why an engine failed: each is a loss for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended (or its pipe broke); the text says how.
    Crash(String),
    /// No answer before the deadline; the process was stopped or killed.
    NoAnswer(String),
}

/// Why an engine could not be started.
#[derive(Debug)]
pub enum StartError {
    /// A mistake in the match set-up, which ends the match: the program could not be run at
    /// all (a wrong path or directory), or it does not offer an option given to it.
    Setup(String),
    /// It ran but did not complete the handshake: a loss for it.
    Handshake(Fault),
}

/// The answer to a `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// When `go` was sent and when `bestmove` was read.
    pub sent: Instant,
    pub received: Instant,
    /// The `time` (ms) of the engine's last info line, if it sent one.
    pub info_time: Option<u64>,
    /// The move text (None for `nobestmove` or `bestmove (none)`).
    pub mv: Option<String>,
    pub resign: bool,
    pub draw: bool,
    /// The last score the engine reported, side to move's view, centipawns; mates as
    /// ±(MATE_SCORE − moves).
    pub score: Option<i32>,
    pub depth: Option<u32>,
}

/// Scores at or beyond this are mates (`score mate N` becomes ±(this − N)).
pub const MATE_SCORE: i32 = 30_000;

pub struct EngineProcess {
    pub name: String,
    pub proto: Proto,
    /// UCCI: times in milliseconds (the engine advertised `usemillisec`); else seconds.
    millis: bool,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    log: Option<Arc<Log>>,
    dead: bool,
    /// The `option` lines the engine sent at start-up.
    pub option_lines: Vec<String>,
}

/// Splits a command line into words, honouring single and double quotes and backslashes.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => match chars.next() {
                Some(n) => cur.push(n),
                None => return Err(format!("command '{text}' ends with a backslash")),
            },
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
        if quote.is_some() {
            in_word = true;
        }
    }
    if quote.is_some() {
        return Err(format!("command '{text}' has an unclosed quote"));
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// The name an `option` line announces: the words between `name` and `type` (UCI, where a
/// name may have spaces), or the word after `option` (UCCI).
fn option_name(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    match words.first() {
        Some(&"name") => {
            let end = words
                .iter()
                .position(|w| *w == "type")
                .unwrap_or(words.len());
            words[1..end.max(1)].join(" ")
        }
        Some(w) => w.to_string(),
        None => String::new(),
    }
}

/// UCI names and their UCCI counterparts where more than case and spaces differ: UCCI's own
/// (`hashsize`, `usebook`, `bookfiles`) and Chariot's (`usenn`), normalised.
const UCCI_ALIASES: &[(&str, &str)] = &[
    ("hash", "hashsize"),
    ("ownbook", "usebook"),
    ("bookfile", "bookfiles"),
    ("usennue", "usenn"),
];

/// Whether two option names mean one option across the dialects: case, spaces, underscores
/// and UCI's `UCI_` prefix ignored, and the pairs of [`UCCI_ALIASES`].
fn same_option(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        let t = s.trim();
        let t = match t.get(..4) {
            Some(p) if p.eq_ignore_ascii_case("uci_") => &t[4..],
            _ => t,
        };
        t.chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let (a, b) = (norm(a), norm(b));
    !a.is_empty()
        && (a == b
            || UCCI_ALIASES
                .iter()
                .any(|&(u, c)| (a == u && b == c) || (a == c && b == u)))
}

impl EngineProcess {
    /// Runs the engine and completes the handshake: dialect, options, `isready`.
    pub fn start(
        spec: &EngineSpec,
        timeout: Duration,
        log: Option<Arc<Log>>,
    ) -> Result<EngineProcess, StartError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            StartError::Setup(format!(
                "engine {}: cannot run '{}'{}: {e}",
                spec.name,
                spec.command_line(),
                spec.dir
                    .as_ref()
                    .map(|d| format!(" in {}", d.display()))
                    .unwrap_or_default()
            ))
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(format!("read {}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                        Ok(_) => {
                            let now = Instant::now();
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(Event::Line(now, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| StartError::Setup(format!("cannot start a reader thread: {e}")))?;
        let mut e = EngineProcess {
            // the process id tells apart the copies of an engine that concurrent games run
            name: format!("{}#{}", spec.name, child.id()),
            proto: Proto::Ucci,
            millis: false,
            child,
            stdin,
            rx,
            log,
            dead: false,
            option_lines: Vec::new(),
        };
        e.handshake(spec, timeout).map_err(StartError::Handshake)?;
        // an option the engine never announced would be ignored, and the match would measure
        // the engine without it: a mistake in the set-up, not a fault of the engine
        let missing: Vec<&str> = spec
            .options
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !e.offers(n) && !spec.each_only.iter().any(|o| o == n))
            .collect();
        if !missing.is_empty() {
            let count = e.option_lines.len();
            e.quit();
            return Err(StartError::Setup(format!(
                "engine {}: '{}' does not offer the option{} {} (it announced {count}){}",
                spec.name,
                spec.command_line(),
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if spec.program.contains("chariot") {
                    "; Chariot offers its search tunables only when started with --tunables"
                } else {
                    ""
                }
            )));
        }
        Ok(e)
    }

    /// Whether the engine announced the option `name` in its handshake (UCI's `option name
    /// <words> type …`, UCCI's `option <name> type …`), by `same_option`.
    pub fn offers(&self, name: &str) -> bool {
        self.option_lines
            .iter()
            .any(|l| same_option(&option_name(l), name))
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), Fault> {
        let deadline = Instant::now() + timeout;
        let choice = match (spec.proto, spec.detected.load(Ordering::Relaxed)) {
            (ProtoChoice::Auto, 1) => ProtoChoice::Ucci,
            (ProtoChoice::Auto, 2) => ProtoChoice::Uci,
            (c, _) => c,
        };
        let mut options = Vec::new();
        let mut found = None;
        if matches!(choice, ProtoChoice::Auto | ProtoChoice::Ucci) {
            self.send("ucci")?;
            let wait = if choice == ProtoChoice::Auto {
                (Instant::now() + UCCI_PROBE).min(deadline)
            } else {
                deadline
            };
            // an engine that answers `ucci` with id or option lines gets the full timeout
            let mut talking = false;
            loop {
                match self.next_line(if talking { deadline } else { wait })? {
                    None => break,
                    Some((_, line)) => {
                        let w = line.split_whitespace().next().unwrap_or("");
                        match w {
                            "ucciok" => {
                                found = Some(Proto::Ucci);
                                break;
                            }
                            "uciok" => {
                                found = Some(Proto::Uci);
                                break;
                            }
                            "option" => {
                                options.push(line.clone());
                                talking = true;
                            }
                            "id" => talking = true,
                            // "Unknown command: 'ucci'": a UCI engine
                            _ if choice == ProtoChoice::Auto
                                && line.to_ascii_lowercase().contains("unknown") =>
                            {
                                break;
                            }
                            _ => {}
                        }
                    }
                }
            }
            if found.is_none() && choice == ProtoChoice::Ucci {
                return Err(Fault::NoAnswer(format!(
                    "no ucciok within {:.1} s of ucci",
                    timeout.as_secs_f64()
                )));
            }
        }
        if found.is_none() {
            options.clear();
            self.send("uci")?;
            loop {
                match self.next_line(deadline)? {
                    None => {
                        return Err(Fault::NoAnswer(format!(
                            "no {} within {:.1} s",
                            if choice == ProtoChoice::Auto {
                                "ucciok or uciok"
                            } else {
                                "uciok"
                            },
                            timeout.as_secs_f64()
                        )));
                    }
                    Some((_, line)) => match line.split_whitespace().next().unwrap_or("") {
                        "uciok" => {
                            found = Some(Proto::Uci);
                            break;
                        }
                        // a slow UCCI engine answering the first probe after all
                        "ucciok" if choice == ProtoChoice::Auto => {
                            found = Some(Proto::Ucci);
                            break;
                        }
                        "option" => options.push(line.clone()),
                        _ => {}
                    },
                }
            }
        }
        let proto = found.expect("set above");
        self.proto = proto;
        self.option_lines = options;
        if spec.proto == ProtoChoice::Auto {
            spec.detected
                .store(if proto == Proto::Ucci { 1 } else { 2 }, Ordering::Relaxed);
        }
        if proto == Proto::Ucci {
            // times go in milliseconds when the engine offers it, else in seconds
            self.millis = self.option_lines.iter().any(|o| {
                o.split_whitespace()
                    .nth(1)
                    .is_some_and(|n| n.eq_ignore_ascii_case("usemillisec"))
            });
            if self.millis {
                self.send("setoption usemillisec true")?;
            }
        }
        for (name, value) in &spec.options {
            let line = match proto {
                Proto::Ucci => format!("setoption {name} {value}"),
                Proto::Uci => format!("setoption name {name} value {value}"),
            };
            self.send(line.trim_end())?;
        }
        self.sync(deadline, timeout)
    }

    /// `isready` and wait for `readyok`, dropping whatever comes before it.
    fn sync(&mut self, deadline: Instant, timeout: Duration) -> Result<(), Fault> {
        self.send("isready")?;
        loop {
            match self.next_line(deadline)? {
                None => {
                    return Err(Fault::NoAnswer(format!(
                        "no readyok within {:.1} s of isready",
                        timeout.as_secs_f64()
                    )));
                }
                Some((_, line)) if line.trim() == "readyok" => return Ok(()),
                Some(_) => {}
            }
        }
    }

    /// Prepares a new game: `setoption newgame` (UCCI) or `ucinewgame` (UCI), then `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        // lines left from an earlier game (late info lines) are of no use now
        while let Ok(ev) = self.rx.try_recv() {
            if let Event::Eof = ev {
                return Err(self.crashed());
            }
        }
        self.send(match self.proto {
            Proto::Ucci => "setoption newgame",
            Proto::Uci => "ucinewgame",
        })?;
        self.sync(Instant::now() + timeout, timeout)
    }

    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Sends the position and `go`, and reads until `bestmove`/`nobestmove`. `deadline`
    /// is when the engine has run out of time (clock plus margin) or, without a clock, the
    /// no-answer timeout; a miss sends `stop`, and an engine still silent after a short
    /// grace is killed. The caller measures the move from `Answer::sent` to `received`.
    #[allow(clippy::too_many_arguments)]
    pub fn go(
        &mut self,
        position: &str,
        side: Color,
        tc: &TimeControl,
        clocks: [Option<&Clock>; 2],
        draw_offered: bool,
        allowed: Duration,
        what: &str,
    ) -> Result<Answer, Fault> {
        let go = self.go_command(side, tc, clocks, draw_offered);
        self.send(position)?;
        self.send(&go)?;
        let sent = Instant::now();
        let deadline = sent + allowed;
        let mut score = None;
        let mut depth = None;
        // the engine's own clock in its last info line, for messages about late moves
        let mut info_time: Option<u64> = None;
        loop {
            match self.next_line(deadline)? {
                None => {
                    self.stop_or_kill();
                    return Err(Fault::NoAnswer(format!(
                        "no move within {:.3} s ({what}){}",
                        allowed.as_secs_f64(),
                        info_time
                            .map(|t| format!("; its last info line said time {t} ms"))
                            .unwrap_or_default()
                    )));
                }
                Some((at, line)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("info") => {
                            if let Some(t) = info_field(&line, "time") {
                                info_time = Some(t);
                            }
                            let (s, d) = parse_info(&line, self.proto);
                            if s.is_some() {
                                score = s;
                            }
                            if d.is_some() {
                                depth = d;
                            }
                        }
                        Some("nobestmove") => {
                            return Ok(Answer {
                                sent,
                                received: at,
                                info_time,
                                mv: None,
                                resign: false,
                                draw: false,
                                score,
                                depth,
                            });
                        }
                        Some("bestmove") => {
                            let rest: Vec<&str> = words.collect();
                            let mv = rest
                                .first()
                                .filter(|m| !matches!(**m, "(none)" | "none" | "0000"))
                                .map(|m| m.to_string());
                            return Ok(Answer {
                                sent,
                                received: at,
                                info_time,
                                mv,
                                resign: rest.iter().skip(1).any(|w| *w == "resign"),
                                draw: rest.iter().skip(1).any(|w| *w == "draw"),
                                score,
                                depth,
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn time_value(&self, d: Duration) -> u128 {
        if self.proto == Proto::Ucci && !self.millis {
            u128::from(d.as_secs())
        } else {
            d.as_millis()
        }
    }

    /// The `go` line for this dialect. `clocks` are [red, black].
    fn go_command(
        &self,
        side: Color,
        tc: &TimeControl,
        clocks: [Option<&Clock>; 2],
        draw_offered: bool,
    ) -> String {
        let mut s = String::from("go");
        if draw_offered && self.proto == Proto::Ucci {
            s.push_str(" draw");
        }
        let own = clocks[side.index()];
        let opp = clocks[(!side).index()].or(own);
        match (tc, own) {
            (TimeControl::Nodes(n), _) => s.push_str(&format!(" nodes {n}")),
            (TimeControl::Depth(d), _) => s.push_str(&format!(" depth {d}")),
            (TimeControl::MoveTime(t), _) => match self.proto {
                Proto::Uci => s.push_str(&format!(" movetime {}", t.as_millis())),
                // UCCI has no movetime: the whole clock for one move
                Proto::Ucci => {
                    s.push_str(&format!(" time {} movestogo 1", self.time_value(*t)));
                }
            },
            (TimeControl::Clock(_), Some(own)) => {
                let opp = opp.expect("own is some");
                match self.proto {
                    Proto::Ucci => {
                        s.push_str(&format!(" time {}", self.time_value(own.left())));
                        if let Some(m) = own.moves_to_go() {
                            s.push_str(&format!(" movestogo {m}"));
                        }
                        if !own.increment().is_zero() || own.moves_to_go().is_none() {
                            s.push_str(&format!(" increment {}", self.time_value(own.increment())));
                        }
                        s.push_str(&format!(" opptime {}", self.time_value(opp.left())));
                        if let Some(m) = opp.moves_to_go() {
                            s.push_str(&format!(" oppmovestogo {m}"));
                        }
                        if !opp.increment().is_zero() || opp.moves_to_go().is_none() {
                            s.push_str(&format!(
                                " oppincrement {}",
                                self.time_value(opp.increment())
                            ));
                        }
                    }
                    Proto::Uci => {
                        let (red, black) = match side {
                            Color::Red => (own, opp),
                            Color::Black => (opp, own),
                        };
                        s.push_str(&format!(
                            " wtime {} btime {}",
                            red.left().as_millis(),
                            black.left().as_millis()
                        ));
                        if !red.increment().is_zero() || !black.increment().is_zero() {
                            s.push_str(&format!(
                                " winc {} binc {}",
                                red.increment().as_millis(),
                                black.increment().as_millis()
                            ));
                        }
                        if let Some(m) = own.moves_to_go() {
                            s.push_str(&format!(" movestogo {m}"));
                        }
                    }
                }
            }
            // a clocked control always comes with a clock; never reached
            (TimeControl::Clock(_), None) => s.push_str(" depth 1"),
        }
        s
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if let Some(log) = &self.log {
            log.write(&self.name, "<", line, None);
        }
        let ok = match self.stdin.as_mut() {
            Some(stdin) => {
                stdin.write_all(line.as_bytes()).is_ok()
                    && stdin.write_all(b"\n").is_ok()
                    && stdin.flush().is_ok()
            }
            None => false,
        };
        if ok { Ok(()) } else { Err(self.crashed()) }
    }

    /// The next line before `deadline` (None when it passes); end of output is a crash.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<(Instant, String)>, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(at, line)) => {
                if let Some(log) = &self.log {
                    log.write(&self.name, ">", &line, Some(at));
                }
                Ok(Some((at, line)))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// The process has gone: reap it and say how it ended.
    fn crashed(&mut self) -> Fault {
        self.dead = true;
        self.stdin = None;
        // give the exit status a moment to arrive after the pipe closed
        let until = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                _ => break None,
            }
        };
        let how = match status {
            Some(s) => match (s.code(), exit_signal(&s)) {
                (Some(c), _) => format!("exited with status {c}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                _ => "exited".into(),
            },
            None => {
                // the output closed but the process lives on: end it
                let _ = self.child.kill();
                let _ = self.child.wait();
                "closed its output".into()
            }
        };
        Fault::Crash(how)
    }

    /// After a missed deadline: `stop`, wait briefly for the move, else kill the process.
    fn stop_or_kill(&mut self) {
        if self.send("stop").is_ok() {
            let until = Instant::now() + STOP_GRACE;
            while let Ok(Some((_, line))) = self.next_line(until) {
                let w = line.split_whitespace().next().unwrap_or("");
                if w == "bestmove" || w == "nobestmove" {
                    return;
                }
            }
        }
        self.kill();
    }

    /// Kills the process by id (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        if !self.dead {
            if let Some(log) = &self.log {
                log.write(&self.name, "!", "killed", None);
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.dead = true;
            self.stdin = None;
        }
    }

    /// `quit`, then kill if it has not gone after a short wait.
    pub fn quit(mut self) {
        if self.dead {
            return;
        }
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.dead = true;
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(unix)]
fn exit_signal(s: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    s.signal()
}

#[cfg(not(unix))]
fn exit_signal(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// Score and depth of an `info` line: UCI `score cp N` / `score mate N`, UCCI `score N`
/// (UCCI mates are ±(10000 − plies) and are left as they are: beyond any resign threshold).
pub fn parse_info(line: &str, proto: Proto) -> (Option<i32>, Option<u32>) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let mut score = None;
    let mut depth = None;
    let mut i = 1;
    while i < w.len() {
        match w[i] {
            "depth" => depth = w.get(i + 1).and_then(|d| d.parse().ok()),
            "score" => match (w.get(i + 1).copied(), w.get(i + 2)) {
                (Some("cp"), Some(v)) => score = v.parse().ok(),
                (Some("mate"), Some(v)) => {
                    score = v.parse::<i32>().ok().map(|n| {
                        if n > 0 {
                            MATE_SCORE - n
                        } else {
                            -MATE_SCORE - n
                        }
                    });
                }
                (Some(v), _) if proto == Proto::Ucci => score = v.parse().ok(),
                _ => {}
            },
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    (score, depth)
}

/// A numeric field of an info line (`time`, `nodes`, …), before any `pv` or `string`.
fn info_field(line: &str, key: &str) -> Option<u64> {
    let w: Vec<&str> = line.split_whitespace().collect();
    for i in 1..w.len() {
        match w[i] {
            "pv" | "string" => return None,
            k if k == key => return w.get(i + 1).and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_names_match_across_the_dialects_and_nothing_else() {
        assert_eq!(
            option_name("option name Skill Level type spin default 20"),
            "Skill Level"
        );
        assert_eq!(
            option_name("option hashsize type spin min 1 max 65536"),
            "hashsize"
        );
        assert_eq!(
            option_name("option name Clear Hash type button"),
            "Clear Hash"
        );
        for (given, offered) in [
            ("Hash", "hashsize"),
            ("Skill Level", "skilllevel"),
            ("skill_level", "Skill Level"),
            ("UCI_Elo", "elo"),
            ("OwnBook", "usebook"),
            ("BookFile", "bookfiles"),
            ("RfpMargin", "RfpMargin"),
        ] {
            assert!(same_option(given, offered), "{given} ~ {offered}");
        }
        for (given, offered) in [
            ("RfpMargin", "hashsize"),
            ("LmrBase", "LmrBaseline2"),
            ("Hash", "Clear Hash"),
            ("UCI_Elo", "UCI_LimitStrength"),
            ("Threads", ""),
        ] {
            assert!(!same_option(given, offered), "{given} !~ {offered}");
        }
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command("sh engine-tests/faulty-engine.sh crash").unwrap(),
            ["sh", "engine-tests/faulty-engine.sh", "crash"]
        );
        assert_eq!(
            split_command(r#""/opt/my engine/run" -x 'a b' c\ d"#).unwrap(),
            ["/opt/my engine/run", "-x", "a b", "c d"]
        );
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn info_lines_give_score_and_depth() {
        assert_eq!(
            parse_info("info depth 7 score cp -35 nodes 10 pv h2e2", Proto::Uci),
            (Some(-35), Some(7))
        );
        assert_eq!(
            parse_info("info depth 9 score mate 3 pv a0a1", Proto::Uci),
            (Some(MATE_SCORE - 3), Some(9))
        );
        assert_eq!(
            parse_info("info depth 9 score mate -2", Proto::Uci),
            (Some(-MATE_SCORE + 2), Some(9))
        );
        assert_eq!(
            parse_info("info depth 5 score 120 time 3 pv h2e2", Proto::Ucci),
            (Some(120), Some(5))
        );
        // words after pv are moves, not fields
        assert_eq!(
            parse_info("info string depth of nothing", Proto::Ucci),
            (None, None)
        );
        assert_eq!(parse_info("info currmove h2e2", Proto::Ucci), (None, None));
        assert_eq!(
            info_field("info depth 3 time 41 nodes 9 pv h2e2", "time"),
            Some(41)
        );
        assert_eq!(info_field("info depth 3 pv time", "time"), None);
        assert_eq!(info_field("info string time 5", "time"), None);
    }
}
