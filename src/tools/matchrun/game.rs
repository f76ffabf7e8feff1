//! One game between two engines: the opening, then moves asked for in turn with the clocks
//! kept; each move checked for legality and the game judged after it by `rules::adjudicate`
//! (mate, stalemate, repetition verdicts, the move limit, bare material). Engine faults
//! (illegal move, time forfeit, crash, no answer) lose the game for the engine at fault;
//! `resign` and agreed draws are honoured; optional score adjudication ends clear games.

use super::engine::{EngineProcess, EngineSpec, Fault, Log, StartError};
use super::openings::Opening;
use super::tc::{Clock, TimeControl};
use crate::core::{Color, Move, Position};
use crate::rules::{EndKind, GameResult, RuleSet, adjudicate};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    MoveLimit,
    InsufficientMaterial,
    Resignation,
    DrawAgreed,
    AdjudicatedLoss,
    AdjudicatedDraw,
    IllegalMove,
    TimeForfeit,
    Crash,
    NoAnswer,
}

impl Termination {
    pub const ALL: [Termination; 13] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::MoveLimit,
        Termination::InsufficientMaterial,
        Termination::Resignation,
        Termination::DrawAgreed,
        Termination::AdjudicatedLoss,
        Termination::AdjudicatedDraw,
        Termination::IllegalMove,
        Termination::TimeForfeit,
        Termination::Crash,
        Termination::NoAnswer,
    ];

    /// The termination whose [`Termination::key`] is `key` (reading JSON back).
    pub fn from_key(key: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.key() == key)
    }

    /// A short key for reports and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::MoveLimit => "move-limit",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::Resignation => "resignation",
            Termination::DrawAgreed => "draw-agreed",
            Termination::AdjudicatedLoss => "adjudicated-loss",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::IllegalMove => "illegal-move",
            Termination::TimeForfeit => "time-forfeit",
            Termination::Crash => "crash",
            Termination::NoAnswer => "no-answer",
        }
    }

    /// A fault of the losing engine (not a result reached over the board).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::TimeForfeit
                | Termination::Crash
                | Termination::NoAnswer
        )
    }

    /// The PGN `Termination` tag value (the PGN standard's words).
    pub fn pgn_word(self) -> &'static str {
        match self {
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash | Termination::NoAnswer => "abandoned",
            Termination::AdjudicatedLoss | Termination::AdjudicatedDraw => "adjudication",
            _ => "normal",
        }
    }
}

/// `--resign score=<cp> moves=<n>`: a side whose last `moves` scores were all at or below
/// −`score` while the opponent's last `moves` were all at or above `score` loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub score: i32,
    pub moves: usize,
}

/// `--draw score=<cp> moves=<n> after=<ply>`: from ply `after` on (counting the opening's
/// moves), a game where both sides' last `moves` scores were all within ±`score` is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub score: i32,
    pub moves: usize,
    pub after: usize,
}

/// The rule as its command-line keys (`score=… moves=…`), the form `--resign` reads.
impl std::fmt::Display for ResignRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "score={} moves={}", self.score, self.moves)
    }
}

/// The rule as its command-line keys (`score=… moves=… after=…`), the form `--draw` reads.
impl std::fmt::Display for DrawRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "score={} moves={} after={}",
            self.score, self.moves, self.after
        )
    }
}

/// What every game of the match shares.
pub struct GameConfig {
    pub rules: RuleSet,
    /// Longest wait for an engine that has no clock to answer (and for start-up, `isready`).
    pub timeout: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub log: Option<Arc<Log>>,
}

/// Which game of the match this is.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// 1-based number of the game in the schedule.
    pub id: usize,
    pub round: usize,
    /// Game pair (the same opening with colours swapped).
    pub pair: usize,
    pub opening: Arc<Opening>,
    /// Engine indices: [red, black].
    pub engines: [usize; 2],
}

/// One move the engines played.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: Move,
    pub score: Option<i32>,
    pub depth: Option<u32>,
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub setup: GameSetup,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    /// Plain words: what happened and to whom.
    pub reason: String,
    /// Runner overhead per move: from reading one `bestmove` to sending the next `go`.
    pub overhead: Vec<Duration>,
}

impl GameRecord {
    /// Points for red (1, ½, 0).
    pub fn red_points(&self) -> f64 {
        match self.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        }
    }

    /// Points for engine `idx` in this game (None if it did not play).
    pub fn points_for(&self, idx: usize) -> Option<f64> {
        if self.setup.engines[0] == idx {
            Some(self.red_points())
        } else if self.setup.engines[1] == idx {
            Some(1.0 - self.red_points())
        } else {
            None
        }
    }

    /// The engine index that lost by a fault, if the game ended that way.
    pub fn faulty_engine(&self) -> Option<usize> {
        if !self.termination.is_fault() {
            return None;
        }
        match self.result {
            GameResult::RedWins => Some(self.setup.engines[1]),
            GameResult::BlackWins => Some(self.setup.engines[0]),
            _ => None,
        }
    }
}

/// A setup mistake that ends the whole match (an engine program that cannot be run).
pub struct Fatal(pub String);

struct Ended {
    result: GameResult,
    termination: Termination,
    reason: String,
}

fn loss(side: Color, termination: Termination, reason: String) -> Ended {
    Ended {
        result: GameResult::win_for(!side),
        termination,
        reason,
    }
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn fault_loss(side: Color, name: &str, fault: Fault, when: &str, timed: bool) -> Ended {
    match fault {
        Fault::Crash(how) => loss(
            side,
            Termination::Crash,
            format!("{} ({name}) crashed {when}: {how}", side_name(side)),
        ),
        Fault::NoAnswer(what) => loss(
            side,
            if timed {
                Termination::TimeForfeit
            } else {
                Termination::NoAnswer
            },
            format!(
                "{} ({name}) {} {when}: {what}",
                side_name(side),
                if timed {
                    "lost on time"
                } else {
                    "did not answer"
                }
            ),
        ),
    }
}

/// Plays one game. `slots` holds the running engine processes by engine index; missing or
/// dead ones are started, and ones that die or hang are left empty for a restart. Returns
/// Ok(None) when `abort` was raised before the game ended (the game does not count).
pub fn play(
    setup: &GameSetup,
    specs: &[EngineSpec],
    slots: &mut [Option<EngineProcess>],
    cfg: &GameConfig,
    abort: &AtomicBool,
) -> Result<Option<GameRecord>, Fatal> {
    let mut moves = Vec::new();
    let mut overhead = Vec::new();
    let ended = play_moves(setup, specs, slots, cfg, abort, &mut moves, &mut overhead)?;
    // a process that died or was killed is restarted for the next game
    for &idx in &setup.engines {
        if slots[idx].as_ref().is_some_and(EngineProcess::is_dead) {
            slots[idx] = None;
        }
    }
    Ok(ended.map(|e| GameRecord {
        setup: setup.clone(),
        moves,
        result: e.result,
        termination: e.termination,
        reason: e.reason,
        overhead,
    }))
}

/// Starts (if needed) and readies the engine for `side`; a failure is a loss.
fn ready(
    side: Color,
    idx: usize,
    specs: &[EngineSpec],
    slots: &mut [Option<EngineProcess>],
    cfg: &GameConfig,
) -> Result<Option<Ended>, Fatal> {
    let spec = &specs[idx];
    if slots[idx].as_ref().is_none_or(EngineProcess::is_dead) {
        slots[idx] = None;
        match EngineProcess::start(spec, cfg.timeout, cfg.log.clone()) {
            Ok(e) => slots[idx] = Some(e),
            Err(StartError::Setup(msg)) => return Err(Fatal(msg)),
            Err(StartError::Handshake(f)) => {
                return Ok(Some(fault_loss(side, &spec.name, f, "at start-up", false)));
            }
        }
    }
    let eng = slots[idx].as_mut().expect("started above");
    if let Err(f) = eng.new_game(cfg.timeout) {
        eng.kill();
        return Ok(Some(fault_loss(
            side,
            &spec.name,
            f,
            "before the game (isready)",
            false,
        )));
    }
    Ok(None)
}

/// The `position` command for the game so far.
fn position_command(opening: &Opening, moves_text: &str) -> String {
    let mut s = match &opening.fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    if !moves_text.is_empty() {
        s.push_str(" moves");
        s.push_str(moves_text);
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn play_moves(
    setup: &GameSetup,
    specs: &[EngineSpec],
    slots: &mut [Option<EngineProcess>],
    cfg: &GameConfig,
    abort: &AtomicBool,
    moves: &mut Vec<PlayedMove>,
    overhead: &mut Vec<Duration>,
) -> Result<Option<Ended>, Fatal> {
    for side in [Color::Red, Color::Black] {
        if let Some(e) = ready(side, setup.engines[side.index()], specs, slots, cfg)? {
            return Ok(Some(e));
        }
    }
    let opening = &setup.opening;
    let mut pos: Position = opening.position.clone();
    let mut moves_text = String::new();
    for m in &opening.moves {
        moves_text.push(' ');
        moves_text.push_str(&m.to_string());
    }
    let tcs = [&specs[setup.engines[0]].tc, &specs[setup.engines[1]].tc];
    let mut clocks = [Clock::new(tcs[0]), Clock::new(tcs[1])];
    // each side's reported scores, newest last (None: no score with that move)
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let mut draw_offer: Option<Color> = None;
    let mut last_received: Option<Instant> = None;
    let start_plies = opening.moves.len();
    loop {
        if abort.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let side = pos.side_to_move();
        let idx = setup.engines[side.index()];
        let spec = &specs[idx];
        let tc = tcs[side.index()];
        let timed = matches!(tc, TimeControl::Clock(_) | TimeControl::MoveTime(_));
        let allowed = match (tc, &clocks[side.index()]) {
            (TimeControl::Clock(_), Some(c)) => c.left() + spec.margin,
            (TimeControl::MoveTime(t), _) => *t + spec.margin,
            _ => cfg.timeout,
        };
        let ply = start_plies + moves.len() + 1;
        let when = format!("at ply {ply}");
        let offered = draw_offer == Some(!side);
        let position = position_command(opening, &moves_text);
        let eng = slots[idx].as_mut().expect("readied before the game");
        let answer = eng.go(
            &position,
            side,
            tc,
            [clocks[0].as_ref(), clocks[1].as_ref()],
            offered,
            allowed,
            &tc.to_string(),
        );
        let answer = match answer {
            Ok(a) => a,
            Err(f) => return Ok(Some(fault_loss(side, &spec.name, f, &when, timed))),
        };
        if let Some(prev) = last_received {
            overhead.push(answer.sent.saturating_duration_since(prev));
        }
        last_received = Some(answer.received);
        let used = answer.received.saturating_duration_since(answer.sent);
        let flagged = match (tc, clocks[side.index()].as_mut()) {
            (TimeControl::Clock(_), Some(c)) => c.charge(used, spec.margin).err().map(|f| {
                format!(
                    "used {:.3} s with {:.3} s left",
                    used.as_secs_f64(),
                    f.had.as_secs_f64()
                )
            }),
            (TimeControl::MoveTime(t), _) if used > *t + spec.margin => Some(format!(
                "used {:.3} s of {:.3} s",
                used.as_secs_f64(),
                t.as_secs_f64()
            )),
            _ => None,
        };
        let flagged = flagged.map(|w| match answer.info_time {
            Some(t) => format!("{w}; its last info line said time {t} ms"),
            None => w,
        });
        if let Some(what) = flagged {
            return Ok(Some(loss(
                side,
                Termination::TimeForfeit,
                format!(
                    "{} ({}) lost on time {when}: {what}",
                    side_name(side),
                    spec.name
                ),
            )));
        }
        if answer.resign {
            return Ok(Some(loss(
                side,
                Termination::Resignation,
                format!("{} ({}) resigns {when}", side_name(side), spec.name),
            )));
        }
        if answer.draw && offered {
            return Ok(Some(Ended {
                result: GameResult::Draw,
                termination: Termination::DrawAgreed,
                reason: format!(
                    "{} ({}) accepts the draw offered by {} {when}",
                    side_name(side),
                    spec.name,
                    side_name(!side)
                ),
            }));
        }
        let Some(text) = answer.mv else {
            return Ok(Some(loss(
                side,
                Termination::IllegalMove,
                format!(
                    "{} ({}) gave no move {when} though it has {} legal moves",
                    side_name(side),
                    spec.name,
                    pos.legal_moves().len()
                ),
            )));
        };
        let Some(m) = Move::parse_iccs(&text).filter(|&m| pos.is_legal(m)) else {
            let shown: String = text.chars().take(16).collect();
            return Ok(Some(loss(
                side,
                Termination::IllegalMove,
                format!(
                    "{} ({}) played the illegal move '{shown}' {when} in {}",
                    side_name(side),
                    spec.name,
                    pos.fen()
                ),
            )));
        };
        pos.make_move(m);
        moves_text.push(' ');
        moves_text.push_str(&m.to_string());
        moves.push(PlayedMove {
            mv: m,
            score: answer.score,
            depth: answer.depth,
            time: used,
        });
        scores[side.index()].push(answer.score);
        // an offer stands for the opponent's next move only
        draw_offer = if answer.draw { Some(side) } else { None };

        let verdict = adjudicate(&pos, cfg.rules);
        if verdict.is_over() {
            let termination = match verdict.kind {
                EndKind::Checkmate => Termination::Checkmate,
                EndKind::Stalemate => Termination::Stalemate,
                EndKind::Repetition(_) => Termination::Repetition,
                EndKind::MoveLimit => Termination::MoveLimit,
                EndKind::InsufficientMaterial => Termination::InsufficientMaterial,
                EndKind::Ongoing => unreachable!("the verdict is over"),
            };
            return Ok(Some(Ended {
                result: verdict.result,
                termination,
                reason: format!("{} at ply {ply} ({} rules)", verdict.description, cfg.rules),
            }));
        }
        if let Some(e) = score_adjudication(&scores, side, ply, cfg) {
            return Ok(Some(e));
        }
    }
}

/// The last `n` scores of a side, if it has that many and all are known.
fn last_n(s: &[Option<i32>], n: usize) -> Option<Vec<i32>> {
    if n == 0 || s.len() < n {
        return None;
    }
    s[s.len() - n..].iter().copied().collect()
}

fn score_adjudication(
    scores: &[Vec<Option<i32>>; 2],
    mover: Color,
    ply: usize,
    cfg: &GameConfig,
) -> Option<Ended> {
    if let Some(r) = cfg.resign {
        for side in [mover, !mover] {
            let own = last_n(&scores[side.index()], r.moves);
            let opp = last_n(&scores[(!side).index()], r.moves);
            if let (Some(own), Some(opp)) = (own, opp)
                && own.iter().all(|&s| s <= -r.score)
                && opp.iter().all(|&s| s >= r.score)
            {
                return Some(loss(
                    side,
                    Termination::AdjudicatedLoss,
                    format!(
                        "adjudicated at ply {ply}: {} lost, both engines agreeing for {} moves each (scores beyond {} cp)",
                        side_name(side),
                        r.moves,
                        r.score
                    ),
                ));
            }
        }
    }
    if let Some(d) = cfg.draw
        && ply >= d.after
    {
        let quiet = |s: &[Option<i32>]| {
            last_n(s, d.moves).is_some_and(|v| v.iter().all(|x| x.abs() <= d.score))
        };
        if quiet(&scores[0]) && quiet(&scores[1]) {
            return Some(Ended {
                result: GameResult::Draw,
                termination: Termination::AdjudicatedDraw,
                reason: format!(
                    "adjudicated a draw at ply {ply}: both engines within {} cp for {} moves each",
                    d.score, d.moves
                ),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameConfig {
        GameConfig {
            rules: RuleSet::Cxa,
            timeout: Duration::from_secs(1),
            resign,
            draw,
            log: None,
        }
    }

    #[test]
    fn termination_keys_read_back() {
        for t in Termination::ALL {
            assert_eq!(Termination::from_key(t.key()), Some(t));
        }
        let mut keys: Vec<&str> = Termination::ALL.iter().map(|t| t.key()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), Termination::ALL.len());
        assert_eq!(Termination::from_key("mate"), None);
    }

    #[test]
    fn resign_needs_both_sides_to_agree() {
        let c = cfg(
            Some(ResignRule {
                score: 500,
                moves: 2,
            }),
            None,
        );
        // red thinks it is lost, black does not yet agree
        let s = [vec![Some(-600), Some(-700)], vec![Some(300), Some(600)]];
        assert!(score_adjudication(&s, Color::Black, 4, &c).is_none());
        let s = [vec![Some(-600), Some(-700)], vec![Some(550), Some(600)]];
        let e = score_adjudication(&s, Color::Black, 4, &c).unwrap();
        assert_eq!(e.result, GameResult::BlackWins);
        assert_eq!(e.termination, Termination::AdjudicatedLoss);
        // a move without a score breaks the run
        let s = [vec![None, Some(-700)], vec![Some(550), Some(600)]];
        assert!(score_adjudication(&s, Color::Black, 4, &c).is_none());
    }

    #[test]
    fn draw_waits_for_its_ply() {
        let c = cfg(
            None,
            Some(DrawRule {
                score: 10,
                moves: 3,
                after: 40,
            }),
        );
        let s = [
            vec![Some(0), Some(5), Some(-10)],
            vec![Some(3), Some(0), Some(1)],
        ];
        assert!(score_adjudication(&s, Color::Black, 39, &c).is_none());
        let e = score_adjudication(&s, Color::Black, 40, &c).unwrap();
        assert_eq!(e.result, GameResult::Draw);
        let s = [
            vec![Some(0), Some(11), Some(-10)],
            vec![Some(3), Some(0), Some(1)],
        ];
        assert!(score_adjudication(&s, Color::Black, 50, &c).is_none());
    }
}
