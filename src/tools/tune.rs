//! `chariot tune`: Texel tuning of the evaluation weights on positions Chariot makes itself.
//!
//! * `gen` plays self-play games at a fixed node budget from random openings (a few random
//!   legal moves, kept only if a search finds them roughly level), judges every position by
//!   the rules (`rules::adjudicate`), ends lopsided games early, and writes the quiet
//!   positions (side to move not in check, best move not a capture, no mate found) labelled
//!   with the game's result: one `FEN | result` line each, the result from Red's side
//!   (`1`, `0.5`, `0`).
//! * `label` searches each such position (a fixed node budget, a cleared table) and writes
//!   Red's expected result from the search's score, blended with the game's result: the
//!   search's verdict is a far less noisy target than the result of one game.
//! * `fit` reads such files, turns each position into its feature vector ([`eval::trace`]),
//!   fits the scale `K` of the logistic `1 / (1 + 10^(-K·eval/400))` to the results, then
//!   minimises the mean squared error between that and the results over all weights with
//!   Adam (full batch), and writes the tuned table as the Rust source of
//!   `src/eval/weights.rs`.

use crate::core::{Color, Position};
use crate::engine::{Engine, Options};
use crate::eval::features::{GROUPS, MATERIAL, NUM_WEIGHTS};
use crate::eval::{self, PHASE_MAX, S};
use crate::rules::{GameResult, RuleSet};
use crate::search::{Limits, mate_plies};
use crate::tools::nnue::data::NO_SCORE;
use crate::tools::selfplay::{SelfPlay, play_game as play_game_record};
use rayon::prelude::*;
use std::io::{BufRead, Write};
use std::sync::Mutex;

/// Settings of `chariot tune gen`.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub games: usize,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    pub seed: u64,
    /// Random moves that open each game: from `random_plies.0` to `random_plies.1`.
    pub random_plies: (usize, usize),
    /// An opening is kept only if the search scores it within this many centipawns.
    pub balance: i32,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
    /// A side whose score stays beyond this for `RESIGN_PLIES` plies in a row wins.
    pub resign: i32,
    pub hash_mib: usize,
    pub rules: RuleSet,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            games: 2000,
            nodes: 5000,
            threads: 2,
            seed: 1,
            random_plies: (6, 10),
            balance: 150,
            max_plies: 300,
            resign: 1000,
            hash_mib: 8,
            rules: RuleSet::Cxa,
        }
    }
}

/// Consecutive plies beyond the resign score that end a game.
const RESIGN_PLIES: usize = 6;

/// What `gen` produced.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    pub games: usize,
    pub positions: usize,
    pub red_wins: usize,
    pub black_wins: usize,
    pub draws: usize,
}

/// One self-play game: the quiet positions (FENs: side to move not in check, the move played
/// not a capture, no mate score) and the result.
fn play_game(index: usize, opts: &GenOptions) -> (Vec<String>, GameResult) {
    let seed = opts
        .seed
        .wrapping_mul(0x2545_f491_4f6c_dd1d)
        .wrapping_add(index as u64);
    let play = SelfPlay {
        nodes: opts.nodes,
        random_plies: opts.random_plies,
        balance: opts.balance,
        max_plies: opts.max_plies,
        resign: opts.resign,
        resign_plies: RESIGN_PLIES,
        hash_mib: opts.hash_mib,
        rules: opts.rules,
        eval: "hce".into(),
    };
    let game = play_game_record(seed, &play);
    let mut kept = Vec::new();
    let replayed = game.replay(|pos, best, score| {
        if score != NO_SCORE
            && !pos.in_check()
            && pos.piece_on(best.to()).is_none()
            && mate_plies(i32::from(score)).is_none()
        {
            kept.push(pos.fen());
        }
    });
    debug_assert!(replayed.is_ok(), "a self-play game replays");
    (kept, game.result)
}

/// Plays `opts.games` games and writes their labelled quiet positions to `out`.
pub fn generate(
    opts: &GenOptions,
    out: impl Write + Send,
    progress: impl Fn(&GenStats) + Sync,
) -> Result<GenStats, String> {
    if opts.games == 0 || opts.nodes == 0 || opts.threads == 0 {
        return Err("--games, --nodes and --threads must be at least 1".into());
    }
    if opts.random_plies.0 > opts.random_plies.1 {
        return Err("the random opening's shortest length exceeds its longest".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    let state = Mutex::new((std::io::BufWriter::new(out), GenStats::default(), None));
    let step = (opts.games / 20).max(1);
    pool.install(|| {
        (0..opts.games).into_par_iter().for_each(|i| {
            let (fens, result) = play_game(i, opts);
            let label = match result {
                GameResult::RedWins => "1",
                GameResult::BlackWins => "0",
                _ => "0.5",
            };
            let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
            let (w, stats, error) = &mut *guard;
            for fen in &fens {
                if let Err(e) = writeln!(w, "{fen} | {label}")
                    && error.is_none()
                {
                    *error = Some(format!("cannot write positions: {e}"));
                }
            }
            stats.games += 1;
            stats.positions += fens.len();
            match result {
                GameResult::RedWins => stats.red_wins += 1,
                GameResult::BlackWins => stats.black_wins += 1,
                _ => stats.draws += 1,
            }
            if stats.games % step == 0 {
                progress(stats);
            }
        });
    });
    let (mut w, stats, error) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(e);
    }
    w.flush()
        .map_err(|e| format!("cannot write positions: {e}"))?;
    Ok(stats)
}

/// Settings of `chariot tune label`.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// Node budget of each position's search.
    pub nodes: u64,
    /// Weight of the search's verdict in the label (the game result has `1 - lambda`).
    pub lambda: f64,
    /// Logistic scale turning the search score into an expected result; fitted to the
    /// positions' results under the compiled weights when `None`.
    pub k: Option<f64>,
    pub threads: usize,
    pub rules: RuleSet,
}

/// Red's expected result from a search score (side to move's view) under scale `k`: a
/// mate found is a certain result.
fn expected_result(score: i32, red_to_move: bool, k: f64) -> f64 {
    let red = if red_to_move { score } else { -score };
    match mate_plies(red) {
        Some(n) if n > 0 => 1.0,
        Some(_) => 0.0,
        None => sigmoid(k, red as f64),
    }
}

/// Re-labels `FEN | result` lines with what a search of each position expects, blended
/// with the game's result: `lambda · sigmoid(K · score) + (1 − lambda) · result`. Every
/// position is searched from a cleared table, so the labels do not depend on the order or
/// the threads. Returns the lines to write (input order) and the `K` used.
pub fn label(
    lines: &[String],
    opts: &LabelOptions,
    progress: impl Fn(usize) + Sync,
) -> Result<(Vec<String>, f64), String> {
    if opts.nodes == 0 || opts.threads == 0 {
        return Err("--nodes and --threads must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&opts.lambda) {
        return Err("--lambda must be between 0 and 1".into());
    }
    let parsed: Vec<(Position, f32)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(n, l)| parse_line(l.trim()).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect::<Result<_, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    let k = match opts.k {
        Some(k) => k,
        None => {
            let mut data = Dataset::default();
            for (pos, r) in &parsed {
                data.push(&eval::trace(pos), *r);
            }
            let w: Vec<f64> = eval::weights::W
                .iter()
                .flat_map(|s| [s.0 as f64, s.1 as f64])
                .collect();
            pool.install(|| fit_k(&data, &w))
        }
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let step = (parsed.len() / 20).max(1);
    let limits = Limits {
        nodes: Some(opts.nodes),
        ..Limits::default()
    };
    let out = pool.install(|| {
        parsed
            .par_iter()
            .map_init(
                || {
                    Engine::new(Options {
                        hash_mib: 1,
                        threads: 1,
                        rules: opts.rules,
                    })
                },
                |engine, (pos, result)| {
                    let fen = pos.fen();
                    engine.new_game();
                    let searched = engine
                        .set_position(Some(&fen), &[])
                        .ok()
                        .map(|()| engine.go(limits.clone(), |_| {}))
                        .filter(|r| r.best.is_some());
                    let label = match searched {
                        Some(r) => {
                            let red_to_move = pos.side_to_move() == Color::Red;
                            opts.lambda * expected_result(r.score, red_to_move, k)
                                + (1.0 - opts.lambda) * *result as f64
                        }
                        None => *result as f64,
                    };
                    let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    if n.is_multiple_of(step) {
                        progress(n);
                    }
                    format!("{fen} | {label:.4}")
                },
            )
            .collect()
    });
    Ok((out, k))
}

/// Settings of `chariot tune fit`.
#[derive(Clone, Debug)]
pub struct FitOptions {
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub lr: f64,
    /// Pull of each weight towards its starting value (L2), per position.
    pub l2: f64,
    /// The logistic scale; fitted to the data when `None`.
    pub k: Option<f64>,
    pub threads: usize,
    /// Groups (by name prefix, as in `features::GROUPS`) whose weights stay as they are.
    pub freeze: Vec<String>,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 1500,
            lr: 1.0,
            l2: 0.0,
            k: None,
            threads: 2,
            freeze: Vec::new(),
        }
    }
}

/// Positions as feature vectors: compact, in flat arrays.
#[derive(Default)]
pub struct Dataset {
    start: Vec<u32>,
    index: Vec<u16>,
    count: Vec<i16>,
    phase: Vec<u8>,
    result: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    fn push(&mut self, t: &eval::Trace, result: f32) {
        self.start.push(self.index.len() as u32);
        for &(i, n) in &t.features {
            self.index.push(i);
            self.count.push(n);
        }
        self.phase.push(t.phase as u8);
        self.result.push(result);
    }

    fn features(&self, p: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let a = self.start[p] as usize;
        let b = self
            .start
            .get(p + 1)
            .map_or(self.index.len(), |&s| s as usize);
        (a..b).map(|j| (self.index[j] as usize, self.count[j] as f64))
    }

    /// Red's evaluation of position `p` under real-valued weights (mg, eg interleaved).
    fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let ph = self.phase[p] as f64 / PHASE_MAX as f64;
        let (mut mg, mut eg) = (0.0, 0.0);
        for (i, n) in self.features(p) {
            mg += w[2 * i] * n;
            eg += w[2 * i + 1] * n;
        }
        mg * ph + eg * (1.0 - ph)
    }
}

/// Parses one `FEN | result` line (result 1, 0.5 or 0 from Red's side; `1-0`, `1/2-1/2`,
/// `0-1` also accepted; or Red's expected score between 0 and 1, as `label` writes it).
pub fn parse_line(line: &str) -> Result<(Position, f32), String> {
    let (fen, result) = line
        .rsplit_once('|')
        .ok_or_else(|| "expected 'FEN | result'".to_string())?;
    let result = match result.trim() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" | "1/2" => 0.5,
        other => match other.parse::<f32>() {
            Ok(r) if (0.0..=1.0).contains(&r) => r,
            _ => return Err(format!("result '{other}' is not between 0 and 1")),
        },
    };
    let pos = Position::from_fen(fen.trim()).map_err(|e| e.to_string())?;
    Ok((pos, result))
}

/// Reads position files into a dataset; a bad line is an error naming file and line.
pub fn load(paths: &[std::path::PathBuf]) -> Result<Dataset, String> {
    let mut data = Dataset::default();
    for path in paths {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let lines: Vec<String> = std::io::BufReader::new(file)
            .lines()
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let parsed: Vec<Result<Option<(eval::Trace, f32)>, String>> = lines
            .par_iter()
            .enumerate()
            .map(|(n, line)| {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    return Ok(None);
                }
                parse_line(line)
                    .map(|(pos, r)| Some((eval::trace(&pos), r)))
                    .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))
            })
            .collect();
        for item in parsed {
            if let Some((t, r)) = item? {
                data.push(&t, r);
            }
        }
    }
    Ok(data)
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Mean squared error of the logistic prediction against the results.
fn loss(data: &Dataset, w: &[f64], k: f64) -> f64 {
    let sum: f64 = (0..data.len())
        .into_par_iter()
        .map(|p| {
            let d = sigmoid(k, data.eval(p, w)) - data.result[p] as f64;
            d * d
        })
        .sum();
    sum / data.len().max(1) as f64
}

/// The `K` that minimises the error for fixed weights (golden-section search).
pub fn fit_k(data: &Dataset, w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(data, w, c) < loss(data, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Gradient of the error with respect to every weight (mg, eg interleaved).
fn gradient(data: &Dataset, w: &[f64], k: f64) -> Vec<f64> {
    let n = data.len().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let chunk = 4096;
    let mut g = (0..data.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut g = vec![0.0; w.len()];
            for p in c * chunk..((c + 1) * chunk).min(data.len()) {
                let s = sigmoid(k, data.eval(p, w));
                let common = 2.0 * (s - data.result[p] as f64) * s * (1.0 - s) * scale;
                let ph = data.phase[p] as f64 / PHASE_MAX as f64;
                for (i, v) in data.features(p) {
                    g[2 * i] += common * v * ph;
                    g[2 * i + 1] += common * v * (1.0 - ph);
                }
            }
            g
        })
        .reduce(
            || vec![0.0; w.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    for x in &mut g {
        *x /= n;
    }
    g
}

/// The result of a fit.
pub struct Fit {
    pub weights: Vec<S>,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    /// Error on the validation set before and after, if one was given.
    pub valid_before: Option<f64>,
    pub valid_after: Option<f64>,
    /// The epoch whose weights were kept.
    pub best_epoch: usize,
}

/// Tunes `start` on `data`; `progress` hears (epoch, error, validation error) every 50
/// epochs. With a validation set (positions from other games) the weights returned are those
/// of the check with the lowest validation error (early stopping).
pub fn fit(
    data: &Dataset,
    valid: Option<&Dataset>,
    start: &[S],
    opts: &FitOptions,
    mut progress: impl FnMut(usize, f64, Option<f64>) + Send,
) -> Result<Fit, String> {
    if data.is_empty() {
        return Err("no positions to tune on".into());
    }
    if opts.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    if let Some(f) = opts
        .freeze
        .iter()
        .find(|f| !GROUPS.iter().any(|g| g.0.starts_with(f.as_str())))
    {
        let names: Vec<&str> = GROUPS.iter().map(|g| g.0).collect();
        return Err(format!(
            "no weight group starts with '{f}' (groups: {})",
            names.join(", ")
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    pool.install(|| {
        let w0: Vec<f64> = start
            .iter()
            .flat_map(|s| [s.0 as f64, s.1 as f64])
            .collect();
        let k = opts.k.unwrap_or_else(|| fit_k(data, &w0));
        let loss_before = loss(data, &w0, k);
        let valid = valid.filter(|v| !v.is_empty());
        // the king's material is never on the board twice: it stays 0
        let mut frozen = vec![false; w0.len()];
        frozen[2 * MATERIAL] = true;
        frozen[2 * MATERIAL + 1] = true;
        for &(name, start, len) in GROUPS {
            if opts.freeze.iter().any(|f| name.starts_with(f.as_str())) {
                frozen[2 * start..2 * (start + len)].fill(true);
            }
        }
        let mut w = w0.clone();
        let mut best = (
            valid.map_or(f64::INFINITY, |v| loss(v, &w0, k)),
            w0.clone(),
            0,
        );
        let valid_before = valid.map(|_| best.0);
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        let mut m = vec![0.0; w.len()];
        let mut v = vec![0.0; w.len()];
        for epoch in 1..=opts.epochs {
            let mut g = gradient(data, &w, k);
            for i in 0..w.len() {
                g[i] += 2.0 * opts.l2 * (w[i] - w0[i]);
            }
            for i in 0..w.len() {
                if frozen[i] {
                    continue;
                }
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                let mh = m[i] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i] / (1.0 - b2.powi(epoch as i32));
                w[i] -= opts.lr * mh / (vh.sqrt() + eps);
            }
            if epoch % 50 == 0 || epoch == opts.epochs {
                let v = valid.map(|v| loss(v, &w, k));
                if let Some(v) = v
                    && v < best.0
                {
                    best = (v, w.clone(), epoch);
                }
                progress(epoch, loss(data, &w, k), v);
            }
        }
        let best_epoch = if valid.is_some() {
            w = best.1;
            best.2
        } else {
            opts.epochs
        };
        let weights: Vec<S> = w
            .chunks(2)
            .map(|p| S(p[0].round() as i32, p[1].round() as i32))
            .collect();
        let rounded: Vec<f64> = weights
            .iter()
            .flat_map(|s| [s.0 as f64, s.1 as f64])
            .collect();
        Ok(Fit {
            loss_after: loss(data, &rounded, k),
            valid_before,
            valid_after: valid.map(|v| loss(v, &rounded, k)),
            best_epoch,
            weights,
            k,
            loss_before,
        })
    })
}

/// The Rust source of `src/eval/weights.rs` for a weight table.
pub fn weights_source(w: &[S]) -> String {
    assert_eq!(w.len(), NUM_WEIGHTS, "a full weight table");
    let mut out = String::new();
    out.push_str(
        "//! Evaluation weights as (middlegame, endgame) pairs, laid out as `features` says.\n\
         //! Written by `chariot tune fit` (scripts/README.md); edit by re-tuning, not by hand.\n\n\
         use super::S;\nuse super::features::NUM_WEIGHTS;\n\n#[rustfmt::skip]\n\
         pub const W: [S; NUM_WEIGHTS] = [\n",
    );
    for &(name, start, len) in GROUPS {
        out.push_str(&format!("    // {name}\n"));
        let per = if name.starts_with("pst") { 5 } else { 9 };
        for row in w[start..start + len].chunks(per) {
            let cells: Vec<String> = row
                .iter()
                .map(|s| format!("S({}, {}),", s.0, s.1))
                .collect();
            out.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::W;

    #[test]
    fn printed_table_is_the_compiled_table() {
        // the source the tuner writes for the current weights is the file itself
        let text = weights_source(&W);
        let file = include_str!("../eval/weights.rs");
        assert_eq!(text, file);
    }

    #[test]
    fn parse_line_reads_and_refuses() {
        let (pos, r) = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 0.5",
        )
        .unwrap();
        assert_eq!(r, 0.5);
        assert_eq!(pos, Position::startpos());
        assert!(parse_line("rnbakabnr/9 w | 1").is_err());
        assert!(parse_line(&format!("{} | 2", crate::core::START_FEN)).is_err());
        assert!(parse_line(&format!("{} | -0.1", crate::core::START_FEN)).is_err());
        assert!(parse_line(&format!("{} | draw", crate::core::START_FEN)).is_err());
        let (_, r) = parse_line(&format!("{} | 0.7321", crate::core::START_FEN)).unwrap();
        assert_eq!(r, 0.7321);
        let (_, r) = parse_line(&format!("{} | 0-1", crate::core::START_FEN)).unwrap();
        assert_eq!(r, 0.0);
        assert!(parse_line(crate::core::START_FEN).is_err());
    }

    #[test]
    fn dataset_eval_matches_the_engine() {
        // the tuner's real-valued evaluation with the compiled weights is evaluate()
        let fens = [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
            "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1C1N2/9/R1BAKAB2 b",
            "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1R2 w",
        ];
        let w: Vec<f64> = W.iter().flat_map(|s| [s.0 as f64, s.1 as f64]).collect();
        let mut data = Dataset::default();
        for fen in fens {
            data.push(&eval::trace(&Position::from_fen(fen).unwrap()), 0.5);
        }
        for (p, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap();
            let red = if pos.side_to_move() == Color::Red {
                eval::evaluate(&pos)
            } else {
                -eval::evaluate(&pos)
            };
            assert!((data.eval(p, &w) - red as f64).abs() <= 1.0, "{fen}");
        }
    }

    #[test]
    fn fit_moves_towards_the_results() {
        // Red wins every game where Red has an extra rook: tuning must raise the rook's
        // value (or the error would not fall)
        let mut data = Dataset::default();
        let up =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        let even = Position::startpos();
        for _ in 0..50 {
            data.push(&eval::trace(&up), 1.0);
            data.push(&eval::trace(&even), 0.5);
        }
        let opts = FitOptions {
            epochs: 200,
            k: Some(1.0),
            threads: 1,
            ..FitOptions::default()
        };
        let f = fit(&data, None, &W, &opts, |_, _, _| {}).unwrap();
        assert!(f.loss_after < f.loss_before);
        let rook = MATERIAL + 4;
        assert!(f.weights[rook].0 + f.weights[rook].1 > W[rook].0 + W[rook].1);
    }

    #[test]
    fn labels_follow_the_search_and_blend_with_the_result() {
        // Red a rook up (Black to move), a level start, and Red mating in one (the rook
        // to the back rank); every game "lost" by Red
        let lines: Vec<String> = [
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | 0",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 0",
            "3k5/R8/9/9/9/9/9/9/1R7/4K4 w - - 0 1 | 0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let opts = |lambda| LabelOptions {
            nodes: 3000,
            lambda,
            k: Some(1.0),
            threads: 1,
            rules: RuleSet::Cxa,
        };
        let value = |l: &str| parse_line(l).unwrap().1;
        let (search, k) = label(&lines, &opts(1.0), |_| {}).unwrap();
        assert_eq!(k, 1.0);
        assert_eq!(search.len(), 3);
        assert!(value(&search[0]) > 0.8, "{}", search[0]);
        assert!((value(&search[1]) - 0.5).abs() < 0.1, "{}", search[1]);
        assert_eq!(value(&search[2]), 1.0, "{}", search[2]);
        // the positions themselves are kept
        for (a, b) in lines.iter().zip(&search) {
            assert_eq!(parse_line(a).unwrap().0, parse_line(b).unwrap().0);
        }
        // lambda 0 is the game result; a blend lies between
        let (results, _) = label(&lines, &opts(0.0), |_| {}).unwrap();
        assert!(results.iter().all(|l| value(l) == 0.0), "{results:?}");
        let (half, _) = label(&lines, &opts(0.5), |_| {}).unwrap();
        for (h, s) in half.iter().zip(&search) {
            assert!((value(h) - value(s) / 2.0).abs() < 1e-3, "{h} vs {s}");
        }
        // labels do not depend on the threads
        let two = LabelOptions {
            threads: 2,
            ..opts(1.0)
        };
        assert_eq!(label(&lines, &two, |_| {}).unwrap().0, search);
        assert!(label(&lines, &opts(1.5), |_| {}).is_err());
    }

    #[test]
    fn generation_writes_labelled_quiet_positions() {
        let opts = GenOptions {
            games: 2,
            nodes: 200,
            threads: 1,
            max_plies: 40,
            ..GenOptions::default()
        };
        let mut buf = Vec::new();
        let stats = generate(&opts, &mut buf, |_| {}).unwrap();
        assert_eq!(stats.games, 2);
        assert_eq!(stats.red_wins + stats.black_wins + stats.draws, 2);
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.lines().count(), stats.positions);
        assert!(stats.positions > 0);
        for line in text.lines() {
            let (pos, _) = parse_line(line).unwrap();
            assert!(!pos.in_check(), "{line}");
        }
    }
}
