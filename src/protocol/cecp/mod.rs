//! CECP, the XBoard/WinBoard engine protocol (version 2), as the third dialect over the same
//! session: chosen by a first `xboard` line. The session keeps the game (start FEN and the
//! moves since), the modes (force, analyze, the side the engine plays) and the time control;
//! the engine holds the position. Moves travel in XBoard's xiangqi coordinates, which are
//! ICCS: files a–i, ranks 0–9 (XBoard's `common.h`: `ONE ('1'-(BOARD_HEIGHT>9))`, rank
//! characters start at `0` on boards of ten ranks). Ranks 1–10 are accepted on input when
//! a `10` makes them unambiguous.
//!
//! `ping N` is answered as the protocol asks: after every command received before it is
//! done. While the engine thinks on its own move (after `go` or a user move), that `go` is
//! not done until its move is out, so the `pong` follows the move; while analysing, or idle,
//! the `pong` comes at once. The loop never waits for it: the search thread sends the pongs
//! held for it after its move.
//!
//! Pondering (`hard`): after its move the engine thinks on the reply it expects, on its own
//! time. If the user plays that move the search goes on as the engine's own, its clock
//! starting then; any other command stops it silently (the position is the game's again)
//! and a different move is answered by a fresh search. While pondering the engine is idle
//! to the GUI: `ping` is answered at once and `?` does nothing.
//!
//! Bad input gets one line: `Error (REASON): COMMAND`, `Illegal move: MOVE` or
//! `tellusererror Illegal position: …`; the game is never changed by it.

use super::cecp_commands::{self, Verb};
use super::{Session, options, send};
use crate::core::{Color, Move, Position, Square};
use crate::engine::{GameResult, Info, Limits, Score, Verdict};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod search;
use search::Mode;

/// The game as the GUI sees it: where it started and the moves since (ICCS).
#[derive(Default)]
struct Game {
    fen: Option<String>,
    moves: Vec<String>,
    /// Decided by the rules or by a `result` line: no more moves until `new` / `setboard` /
    /// a take-back.
    over: bool,
}

/// Score unknown (no search yet).
const NO_SCORE: i32 = i32::MIN;

/// The CECP half of the session.
pub struct State {
    game: Arc<Mutex<Game>>,
    force: bool,
    /// The side the engine plays (outside force mode).
    engine_side: Color,
    post: bool,
    analyzing: bool,
    /// `hard` / `easy`: ponder on the expected reply after the engine's move.
    ponder: bool,
    /// The reply the running ponder search expects (the engine's position has it played).
    pondering: Option<Move>,
    /// Set when the user played the expected reply: the ponder search's move is played.
    ponder_hit: Arc<AtomicBool>,
    /// `level MPS BASE INC`.
    moves_per_session: u32,
    base: Duration,
    increment: Duration,
    /// `st N`: seconds per move.
    move_time: Option<Duration>,
    /// `sd N`.
    depth: Option<i32>,
    /// `time N` / `otim N` (centiseconds).
    own_time: Option<Duration>,
    opp_time: Option<Duration>,
    /// `ping` numbers held until the thinking search has moved.
    pongs: Arc<Mutex<Vec<String>>>,
    /// Set before stopping a search whose move must not be played (`force`, `new`, …).
    discard: Arc<AtomicBool>,
    /// The last search's score (the engine's view), for answering `draw`.
    last_score: Arc<AtomicI32>,
}

impl Default for State {
    fn default() -> State {
        State {
            game: Arc::new(Mutex::new(Game::default())),
            force: false,
            engine_side: Color::Black,
            post: false,
            analyzing: false,
            ponder: false,
            pondering: None,
            ponder_hit: Arc::new(AtomicBool::new(false)),
            moves_per_session: 0,
            base: Duration::ZERO,
            increment: Duration::ZERO,
            move_time: None,
            depth: None,
            own_time: None,
            opp_time: None,
            pongs: Arc::new(Mutex::new(Vec::new())),
            discard: Arc::new(AtomicBool::new(false)),
            last_score: Arc::new(AtomicI32::new(NO_SCORE)),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// A move in XBoard's xiangqi coordinates: ICCS (`h2e2`, ranks 0–9, what XBoard 4.9 sends),
/// or ranks 1–10 when a two-digit rank `10` shows that form (`a10a9` = `a9a8`).
pub fn parse_move(text: &str) -> Option<Move> {
    let t = text.trim().to_ascii_lowercase();
    if !t.contains("10") {
        return Move::parse_iccs(&t);
    }
    // one-based: file letter, rank 1..=10, file letter, rank 1..=10
    let b = t.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let file = b[i];
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let rank: u32 = t.get(i + 1..i + 1 + digits)?.parse().ok()?;
        if !(1..=10).contains(&rank) || digits == 0 || digits > 2 {
            return None;
        }
        squares.push(Square::parse(&format!("{}{}", file as char, rank - 1))?);
        i += 1 + digits;
    }
    match squares[..] {
        [from, to] => Move::new(from, to),
        _ => None,
    }
}

/// A score as XBoard reads thinking output: centipawns; mate in N moves as 100000 + N,
/// mated in N as -100000 - N; a game won or lost by a repetition rule as ±90000.
pub fn cecp_score(score: i32) -> i32 {
    let s = Score::of(score);
    match (s, s.mate_moves()) {
        (_, Some(n)) if n > 0 => 100_000 + n,
        (_, Some(n)) => -100_000 + n,
        (Score::RulesDecided(won), _) => {
            if won {
                90_000
            } else {
                -90_000
            }
        }
        _ => score.clamp(-19_999, 19_999),
    }
}

/// `DEPTH SCORE TIME NODES PV`: time in centiseconds.
fn thinking_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        cecp_score(info.score),
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// `1-0 {…}`, `0-1 {…}` or `1/2-1/2 {…}` (Red is XBoard's White), the reason in the
/// rules' words.
pub fn result_line(v: &Verdict) -> String {
    let score = match v.result {
        GameResult::RedWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Ongoing => "*",
    };
    let mut why: String = v
        .description
        .chars()
        .filter(|c| !matches!(c, '{' | '}' | '\n' | '\r'))
        .collect();
    if let Some(c) = why.get(..1) {
        why = c.to_ascii_uppercase() + &why[1..];
    }
    format!("{score} {{{why}}}")
}

/// `level` BASE: minutes, or `min:sec`.
fn parse_base(t: &str) -> Option<Duration> {
    let (m, s) = match t.split_once(':') {
        Some((m, s)) => (m.parse::<u64>().ok()?, s.parse::<u64>().ok()?),
        None => (t.parse::<u64>().ok()?, 0),
    };
    if m > 100_000 || s > 100_000 {
        return None;
    }
    Some(Duration::from_secs(m * 60 + s))
}

/// Seconds, whole or with a fraction (`st 2.5`, `level 40 5 0.5`).
fn parse_seconds(t: &str) -> Option<Duration> {
    let v: f64 = t.parse().ok()?;
    (v.is_finite() && (0.0..=1e7).contains(&v)).then(|| Duration::from_secs_f64(v))
}

/// `time` / `otim`: centiseconds; negative (a flag fell) counts as zero.
fn parse_centis(t: &str) -> Option<Duration> {
    let v: i64 = t.parse().ok()?;
    Some(Duration::from_millis(v.clamp(0, 1 << 40) as u64 * 10))
}

impl Session {
    /// Handles one CECP line; false to quit.
    pub(super) fn handle_cecp(&mut self, line: &str) -> bool {
        let line = line.replace('\r', " ");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = tokens.first() else {
            return true;
        };
        let word = first.to_ascii_lowercase();
        let rest = &tokens[1..];
        let arg = rest.first().copied();
        let shown: String = line.trim().chars().take(80).collect();
        let error = |why: &str| send(&format!("Error ({why}): {shown}"));
        let Some(verb) = cecp_commands::verb(&word) else {
            if parse_move(&word).is_some() {
                self.user_move(first);
            } else {
                send(&format!(
                    "Error (unknown command): {}",
                    first.chars().take(40).collect::<String>()
                ));
            }
            return true;
        };
        match verb {
            Verb::Ignored => {}
            Verb::Hint => {
                // the reply the engine expects, known while it ponders on it
                if let Some(r) = self.cecp.pondering {
                    send(&format!("Hint: {r}"));
                }
            }
            Verb::OtherHandshake => error("unknown command"),
            Verb::Protover => self.features(),
            Verb::New => {
                self.stop_discard();
                {
                    let mut g = lock(&self.cecp.game);
                    *g = Game::default();
                }
                let c = &mut self.cecp;
                c.engine_side = Color::Black;
                c.force = false;
                c.move_time = None;
                c.depth = None;
                c.own_time = None;
                c.opp_time = None;
                c.last_score.store(NO_SCORE, Ordering::Relaxed);
                {
                    let mut e = self.engine_lock();
                    e.new_game();
                    let _ = e.set_position(None, &[]);
                }
                self.resume_analysis();
            }
            Verb::Variant => match arg {
                Some(v) if v.eq_ignore_ascii_case("xiangqi") => {}
                Some(v) => send(&format!(
                    "Error (unsupported variant): {}",
                    v.chars().take(40).collect::<String>()
                )),
                None => error("variant needs a name"),
            },
            Verb::SetBoard => self.setboard(&rest.join(" ")),
            Verb::UserMove => match arg {
                Some(m) => self.user_move(m),
                None => error("usermove needs a move"),
            },
            Verb::Go => {
                if self.cecp.analyzing {
                    // `go` leaves analyze mode (XBoard sends `exit` first)
                    self.stop_discard();
                    self.cecp.analyzing = false;
                }
                self.finish_idle_search();
                if self.thinking() {
                    return true;
                }
                self.cecp.force = false;
                let side = self.engine_lock().position().side_to_move();
                self.cecp.engine_side = side;
                self.think();
            }
            Verb::Force => {
                self.stop_discard();
                self.cecp.force = true;
            }
            Verb::PlayOther => {
                self.stop_discard();
                self.cecp.force = false;
                let side = self.engine_lock().position().side_to_move();
                self.cecp.engine_side = !side;
            }
            Verb::Level => {
                let parsed = match rest {
                    [mps, base, inc, ..] => mps
                        .parse::<u32>()
                        .ok()
                        .zip(parse_base(base))
                        .zip(parse_seconds(inc)),
                    _ => None,
                };
                match parsed {
                    Some(((mps, base), inc)) => {
                        let c = &mut self.cecp;
                        c.moves_per_session = mps;
                        c.base = base;
                        c.increment = inc;
                        c.move_time = None;
                    }
                    None => error("level needs MPS BASE INC"),
                }
            }
            Verb::St => match arg.and_then(parse_seconds) {
                Some(t) => self.cecp.move_time = Some(t.max(Duration::from_millis(1))),
                None => error("st needs seconds"),
            },
            Verb::Sd => match arg.and_then(|t| t.parse::<i32>().ok()) {
                Some(d) if d >= 1 => self.cecp.depth = Some(d.min(100)),
                _ => error("sd needs a depth of at least 1"),
            },
            Verb::Clock => match arg.and_then(parse_centis) {
                Some(t) if word == "time" => self.cecp.own_time = Some(t),
                Some(t) => self.cecp.opp_time = Some(t),
                None => error("needs centiseconds"),
            },
            Verb::Ping if arg.is_none() => error("ping needs a number"),
            Verb::Ping => {
                let n: String = arg.unwrap_or("").chars().take(40).collect();
                let mut held = lock(&self.cecp.pongs);
                if self.thinking() && !self.cecp.analyzing {
                    held.push(n);
                } else {
                    send(&format!("pong {n}"));
                }
            }
            Verb::MoveNow => {
                if self.thinking() && !self.cecp.analyzing {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
            Verb::Analyze => {
                self.stop_discard();
                self.cecp.analyzing = true;
                self.resume_analysis();
            }
            Verb::Exit => {
                if self.cecp.analyzing {
                    self.stop_discard();
                    self.cecp.analyzing = false;
                }
            }
            Verb::Undo => self.take_back(1, &shown),
            Verb::Remove => self.take_back(2, &shown),
            Verb::Result => {
                self.stop_discard();
                lock(&self.cecp.game).over = true;
            }
            Verb::Draw => {
                let score = self.cecp.last_score.load(Ordering::Relaxed);
                if score != NO_SCORE && score <= self.settings.draw_accept {
                    send("offer draw");
                }
            }
            Verb::Hard => self.cecp.ponder = true,
            Verb::Easy => {
                self.cecp.ponder = false;
                if self.cecp.pondering.is_some() {
                    self.stop_discard();
                }
            }
            Verb::Post => self.cecp.post = true,
            Verb::NoPost => self.cecp.post = false,
            Verb::Quit => {
                self.cecp_quit();
                return false;
            }
            Verb::Resources => match arg.and_then(|t| t.parse::<u64>().ok()) {
                Some(n) => {
                    self.stop_discard();
                    let key = if word == "memory" {
                        "hashsize"
                    } else {
                        "threads"
                    };
                    let max = if word == "memory" { 65536 } else { 256 };
                    self.set_option(key, Some(&n.clamp(1, max).to_string()));
                    self.resume_analysis();
                }
                None => error("needs a number"),
            },
            Verb::Option => {
                let text = rest.join(" ");
                let (name, value) = match text.split_once('=') {
                    Some((n, v)) => (n.trim().to_string(), Some(v.trim().to_string())),
                    None => (text.trim().to_string(), None),
                };
                if name.is_empty() {
                    error("option needs a name");
                } else if options::find(&name).is_none()
                    && !(self.settings.tunables && crate::engine::Tunables::find(&name).is_some())
                {
                    error("unknown option");
                } else {
                    self.stop_discard();
                    self.set_option(&name, value.as_deref());
                    self.resume_analysis();
                }
            }
            Verb::Help => self.help(),
        }
        true
    }

    /// Answers `protover 2`.
    fn features(&self) {
        let version = env!("CARGO_PKG_VERSION");
        send("feature done=0");
        for f in [
            format!("myname=\"Chariot {version}\""),
            "variants=\"xiangqi\"".to_string(),
            "setboard=1".into(),
            "usermove=1".into(),
            "ping=1".into(),
            "sigint=0".into(),
            "sigterm=0".into(),
            "san=0".into(),
            "colors=0".into(),
            "analyze=1".into(),
            "memory=1".into(),
            "smp=1".into(),
            "reuse=1".into(),
            "playother=1".into(),
            "draw=1".into(),
            "time=1".into(),
        ] {
            send(&format!("feature {f}"));
        }
        for l in option_features() {
            send(&format!("feature option=\"{l}\""));
        }
        if self.settings.tunables {
            for t in crate::engine::TUNABLES {
                send(&format!(
                    "feature option=\"{} -spin {} {} {}\"",
                    t.name, t.default, t.min, t.max
                ));
            }
        }
        send("feature done=1");
    }

    /// A thinking search (not an analysis) is under way and has not moved yet.
    fn thinking(&self) -> bool {
        self.search.is_some() && !self.answered.load(Ordering::Acquire)
    }

    /// Sets the engine to the game's position.
    fn sync_engine(&self) {
        let g = lock(&self.cecp.game);
        let refs: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        let _ = self.engine_lock().set_position(g.fen.as_deref(), &refs);
    }

    fn setboard(&mut self, fen: &str) {
        if let Err(e) = Position::from_fen(fen) {
            send(&format!("tellusererror Illegal position: {e}"));
            return;
        }
        self.stop_discard();
        {
            let mut g = lock(&self.cecp.game);
            *g = Game {
                fen: Some(fen.to_string()),
                moves: Vec::new(),
                over: false,
            };
        }
        self.sync_engine();
        self.resume_analysis();
    }

    fn user_move(&mut self, text: &str) {
        let shown: String = text.chars().take(20).collect();
        let early = {
            let _held = lock(&self.cecp.pongs);
            self.thinking() && !self.cecp.analyzing
        };
        if early {
            send(&format!("Illegal move (not your turn): {shown}"));
            return;
        }
        if lock(&self.cecp.game).over {
            send(&format!("Illegal move (the game is over): {shown}"));
            return;
        }
        if let Some(reply) = self.cecp.pondering
            && parse_move(text) == Some(reply)
        {
            self.ponder_hit(reply);
            return;
        }
        // an analysis or a ponder search holds the engine: stop it first (it restarts below either way)
        self.stop_discard();
        let legal = {
            let e = self.engine_lock();
            parse_move(text).filter(|&m| e.position().is_legal(m))
        };
        let Some(m) = legal else {
            send(&format!("Illegal move: {shown}"));
            self.resume_analysis();
            return;
        };
        lock(&self.cecp.game).moves.push(m.to_string());
        self.sync_engine();
        let verdict = self.engine_lock().verdict();
        if verdict.is_over() {
            lock(&self.cecp.game).over = true;
            send(&result_line(&verdict));
            return;
        }
        if self.cecp.analyzing {
            self.resume_analysis();
        } else {
            self.think();
        }
    }

    fn take_back(&mut self, plies: usize, shown: &str) {
        self.stop_discard();
        {
            let mut g = lock(&self.cecp.game);
            if g.moves.len() < plies {
                send(&format!("Error (no moves to take back): {shown}"));
                return;
            }
            let keep = g.moves.len() - plies;
            g.moves.truncate(keep);
            g.over = false;
        }
        self.sync_engine();
        self.resume_analysis();
    }

    /// Restarts the analysis on the current position when in analyze mode.
    fn resume_analysis(&mut self) {
        if self.cecp.analyzing {
            self.stop_discard();
            self.spawn_search(Limits::default(), Mode::Analyze);
        }
    }
}

/// Chariot's own options as CECP `feature option="…"` bodies (UCI names). Hash, Threads and
/// Ponder are left to `memory`, `cores` and `hard`/`easy`.
pub fn option_features() -> Vec<String> {
    options::OPTIONS
        .iter()
        .filter(|o| !o.uci.is_empty() && !matches!(o.uci, "Hash" | "Threads" | "Ponder"))
        .map(|o| match o.kind {
            options::Kind::Check => format!(
                "{} -check {}",
                o.uci,
                if o.default == "true" { 1 } else { 0 }
            ),
            options::Kind::Spin { min, max } => {
                format!("{} -spin {} {min} {max}", o.uci, o.default)
            }
            options::Kind::Combo(vars) => {
                let vs: Vec<String> = vars
                    .iter()
                    .map(|v| {
                        if *v == o.default {
                            format!("*{v}")
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                format!("{} -combo {}", o.uci, vs.join(" /// "))
            }
            options::Kind::Button => format!("{} -button", o.uci),
            options::Kind::Text => format!("{} -string {}", o.uci, o.default),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_in_both_rank_forms() {
        assert_eq!(
            parse_move("h2e2").map(|m| m.to_string()),
            Some("h2e2".into())
        );
        assert_eq!(
            parse_move("H2E2").map(|m| m.to_string()),
            Some("h2e2".into())
        );
        // ranks 1–10, recognised by the two-digit rank
        assert_eq!(
            parse_move("a10a9").map(|m| m.to_string()),
            Some("a9a8".into())
        );
        assert_eq!(
            parse_move("b8c10").map(|m| m.to_string()),
            Some("b7c9".into())
        );
        assert!(parse_move("a11a9").is_none());
        assert!(parse_move("a10").is_none());
        assert!(parse_move("j2e2").is_none());
        assert!(parse_move("a10a0").is_none());
    }

    #[test]
    fn scores_as_xboard_reads_them() {
        let mate_in = |plies: i32| (1..40_000).find(|&s| Score::of(s) == Score::Mate(plies));
        let mated_in = |plies: i32| (1..40_000).find(|&s| Score::of(-s) == Score::Mate(-plies));
        // mate in 3 plies = 2 moves; mated in 4 plies = 2 moves
        assert_eq!(cecp_score(mate_in(3).unwrap()), 100_002);
        assert_eq!(cecp_score(-mated_in(4).unwrap()), -100_002);
        assert_eq!(cecp_score(-57), -57);
        let rules_win = (1..40_000).find(|&s| Score::of(s) == Score::RulesDecided(true));
        assert_eq!(cecp_score(rules_win.unwrap()), 90_000);
    }

    #[test]
    fn option_features_cover_the_table() {
        let f = option_features();
        assert!(f.contains(&"MultiPV -spin 1 1 128".to_string()));
        assert!(f.contains(&"Rules -combo *cxa /// axf".to_string()));
        assert!(f.contains(&"Resign -check 1".to_string()));
        assert!(f.contains(&"Clear Hash -button".to_string()));
        assert!(f.iter().all(|l| !l.starts_with("Hash ")));
    }

    #[test]
    fn level_and_time_arguments() {
        assert_eq!(parse_base("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_base("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_seconds("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_seconds("NaN"), None);
        assert_eq!(parse_centis("-5"), Some(Duration::ZERO));
        assert_eq!(parse_centis("250"), Some(Duration::from_millis(2500)));
    }
}
