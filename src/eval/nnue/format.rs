//! The net file: a 56-byte header and the quantised weights, all little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHARNNUE` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | architecture (1: [`ARCH_PERSPECTIVE_MIRRORED`]) |
//! | 16 | 4 | inputs per perspective (810, [`NUM_FEATURES`]) |
//! | 20 | 4 | hidden width H (a multiple of 16, 16..=512) |
//! | 24 | 4 | QA, the accumulator's scale (255) |
//! | 28 | 4 | QB, the output weights' scale (64) |
//! | 32 | 4 | output scale in centipawns (400) |
//! | 36 | 4 | reserved, 0 |
//! | 40 | 8 | payload length in bytes |
//! | 48 | 8 | FNV-1a-64 of the payload |
//! | 56 | … | payload |
//!
//! Payload: input weights `i16[810][H]` (input-major: the H weights of input 0, then of
//! input 1, …), hidden biases `i16[H]`, output weights `i16[2H]` (the side to move's half,
//! then the other side's), output bias `i32`. The hidden values are `QA`-scaled; output
//! weights are `QB`-scaled and lie in −127..=127, so that a clipped hidden value (0..=255)
//! times a weight fits an `i16`.
//!
//! Architecture 1: each side's view feeds an accumulator `bias + Σ weights[input]` of H
//! values; the output is `Σ screlu(own)·w_own + Σ screlu(enemy)·w_enemy + bias` with
//! `screlu(x) = clamp(x, 0, QA)²`, computed once on the board as it is and once on the board
//! mirrored left-right, and averaged (so a mirrored position evaluates exactly the same):
//! `eval = ((sum + sum_mirrored) / QA + 2·bias) · SCALE / (2·QA·QB)` centipawns for the side
//! to move, the divisions truncating towards zero.

use super::features::NUM_FEATURES;

pub const MAGIC: &[u8; 8] = b"CHARNNUE";
pub const VERSION: u32 = 1;
/// (810 → H) × 2 perspectives → 1, SCReLU, averaged over the board and its mirror image.
pub const ARCH_PERSPECTIVE_MIRRORED: u32 = 1;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;
pub const HEADER_LEN: usize = 56;
/// Widest hidden layer accepted (keeps every i32 lane of the output sum from overflowing).
pub const MAX_HIDDEN: usize = 512;
/// Largest magnitude of a quantised output weight.
pub const MAX_OUT_WEIGHT: i16 = 127;

/// A quantised network of architecture 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Hidden width H.
    pub hidden: usize,
    /// `NUM_FEATURES × hidden`, input-major.
    pub l1_weights: Vec<i16>,
    /// `hidden`.
    pub l1_bias: Vec<i16>,
    /// `2 × hidden`: the side to move's accumulator's weights, then the other side's.
    pub out_weights: Vec<i16>,
    pub out_bias: i32,
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

fn payload_len(hidden: usize) -> usize {
    2 * (NUM_FEATURES * hidden + hidden + 2 * hidden) + 4
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
    /// A network of width `hidden` with every weight zero.
    pub fn zeroed(hidden: usize) -> Network {
        Network {
            hidden,
            l1_weights: vec![0; NUM_FEATURES * hidden],
            l1_bias: vec![0; hidden],
            out_weights: vec![0; 2 * hidden],
            out_bias: 0,
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
        if self.l1_weights.len() != NUM_FEATURES * h
            || self.l1_bias.len() != h
            || self.out_weights.len() != 2 * h
        {
            return Err("weight arrays do not match the hidden width".into());
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
        let mut payload = Vec::with_capacity(payload_len(self.hidden));
        for w in self
            .l1_weights
            .iter()
            .chain(&self.l1_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            ARCH_PERSPECTIVE_MIRRORED,
            NUM_FEATURES as u32,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            0,
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
        if arch != ARCH_PERSPECTIVE_MIRRORED {
            return Err(format!(
                "net: architecture {arch}, this build runs architecture {ARCH_PERSPECTIVE_MIRRORED}"
            ));
        }
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
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(format!(
                "net: quantisation {qa}/{qb}/{scale}, this build uses {QA}/{QB}/{SCALE}"
            ));
        }
        let len = u64_at(b, 40);
        let expected = payload_len(hidden);
        if len != expected as u64 || b.len() != HEADER_LEN + expected {
            return Err(format!(
                "net: payload of {} bytes, a width-{hidden} net has {expected} (truncated or padded)",
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
        let out_weights = take(2 * hidden);
        let tail = &payload[payload.len() - 4..];
        let net = Network {
            hidden,
            l1_weights,
            l1_bias,
            out_weights,
            out_bias: i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]),
        };
        net.validate().map_err(|e| format!("net: {e}"))?;
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut n = Network::zeroed(32);
        for (i, w) in n.l1_weights.iter_mut().enumerate() {
            *w = (i as i32 % 200 - 100) as i16;
        }
        for (i, w) in n.out_weights.iter_mut().enumerate() {
            *w = (i as i32 % 255 - 127) as i16;
        }
        n.l1_bias[3] = -7;
        n.out_bias = -12345;
        n
    }

    #[test]
    fn round_trip() {
        let n = sample();
        assert_eq!(Network::from_bytes(&n.to_bytes()), Ok(n));
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
        let mut n = sample();
        n.out_weights[0] = 200;
        assert!(
            Network::from_bytes(&n.to_bytes())
                .unwrap_err()
                .contains("±127")
        );
    }
}
