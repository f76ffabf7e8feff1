//! Accumulators and the evaluation that keeps them up to date as the search moves.
//!
//! An accumulator set holds four vectors of H values: for each side's view (Red, Black), the
//! hidden layer's input sums over the board as it is and over the board mirrored left-right.
//! [`NnueEval`] keeps one set per ply of the game: entry `i` belongs to the position after
//! the first `i` moves of the position's history, and remembers that position's key. Nothing
//! is computed on make/unmake: when the search asks for an evaluation, the evaluator walks
//! back from the current ply to the nearest entry whose key still matches (the position's
//! history gives every ancestor's key), then plays the moves forward, each one a few row
//! additions and subtractions (a quiet move: one in, one out; a capture: one in, two out),
//! and a null move a copy. Where no entry is valid within [`MAX_WALK`] plies, one full
//! refresh (about 32 rows) is cheaper and is done instead. Entries of abandoned lines are
//! simply overwritten; a stale entry is never trusted, because its key would have to equal
//! the key of the position it stands for (keys cover the placement and the side to move,
//! which is all an accumulator depends on).

use super::features::{NUM_FEATURES, index_fast, material_bucket};
use super::format::{Network, QA, QB};
use super::simd::{self, Kernel};
use crate::core::{Color, Piece, Position, Square};

/// Furthest walk back to a valid entry before a full refresh is cheaper.
pub const MAX_WALK: usize = 8;

/// The accumulator sets of one search thread, and its evaluation.
pub struct NnueEval {
    hidden: usize,
    kernel: Kernel,
    /// `4 × hidden` values per entry: (Red, plain), (Red, mirrored), (Black, plain),
    /// (Black, mirrored).
    acc: Vec<i16>,
    /// Key of the position each entry was computed for, if it was.
    keys: Vec<Option<u64>>,
}

impl Default for NnueEval {
    fn default() -> NnueEval {
        NnueEval::new()
    }
}

/// Offset of an accumulator inside an entry.
#[inline]
fn slot(persp: Color, mirror: bool) -> usize {
    persp.index() * 2 + usize::from(mirror)
}

/// The input-weight row of `piece` on `sq` seen by `persp`.
#[inline]
fn row(net: &Network, persp: Color, piece: Piece, sq: Square, mirror: bool) -> &[i16] {
    let h = net.hidden;
    let f = index_fast(persp, piece, sq, mirror);
    debug_assert!(f < NUM_FEATURES);
    &net.l1_weights[f * h..(f + 1) * h]
}

impl NnueEval {
    /// An evaluator using the fastest kernel of this CPU.
    pub fn new() -> NnueEval {
        NnueEval::with_kernel(simd::best())
    }

    /// An evaluator forced to use `kernel` (tests compare the two); an AVX2 request on a
    /// CPU without AVX2 runs the portable kernel.
    pub fn with_kernel(kernel: Kernel) -> NnueEval {
        NnueEval {
            hidden: 0,
            kernel,
            acc: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// Forgets every entry (another net is coming).
    pub fn invalidate(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = None);
    }

    /// Makes room for entry `i` under a net of width `h`.
    fn reserve(&mut self, i: usize, h: usize) {
        if h != self.hidden {
            self.hidden = h;
            self.acc.clear();
            self.keys.clear();
        }
        if self.keys.len() <= i {
            let n = (i + 1).max(self.keys.len() * 2).max(64);
            self.keys.resize(n, None);
            self.acc.resize(n * 4 * h, 0);
        }
    }

    /// Evaluation of `pos` for the side to move, in centipawns.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let h = net.hidden;
        let hist = pos.history();
        let n = hist.len();
        self.reserve(n, h);
        let key_at = |i: usize| if i == n { pos.key() } else { hist[i].key };
        // the nearest valid ancestor
        let mut j = n;
        let found = loop {
            if self.keys[j] == Some(key_at(j)) {
                break true;
            }
            if j == 0 || n - j >= MAX_WALK {
                break false;
            }
            j -= 1;
        };
        if found {
            for (k, undo) in hist.iter().enumerate().skip(j) {
                self.apply(net, k, undo);
                self.keys[k + 1] = Some(key_at(k + 1));
            }
        } else {
            self.refresh(net, pos, n);
            self.keys[n] = Some(pos.key());
        }
        let entry = &self.acc[n * 4 * h..(n + 1) * 4 * h];
        output(self.kernel, net, entry, pos)
    }

    /// Entry `k + 1` from entry `k` and the move between them.
    fn apply(&mut self, net: &Network, k: usize, undo: &crate::core::position::Undo) {
        let h = net.hidden;
        let (before, after) = self.acc.split_at_mut((k + 1) * 4 * h);
        let src = &before[k * 4 * h..];
        let dst = &mut after[..4 * h];
        let (Some(m), Some(piece)) = (undo.mv, undo.moved) else {
            dst.copy_from_slice(src);
            return;
        };
        for persp in Color::ALL {
            for mirror in [false, true] {
                let o = slot(persp, mirror) * h;
                let add = [row(net, persp, piece, m.to(), mirror)];
                let out = row(net, persp, piece, m.from(), mirror);
                let d = &mut dst[o..o + h];
                let s = &src[o..o + h];
                match undo.captured {
                    Some(c) => {
                        let sub = [out, row(net, persp, c, m.to(), mirror)];
                        simd::update(self.kernel, d, s, &add, &sub);
                    }
                    None => simd::update(self.kernel, d, s, &add, &[out]),
                }
            }
        }
    }

    /// Entry `n` computed from the board.
    fn refresh(&mut self, net: &Network, pos: &Position, n: usize) {
        let h = net.hidden;
        let entry = &mut self.acc[n * 4 * h..(n + 1) * 4 * h];
        refresh_into(self.kernel, net, pos, entry);
    }
}

/// The four accumulators of `pos` computed from scratch into `entry` (`4 × H` values).
fn refresh_into(kernel: Kernel, net: &Network, pos: &Position, entry: &mut [i16]) {
    let h = net.hidden;
    let mut pieces = [(
        Piece::new(Color::Red, crate::core::PieceType::King),
        Square::ALL[0],
    ); 32];
    let mut count = 0;
    for sq in Square::ALL {
        if let Some(p) = pos.piece_on(sq)
            && count < pieces.len()
        {
            pieces[count] = (p, sq);
            count += 1;
        }
    }
    for persp in Color::ALL {
        for mirror in [false, true] {
            let o = slot(persp, mirror) * h;
            let dst = &mut entry[o..o + h];
            dst.copy_from_slice(&net.l1_bias);
            // eight rows a pass keep the row list on the stack
            for chunk in pieces[..count].chunks(8) {
                let mut rows: [&[i16]; 8] = [&[]; 8];
                for (r, &(p, sq)) in rows.iter_mut().zip(chunk) {
                    *r = row(net, persp, p, sq, mirror);
                }
                simd::accumulate(kernel, dst, &rows[..chunk.len()]);
            }
        }
    }
}

/// The network's output for `pos`'s side to move from its entry (see `format`'s doc); the
/// output layer is the one of `pos`'s material bucket.
#[inline]
fn output(kernel: Kernel, net: &Network, entry: &[i16], pos: &Position) -> i32 {
    let h = net.hidden;
    let stm = pos.side_to_move();
    let b = material_bucket(pos, net.buckets);
    let (w_us, w_them) = net.out_weights[b * 2 * h..(b + 1) * 2 * h].split_at(h);
    let mut sum = 0i64;
    for mirror in [false, true] {
        let us = slot(stm, mirror) * h;
        let them = slot(!stm, mirror) * h;
        sum += simd::screlu_dot(kernel, &entry[us..us + h], w_us);
        sum += simd::screlu_dot(kernel, &entry[them..them + h], w_them);
    }
    let qa = i64::from(QA);
    let v = (sum / qa + 2 * i64::from(net.out_bias[b])) * i64::from(net.scale)
        / (2 * qa * i64::from(QB));
    v.clamp(-20_000, 20_000) as i32
}

/// Evaluation of `pos` for the side to move from a full refresh, with no state kept (tests,
/// tools).
pub fn evaluate_full(net: &Network, pos: &Position) -> i32 {
    evaluate_full_with(simd::best(), net, pos)
}

/// [`evaluate_full`] with a chosen kernel.
pub fn evaluate_full_with(kernel: Kernel, net: &Network, pos: &Position) -> i32 {
    let mut entry = vec![0i16; 4 * net.hidden];
    refresh_into(kernel, net, pos, &mut entry);
    output(kernel, net, &entry, pos)
}

/// A network with pseudo-random weights from `seed` (input weights within ±40, output
/// weights within ±127): for tests and benchmarks of the inference, never for play.
#[doc(hidden)]
pub fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 1, seed)
}

/// [`random_network`] with `buckets` output layers (architecture 2 for more than one).
#[doc(hidden)]
pub fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut s = seed | 1;
    let mut next = |lo: i32, hi: i32| -> i16 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (lo + (s % (hi - lo + 1) as u64) as i32) as i16
    };
    let mut net = Network::zeroed(hidden, buckets);
    net.l1_weights.iter_mut().for_each(|w| *w = next(-40, 40));
    net.l1_bias.iter_mut().for_each(|w| *w = next(-60, 120));
    net.out_weights
        .iter_mut()
        .for_each(|w| *w = next(-127, 127));
    net.out_bias
        .iter_mut()
        .for_each(|b| *b = i32::from(next(-2000, 2000)));
    net
}
