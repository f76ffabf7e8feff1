//! `chariot nnue train`: fits the network of [`crate::eval::nnue::format`] (architecture 1, or
//! architecture 2 with `buckets` output layers chosen by material) to self-play games ([`super::data`]) and writes the quantised net.
//!
//! * Loading replays every game and keeps each position that passes the filters (each one
//!   switchable in [`TrainOptions`], each one counted in [`Dropped`], a position counted by
//!   the first that drops it, in this order): the first `skip_plies` plies of a game, moves
//!   that no search chose ([`NO_SCORE`]), the side to move in check, the stored move a
//!   capture, mate scores, scores beyond `max_score`. A kept position becomes a [`Sample`] of
//!   32 bytes: its pieces (a bitmap of the occupied points and 4 bits a piece, unpacked into
//!   piece·90 + point codes when used), the side to move, the stored score and the game's
//!   result, both from the side to move's view.
//! * Validation: whole games (a fraction `valid`, picked by a seeded hash of the game's index
//!   over all the files, so the split is reproducible) are held out, so that positions of one
//!   game never sit on both sides.
//! * The model in `f32` is exactly the format's: `W1` (810×H, shared by both perspectives and
//!   both board orientations), `b1`, `w2` (side to move's H, then the other side's H), `b2`;
//!   `out = (Σ_o Σ_i screlu(a_stm^o)·w2 + screlu(a_other^o)·w2') / 2 + b2` over the plain
//!   and the mirrored board, `screlu(x) = clamp(x, 0, 1)²`, `eval = SCALE·out` centipawns.
//!   With B output buckets, `w2` and `b2` are B layers (`w2` bucket-major, then the B biases)
//!   and each position uses, and trains, the layer of its material bucket
//!   ([`features::bucket_of_count`]); `W1` and `b1` are shared by all.
//!   The prediction is `sigmoid(eval / K)`; the target `(1 − wdl)·sigmoid(score / K) +
//!   wdl·result` (just the result for an unscored position kept on purpose); the loss is the
//!   mean squared error.
//! * Training: every epoch a full seeded Fisher–Yates shuffle of the training positions,
//!   minibatches split into one contiguous chunk per thread (each with its own gradient
//!   buffer: the backward pass touches only the ~32 active rows of `W1` per accumulator),
//!   the chunks' gradients summed in order, then one dense AdamW step (β 0.9/0.999, ε 1e-8,
//!   weight decay on `W1` and `w2` only) and clipping: `W1` and `b1` to ±[`L1_CLIP`] (so a
//!   quantised accumulator of 32 pieces stays within an `i16`), `w2` to ±127/64 (the format's
//!   output-weight range). The learning rate warms up linearly over `warmup_steps`, then
//!   follows a cosine from `lr` down to `lr · lr_final` over all `epochs`' steps.
//! * After each epoch the validation loss; the best weights are kept, and training stops
//!   after `patience` epochs without improvement (with no validation games, the training
//!   loss is watched instead).
//! * Initialisation (seeded): `W1` uniform in ±0.5/√32 (an accumulator of ~32 pieces starts
//!   with a spread of about 0.16), `b1 = 0`, `w2` uniform in ±1/√(2H), `b2 = 0`; or, with
//!   `init` (fine-tuning), a net's weights, each its quantised value over its scale.
//! * A run is deterministic for a given seed and thread count (the chunks and the order of
//!   every floating-point sum follow from those two alone); other thread counts give
//!   slightly different sums, hence slightly different nets. The hot loops also come compiled
//!   for AVX2, picked at run time (about 1.5× faster); they do the same operations in the same
//!   order, so a run gives the same bits on any x86-64 CPU.

use super::data::{self, GameRecord, NO_SCORE};
use crate::core::{Color, Piece, Position, Square};
use crate::eval::nnue::features::{self, NUM_FEATURES};
use crate::eval::nnue::format::{
    MAX_HIDDEN, MAX_OUT_WEIGHT, Network, QA, QB, SCALE, valid_buckets,
};
use crate::rules::GameResult;
use crate::search::mate_plies;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Largest magnitude of a first-layer weight or bias in floats: 33 of them (a bias and 32
/// pieces) times QA stay below `i16::MAX`.
pub const L1_CLIP: f32 = 1.98;
/// Largest magnitude of an output weight in floats (127 once quantised).
pub const OUT_CLIP: f32 = MAX_OUT_WEIGHT as f32 / QB as f32;
/// Largest magnitude of the output bias in floats (far inside an `i32` once quantised).
const BIAS_CLIP: f32 = 1000.0;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Hidden width H (a multiple of 16, 16..=512).
    pub hidden: usize,
    /// Output buckets chosen by material (1: architecture 1; 2, 4 or 8: architecture 2).
    pub buckets: usize,
    /// Most passes over the training positions.
    pub epochs: usize,
    /// Positions a minibatch.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f32,
    /// The learning rate at the end of the cosine, as a fraction of `lr`.
    pub lr_final: f32,
    /// Steps of linear warm-up from 0 to `lr`.
    pub warmup_steps: usize,
    /// AdamW's decoupled weight decay (weights only, not biases).
    pub weight_decay: f32,
    /// Weight of the game result in the target; the search score gets the rest.
    pub wdl: f32,
    /// Logistic scale in centipawns: probability = sigmoid(cp / K).
    pub k: f32,
    /// Use the K fitted to the training positions' scores against their results instead.
    pub fit_k: bool,
    /// Fraction of the games held out for validation.
    pub valid: f64,
    /// Epochs without a better validation loss before stopping (0: never stop early).
    pub patience: usize,
    /// Worker threads (0: all cores).
    pub threads: usize,
    pub seed: u64,
    /// Drop positions whose |score| exceeds this (`None`: no cap).
    pub max_score: Option<i32>,
    /// Drop the first plies of each game.
    pub skip_plies: usize,
    pub skip_unscored: bool,
    pub skip_checks: bool,
    pub skip_captures: bool,
    pub skip_mates: bool,
    /// Start from this net's weights (dequantised) instead of random ones: fine-tuning a
    /// shipped net on newer data. Its width and buckets must be `hidden` and `buckets`.
    pub init: Option<Network>,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            hidden: 256,
            buckets: 1,
            epochs: 30,
            batch: 16384,
            lr: 0.001,
            lr_final: 0.05,
            warmup_steps: 0,
            weight_decay: 1e-4,
            wdl: 0.25,
            k: 400.0,
            fit_k: false,
            valid: 0.02,
            patience: 3,
            threads: 0,
            seed: 1,
            max_score: Some(3000),
            skip_plies: 0,
            skip_unscored: true,
            skip_checks: true,
            skip_captures: true,
            skip_mates: true,
            init: None,
        }
    }
}

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
    fn add(&mut self, o: &Dropped) {
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
const CODES: usize = 14 * 90;

/// One training position in 32 bytes: the occupied points as a bitmap, the pieces on them
/// in point order at 4 bits each (a board holds at most 32), and the labels. Half the size
/// of a list of 32 piece-point codes, so twice the positions fit in memory; the codes are
/// unpacked when a sample is used, in the same order (point by point), so training sees
/// exactly what it saw before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Bit `i % 32` of word `i / 32`: a piece stands on point `i`.
    occupied: [u32; 3],
    /// The piece index ([`Piece::index`]) on the `n`-th occupied point in the low (even `n`)
    /// or high (odd `n`) half of byte `n / 2`.
    pieces: [u8; 16],
    /// Bit 0: the side to move (0 Red, 1 Black); bits 1-2: its result in half-points (0
    /// loss, 1 draw, 2 win).
    side_result: u8,
    /// Rooks, horses and cannons on the board ([`features::material_count`]).
    material: u8,
    /// The stored search score, side to move's view ([`NO_SCORE`] if none).
    score: i16,
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
    fn stm(&self) -> u8 {
        self.side_result & 1
    }

    /// The side to move's result in half-points: 0 loss, 1 draw, 2 win.
    #[inline(always)]
    fn result(&self) -> u8 {
        self.side_result >> 1
    }

    /// The pieces as `piece.index() · 90 + point` codes, point by point, unpacked into `buf`.
    #[inline(always)]
    fn codes<'a>(&self, buf: &'a mut [u16; 32]) -> &'a [u16] {
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
    fn bucket(&self, buckets: usize) -> usize {
        features::bucket_of_count(usize::from(self.material), buckets)
    }

    /// The training target for scale `k` and result weight `wdl`.
    fn target(&self, k: f32, wdl: f32) -> f32 {
        let r = f32::from(self.result()) * 0.5;
        if self.score == NO_SCORE {
            return r;
        }
        wdl * r + (1.0 - wdl) * sigmoid(f32::from(self.score) / k)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Input index of every code, for each (perspective colour, mirror) pair:
/// `idx[(colour · 2 + mirror) · CODES + code]`.
struct Features {
    idx: Vec<u16>,
}

impl Features {
    fn new() -> Features {
        let mut idx = vec![0u16; 4 * CODES];
        for persp in Color::ALL {
            for mirror in [false, true] {
                let base = (persp as usize * 2 + mirror as usize) * CODES;
                for p in Piece::ALL {
                    for sq in Square::ALL {
                        idx[base + p.index() * 90 + sq.index()] =
                            features::index(persp, p, sq, mirror) as u16;
                    }
                }
            }
        }
        Features { idx }
    }

    /// The table of accumulator `k` (`k = 2·mirror + c`, `c` 0 the side to move's view, 1
    /// the other side's) of a position with `stm` to move.
    #[inline]
    fn table(&self, stm: u8, k: usize) -> &[u16] {
        let persp = (stm ^ (k & 1) as u8) as usize;
        let mirror = k >> 1;
        let base = (persp * 2 + mirror) * CODES;
        &self.idx[base..base + CODES]
    }
}

/// The float model: one flat parameter vector `[W1 | b1 | w2 (B × 2H) | b2 (B)]`.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    h: usize,
    /// Output buckets B.
    b: usize,
    p: Vec<f32>,
}

/// Offsets of the parameter groups for width `h` and `b` buckets: (b1, w2, b2); W1 starts
/// at 0.
fn offsets(h: usize, b: usize) -> (usize, usize, usize) {
    let b1 = NUM_FEATURES * h;
    (b1, b1 + h, b1 + h + 2 * h * b)
}

fn param_count(h: usize, b: usize) -> usize {
    offsets(h, b).2 + b
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl Model {
    fn init(h: usize, b: usize, seed: u64) -> Model {
        let mut rng = Rng(seed ^ 0x6e6e_7565_2d69_6e69);
        let (b1, w2, b2) = offsets(h, b);
        let mut p = vec![0.0f32; param_count(h, b)];
        let a1 = 0.5 / 32f64.sqrt();
        for w in &mut p[..b1] {
            *w = ((rng.unit() * 2.0 - 1.0) * a1) as f32;
        }
        let a2 = 1.0 / ((2 * h) as f64).sqrt();
        for w in &mut p[w2..b2] {
            *w = ((rng.unit() * 2.0 - 1.0) * a2) as f32;
        }
        Model { h, b, p }
    }

    /// The model whose [`Model::quantise`] is `net` (every weight is the quantised value over
    /// its scale, so quantising it again gives `net` back).
    fn from_network(net: &Network) -> Model {
        let qa = QA as f32;
        let qb = QB as f32;
        let qab = f64::from(QA * QB);
        let mut p = Vec::with_capacity(param_count(net.hidden, net.buckets));
        p.extend(net.l1_weights.iter().map(|&w| f32::from(w) / qa));
        p.extend(net.l1_bias.iter().map(|&w| f32::from(w) / qa));
        p.extend(net.out_weights.iter().map(|&w| f32::from(w) / qb));
        p.extend(net.out_bias.iter().map(|&b| (f64::from(b) / qab) as f32));
        Model {
            h: net.hidden,
            b: net.buckets,
            p,
        }
    }

    /// Fills `acc` (4·H: plain stm, plain other, mirrored stm, mirrored other) from `s`'s
    /// unpacked `codes` and returns the output in the model's units (`eval = SCALE · out`).
    #[inline(always)]
    fn forward(&self, feats: &Features, s: &Sample, codes: &[u16], acc: &mut [f32]) -> f32 {
        let h = self.h;
        let (b1o, w2o, b2o) = offsets(h, self.b);
        let bk = s.bucket(self.b);
        let (w1, b1) = (&self.p[..b1o], &self.p[b1o..w2o]);
        let w2 = &self.p[w2o + bk * 2 * h..w2o + (bk + 1) * 2 * h];
        let mut out = 0.0f32;
        for k in 0..4 {
            let table = feats.table(s.stm(), k);
            let a = &mut acc[k * h..(k + 1) * h];
            a.copy_from_slice(b1);
            for &code in codes {
                let row = table[code as usize] as usize * h;
                for (x, w) in a.iter_mut().zip(&w1[row..row + h]) {
                    *x += *w;
                }
            }
            let wc = &w2[(k & 1) * h..(k & 1) * h + h];
            let mut lanes = [0.0f32; 8];
            for (xa, wa) in a.chunks_exact(8).zip(wc.chunks_exact(8)) {
                for j in 0..8 {
                    let c = xa[j].clamp(0.0, 1.0);
                    lanes[j] += c * c * wa[j];
                }
            }
            out += lanes.iter().sum::<f32>();
        }
        out * 0.5 + self.p[b2o + bk]
    }

    /// The float evaluation in centipawns for the side to move.
    #[cfg(test)]
    fn eval_cp(&self, feats: &Features, s: &Sample) -> f32 {
        let mut acc = vec![0.0; 4 * self.h];
        SCALE as f32 * self.forward(feats, s, s.codes(&mut [0; 32]), &mut acc)
    }

    /// The quantised net (see the format's doc).
    fn quantise(&self) -> Network {
        let h = self.h;
        let (b1o, w2o, b2o) = offsets(h, self.b);
        let q16 = |x: f32, scale: i32, lim: i32| -> i16 {
            ((x * scale as f32).round() as i32).clamp(-lim, lim) as i16
        };
        Network {
            hidden: h,
            buckets: self.b,
            l1_weights: self.p[..b1o]
                .iter()
                .map(|&w| q16(w, QA, i16::MAX as i32))
                .collect(),
            l1_bias: self.p[b1o..w2o]
                .iter()
                .map(|&w| q16(w, QA, i16::MAX as i32))
                .collect(),
            out_weights: self.p[w2o..b2o]
                .iter()
                .map(|&w| q16(w, QB, MAX_OUT_WEIGHT as i32))
                .collect(),
            out_bias: self.p[b2o..]
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
        }
    }
}

/// Per-thread state: a gradient buffer, the accumulators, the chunk's summed loss.
struct Worker {
    grad: Vec<f32>,
    acc: Vec<f32>,
    loss: f64,
}

/// Loss settings.
#[derive(Clone, Copy)]
struct LossCfg {
    k: f32,
    wdl: f32,
}

impl LossCfg {
    #[inline(always)]
    fn loss(&self, model: &Model, feats: &Features, s: &Sample, acc: &mut [f32]) -> f64 {
        let out = model.forward(feats, s, s.codes(&mut [0; 32]), acc);
        let pred = sigmoid(SCALE as f32 * out / self.k);
        let e = pred - s.target(self.k, self.wdl);
        f64::from(e * e)
    }
}

/// Adds the gradient of `inv_n ·` (this sample's squared error) to `w.grad`; returns the
/// squared error.
#[inline(always)]
fn sample_grad(
    model: &Model,
    feats: &Features,
    s: &Sample,
    cfg: LossCfg,
    inv_n: f32,
    w: &mut Worker,
) -> f64 {
    let h = model.h;
    let (b1o, w2o, b2o) = offsets(h, model.b);
    let bk = s.bucket(model.b);
    let mut buf = [0u16; 32];
    let codes = s.codes(&mut buf);
    let out = model.forward(feats, s, codes, &mut w.acc);
    let pred = sigmoid(SCALE as f32 * out / cfg.k);
    let err = pred - s.target(cfg.k, cfg.wdl);
    // d loss / d out
    let gy = 2.0 * err * inv_n * pred * (1.0 - pred) * SCALE as f32 / cfg.k;
    let half = 0.5 * gy;
    let w2 = &model.p[w2o + bk * 2 * h..w2o + (bk + 1) * 2 * h];
    let (gw1, rest) = w.grad.split_at_mut(b1o);
    let (gb1, rest) = rest.split_at_mut(h);
    let (gw2, gb2) = rest.split_at_mut(b2o - w2o);
    let gw2 = &mut gw2[bk * 2 * h..(bk + 1) * 2 * h];
    gb2[bk] += gy;
    for k in 0..4 {
        let c = k & 1;
        let a = &mut w.acc[k * h..(k + 1) * h];
        let wc = &w2[c * h..(c + 1) * h];
        let gwc = &mut gw2[c * h..(c + 1) * h];
        for ((x, g), wv) in a.iter_mut().zip(gwc.iter_mut()).zip(wc) {
            let v = *x;
            let cl = v.clamp(0.0, 1.0);
            *g += half * cl * cl;
            // d out / d acc = ½·w2·screlu'(acc), screlu' = 2x inside (0, 1)
            *x = if v > 0.0 && v < 1.0 { gy * wv * v } else { 0.0 };
        }
        for (g, d) in gb1.iter_mut().zip(a.iter()) {
            *g += *d;
        }
        let table = feats.table(s.stm(), k);
        for &code in codes {
            let row = table[code as usize] as usize * h;
            for (g, d) in gw1[row..row + h].iter_mut().zip(a.iter()) {
                *g += *d;
            }
        }
    }
    f64::from(err * err)
}

/// The gradient of the mean loss over `samples[idx]` into `workers[0].grad` (each worker
/// takes one contiguous chunk; the chunks are summed in order); returns the summed loss.
fn batch_grad(
    model: &Model,
    feats: &Features,
    samples: &[Sample],
    idx: &[u32],
    cfg: LossCfg,
    workers: &mut [Worker],
) -> f64 {
    let n = idx.len();
    let inv_n = 1.0 / n as f32;
    let per = n.div_ceil(workers.len()).max(1);
    workers.par_iter_mut().enumerate().for_each(|(j, w)| {
        w.grad.fill(0.0);
        w.loss = 0.0;
        let lo = (j * per).min(n);
        let hi = ((j + 1) * per).min(n);
        let chunk = &idx[lo..hi];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { chunk_grad_avx2(model, feats, samples, chunk, cfg, inv_n, w) };
            return;
        }
        chunk_grad(model, feats, samples, chunk, cfg, inv_n, w);
    });
    let (first, rest) = workers.split_at_mut(1);
    let mut loss = first[0].loss;
    for w in rest {
        loss += w.loss;
        for (a, b) in first[0].grad.iter_mut().zip(&w.grad) {
            *a += *b;
        }
    }
    loss
}

/// Adds the gradients of the samples `chunk` to `w` (the plain build: SSE2 on x86-64).
fn chunk_grad(
    model: &Model,
    feats: &Features,
    samples: &[Sample],
    chunk: &[u32],
    cfg: LossCfg,
    inv_n: f32,
    w: &mut Worker,
) {
    for &i in chunk {
        w.loss += sample_grad(model, feats, &samples[i as usize], cfg, inv_n, w);
    }
}

/// [`chunk_grad`] compiled for AVX2: the same operations in the same order (no fused
/// multiply-adds, and the dot products keep their eight lanes), twice as wide, so the
/// results are bit for bit those of the plain build.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_grad_avx2(
    model: &Model,
    feats: &Features,
    samples: &[Sample],
    chunk: &[u32],
    cfg: LossCfg,
    inv_n: f32,
    w: &mut Worker,
) {
    for &i in chunk {
        w.loss += sample_grad(model, feats, &samples[i as usize], cfg, inv_n, w);
    }
}

/// The summed loss of `chunk`.
fn chunk_loss(model: &Model, feats: &Features, chunk: &[Sample], cfg: LossCfg) -> f64 {
    let mut acc = vec![0.0; 4 * model.h];
    chunk
        .iter()
        .map(|s| cfg.loss(model, feats, s, &mut acc))
        .sum()
}

/// [`chunk_loss`] compiled for AVX2 (bit for bit the same results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_loss_avx2(model: &Model, feats: &Features, chunk: &[Sample], cfg: LossCfg) -> f64 {
    let mut acc = vec![0.0; 4 * model.h];
    chunk
        .iter()
        .map(|s| cfg.loss(model, feats, s, &mut acc))
        .sum()
}

/// Mean loss over `samples` (chunked by the thread count, summed in order).
fn mean_loss(
    model: &Model,
    feats: &Features,
    samples: &[Sample],
    cfg: LossCfg,
    threads: usize,
) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let per = samples.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = samples
        .par_chunks(per)
        .map(|chunk| {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { chunk_loss_avx2(model, feats, chunk, cfg) };
            }
            chunk_loss(model, feats, chunk, cfg)
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// AdamW state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step over every parameter, then the clipping of each group.
    fn step(&mut self, model: &mut Model, g: &[f32], lr: f32, wd: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let bc1 = 1.0 - B1.powi(self.t);
        let bc2 = 1.0 - B2.powi(self.t);
        let (b1o, w2o, b2o) = offsets(model.h, model.b);
        let groups = [
            (0, b1o, wd, L1_CLIP),
            (b1o, w2o, 0.0, L1_CLIP),
            (w2o, b2o, wd, OUT_CLIP),
            (b2o, b2o + model.b, 0.0, BIAS_CLIP),
        ];
        for (lo, hi, decay, clip) in groups {
            let it = model.p[lo..hi]
                .iter_mut()
                .zip(&mut self.m[lo..hi])
                .zip(&mut self.v[lo..hi])
                .zip(&g[lo..hi]);
            for (((p, m), v), &g) in it {
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                let upd = (*m / bc1) / ((*v / bc2).sqrt() + EPS);
                *p = (*p - lr * (upd + decay * *p)).clamp(-clip, clip);
            }
        }
    }
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
fn game_samples(g: &GameRecord, opts: &TrainOptions) -> Result<(Vec<Sample>, Dropped), String> {
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
fn game_hash(seed: u64, index: usize) -> f64 {
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

/// What a run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub games: usize,
    pub valid_games: usize,
    /// Positions seen in the games.
    pub positions: usize,
    pub train_positions: usize,
    pub valid_positions: usize,
    pub dropped: Dropped,
    /// The K used.
    pub k: f32,
    /// Epochs run (including those after the best one).
    pub epochs: usize,
    /// The epoch whose weights were kept (0: the initial weights).
    pub best_epoch: usize,
    /// Validation loss of the initial weights.
    pub initial_valid_loss: f64,
    /// Validation loss of the kept weights (the training loss with no validation set).
    pub best_valid_loss: f64,
    pub elapsed_s: f64,
    /// Training positions per second (backward passes included, validation excluded).
    pub positions_per_s: f64,
    /// The same, for each epoch.
    pub epoch_positions_per_s: Vec<f64>,
    /// The kept weights, quantised and validated.
    pub net: Network,
}

fn check_options(opts: &TrainOptions) -> Result<(), String> {
    let h = opts.hidden;
    if h == 0 || !h.is_multiple_of(16) || h > MAX_HIDDEN {
        return Err(format!(
            "hidden width {h} is not a multiple of 16 in 16..={MAX_HIDDEN}"
        ));
    }
    if !valid_buckets(opts.buckets) {
        return Err(format!(
            "{} output buckets: 1 (architecture 1), 2, 4 or 8 (architecture 2)",
            opts.buckets
        ));
    }
    if opts.batch == 0 || opts.epochs == 0 {
        return Err("the batch size and the epochs must be at least 1".into());
    }
    if !(opts.lr > 0.0 && opts.lr.is_finite()) {
        return Err("the learning rate must be positive".into());
    }
    if !(0.0..=1.0).contains(&opts.lr_final) || !(0.0..=1.0).contains(&opts.wdl) {
        return Err("the final learning-rate fraction and wdl must lie in 0..=1".into());
    }
    if !(opts.k > 0.0 && opts.k.is_finite()) {
        return Err("K must be positive".into());
    }
    if !(0.0..1.0).contains(&opts.valid) {
        return Err("the validation fraction must lie in 0..1".into());
    }
    if !(opts.weight_decay >= 0.0 && opts.weight_decay.is_finite()) {
        return Err("the weight decay must not be negative".into());
    }
    if let Some(net) = &opts.init
        && (net.hidden != h || net.buckets != opts.buckets)
    {
        return Err(format!(
            "the initial net has hidden width {} and {} output buckets: give --hidden {} --buckets {}",
            net.hidden, net.buckets, net.hidden, net.buckets
        ));
    }
    Ok(())
}

/// Loads the games files and trains (see the module doc); progress lines go to `progress`.
pub fn train(
    files: &[PathBuf],
    opts: &TrainOptions,
    mut progress: impl FnMut(&str),
) -> Result<TrainReport, String> {
    check_options(opts)?;
    let pool = thread_pool(opts.threads)?;
    let start = Instant::now();
    let ds = pool.install(|| load(files, opts))?;
    progress(&format!(
        "{} games ({} for validation), {} positions: {} train, {} valid, {} dropped ({}) in {:.1} s",
        ds.games,
        ds.valid_games,
        ds.positions,
        ds.train.len(),
        ds.valid.len(),
        ds.dropped.total(),
        ds.dropped,
        start.elapsed().as_secs_f64()
    ));
    train_on(&ds, opts, progress)
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    let n = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))
}

/// Training positions per bucket, and per material count, as one progress line.
pub fn bucket_histogram(ds: &Dataset, buckets: usize) -> String {
    let mut counts = [0usize; 13];
    for s in &ds.train {
        counts[usize::from(s.material).min(12)] += 1;
    }
    let mut per_bucket = vec![0usize; buckets];
    for (m, &n) in counts.iter().enumerate() {
        per_bucket[features::bucket_of_count(m, buckets)] += n;
    }
    let total = ds.train.len().max(1) as f64;
    let pct = |n: usize| 100.0 * n as f64 / total;
    let b: Vec<String> = per_bucket
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("{i}:{n} ({:.1}%)", pct(n)))
        .collect();
    let m: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("{i}:{:.1}%", pct(n)))
        .collect();
    format!(
        "training positions per output bucket {}; per rook+horse+cannon count {}",
        b.join(" "),
        m.join(" ")
    )
}

/// Trains on a loaded dataset.
pub fn train_on(
    ds: &Dataset,
    opts: &TrainOptions,
    mut progress: impl FnMut(&str),
) -> Result<TrainReport, String> {
    check_options(opts)?;
    if ds.train.is_empty() {
        return Err(format!(
            "no training positions left after the filters ({} positions, {} dropped: {})",
            ds.positions,
            ds.dropped.total(),
            ds.dropped
        ));
    }
    let pool = thread_pool(opts.threads)?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    let feats = Features::new();
    let fitted = pool.install(|| fit_k(&ds.train));
    let k = match fitted {
        Some(f) if opts.fit_k => f,
        _ => opts.k,
    };
    if let Some(f) = fitted {
        progress(&format!(
            "K fitted to the training positions' scores and results: {f:.0} (using K {k:.0})"
        ));
    }
    let cfg = LossCfg { k, wdl: opts.wdl };
    let h = opts.hidden;
    if opts.buckets > 1 {
        progress(&bucket_histogram(ds, opts.buckets));
    }
    let mut model = match &opts.init {
        Some(net) => Model::from_network(net),
        None => Model::init(h, opts.buckets, opts.seed),
    };
    let mut adam = Adam::new(model.p.len());
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker {
            grad: vec![0.0; model.p.len()],
            acc: vec![0.0; 4 * h],
            loss: 0.0,
        })
        .collect();
    let has_valid = !ds.valid.is_empty();
    let initial_valid_loss = pool.install(|| mean_loss(&model, &feats, &ds.valid, cfg, threads));
    let mut best_loss = if has_valid {
        initial_valid_loss
    } else {
        f64::INFINITY
    };
    let mut best = model.clone();
    let mut best_epoch = 0;
    let mut since_best = 0;
    progress(&format!(
        "epoch 0  valid_loss {initial_valid_loss:.6}  hidden {h}  buckets {}  threads {threads}",
        opts.buckets
    ));

    let mut order: Vec<u32> = (0..ds.train.len() as u32).collect();
    let mut rng = Rng(opts.seed ^ 0x7368_7566_666c_6521);
    let steps_per_epoch = ds.train.len().div_ceil(opts.batch);
    let total_steps = (steps_per_epoch * opts.epochs) as f64;
    let mut step = 0usize;
    let mut epoch_rates = Vec::new();
    let mut train_time = 0.0;
    let mut epochs = 0;
    let lr_at = |step: usize| -> f32 {
        if step < opts.warmup_steps {
            opts.lr * (step + 1) as f32 / opts.warmup_steps as f32
        } else {
            let x = step as f64 / total_steps;
            let cos = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
            opts.lr * (opts.lr_final + (1.0 - opts.lr_final) * cos as f32)
        }
    };
    for epoch in 1..=opts.epochs {
        let t0 = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss_sum = 0.0;
        for idx in order.chunks(opts.batch) {
            let lr = lr_at(step);
            loss_sum +=
                pool.install(|| batch_grad(&model, &feats, &ds.train, idx, cfg, &mut workers));
            adam.step(&mut model, &workers[0].grad, lr, opts.weight_decay);
            step += 1;
        }
        let dt = t0.elapsed().as_secs_f64();
        train_time += dt;
        let rate = ds.train.len() as f64 / dt.max(1e-9);
        epoch_rates.push(rate);
        epochs = epoch;
        let train_loss = loss_sum / ds.train.len() as f64;
        let valid_loss = pool.install(|| mean_loss(&model, &feats, &ds.valid, cfg, threads));
        let lr = lr_at(step - 1);
        progress(&format!(
            "epoch {epoch}  train_loss {train_loss:.6}  valid_loss {valid_loss:.6}  lr {lr:.6}  positions/s {rate:.0}  elapsed {:.1}",
            start.elapsed().as_secs_f64()
        ));
        if !train_loss.is_finite() {
            return Err(format!(
                "the training loss diverged at epoch {epoch} (try a lower learning rate)"
            ));
        }
        let watched = if has_valid { valid_loss } else { train_loss };
        if watched < best_loss {
            best_loss = watched;
            best = model.clone();
            best_epoch = epoch;
            since_best = 0;
        } else {
            since_best += 1;
            if opts.patience > 0 && since_best >= opts.patience {
                progress(&format!(
                    "no better validation loss for {since_best} epochs: stopping, keeping epoch {best_epoch}"
                ));
                break;
            }
        }
    }
    let net = best.quantise();
    net.validate()?;
    Ok(TrainReport {
        games: ds.games,
        valid_games: ds.valid_games,
        positions: ds.positions,
        train_positions: ds.train.len(),
        valid_positions: ds.valid.len(),
        dropped: ds.dropped,
        k,
        epochs,
        best_epoch,
        initial_valid_loss,
        best_valid_loss: best_loss,
        elapsed_s: start.elapsed().as_secs_f64(),
        positions_per_s: (ds.train.len() * epochs) as f64 / train_time.max(1e-9),
        epoch_positions_per_s: epoch_rates,
        net,
    })
}

/// Writes a net file.
pub fn write_net(net: &Network, path: &Path) -> Result<(), String> {
    net.validate()?;
    std::fs::write(path, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Move, PieceType};

    fn mv(text: &str) -> Move {
        Move::parse_iccs(text).unwrap()
    }

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("chariot-train-{}-{name}", std::process::id()))
    }

    /// The same games in other files, in another order, give the same training and
    /// validation sets (generation writes games in the order they finish).
    #[test]
    fn the_order_of_games_and_files_changes_nothing() {
        let games = random_games(40, 30, 5);
        let mut reversed = games.clone();
        reversed.reverse();
        let a = write_games("order-a", &games[..20]);
        let b = write_games("order-b", &games[20..]);
        let c = write_games("order-c", &reversed);
        let opts = TrainOptions {
            valid: 0.2,
            ..TrainOptions::default()
        };
        let x = load(&[a.clone(), b.clone()], &opts).unwrap();
        let y = load(std::slice::from_ref(&c), &opts).unwrap();
        let z = load(&[b.clone(), a.clone()], &opts).unwrap();
        assert!(!x.train.is_empty() && !x.valid.is_empty());
        assert_eq!((&x.train, &x.valid), (&y.train, &y.valid));
        assert_eq!((&x.train, &x.valid), (&z.train, &z.valid));
        for p in [a, b, c] {
            std::fs::remove_file(p).ok();
        }
    }

    fn write_games(name: &str, games: &[GameRecord]) -> PathBuf {
        let path = temp_path(name);
        let mut bytes = Vec::new();
        data::write_header(&mut bytes).unwrap();
        for g in games {
            g.encode(&mut bytes);
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// Nine plies from a sparse position, one of each kind of dropped position.
    fn filter_game() -> GameRecord {
        let plies: [(&str, i16); 9] = [
            ("e9f9", 0),    // Black in check (rook e1)
            ("e1e3", 300),  // kept
            ("f9f8", -300), // kept
            ("e3a3", 400),  // captures the pawn
            ("f8f9", NO_SCORE),
            ("a3f3", 29990),  // a mate score
            ("f9e9", -29990), // in check (rook f3)
            ("f3f4", 5000),   // beyond the score cap
            ("e9e8", -100),   // kept
        ];
        GameRecord {
            start_fen: "4k4/9/9/9/9/9/p8/9/4R4/3K5 b - - 0 1".into(),
            result: GameResult::RedWins,
            moves: plies.iter().map(|&(m, s)| (mv(m), s)).collect(),
        }
    }

    #[test]
    fn loading_applies_each_filter() {
        let g = filter_game();
        let mut seen = Vec::new();
        g.replay(|pos, m, _| seen.push((pos.in_check(), pos.piece_on(m.to()).is_some())))
            .unwrap();
        let (check, capture, quiet) = ((true, false), (false, true), (false, false));
        assert_eq!(
            seen,
            [
                check, quiet, quiet, capture, quiet, quiet, check, quiet, quiet
            ]
        );
        let path = write_games("filters.games", &[g.clone(), g.clone()]);
        let files = [path.clone()];
        let opts = TrainOptions {
            valid: 0.0,
            ..TrainOptions::default()
        };
        let ds = load(&files, &opts).unwrap();
        assert_eq!(ds.positions, 18);
        let expected = Dropped {
            opening: 0,
            unscored: 2,
            in_check: 4,
            capture: 2,
            mate: 2,
            score_cap: 2,
        };
        assert_eq!(ds.dropped, expected);
        assert_eq!((ds.train.len(), ds.valid.len(), ds.valid_games), (6, 0, 0));
        let kept: Vec<(i16, u8, u8)> = ds.train[..3]
            .iter()
            .map(|s| (s.score, s.stm(), s.result()))
            .collect();
        // Red wins: a win for Red to move (stm 0), a loss for Black to move
        assert_eq!(kept, [(300, 0, 2), (-300, 1, 0), (-100, 1, 0)]);
        assert_eq!(ds.train[0].codes(&mut [0; 32]).len(), 4);

        let open = TrainOptions {
            skip_plies: 3,
            ..opts.clone()
        };
        let ds = load(&files, &open).unwrap();
        assert_eq!(ds.dropped.opening, 6);
        assert_eq!(ds.dropped.in_check, 2);
        assert_eq!(ds.train.len(), 2);

        let none = TrainOptions {
            max_score: None,
            skip_unscored: false,
            skip_checks: false,
            skip_captures: false,
            skip_mates: false,
            ..opts.clone()
        };
        let ds = load(&files, &none).unwrap();
        assert_eq!(ds.dropped, Dropped::default());
        assert_eq!(ds.train.len(), 18);
        // an unscored position kept on purpose learns the result alone
        assert_eq!(ds.train[4].target(400.0, 0.25), 0.0);

        let capped = TrainOptions {
            max_score: Some(250),
            ..opts.clone()
        };
        let ds = load(&files, &capped).unwrap();
        // ±300 now beyond the cap as well as 5000
        assert_eq!(ds.dropped.score_cap, 6);
        std::fs::remove_file(&path).unwrap();

        let err = load(&[temp_path("missing.games")], &opts).unwrap_err();
        assert!(err.contains("cannot read") && !err.contains('\n'), "{err}");
    }

    #[test]
    fn validation_takes_whole_games_reproducibly() {
        let path = write_games("split.games", &vec![filter_game(); 60]);
        let opts = TrainOptions {
            valid: 0.25,
            ..TrainOptions::default()
        };
        let a = load(std::slice::from_ref(&path), &opts).unwrap();
        let b = load(std::slice::from_ref(&path), &opts).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(a.valid.len(), 3 * a.valid_games);
        assert_eq!(a.train.len() + a.valid.len(), 180);
        assert!((5..=25).contains(&a.valid_games), "{}", a.valid_games);
        assert_eq!((a.valid_games, a.train), (b.valid_games, b.train));
    }

    fn material(pos: &Position) -> i16 {
        let mut sum = 0;
        for sq in Square::ALL {
            if let Some(p) = pos.piece_on(sq) {
                let v = match p.kind() {
                    PieceType::King => 0,
                    PieceType::Advisor | PieceType::Elephant => 150,
                    PieceType::Horse => 400,
                    PieceType::Rook => 900,
                    PieceType::Cannon => 450,
                    PieceType::Pawn => 100,
                };
                sum += if p.color() == pos.side_to_move() {
                    v
                } else {
                    -v
                };
            }
        }
        sum
    }

    /// Random games scored by material; the result follows the final material.
    fn random_games(n: usize, plies: usize, seed: u64) -> Vec<GameRecord> {
        let mut rng = Rng(seed);
        (0..n)
            .map(|_| {
                let mut pos = Position::startpos();
                let mut moves = Vec::new();
                for _ in 0..plies {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal.as_slice()[rng.below(legal.len())];
                    moves.push((m, material(&pos)));
                    pos.make_move(m);
                }
                let red = material(&pos)
                    * if pos.side_to_move() == Color::Red {
                        1
                    } else {
                        -1
                    };
                GameRecord {
                    start_fen: Position::startpos().fen(),
                    result: match red {
                        r if r > 200 => GameResult::RedWins,
                        r if r < -200 => GameResult::BlackWins,
                        _ => GameResult::Draw,
                    },
                    moves,
                }
            })
            .collect()
    }

    fn samples_of(games: &[GameRecord]) -> Vec<Sample> {
        let mut out = Vec::new();
        for g in games {
            g.replay(|pos, _, s| out.push(Sample::new(pos, s, g.result).unwrap()))
                .unwrap();
        }
        out
    }

    #[test]
    fn a_sample_is_32_bytes_and_gives_back_every_piece_and_label() {
        assert_eq!(std::mem::size_of::<Sample>(), 32);
        let games = random_games(40, 160, 17);
        let mut seen = 0;
        for g in &games {
            g.replay(|pos, _, score| {
                let s = Sample::new(pos, score, g.result).unwrap();
                let want: Vec<u16> = Square::ALL
                    .iter()
                    .filter_map(|&sq| {
                        pos.piece_on(sq)
                            .map(|p| (p.index() * 90 + sq.index()) as u16)
                    })
                    .collect();
                assert_eq!(s.codes(&mut [0; 32]), want.as_slice(), "{}", pos.fen());
                let stm = pos.side_to_move();
                assert_eq!(s.stm(), stm as u8);
                let half = match g.result.winner() {
                    Some(c) if c == stm => 2,
                    Some(_) => 0,
                    None => 1,
                };
                assert_eq!((s.result(), s.score), (half, score));
                assert_eq!(usize::from(s.material), features::material_count(pos));
                seen += 1;
            })
            .unwrap();
        }
        assert!(seen > 1000, "{seen}");
        // the start position's 32 pieces fill every half-byte
        let start = Sample::new(&Position::startpos(), 0, GameResult::Draw).unwrap();
        assert_eq!(start.codes(&mut [0; 32]).len(), 32);
        let last = Piece::new(Color::Black, PieceType::Rook).index() * 90 + 89;
        assert_eq!(
            start.codes(&mut [0; 32])[31],
            last as u16,
            "i9 holds a black rook"
        );
    }

    fn worker(h: usize, b: usize) -> Worker {
        Worker {
            grad: vec![0.0; param_count(h, b)],
            acc: vec![0.0; 4 * h],
            loss: 0.0,
        }
    }

    /// A model of width 16 whose hidden values sit mostly inside (0, 1), so that every
    /// path carries gradient.
    fn lively_model(seed: u64, b: usize) -> Model {
        let mut model = Model::init(16, b, seed);
        let (b1o, w2o, b2o) = offsets(16, b);
        model.p[b1o..w2o].fill(0.4);
        for w in &mut model.p[w2o..b2o] {
            *w *= 4.0;
        }
        for (i, x) in model.p[b2o..].iter_mut().enumerate() {
            *x = 0.05 - 0.01 * i as f32;
        }
        model
    }

    #[test]
    fn analytic_gradient_matches_finite_differences() {
        for b in [1, 8] {
            gradient_check(b);
        }
    }

    fn gradient_check(b: usize) {
        let feats = Features::new();
        let samples: Vec<Sample> = samples_of(&random_games(3, 60, 5))
            .into_iter()
            .step_by(6)
            .collect();
        let model = lively_model(3, b);
        let cfg = LossCfg { k: 200.0, wdl: 0.3 };
        let idx: Vec<u32> = (0..samples.len() as u32).collect();
        let mut workers = vec![worker(16, b), worker(16, b)];
        let loss = batch_grad(&model, &feats, &samples, &idx, cfg, &mut workers);
        let mean = mean_loss(&model, &feats, &samples, cfg, 1);
        assert!((loss / samples.len() as f64 - mean).abs() < 1e-9);
        let g = workers[0].grad.clone();
        let (b1o, w2o, b2o) = offsets(16, b);
        let s0 = &samples[0];
        let mut buf = [0u16; 32];
        let codes0 = s0.codes(&mut buf);
        let row = |k: usize, i: usize| feats.table(s0.stm(), k)[codes0[i] as usize] as usize * 16;
        // the output layer of the start position's bucket, and of the last sample's
        let (bk, bl) = (s0.bucket(b), samples[samples.len() - 1].bucket(b));
        if b > 1 {
            assert_ne!(bk, bl, "the samples span one bucket only");
        }
        // a bucket no sample falls in gets no gradient
        for other in 0..b {
            let used = samples.iter().any(|s| s.bucket(b) == other);
            let lo = w2o + other * 32;
            let any = g[lo..lo + 32]
                .iter()
                .chain([&g[b2o + other]])
                .any(|&x| x != 0.0);
            assert_eq!(any, used, "bucket {other}");
        }
        let params = [
            b2o + bk,
            b2o + bl,
            w2o + bk * 32,
            w2o + bk * 32 + 5,
            w2o + bk * 32 + 16 + 3,
            w2o + bl * 32 + 16 + 7,
            b1o,
            b1o + 9,
            row(0, 0),
            row(0, 0) + 7,
            row(1, 3) + 2,
            row(2, 5) + 11,
            row(3, 8) + 15,
        ];
        let eps = 1e-3f32;
        for &p in &params {
            let mut m = model.clone();
            m.p[p] += eps;
            let up = mean_loss(&m, &feats, &samples, cfg, 1);
            m.p[p] = model.p[p] - eps;
            let down = mean_loss(&m, &feats, &samples, cfg, 1);
            let fd = (up - down) / (2.0 * f64::from(eps));
            let an = f64::from(g[p]);
            assert!(an != 0.0, "parameter {p} has no gradient");
            assert!(
                (fd - an).abs() <= 0.02 * an.abs().max(fd.abs()) + 2e-6,
                "parameter {p}: analytic {an:e}, finite difference {fd:e}"
            );
        }
    }

    /// The AVX2 build of the hot loops gives bit for bit the plain build's gradient and loss
    /// (so a run does not depend on the CPU it runs on).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_and_plain_builds_agree_exactly() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let feats = Features::new();
        let samples = samples_of(&random_games(2, 80, 13));
        let idx: Vec<u32> = (0..samples.len() as u32).rev().collect();
        let model = lively_model(8, 4);
        let cfg = LossCfg {
            k: 400.0,
            wdl: 0.25,
        };
        let (mut a, mut b) = (worker(16, 4), worker(16, 4));
        chunk_grad(&model, &feats, &samples, &idx, cfg, 0.01, &mut a);
        // SAFETY: the CPU has AVX2, checked above.
        unsafe { chunk_grad_avx2(&model, &feats, &samples, &idx, cfg, 0.01, &mut b) };
        assert!(a.loss > 0.0 && a.grad.iter().any(|&g| g != 0.0));
        assert_eq!(a.loss.to_bits(), b.loss.to_bits());
        assert!(
            a.grad
                .iter()
                .zip(&b.grad)
                .all(|(x, y)| x.to_bits() == y.to_bits())
        );
        let plain = chunk_loss(&model, &feats, &samples, cfg);
        // SAFETY: as above.
        let wide = unsafe { chunk_loss_avx2(&model, &feats, &samples, cfg) };
        assert_eq!(plain.to_bits(), wide.to_bits());
    }

    /// The quantised net's evaluation, straight from the format's doc, in integers.
    fn integer_eval(net: &Network, s: &Sample) -> i64 {
        let h = net.hidden;
        let w2 = &net.out_weights[s.bucket(net.buckets) * 2 * h..];
        let stm = if s.stm() == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let mut sum = 0i64;
        for mirror in [false, true] {
            for (half, persp) in [(0, stm), (1, !stm)] {
                let mut acc: Vec<i32> = net.l1_bias.iter().map(|&b| i32::from(b)).collect();
                for &code in s.codes(&mut [0; 32]) {
                    let piece = Piece::ALL[code as usize / 90];
                    let sq = Square::from_index((code % 90) as u8);
                    let f = features::index(persp, piece, sq, mirror);
                    for (a, &w) in acc.iter_mut().zip(&net.l1_weights[f * h..(f + 1) * h]) {
                        *a += i32::from(w);
                    }
                }
                for (i, &a) in acc.iter().enumerate() {
                    assert!(i16::try_from(a).is_ok(), "accumulator {a} overflows an i16");
                    let c = i64::from(a.clamp(0, QA));
                    sum += c * c * i64::from(w2[half * h + i]);
                }
            }
        }
        let (qa, qb) = (i64::from(QA), i64::from(QB));
        let bias = net.out_bias[s.bucket(net.buckets)];
        (sum / qa + 2 * i64::from(bias)) * i64::from(SCALE) / (2 * qa * qb)
    }

    #[test]
    fn quantised_net_agrees_with_the_float_model() {
        for b in [1, 8] {
            quantised_check(b);
        }
    }

    fn quantised_check(b: usize) {
        let feats = Features::new();
        let games = random_games(4, 100, 9);
        let samples = samples_of(&games);
        let model = lively_model(21, b);
        let net = model.quantise();
        net.validate().unwrap();
        assert_eq!(net.buckets, b);
        // the engine's evaluation (its bucket from the board) is the integer formula (the
        // bucket from the sample)
        let mut i = 0;
        for g in &games {
            g.replay(|pos, _, _| {
                let engine = crate::eval::nnue::evaluate_full(&net, pos);
                assert_eq!(i64::from(engine), integer_eval(&net, &samples[i]));
                i += 1;
            })
            .unwrap();
        }
        assert_eq!(i, samples.len());
        if b > 1 {
            let used: std::collections::BTreeSet<usize> =
                samples.iter().map(|s| s.bucket(b)).collect();
            assert!(used.len() >= 2, "buckets {used:?}");
        }
        // the float model with the quantised weights: only the integer divisions differ
        let (b1o, w2o, b2o) = offsets(16, b);
        let mut deq = model.clone();
        for (i, p) in deq.p.iter_mut().enumerate() {
            *p = if i < w2o {
                let q = if i < b1o {
                    net.l1_weights[i]
                } else {
                    net.l1_bias[i - b1o]
                };
                f32::from(q) / QA as f32
            } else if i < b2o {
                f32::from(net.out_weights[i - w2o]) / QB as f32
            } else {
                net.out_bias[i - b2o] as f32 / (QA * QB) as f32
            };
        }
        let (mut worst_deq, mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0, 0.0f32);
        for s in &samples {
            let int = integer_eval(&net, s) as f32;
            worst_deq = worst_deq.max((int - deq.eval_cp(&feats, s)).abs());
            let err = (int - model.eval_cp(&feats, s)).abs();
            worst = worst.max(err);
            total += err;
            spread = spread.max(int.abs());
        }
        let mean = total / samples.len() as f32;
        assert!(spread > 100.0, "the evaluations are all near 0 ({spread})");
        assert!(
            worst_deq <= 1.5,
            "integer vs dequantised float: {worst_deq} cp"
        );
        // rounding W1 to 1/255 moves this (large-output-weight) model's evaluation by a few
        // centipawns: 13 at worst over these positions (one bucket; mean 4.5, worst 15 with
        // the 8 buckets' other output weights)
        assert!(
            mean <= 5.0 && worst <= 20.0,
            "integer vs float: mean {mean}, worst {worst} cp"
        );
    }

    #[test]
    fn training_on_material_lowers_the_loss_and_writes_a_loadable_net() {
        train_material(1);
    }

    #[test]
    fn a_bucketed_net_trains_and_writes_a_loadable_net() {
        train_material(8);
    }

    fn train_material(buckets: usize) {
        let name = format!("material-{buckets}");
        let path = write_games(&format!("{name}.games"), &random_games(60, 80, 11));
        let opts = TrainOptions {
            hidden: 32,
            buckets,
            epochs: 8,
            batch: 128,
            lr: 0.01,
            wdl: 0.0,
            valid: 0.2,
            patience: 0,
            threads: 2,
            ..TrainOptions::default()
        };
        let mut lines = Vec::new();
        let files = [path.clone()];
        let rep = train(&files, &opts, |l| lines.push(l.to_string())).unwrap();
        assert!(
            rep.train_positions >= 300 && rep.valid_positions >= 30,
            "{rep:?}"
        );
        assert_eq!(rep.epochs, 8);
        assert_eq!(rep.net.buckets, buckets);
        assert_eq!(lines.iter().filter(|l| l.starts_with("epoch ")).count(), 9);
        assert_eq!(
            lines.iter().any(|l| l.contains("per output bucket")),
            buckets > 1
        );
        assert!(
            // 12 random games hold the validation positions: their loss falls to about 0.6 of
            // the untrained net's (an untrained or broken trainer stays near 1.0)
            // (with 8 buckets, 8 output layers from random weights, each seeing its share of
            // the positions: 0.89 of it)
            rep.best_valid_loss < if buckets == 1 { 0.7 } else { 0.95 } * rep.initial_valid_loss,
            "validation loss {} from {}",
            rep.best_valid_loss,
            rep.initial_valid_loss
        );
        let out = temp_path(&format!("{name}.nnue"));
        write_net(&rep.net, &out).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes[12], if buckets == 1 { 1 } else { 2 });
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, rep.net);
        // the same seed and thread count give the same net
        let again = train(&files, &opts, |_| {}).unwrap();
        assert_eq!(again.net, rep.net);
        // fine-tuning starts where the trained net is, not from random weights
        let tuned = train(
            &files,
            &TrainOptions {
                init: Some(rep.net.clone()),
                epochs: 2,
                ..opts.clone()
            },
            |_| {},
        )
        .unwrap();
        assert!(
            (tuned.initial_valid_loss - rep.best_valid_loss).abs() < 0.05 * rep.best_valid_loss,
            "fine-tuning starts at {}, the trained net's loss is {}",
            tuned.initial_valid_loss,
            rep.best_valid_loss
        );
        assert!(tuned.best_valid_loss <= tuned.initial_valid_loss);
        // a start net of another shape is refused in one line
        let err = train(
            &files,
            &TrainOptions {
                init: Some(rep.net.clone()),
                hidden: 64,
                ..opts.clone()
            },
            |_| {},
        )
        .unwrap_err();
        assert!(err.contains("initial net has hidden width 32"), "{err}");
        assert!(!err.contains('\n'));
        std::fs::remove_file(&path).unwrap();
        std::fs::remove_file(&out).unwrap();
    }

    #[test]
    fn a_dequantised_net_quantises_back_to_itself() {
        for b in [1, 8] {
            let net = lively_model(5, b).quantise();
            assert_eq!(Model::from_network(&net).quantise(), net, "buckets {b}");
        }
    }

    #[test]
    fn bad_options_are_refused() {
        let ds = Dataset::default();
        for opts in [
            TrainOptions {
                hidden: 100,
                ..TrainOptions::default()
            },
            TrainOptions {
                batch: 0,
                ..TrainOptions::default()
            },
            TrainOptions {
                k: 0.0,
                ..TrainOptions::default()
            },
            TrainOptions {
                buckets: 3,
                ..TrainOptions::default()
            },
        ] {
            assert!(train_on(&ds, &opts, |_| {}).is_err());
        }
        let err = train_on(&ds, &TrainOptions::default(), |_| {}).unwrap_err();
        assert!(err.contains("no training positions"), "{err}");
    }
}
