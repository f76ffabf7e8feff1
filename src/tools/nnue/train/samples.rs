//! Training positions: the compact [`Sample`], loading games into a [`Dataset`] through the filters, and the fitted K.

use super::TrainOptions;
use super::model::Rng;
use crate::core::{Position, Square};
use crate::eval::nnue::features;
use crate::rules::GameResult;
use crate::search::mate_plies;
use crate::tools::nnue::data::{self, GameRecord, NO_SCORE};
use rayon::prelude::*;
use std::path::PathBuf;

/// Positions dropped by each filter (each position counted once, by the first filter that
/// drops it, in the order of the fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    pub opening: usize,
    pub unscored: usize,
    pub in_check: usize,
    pub capture: usize,
    pub mate: usize,
    pub score_cap: usize,
}

impl Dropped {
    pub(super) fn add(&mut self, o: &Dropped) {
        self.opening += o.opening;
        self.unscored += o.unscored;
        self.in_check += o.in_check;
        self.capture += o.capture;
        self.mate += o.mate;
        self.score_cap += o.score_cap;
    }

    pub fn total(&self) -> usize {
        self.opening + self.unscored + self.in_check + self.capture + self.mate + self.score_cap
    }
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "opening {}, unscored {}, in check {}, capture {}, mate {}, score cap {}",
            self.opening, self.unscored, self.in_check, self.capture, self.mate, self.score_cap
        )
    }
}

/// Distinct (piece, point) codes: `piece.index() · 90 + square`.
pub(super) const CODES: usize = 14 * 90;

/// One training position in 32 bytes: the occupied points as a bitmap, the pieces on them
/// in point order at 4 bits each (a board holds at most 32), and the labels. Half the size
/// of a list of 32 piece-point codes, so twice the positions fit in memory; the codes are
/// unpacked when a sample is used, in the same order (point by point), so training sees
/// exactly what it saw before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Bit `i % 32` of word `i / 32`: a piece stands on point `i`.
    pub(super) occupied: [u32; 3],
    /// The piece index ([`Piece::index`]) on the `n`-th occupied point in the low (even `n`)
    /// or high (odd `n`) half of byte `n / 2`.
    pub(super) pieces: [u8; 16],
    /// Bit 0: the side to move (0 Red, 1 Black); bits 1-2: its result in half-points (0
    /// loss, 1 draw, 2 win).
    pub(super) side_result: u8,
    /// Rooks, horses and cannons on the board ([`features::material_count`]).
    pub(super) material: u8,
    /// The stored search score, side to move's view ([`NO_SCORE`] if none).
    pub(super) score: i16,
}

impl Sample {
    /// The position's sample; `None` if it holds more than 32 pieces.
    pub fn new(pos: &Position, score: i16, result: GameResult) -> Option<Sample> {
        let stm = pos.side_to_move();
        let half_points = match result.winner() {
            Some(c) if c == stm => 2,
            Some(_) => 0,
            None => 1,
        };
        let mut s = Sample {
            occupied: [0; 3],
            pieces: [0; 16],
            side_result: stm as u8 | half_points << 1,
            material: features::material_count(pos) as u8,
            score,
        };
        let mut n = 0;
        for sq in Square::ALL {
            if let Some(p) = pos.piece_on(sq) {
                if n == 32 {
                    return None;
                }
                let i = sq.index();
                s.occupied[i / 32] |= 1 << (i % 32);
                s.pieces[n / 2] |= (p.index() as u8) << (4 * (n % 2));
                n += 1;
            }
        }
        Some(s)
    }

    /// The side to move: 0 Red, 1 Black.
    #[inline(always)]
    pub(super) fn stm(&self) -> u8 {
        self.side_result & 1
    }

    /// The side to move's result in half-points: 0 loss, 1 draw, 2 win.
    #[inline(always)]
    pub(super) fn result(&self) -> u8 {
        self.side_result >> 1
    }

    /// The pieces as `piece.index() · 90 + point` codes, point by point, unpacked into `buf`.
    #[inline(always)]
    pub(super) fn codes<'a>(&self, buf: &'a mut [u16; 32]) -> &'a [u16] {
        let mut n = 0;
        for (w, &word) in self.occupied.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let point = w * 32 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let piece = (self.pieces[n / 2] >> (4 * (n % 2))) & 15;
                buf[n] = u16::from(piece) * 90 + point as u16;
                n += 1;
            }
        }
        &buf[..n]
    }

    /// The output bucket of a net of `buckets` output layers.
    #[inline(always)]
    pub(super) fn bucket(&self, buckets: usize) -> usize {
        features::bucket_of_count(usize::from(self.material), buckets)
    }

    /// The training target for scale `k` and result weight `wdl`.
    pub(super) fn target(&self, k: f32, wdl: f32) -> f32 {
        let r = f32::from(self.result()) * 0.5;
        if self.score == NO_SCORE {
            return r;
        }
        wdl * r + (1.0 - wdl) * sigmoid(f32::from(self.score) / k)
    }
}

pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    pub games: usize,
    pub valid_games: usize,
    /// Positions seen (kept and dropped).
    pub positions: usize,
    pub dropped: Dropped,
}

/// The kept samples of one game.
pub(super) fn game_samples(
    g: &GameRecord,
    opts: &TrainOptions,
) -> Result<(Vec<Sample>, Dropped), String> {
    let mut out = Vec::with_capacity(g.moves.len());
    let mut d = Dropped::default();
    let mut ply = 0;
    let mut too_many = false;
    g.replay(|pos, m, score| {
        ply += 1;
        if ply <= opts.skip_plies {
            d.opening += 1;
        } else if opts.skip_unscored && score == NO_SCORE {
            d.unscored += 1;
        } else if opts.skip_checks && pos.in_check() {
            d.in_check += 1;
        } else if opts.skip_captures && pos.piece_on(m.to()).is_some() {
            d.capture += 1;
        } else if opts.skip_mates && score != NO_SCORE && mate_plies(i32::from(score)).is_some() {
            d.mate += 1;
        } else if score != NO_SCORE && opts.max_score.is_some_and(|c| i32::from(score).abs() > c) {
            d.score_cap += 1;
        } else {
            match Sample::new(pos, score, g.result) {
                Some(s) => out.push(s),
                None => too_many = true,
            }
        }
    })?;
    if too_many {
        return Err("a position with more than 32 pieces".into());
    }
    Ok((out, d))
}

/// The validation hash of game `index`: uniform in [0, 1).
pub(super) fn game_hash(seed: u64, index: usize) -> f64 {
    Rng(seed
        .wrapping_mul(0xd1b5_4a32_d192_ed03)
        .wrapping_add(index as u64)
        ^ 0x7661_6c69_6461_7465)
    .unit()
}

/// Reads the games files and applies the filters and the validation split.
pub fn load(files: &[PathBuf], opts: &TrainOptions) -> Result<Dataset, String> {
    // every kept sample in the order read, and each game's (content hash, first sample, sample
    // count): the games are sorted by the hash below, so the files' order and the order games
    // finished in while generating change nothing (the validation split and the shuffles follow
    // from the seed and the set of games alone). Memory at the peak: two samples a kept
    // position (this list and the split), 64 bytes.
    let mut read: Vec<Sample> = Vec::new();
    let mut per_game: Vec<(u64, usize, usize)> = Vec::new();
    let mut ds = Dataset::default();
    for path in files {
        let games = data::read_file(path)?;
        let base = per_game.len();
        let results: Vec<Result<(Vec<Sample>, Dropped), String>> =
            games.par_iter().map(|g| game_samples(g, opts)).collect();
        for (i, (r, g)) in results.into_iter().zip(&games).enumerate() {
            let (samples, d) =
                r.map_err(|e| format!("{}: game {}: {e}", path.display(), base + i + 1))?;
            ds.positions += g.moves.len();
            ds.dropped.add(&d);
            let mut bytes = Vec::with_capacity(64 + 4 * g.moves.len());
            g.encode(&mut bytes);
            let hash = crate::eval::nnue::format::fnv1a64(&bytes);
            per_game.push((hash, read.len(), samples.len()));
            read.extend_from_slice(&samples);
        }
    }
    // stable: a game played twice keeps its place among its copies
    per_game.sort_by_key(|&(key, _, _)| key);
    ds.games = per_game.len();
    let hashes: Vec<f64> = (0..ds.games).map(|i| game_hash(opts.seed, i)).collect();
    let mut is_valid: Vec<bool> = hashes.iter().map(|&x| x < opts.valid).collect();
    // a wanted validation set is never empty while there are two games or more
    if opts.valid > 0.0 && ds.games >= 2 && !is_valid.iter().any(|&v| v) {
        let lowest = (0..ds.games)
            .min_by(|&a, &b| hashes[a].total_cmp(&hashes[b]))
            .unwrap_or(0);
        is_valid[lowest] = true;
    }
    let valid_len: usize = per_game
        .iter()
        .zip(&is_valid)
        .filter(|&(_, &v)| v)
        .map(|(g, _)| g.2)
        .sum();
    ds.valid.reserve_exact(valid_len);
    ds.train.reserve_exact(read.len() - valid_len);
    for (&(_, first, len), v) in per_game.iter().zip(is_valid) {
        let samples = &read[first..first + len];
        if v {
            ds.valid_games += 1;
            ds.valid.extend_from_slice(samples);
        } else {
            ds.train.extend_from_slice(samples);
        }
    }
    Ok(ds)
}

/// The K (centipawns) that best fits `sigmoid(score / K)` to the results of the scored
/// positions (least squares, golden-section search over 50..5000); `None` without any.
pub fn fit_k(samples: &[Sample]) -> Option<f32> {
    let scored: Vec<(f32, f32)> = samples
        .iter()
        .filter(|s| s.score != NO_SCORE && mate_plies(i32::from(s.score)).is_none())
        .map(|s| (f32::from(s.score), f32::from(s.result()) * 0.5))
        .collect();
    if scored.is_empty() {
        return None;
    }
    let err = |k: f64| -> f64 {
        scored
            .par_iter()
            .map(|&(x, r)| {
                let e = f64::from(sigmoid(x / k as f32) - r);
                e * e
            })
            .sum()
    };
    let (mut a, mut b) = (50.0f64, 5000.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    Some(((a + b) / 2.0) as f32)
}
