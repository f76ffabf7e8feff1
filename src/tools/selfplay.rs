//! Self-play games at a fixed node budget, the raw material of both tuners: `tune gen` (Texel
//! tuning of the hand-crafted weights) keeps their quiet positions, `nnue gen` keeps the whole
//! games with every move's search score ([`GameRecord`]).
//!
//! A game opens with a few random legal moves (kept only if a search finds the position
//! roughly level; a few tries, then any), then each side plays the move of a fixed-node search
//! with the game's history (so the repetition rules apply), every position judged by the
//! rules (`rules::adjudicate`). A game ends by the rules, when one side's score stays beyond
//! the resign score for a few plies in a row (that side wins), or as a draw after a ply limit.

use crate::book::Rng;
use crate::core::{Color, Move, Position};
use crate::engine::{Engine, Options};
use crate::rules::{GameResult, RuleSet, adjudicate};
use crate::search::{Limits, mate_plies};
use crate::tools::nnue::data::{GameRecord, NO_SCORE};

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Random moves that open each game: from `random_plies.0` to `random_plies.1`.
    pub random_plies: (usize, usize),
    /// An opening is kept only if the search scores it within this many centipawns.
    pub balance: i32,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// A side whose score stays beyond this for `resign_plies` plies in a row wins.
    pub resign: i32,
    pub resign_plies: usize,
    pub hash_mib: usize,
    pub rules: RuleSet,
    /// The evaluation both sides play with: `hce`, `nnue` (the embedded net) or a net file
    /// (see [`Engine::set_eval`]).
    pub eval: String,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            nodes: 5000,
            random_plies: (6, 10),
            balance: 150,
            max_plies: 300,
            resign: 1000,
            resign_plies: 6,
            hash_mib: 8,
            rules: RuleSet::Cxa,
            eval: "hce".into(),
        }
    }
}

impl SelfPlay {
    /// Checks the settings; a one-line error for the command line.
    pub fn check(&self) -> Result<(), String> {
        if self.nodes == 0 {
            return Err("--nodes must be at least 1".into());
        }
        if self.random_plies.0 > self.random_plies.1 {
            return Err("the random opening's shortest length exceeds its longest".into());
        }
        Engine::new(Options {
            hash_mib: 1,
            ..Options::default()
        })
        .set_eval(&self.eval)
        .map(|_| ())
    }
}

/// Parses `MIN-MAX` (or a single `N`) as a range of plies.
pub fn parse_range(text: &str) -> Result<(usize, usize), String> {
    text.split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .or_else(|| text.trim().parse().ok().map(|n| (n, n)))
        .ok_or_else(|| format!("'{text}' is not MIN-MAX"))
}

/// Plays one game from the random state `seed`; the same seed gives the same game.
pub fn play_game(seed: u64, play: &SelfPlay) -> GameRecord {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::new(Options {
        hash_mib: play.hash_mib,
        threads: 1,
        rules: play.rules,
    });
    // checked by `SelfPlay::check`; a net that cannot be read plays with the default
    let _ = engine.set_eval(&play.eval);
    let limits = Limits {
        nodes: Some(play.nodes),
        ..Limits::default()
    };
    let start_fen = Position::startpos().fen();
    let (mut pos, mut moves): (Position, Vec<(Move, i16)>) = (Position::startpos(), Vec::new());
    let texts = |moves: &[(Move, i16)]| -> Vec<String> {
        moves.iter().map(|(m, _)| m.to_string()).collect()
    };
    for attempt in 0..20 {
        pos = Position::startpos();
        moves.clear();
        let (lo, hi) = play.random_plies;
        let plies = lo + rng.below(hi.saturating_sub(lo) + 1);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal.as_slice()[rng.below(legal.len())];
            pos.make_move(m);
            moves.push((m, NO_SCORE));
        }
        if adjudicate(&pos, play.rules).is_over() {
            continue;
        }
        let t = texts(&moves);
        let t: Vec<&str> = t.iter().map(String::as_str).collect();
        if engine.set_position(None, &t).is_err() {
            continue;
        }
        let r = engine.go(limits.clone(), |_| {});
        if r.score.abs() <= play.balance || attempt == 19 {
            break;
        }
    }
    engine.new_game();
    let mut text: Vec<String> = texts(&moves);
    let mut streak: (i32, usize) = (0, 0); // sign of the lopsided score, plies in a row
    let result = loop {
        let verdict = adjudicate(&pos, play.rules);
        if verdict.is_over() {
            break verdict.result;
        }
        if moves.len() >= play.max_plies {
            break GameResult::Draw;
        }
        let t: Vec<&str> = text.iter().map(String::as_str).collect();
        if engine.set_position(None, &t).is_err() {
            break GameResult::Draw;
        }
        let r = engine.go(limits.clone(), |_| {});
        let Some(best) = r.best else {
            break GameResult::Draw;
        };
        let red_score = if pos.side_to_move() == Color::Red {
            r.score
        } else {
            -r.score
        };
        let side = if red_score >= play.resign || mate_plies(red_score).is_some_and(|n| n > 0) {
            1
        } else if red_score <= -play.resign || mate_plies(red_score).is_some_and(|n| n < 0) {
            -1
        } else {
            0
        };
        streak = if side != 0 && side == streak.0 {
            (side, streak.1 + 1)
        } else {
            (side, usize::from(side != 0))
        };
        if streak.1 >= play.resign_plies {
            break if side > 0 {
                GameResult::RedWins
            } else {
                GameResult::BlackWins
            };
        }
        pos.make_move(best);
        moves.push((
            best,
            r.score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16,
        ));
        text.push(best.to_string());
    };
    GameRecord {
        start_fen,
        result,
        moves,
    }
}
