//! `chariot analyze`: a coach's review of recorded games. Every position of a game is
//! searched by the engine (fixed nodes, or a time per move); each move gets the evaluation
//! before and after it, the engine's best move and line, a class by the drop in expected
//! points, and the rules events at it (checks, mate threats, chases, and the game's end
//! verdict with its clauses, as `chariot judge` gives it). Each side gets an accuracy figure.
//!
//! **Expected points.** A score becomes win/draw/loss permille by the engine's WDL model
//! ([`crate::engine::wdl`], the one behind `UCI_ShowWDL`); the expected points of the side to
//! move are `E = (W + D/2) / 1000`, from 0 (lost) to 1 (won).
//!
//! **Classes.** The drop of a move is `E(before) − E(after)`, both from the mover's view:
//! what the position was worth with the engine's best move, less what it is worth after the
//! move played (the search of the next position). The thresholds are those of the
//! expected-points model of the best-known chess review (chess.com's: 0.05, 0.10, 0.20):
//!
//! | class        | when                                                               |
//! |--------------|--------------------------------------------------------------------|
//! | `only move`  | the engine's best move, and every other move drops ≥ 0.20 (or it is the one legal move) |
//! | `best`       | the engine's best move                                             |
//! | `good`       | drop < 0.05                                                        |
//! | `inaccuracy` | 0.05 ≤ drop < 0.10 (PGN NAG `$6`, `?!`)                             |
//! | `mistake`    | 0.10 ≤ drop < 0.20 (NAG `$2`, `?`)                                  |
//! | `blunder`    | drop ≥ 0.20 (NAG `$4`, `??`)                                        |
//!
//! **Mates lost and allowed.** A move other than the engine's best is flagged
//! [`MateFlag::Lost`] when the engine saw a forced mate for the mover before it and sees
//! none after it (a finished game the mover won still counts as kept), and
//! [`MateFlag::Allowed`] when after it the mover is getting mated and was not before (both
//! at once read as allowed). Such a move is classed by its drop as any other, but a lost mate
//! is at least an inaccuracy and an allowed mate at least a mistake. With the WDL model a
//! lost mate that leaves +6 pawns or more is so an inaccuracy (its drop alone is under 0.10,
//! under 0.05 from +8), +4 to +6 a mistake, less a blunder: the shape of Lichess's rule
//! (inaccuracy while still winning big, mistake while clearly better, otherwise blunder;
//! its steps are +10 and +7). The engine's own best move is never flagged: a mate that
//! vanishes along the engine's line is its search horizon, not the player's error.
//!
//! Lichess counts in winning chances (−1 to 1, twice the scale) with 0.1 / 0.2 / 0.3, which is
//! 0.05 / 0.10 / 0.15 in expected points; the larger blunder step used here keeps a move that
//! only turns a good position into an unclear one a mistake. "Only move" needs the second-best
//! line, so every position is searched with MultiPV 2.
//!
//! **Accuracy.** Per move, Lichess's fit `a = 103.1668 · exp(−0.04354 · d) − 3.1669`, `d`
//! the drop in percent (0 to 100), clamped to 0..100; per side, the mean of the arithmetic
//! mean and the harmonic mean of its moves' accuracies (each at least 1 in the harmonic mean,
//! so one zero does not make the figure 0). Lichess also weights the arithmetic mean by the
//! game's volatility; this leaves that out, so the figure is a little harsher on blunders.
//!
//! **Determinism.** With `nodes` set (and no time limit) each game is searched by its own
//! one-thread engine from a new game, so the same input and nodes give the same output,
//! whatever the number of games analysed in parallel.

use crate::core::notation::{to_chinese, to_iccs, to_wxf};
use crate::core::{Color, Move, Position};
use crate::engine::{Engine, Limits, Options, Score, wdl};
use crate::records::{Entry, Game};
use crate::rules::classify::{MoveKind, classify_under};
use crate::rules::{GameResult, RuleSet, adjudicate};
use crate::tools::judge;
use crate::tools::progress::Progress;
use rayon::prelude::*;
use serde::Serialize;
use std::cell::Cell;
use std::time::Duration;

mod output;
pub use output::{pgn, svg, table, xml_escape};

/// Drop in expected points from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// Drop from which a move is a mistake.
pub const MISTAKE: f64 = 0.10;
/// Drop from which a move is a blunder; also how far the best move must be ahead of the
/// second for an "only move".
pub const BLUNDER: f64 = 0.20;

/// How long each position is searched.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Nodes per position: deterministic.
    Nodes(u64),
    /// Milliseconds per position: depends on the machine and its load.
    Movetime(u64),
}

/// Move notation of the outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Chinese,
    Wxf,
    Iccs,
}

impl std::str::FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "chinese" | "cn" => Ok(Notation::Chinese),
            "wxf" => Ok(Notation::Wxf),
            "iccs" => Ok(Notation::Iccs),
            _ => Err(format!(
                "unknown notation '{s}' (chinese, wxf or iccs expected)"
            )),
        }
    }
}

impl Notation {
    fn write(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Chinese => to_chinese(pos, m),
            Notation::Wxf => to_wxf(pos, m),
            Notation::Iccs => to_iccs(m),
        }
    }
}

/// What the analysis is asked for.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub budget: Budget,
    pub rules: RuleSet,
    pub hash_mib: usize,
    pub notation: Notation,
}

/// A move's class, from the best to the worst (`max` is the graver).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    OnlyMove,
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::OnlyMove => "only move",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The PGN NAG: `$6` (?!), `$2` (?), `$4` (??); none for the others.
    pub fn nag(self) -> Option<&'static str> {
        match self {
            Class::Inaccuracy => Some("$6"),
            Class::Mistake => Some("$2"),
            Class::Blunder => Some("$4"),
            _ => None,
        }
    }

    /// The class of a move from its drop in expected points.
    pub fn of(played_is_best: bool, only: bool, drop: f64) -> Class {
        match (played_is_best, only) {
            (true, true) => Class::OnlyMove,
            (true, false) => Class::Best,
            _ if drop >= BLUNDER => Class::Blunder,
            _ if drop >= MISTAKE => Class::Mistake,
            _ if drop >= INACCURACY => Class::Inaccuracy,
            _ => Class::Good,
        }
    }
}

/// A forced mate that a move let slip, or walked into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MateFlag {
    /// Before the move the mover had a forced mate; after it, no mate (and no won game).
    Lost,
    /// After the move the mover is getting mated; before it, it was not.
    Allowed,
}

impl MateFlag {
    /// The words of the table and the PGN comment.
    pub fn name(self) -> &'static str {
        match self {
            MateFlag::Lost => "mate lost",
            MateFlag::Allowed => "mate allowed",
        }
    }

    /// The least class of a move so flagged.
    pub fn least_class(self) -> Class {
        match self {
            MateFlag::Lost => Class::Inaccuracy,
            MateFlag::Allowed => Class::Mistake,
        }
    }

    /// The flag of a move played from `before` to `after` (both from the mover's view), or
    /// none; the caller leaves the engine's best move out.
    pub fn of(before: Eval, after: Eval) -> Option<MateFlag> {
        let mates = |e: Eval| e.mate.is_some_and(|m| m > 0);
        let mated = |e: Eval| e.mate.is_some_and(|m| m <= 0);
        let won = |e: Eval| mates(e) || e.decided == Some(true);
        let lost = |e: Eval| mated(e) || e.decided == Some(false);
        if mated(after) && !lost(before) {
            Some(MateFlag::Allowed)
        } else if mates(before) && !won(after) {
            Some(MateFlag::Lost)
        } else {
            None
        }
    }

    /// The flag with the mate count that matters: the one lost (`#3`) or the one allowed
    /// (`#-2`).
    fn describe(self, before: Eval, after: Eval) -> String {
        let e = match self {
            MateFlag::Lost => before,
            MateFlag::Allowed => after,
        };
        format!("{} ({})", self.name(), e.short())
    }
}

/// An evaluation from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Eval {
    /// Centipawns (absent for a mate or a decided game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Mate in moves (UCI's count): positive when this side mates; 0 when it is mated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The game is decided by the rules (a repetition verdict or a finished game): true for
    /// won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<bool>,
    /// Win, draw, loss permille.
    pub wdl: [u32; 3],
    /// Expected points, `(W + D/2) / 1000`.
    pub expected: f64,
}

impl Eval {
    /// From a search score of the side whose view it is.
    pub fn of_score(score: i32) -> Eval {
        let (w, d, l) = wdl(score);
        let (cp, mate, decided) = match Score::of(score) {
            Score::Centipawns(cp) => (Some(cp), None, None),
            Score::Mate(_) => (None, Score::of(score).mate_moves(), None),
            Score::RulesDecided(won) => (None, None, Some(won)),
        };
        Eval {
            cp,
            mate,
            decided,
            wdl: [w, d, l],
            expected: round4(f64::from(w + w + d) / 2000.0),
        }
    }

    /// A finished game's result from the view of `side`.
    fn of_result(result: GameResult, side: Color) -> Eval {
        match result.winner() {
            None => Eval {
                cp: Some(0),
                mate: None,
                decided: None,
                wdl: [0, 1000, 0],
                expected: 0.5,
            },
            Some(w) => {
                let won = w == side;
                Eval {
                    cp: None,
                    mate: None,
                    decided: Some(won),
                    wdl: if won { [1000, 0, 0] } else { [0, 0, 1000] },
                    expected: if won { 1.0 } else { 0.0 },
                }
            }
        }
    }

    /// The same evaluation from the other side's view.
    pub fn flip(self) -> Eval {
        Eval {
            cp: self.cp.map(|c| -c),
            mate: self.mate.map(|m| -m),
            decided: self.decided.map(|d| !d),
            wdl: [self.wdl[2], self.wdl[1], self.wdl[0]],
            expected: round4(1.0 - self.expected),
        }
    }

    /// The PGN `%eval` value: pawns with two decimals, `#N` / `#-N` for mates, ±99.99
    /// for a game the rules decide.
    pub fn pgn(self) -> String {
        match (self.cp, self.mate, self.decided) {
            (Some(cp), _, _) => format!("{:.2}", f64::from(cp) / 100.0),
            (None, Some(m), _) if m > 0 => format!("#{m}"),
            (None, Some(m), _) => format!("#-{}", m.abs()),
            (None, None, Some(true)) => "99.99".into(),
            _ => "-99.99".into(),
        }
    }

    /// Short text for the table: `+0.35`, `#3`, `#-2`, `won`, `lost`.
    pub fn short(self) -> String {
        match (self.cp, self.mate, self.decided) {
            (Some(cp), _, _) => format!("{:+.2}", f64::from(cp) / 100.0),
            (None, Some(m), _) if m > 0 => format!("#{m}"),
            (None, Some(m), _) => format!("#-{}", m.abs()),
            (None, None, Some(true)) => "won".into(),
            _ => "lost".into(),
        }
    }
}

fn round4(x: f64) -> f64 {
    (x * 10000.0).round() / 10000.0
}

/// A rules event at a move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulesEvent {
    /// `check`, `mate threat`, `chase` or `end`.
    pub kind: String,
    /// 将, 杀, 捉, or the result for the end.
    pub chinese: String,
    /// Chased pieces' squares (ICCS), for a chase.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub victims: Vec<String>,
    /// For the end: the verdict in words and its clauses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<String>,
    /// For a repetition: which move chases what, and why it counts (`chariot judge`'s
    /// `why:` lines).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
}

/// One move reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// 1-based ply.
    pub ply: usize,
    /// The move number as PGN counts it (Red and Black share one).
    pub number: usize,
    /// `red` or `black`.
    pub side: &'static str,
    /// ICCS.
    pub iccs: String,
    /// In the notation asked for.
    pub san: String,
    /// The position before the move, with the engine's best move, from the mover's view.
    pub before: Eval,
    /// After the move played, from the mover's view.
    pub after: Eval,
    /// `after` from Red's view: the PGN's `[%eval]`.
    pub red_after: Eval,
    /// The drop in expected points (0 when the move gained).
    pub drop: f64,
    pub class: Class,
    /// A forced mate lost or allowed by this move (absent when neither).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate_flag: Option<MateFlag>,
    /// Per-move accuracy (0..100).
    pub accuracy: f64,
    /// The engine's best move (notation asked for, and ICCS) and its line.
    pub best: String,
    pub best_iccs: String,
    pub line: Vec<String>,
    /// The search depth reached before the move.
    pub depth: i32,
    pub events: Vec<RulesEvent>,
}

/// One side's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    pub accuracy: f64,
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub best: usize,
    pub only_moves: usize,
    /// Moves that let a forced mate slip, and moves that walked into one.
    pub mates_lost: usize,
    pub mates_allowed: usize,
}

/// One game reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReview {
    /// Where the game came from: the file and its 1-based number there.
    pub source: String,
    pub game: usize,
    pub tags: Vec<(String, String)>,
    /// The start position when it is not the standard one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The rules' verdict on the moves as played.
    pub result: String,
    pub verdict: String,
    pub clauses: Vec<String>,
    /// Moves after the end of the game, not analysed.
    pub ignored: usize,
    pub moves: Vec<MoveReview>,
    pub red: SideSummary,
    pub black: SideSummary,
}

/// The whole report (`--json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub version: u32,
    /// `nodes N` or `movetime MS`.
    pub budget: String,
    pub rules: String,
    pub thresholds: Thresholds,
    pub games: Vec<GameReview>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

/// Lichess's per-move accuracy from a drop in percent.
pub fn move_accuracy(drop_percent: f64) -> f64 {
    (103.1668 * (-0.04354 * drop_percent.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// A side's accuracy: the mean of the arithmetic and harmonic means of its moves'
/// accuracies (each floored at 1 in the harmonic mean); 100 with no moves.
pub fn side_accuracy(moves: &[f64]) -> f64 {
    if moves.is_empty() {
        return 100.0;
    }
    let n = moves.len() as f64;
    let mean = moves.iter().sum::<f64>() / n;
    let harmonic = n / moves.iter().map(|a| 1.0 / a.max(1.0)).sum::<f64>();
    ((mean + harmonic) / 2.0 * 10.0).round() / 10.0
}

/// One position's search: best move, its line, score, and the second line's score.
struct Searched {
    eval: Eval,
    best: Option<Move>,
    pv: Vec<Move>,
    depth: i32,
    /// The best move is the only one that does not drop ≥ [`BLUNDER`].
    only: bool,
}

fn search(engine: &mut Engine, s: &Settings, game: &Game, ply: usize) -> Result<Searched, String> {
    let fen = game.start.fen();
    let texts: Vec<String> = game.moves[..ply].iter().map(|m| m.to_string()).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    engine.set_position(Some(&fen), &refs)?;
    let pos = engine.position().clone();
    let verdict = adjudicate(&pos, s.rules);
    if verdict.is_over() {
        return Ok(Searched {
            eval: Eval::of_result(verdict.result, pos.side_to_move()),
            best: None,
            pv: Vec::new(),
            depth: 0,
            only: false,
        });
    }
    let legal = pos.legal_moves().len();
    let (nodes, time) = match s.budget {
        Budget::Nodes(n) => (Some(n), None),
        Budget::Movetime(ms) => (None, Some(Duration::from_millis(ms))),
    };
    let mut second: Option<(i32, i32)> = None;
    let r = engine.go(
        Limits {
            nodes,
            soft_time: time,
            hard_time: time,
            multipv: 2,
            ..Limits::default()
        },
        |info| {
            if info.multipv == 2 {
                second = Some((info.depth, info.score));
            }
        },
    );
    let eval = Eval::of_score(r.score);
    let only = legal == 1
        || second.is_some_and(|(d, sc)| {
            d == r.depth && eval.expected - Eval::of_score(sc).expected >= BLUNDER
        });
    Ok(Searched {
        eval,
        best: r.best,
        pv: r.pv,
        depth: r.depth,
        only,
    })
}

/// The rules events of the move `m` in `pos` (checks, mate threats, chases) under `rules`.
fn move_events(pos: &mut Position, m: Move, rules: RuleSet) -> Vec<RulesEvent> {
    let c = classify_under(pos, m, rules);
    if c.kind == MoveKind::Idle {
        return Vec::new();
    }
    vec![RulesEvent {
        kind: c.kind.english().to_string(),
        chinese: c.kind.chinese().to_string(),
        victims: c.victims.iter().map(|v| v.to_string()).collect(),
        verdict: None,
        clauses: Vec::new(),
        why: Vec::new(),
    }]
}

/// Reviews one game.
pub fn analyze_game(game: &Game, source: &str, s: &Settings) -> Result<GameReview, String> {
    analyze_game_with(game, source, s, &|| {})
}

/// The positions a game's review searches at most: one per move and the last position
/// (fewer when the game ends before its last recorded move).
pub fn positions(game: &Game) -> usize {
    game.moves.len() + 1
}

/// Reviews one game, calling `searched_one` after each position's search.
fn analyze_game_with(
    game: &Game,
    source: &str,
    s: &Settings,
    searched_one: &dyn Fn(),
) -> Result<GameReview, String> {
    let entry: Entry = Ok(game.clone());
    let j = judge::judge_record(&entry, s.rules)?;
    let played = if j.verdict.is_over() {
        j.ply
    } else {
        game.moves.len()
    };
    let mut engine = Engine::new(Options {
        hash_mib: s.hash_mib,
        threads: 1,
        rules: s.rules,
    });
    engine.new_game();
    let mut searched = Vec::with_capacity(played + 1);
    for ply in 0..=played {
        searched.push(search(&mut engine, s, game, ply)?);
        searched_one();
    }
    let mut pos = game.start.clone();
    let mut moves = Vec::with_capacity(played);
    let start_number = pos.fen().split(' ').nth(5).and_then(|t| t.parse().ok());
    let start_number: usize = start_number.unwrap_or(1).max(1);
    let red_first = pos.side_to_move() == Color::Red;
    for (i, &m) in game.moves[..played].iter().enumerate() {
        let here = &searched[i];
        let next = &searched[i + 1];
        let mover = pos.side_to_move();
        let before = here.eval;
        let after = next.eval.flip();
        let drop = round4((before.expected - after.expected).max(0.0));
        let is_best = here.best == Some(m);
        let mate_flag = if is_best {
            None
        } else {
            MateFlag::of(before, after)
        };
        let class = Class::of(is_best, here.only, drop);
        let class = mate_flag.map_or(class, |f| class.max(f.least_class()));
        let accuracy = if is_best {
            100.0
        } else {
            (move_accuracy(drop * 100.0) * 10.0).round() / 10.0
        };
        let san = s.notation.write(&pos, m);
        let (best, line) = {
            let mut p = pos.clone();
            let mut line = Vec::new();
            for &pm in &here.pv {
                if !p.is_legal(pm) {
                    break;
                }
                line.push(s.notation.write(&p, pm));
                p.make_move(pm);
            }
            let best = here.best.map(|b| s.notation.write(&pos, b));
            (best.unwrap_or_default(), line)
        };
        let mut events = move_events(&mut pos, m, s.rules);
        pos.make_move(m);
        if i + 1 == played && j.verdict.is_over() {
            events.push(RulesEvent {
                kind: "end".into(),
                chinese: j.verdict.result.as_str().into(),
                victims: Vec::new(),
                verdict: Some(j.verdict.description.clone()),
                clauses: j.verdict.clauses.iter().map(|c| c.to_string()).collect(),
                why: judge::why(&j),
            });
        }
        let half = i + usize::from(!red_first);
        moves.push(MoveReview {
            ply: i + 1,
            number: start_number + half / 2,
            side: if mover == Color::Red { "red" } else { "black" },
            iccs: m.to_string(),
            san,
            before,
            after,
            red_after: if mover == Color::Red {
                after
            } else {
                after.flip()
            },
            drop,
            class,
            mate_flag,
            accuracy,
            best,
            best_iccs: here.best.map(|b| b.to_string()).unwrap_or_default(),
            line,
            depth: here.depth,
            events,
        });
    }
    let summary = |side: &str| {
        let mine: Vec<&MoveReview> = moves.iter().filter(|r| r.side == side).collect();
        let count = |c: Class| mine.iter().filter(|r| r.class == c).count();
        SideSummary {
            accuracy: side_accuracy(&mine.iter().map(|r| r.accuracy).collect::<Vec<_>>()),
            moves: mine.len(),
            inaccuracies: count(Class::Inaccuracy),
            mistakes: count(Class::Mistake),
            blunders: count(Class::Blunder),
            best: count(Class::Best) + count(Class::OnlyMove),
            only_moves: count(Class::OnlyMove),
            mates_lost: mine
                .iter()
                .filter(|r| r.mate_flag == Some(MateFlag::Lost))
                .count(),
            mates_allowed: mine
                .iter()
                .filter(|r| r.mate_flag == Some(MateFlag::Allowed))
                .count(),
        }
    };
    let (red, black) = (summary("red"), summary("black"));
    Ok(GameReview {
        source: source.to_string(),
        game: game.number,
        tags: game.tags.clone(),
        fen: game.fen(),
        result: j.verdict.result.as_str().to_string(),
        verdict: j.verdict.description.clone(),
        clauses: j.verdict.clauses.iter().map(|c| c.to_string()).collect(),
        ignored: game.moves.len() - played,
        moves,
        red,
        black,
    })
}

/// Reviews games in parallel (each on its own one-thread engine), in input order. A game
/// that fails gives its one-line error in its place. `progress` counts each position as it
/// is searched and each game as it ends (with the positions it did not search, so the
/// count reaches the sum of [`positions`]).
pub fn analyze_games(
    games: &[(String, Game)],
    s: &Settings,
    progress: &Progress,
) -> Vec<Result<GameReview, String>> {
    games
        .par_iter()
        .map(|(source, g)| {
            let count = Cell::new(0);
            let r = analyze_game_with(g, source, s, &|| {
                count.set(count.get() + 1);
                progress.positions(1);
            })
            .map_err(|e| format!("{source}: game {}: {e}", g.number));
            progress.positions(positions(g).saturating_sub(count.get()));
            progress.game();
            r
        })
        .collect()
}

/// The report of reviewed games.
pub fn report(games: Vec<GameReview>, s: &Settings) -> Report {
    Report {
        format: "chariot-analyze",
        version: 1,
        budget: match s.budget {
            Budget::Nodes(n) => format!("nodes {n}"),
            Budget::Movetime(ms) => format!("movetime {ms}"),
        },
        rules: s.rules.to_string(),
        thresholds: Thresholds {
            inaccuracy: INACCURACY,
            mistake: MISTAKE,
            blunder: BLUNDER,
        },
        games,
    }
}

/// The JSON text of a report (pretty, one trailing newline).
pub fn to_json(r: &Report) -> String {
    // plain data: nothing here can fail to serialize
    let mut text = serde_json::to_string_pretty(r).expect("a report serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::MATE;

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(Class::of(true, true, 0.5), Class::OnlyMove);
        assert_eq!(Class::of(true, false, 0.5), Class::Best);
        assert_eq!(Class::of(false, false, 0.01), Class::Good);
        assert_eq!(Class::of(false, false, 0.05), Class::Inaccuracy);
        assert_eq!(Class::of(false, false, 0.10), Class::Mistake);
        assert_eq!(Class::of(false, false, 0.20), Class::Blunder);
        assert_eq!(Class::Blunder.nag(), Some("$4"));
        assert_eq!(Class::Good.max(Class::Inaccuracy), Class::Inaccuracy);
        assert_eq!(Class::Blunder.max(Class::Mistake), Class::Blunder);
    }

    #[test]
    fn mates_lost_and_allowed_are_told_apart() {
        let mate_in_2 = Eval::of_score(MATE - 3);
        let mated_in_1 = Eval::of_score(-(MATE - 2));
        let big = Eval::of_score(900);
        let level = Eval::of_score(10);
        let won = Eval::of_result(GameResult::RedWins, Color::Red);
        assert_eq!(mated_in_1.mate, Some(-1));
        assert_eq!(MateFlag::of(mate_in_2, big), Some(MateFlag::Lost));
        assert_eq!(MateFlag::of(mate_in_2, level), Some(MateFlag::Lost));
        assert_eq!(MateFlag::of(mate_in_2, mate_in_2), None);
        assert_eq!(MateFlag::of(mate_in_2, won), None);
        assert_eq!(MateFlag::of(level, mated_in_1), Some(MateFlag::Allowed));
        assert_eq!(MateFlag::of(mate_in_2, mated_in_1), Some(MateFlag::Allowed));
        assert_eq!(MateFlag::of(mated_in_1, mated_in_1), None);
        assert_eq!(MateFlag::of(level, big), None);
        // the floor matters where the drop alone says less: a lost mate that leaves +9
        let drop = mate_in_2.expected - big.expected;
        assert!(drop < INACCURACY, "{drop}");
        assert_eq!(MateFlag::Lost.describe(mate_in_2, big), "mate lost (#2)");
        assert_eq!(
            MateFlag::Allowed.describe(level, mated_in_1),
            "mate allowed (#-1)"
        );
    }

    #[test]
    fn accuracy_is_lichess_per_move_and_mean_of_means_per_side() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(100.0) < 1.0);
        assert_eq!(side_accuracy(&[100.0, 100.0]), 100.0);
        assert!(side_accuracy(&[100.0, 0.0]) < 30.0);
    }

    #[test]
    fn rules_events_follow_the_chosen_rule_set() {
        // casebook A02 after d5d8 e8d9: d8d5 uncovers the rook b8 on the black rook f8, frozen
        // on the leg of the horse g8 and protected by the horse h7: no chase by the CXA
        // exchange count, a chase of a piece that cannot escape under the Asian rules
        let fen = "3ak4/1R1C1rN2/7n1/9/9/9/9/9/9/3K5 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs("d8d5").unwrap();
        assert!(move_events(&mut pos, m, RuleSet::Cxa).is_empty());
        let axf = move_events(&mut pos, m, RuleSet::Axf);
        assert_eq!((axf.len(), axf[0].kind.as_str()), (1, "chase"));
        assert_eq!(axf[0].victims, ["f8"]);
        assert_eq!(pos.fen(), Position::from_fen(fen).unwrap().fen());
        // a whole review (casebook A01's moves): the advisor's e8d9 chases the horse g8 under
        // the CXA rules (it takes away the cannon's recapture on g8) and is idle under the
        // Asian rules, where the frozen rook's attack on its horse is no chase
        let pgn = "[FEN \"4k4/1R2arN2/9/9/3C5/9/9/9/9/3K5 w - - 0 1\"]\n\n1. d5d8 e8d9 2. d8d5 *\n";
        let game = crate::records::read_text(pgn, "a01.pgn")
            .remove(0)
            .unwrap_or_else(|b| panic!("{}", b.error));
        let events = |rules| {
            let s = Settings {
                budget: Budget::Nodes(300),
                rules,
                hash_mib: 1,
                notation: Notation::Iccs,
            };
            let g = analyze_game(&game, "a01.pgn", &s).unwrap();
            let kinds = |r: &MoveReview| r.events.iter().map(|e| e.kind.clone()).collect();
            g.moves.iter().map(kinds).collect::<Vec<Vec<String>>>()
        };
        assert_eq!(events(RuleSet::Cxa), [["chase"], ["chase"], ["chase"]]);
        assert_eq!(events(RuleSet::Axf), [vec!["chase"], vec![], vec!["chase"]]);
    }

    #[test]
    fn evals_flip_and_print_for_pgn() {
        let e = Eval::of_score(35);
        assert_eq!(e.pgn(), "0.35");
        assert_eq!(e.flip().pgn(), "-0.35");
        assert!((e.expected + e.flip().expected - 1.0).abs() < 1e-9);
        let mate = Eval::of_score(MATE - 3);
        assert_eq!(mate.pgn(), "#2");
        assert_eq!(xml_escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
