//! The float model, its gradients (plain and AVX2) and the AdamW step.

use super::samples::{CODES, Sample, sigmoid};
use super::{BIAS_CLIP, L1_CLIP, OUT_CLIP};
use crate::core::{Color, Piece, Square};
use crate::eval::nnue::features::{self, NUM_FEATURES};
use crate::eval::nnue::format::{MAX_OUT_WEIGHT, Network, QA, QB, SCALE};
use rayon::prelude::*;

/// Input index of every code, for each (perspective colour, mirror) pair:
/// `idx[(colour · 2 + mirror) · CODES + code]`.
pub(super) struct Features {
    pub(super) idx: Vec<u16>,
}

impl Features {
    pub(super) fn new() -> Features {
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
    pub(super) fn table(&self, stm: u8, k: usize) -> &[u16] {
        let persp = (stm ^ (k & 1) as u8) as usize;
        let mirror = k >> 1;
        let base = (persp * 2 + mirror) * CODES;
        &self.idx[base..base + CODES]
    }
}

/// The float model: one flat parameter vector `[W1 | b1 | w2 (B × 2H) | b2 (B)]`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Model {
    pub(super) h: usize,
    /// Output buckets B.
    pub(super) b: usize,
    pub(super) p: Vec<f32>,
}

/// Offsets of the parameter groups for width `h` and `b` buckets: (b1, w2, b2); W1 starts
/// at 0.
pub(super) fn offsets(h: usize, b: usize) -> (usize, usize, usize) {
    let b1 = NUM_FEATURES * h;
    (b1, b1 + h, b1 + h + 2 * h * b)
}

pub(super) fn param_count(h: usize, b: usize) -> usize {
    offsets(h, b).2 + b
}

/// SplitMix64.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(super) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl Model {
    pub(super) fn init(h: usize, b: usize, seed: u64) -> Model {
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
    pub(super) fn from_network(net: &Network) -> Model {
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
    pub(super) fn forward(
        &self,
        feats: &Features,
        s: &Sample,
        codes: &[u16],
        acc: &mut [f32],
    ) -> f32 {
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
    pub(super) fn eval_cp(&self, feats: &Features, s: &Sample) -> f32 {
        let mut acc = vec![0.0; 4 * self.h];
        SCALE as f32 * self.forward(feats, s, s.codes(&mut [0; 32]), &mut acc)
    }

    /// The quantised net (see the format's doc).
    pub(super) fn quantise(&self) -> Network {
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
            scale: SCALE,
        }
    }
}

/// Per-thread state: a gradient buffer, the accumulators, the chunk's summed loss.
pub(super) struct Worker {
    pub(super) grad: Vec<f32>,
    pub(super) acc: Vec<f32>,
    pub(super) loss: f64,
}

/// Loss settings.
#[derive(Clone, Copy)]
pub(super) struct LossCfg {
    pub(super) k: f32,
    pub(super) wdl: f32,
}

impl LossCfg {
    #[inline(always)]
    pub(super) fn loss(&self, model: &Model, feats: &Features, s: &Sample, acc: &mut [f32]) -> f64 {
        let out = model.forward(feats, s, s.codes(&mut [0; 32]), acc);
        let pred = sigmoid(SCALE as f32 * out / self.k);
        let e = pred - s.target(self.k, self.wdl);
        f64::from(e * e)
    }
}

/// Adds the gradient of `inv_n ·` (this sample's squared error) to `w.grad`; returns the
/// squared error.
#[inline(always)]
pub(super) fn sample_grad(
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
pub(super) fn batch_grad(
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
pub(super) fn chunk_grad(
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
pub(super) fn chunk_grad_avx2(
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
pub(super) fn chunk_loss(model: &Model, feats: &Features, chunk: &[Sample], cfg: LossCfg) -> f64 {
    let mut acc = vec![0.0; 4 * model.h];
    chunk
        .iter()
        .map(|s| cfg.loss(model, feats, s, &mut acc))
        .sum()
}

/// [`chunk_loss`] compiled for AVX2 (bit for bit the same results).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn chunk_loss_avx2(
    model: &Model,
    feats: &Features,
    chunk: &[Sample],
    cfg: LossCfg,
) -> f64 {
    let mut acc = vec![0.0; 4 * model.h];
    chunk
        .iter()
        .map(|s| cfg.loss(model, feats, s, &mut acc))
        .sum()
}

/// Mean loss over `samples` (chunked by the thread count, summed in order).
pub(super) fn mean_loss(
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
pub(super) struct Adam {
    pub(super) m: Vec<f32>,
    pub(super) v: Vec<f32>,
    pub(super) t: i32,
}

impl Adam {
    pub(super) fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step over every parameter, then the clipping of each group.
    pub(super) fn step(&mut self, model: &mut Model, g: &[f32], lr: f32, wd: f32) {
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
