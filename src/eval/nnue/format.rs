//! The net file: a 56-byte header and the quantised weights, all little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHARNNUE` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | architecture (1: [`ARCH_PERSPECTIVE_MIRRORED`], 2: [`ARCH_MATERIAL_BUCKETS`]) |
//! | 16 | 4 | inputs per perspective (810, [`NUM_FEATURES`]) |
//! | 20 | 4 | hidden width H (a multiple of 16, 16..=512) |
//! | 24 | 4 | QA, the accumulator's scale (255) |
//! | 28 | 4 | QB, the output weights' scale (64) |
//! | 32 | 4 | output scale S in centipawns (400 as trained; [`MIN_SCALE`]..=[`MAX_SCALE`]) |
//! | 36 | 4 | architecture 1: reserved, 0; architecture 2: output buckets B (2, 4 or 8) |
//! | 40 | 8 | payload length in bytes |
//! | 48 | 8 | FNV-1a-64 of the payload |
//! | 56 | … | payload |
//!
//! Payload: input weights `i16[810][H]` (input-major: the H weights of input 0, then of
//! input 1, …), hidden biases `i16[H]`, output weights `i16[2H]` (the side to move's half,
//! then the other side's), output bias `i32`; architecture 2 has B output layers instead of
//! one: output weights `i16[B][2H]` (bucket-major), then output biases `i32[B]`. The hidden values are `QA`-scaled; output
//! weights are `QB`-scaled and lie in −127..=127, so that a clipped hidden value (0..=255)
//! times a weight fits an `i16`.
//!
//! Architecture 1: each side's view feeds an accumulator `bias + Σ weights[input]` of H
//! values; the output is `Σ screlu(own)·w_own + Σ screlu(enemy)·w_enemy + bias` with
//! `screlu(x) = clamp(x, 0, QA)²`, computed once on the board as it is and once on the board
//! mirrored left-right, and averaged (so a mirrored position evaluates exactly the same):
//! `eval = ((sum + sum_mirrored) / QA + 2·bias) · S / (2·QA·QB)` centipawns for the side
//! to move, the divisions truncating towards zero. The trainer writes S = [`SCALE`]; another S
//! scales every evaluation of the same weights by S / 400 (`chariot nnue scale`), so that the
//! size of a net's scores can be tried against the search's margins without training.
//!
//! Architecture 2 is architecture 1 with the output layer (weights and bias) chosen from B by
//! the position's material ([`super::features::material_bucket`]), the same for both views
//! and for the mirror image.

use super::features::NUM_FEATURES;

pub const MAGIC: &[u8; 8] = b"CHARNNUE";
pub const VERSION: u32 = 1;
/// (810 → H) × 2 perspectives → 1, SCReLU, averaged over the board and its mirror image.
pub const ARCH_PERSPECTIVE_MIRRORED: u32 = 1;
/// Architecture 1 with B output layers, one chosen per position by material.
pub const ARCH_MATERIAL_BUCKETS: u32 = 2;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;
/// Smallest and largest output scale a net file may declare (a quarter to four times
/// [`SCALE`]).
pub const MIN_SCALE: i32 = 100;
pub const MAX_SCALE: i32 = 1600;
pub const HEADER_LEN: usize = 56;
/// Widest hidden layer accepted (keeps every i32 lane of the output sum from overflowing).
pub const MAX_HIDDEN: usize = 512;
/// Largest magnitude of a quantised output weight.
pub const MAX_OUT_WEIGHT: i16 = 127;

/// Is `b` a number of output buckets this build runs (1: architecture 1)?
pub fn valid_buckets(b: usize) -> bool {
    matches!(b, 1 | 2 | 4 | 8)
}

/// A quantised network of architecture 1 (one output bucket) or 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Hidden width H.
    pub hidden: usize,
    /// Output buckets B (1: architecture 1).
    pub buckets: usize,
    /// `NUM_FEATURES × hidden`, input-major.
    pub l1_weights: Vec<i16>,
    /// `hidden`.
    pub l1_bias: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket, the side to move's accumulator's weights, then
    /// the other side's.
    pub out_weights: Vec<i16>,
    /// `buckets`.
    pub out_bias: Vec<i32>,
    /// Output scale S in centipawns ([`SCALE`] as trained).
    pub scale: i32,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn payload_len(hidden: usize, buckets: usize) -> usize {
    2 * (NUM_FEATURES * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl Network {
    /// A network of width `hidden` with `buckets` output layers and every weight zero.
    pub fn zeroed(hidden: usize, buckets: usize) -> Network {
        Network {
            hidden,
            buckets,
            l1_weights: vec![0; NUM_FEATURES * hidden],
            l1_bias: vec![0; hidden],
            out_weights: vec![0; buckets * 2 * hidden],
            out_bias: vec![0; buckets],
            scale: SCALE,
        }
    }

    /// The architecture number written in the header.
    pub fn architecture(&self) -> u32 {
        if self.buckets == 1 {
            ARCH_PERSPECTIVE_MIRRORED
        } else {
            ARCH_MATERIAL_BUCKETS
        }
    }

    /// Checks the shape and the range of the output weights.
    pub fn validate(&self) -> Result<(), String> {
        let h = self.hidden;
        if h == 0 || !h.is_multiple_of(16) || h > MAX_HIDDEN {
            return Err(format!(
                "hidden width {h} is not a multiple of 16 in 16..={MAX_HIDDEN}"
            ));
        }
        if !valid_buckets(self.buckets) {
            return Err(format!(
                "{} output buckets, this build runs 1, 2, 4 or 8",
                self.buckets
            ));
        }
        if self.l1_weights.len() != NUM_FEATURES * h
            || self.l1_bias.len() != h
            || self.out_weights.len() != self.buckets * 2 * h
            || self.out_bias.len() != self.buckets
        {
            return Err("weight arrays do not match the hidden width".into());
        }
        if !(MIN_SCALE..=MAX_SCALE).contains(&self.scale) {
            return Err(format!(
                "output scale {} is outside {MIN_SCALE}..={MAX_SCALE}",
                self.scale
            ));
        }
        if self.out_weights.iter().any(|w| w.abs() > MAX_OUT_WEIGHT) {
            return Err(format!(
                "an output weight is beyond ±{MAX_OUT_WEIGHT} (the file is corrupt)"
            ));
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(payload_len(self.hidden, self.buckets));
        for w in self
            .l1_weights
            .iter()
            .chain(&self.l1_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            self.architecture(),
            NUM_FEATURES as u32,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
            if self.buckets == 1 {
                0
            } else {
                self.buckets as u32
            },
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a net file; a short, damaged or foreign file is refused with a one-line reason.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        if b.len() < HEADER_LEN {
            return Err(format!(
                "net: the file is too short ({} bytes) to be a Chariot net",
                b.len()
            ));
        }
        if &b[..8] != MAGIC {
            return Err("net: not a Chariot net (bad magic bytes)".into());
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(format!(
                "net: format version {version}, this build reads version {VERSION}"
            ));
        }
        let arch = u32_at(b, 12);
        let buckets = match arch {
            ARCH_PERSPECTIVE_MIRRORED => 1,
            ARCH_MATERIAL_BUCKETS => {
                let n = u32_at(b, 36);
                if n == 1 || !valid_buckets(n as usize) {
                    return Err(format!(
                        "net: architecture {ARCH_MATERIAL_BUCKETS} with {n} output buckets, this build runs 2, 4 or 8"
                    ));
                }
                n as usize
            }
            _ => {
                return Err(format!(
                    "net: architecture {arch}, this build runs architectures {ARCH_PERSPECTIVE_MIRRORED} and {ARCH_MATERIAL_BUCKETS}"
                ));
            }
        };
        let inputs = u32_at(b, 16) as usize;
        if inputs != NUM_FEATURES {
            return Err(format!(
                "net: {inputs} inputs, this build has {NUM_FEATURES}"
            ));
        }
        let hidden = u32_at(b, 20) as usize;
        if hidden == 0 || !hidden.is_multiple_of(16) || hidden > MAX_HIDDEN {
            return Err(format!(
                "net: hidden width {hidden} is not a multiple of 16 in 16..={MAX_HIDDEN}"
            ));
        }
        let (qa, qb, scale) = (u32_at(b, 24), u32_at(b, 28), u32_at(b, 32));
        if (qa, qb) != (QA as u32, QB as u32) {
            return Err(format!(
                "net: quantisation {qa}/{qb}, this build uses {QA}/{QB}"
            ));
        }
        if !(MIN_SCALE as u32..=MAX_SCALE as u32).contains(&scale) {
            return Err(format!(
                "net: output scale {scale}, this build accepts {MIN_SCALE}..={MAX_SCALE}"
            ));
        }
        let len = u64_at(b, 40);
        let expected = payload_len(hidden, buckets);
        if len != expected as u64 || b.len() != HEADER_LEN + expected {
            return Err(format!(
                "net: payload of {} bytes, a width-{hidden} net with {buckets} output buckets has {expected} (truncated or padded)",
                b.len() - HEADER_LEN
            ));
        }
        let payload = &b[HEADER_LEN..];
        if fnv1a64(payload) != u64_at(b, 48) {
            return Err("net: checksum mismatch (the file is corrupt)".into());
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let l1_weights = take(NUM_FEATURES * hidden);
        let l1_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = payload[payload.len() - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let net = Network {
            hidden,
            buckets,
            l1_weights,
            l1_bias,
            out_weights,
            out_bias,
            scale: scale as i32,
        };
        net.validate().map_err(|e| format!("net: {e}"))?;
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        sample_with(1)
    }

    fn sample_with(buckets: usize) -> Network {
        let mut n = Network::zeroed(32, buckets);
        for (i, w) in n.l1_weights.iter_mut().enumerate() {
            *w = (i as i32 % 200 - 100) as i16;
        }
        for (i, w) in n.out_weights.iter_mut().enumerate() {
            *w = (i as i32 % 255 - 127) as i16;
        }
        n.l1_bias[3] = -7;
        for (i, b) in n.out_bias.iter_mut().enumerate() {
            *b = -12345 + 1000 * i as i32;
        }
        n
    }

    #[test]
    fn round_trip() {
        for b in [1, 2, 4, 8] {
            let n = sample_with(b);
            let bytes = n.to_bytes();
            let arch = if b == 1 { 1 } else { 2 };
            assert_eq!(u32_at(&bytes, 12), arch);
            assert_eq!(u32_at(&bytes, 36), if b == 1 { 0 } else { b as u32 });
            assert_eq!(Network::from_bytes(&bytes), Ok(n));
        }
    }

    /// The output scale travels in the header; one outside the accepted range, or a foreign
    /// quantisation, is refused with one line.
    #[test]
    fn output_scale_round_trips_and_is_checked() {
        let mut n = sample_with(4);
        n.scale = 372;
        let bytes = n.to_bytes();
        assert_eq!(u32_at(&bytes, 32), 372);
        assert_eq!(Network::from_bytes(&bytes), Ok(n.clone()));
        for bad in [0u32, MIN_SCALE as u32 - 1, MAX_SCALE as u32 + 1, u32::MAX] {
            let mut b = bytes.clone();
            b[32..36].copy_from_slice(&bad.to_le_bytes());
            let e = Network::from_bytes(&b).unwrap_err();
            assert!(e.contains("output scale"), "{e}");
            assert!(!e.contains('\n'));
        }
        let mut qa = bytes.clone();
        qa[24] = 127;
        assert!(
            Network::from_bytes(&qa)
                .unwrap_err()
                .contains("quantisation")
        );
        n.scale = MAX_SCALE + 1;
        assert!(n.validate().unwrap_err().contains("output scale"));
    }

    /// A header's bucket count is checked against the architecture and the payload.
    #[test]
    fn wrong_bucket_counts_are_refused() {
        let good = sample_with(8).to_bytes();
        for n in [0u8, 1, 3, 9, 16] {
            let mut bad = good.clone();
            bad[36] = n;
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("output buckets"), "{e}");
            assert!(!e.contains('\n'));
        }
        // a plausible count that does not match the payload's length
        let mut four = good.clone();
        four[36] = 4;
        assert!(
            Network::from_bytes(&four)
                .unwrap_err()
                .contains("truncated or padded")
        );
        // architecture 1's header on architecture 2's payload
        let mut one = good.clone();
        one[12] = 1;
        assert!(
            Network::from_bytes(&one)
                .unwrap_err()
                .contains("truncated or padded")
        );
        let mut flipped = good.clone();
        let at = flipped.len() - 3;
        flipped[at] ^= 4;
        assert!(
            Network::from_bytes(&flipped)
                .unwrap_err()
                .contains("checksum")
        );
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = sample().to_bytes();
        let mut short = good.clone();
        short.truncate(good.len() - 1);
        assert!(
            Network::from_bytes(&short)
                .unwrap_err()
                .contains("truncated")
        );
        let mut long = good.clone();
        long.push(0);
        assert!(Network::from_bytes(&long).unwrap_err().contains("padded"));
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 100] ^= 1;
        assert!(
            Network::from_bytes(&flipped)
                .unwrap_err()
                .contains("checksum")
        );
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(Network::from_bytes(&magic).unwrap_err().contains("magic"));
        let mut arch = good.clone();
        arch[12] = 9;
        assert!(
            Network::from_bytes(&arch)
                .unwrap_err()
                .contains("architecture")
        );
        let mut width = good.clone();
        width[20] = 48;
        assert!(Network::from_bytes(&width).is_err());
        assert!(
            Network::from_bytes(&good[..10])
                .unwrap_err()
                .contains("short")
        );
        assert!(Network::from_bytes(&[]).is_err());
        // an output weight beyond the range, with a matching checksum
        let mut n = sample_with(4);
        n.out_weights[3 * 64 + 5] = -200;
        assert!(
            Network::from_bytes(&n.to_bytes())
                .unwrap_err()
                .contains("±127")
        );
    }
}
