//! Zobrist keys: 64-bit, from a fixed-seed SplitMix64 stream, built at compile time so that
//! every build and every run hashes positions identically (books and logs depend on it).

use super::piece::Piece;
use super::square::{NUM_SQUARES, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const SEED: u64 = 0x4348_4152_494f_5421; // "CHARIOT!"

struct Keys {
    pieces: [[u64; NUM_SQUARES]; Piece::NUM],
    side: u64,
}

static KEYS: Keys = {
    let mut pieces = [[0u64; NUM_SQUARES]; Piece::NUM];
    let mut state = SEED;
    let mut p = 0;
    while p < Piece::NUM {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            pieces[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    Keys { pieces, side }
};

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// Key toggled when Black is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = Piece::ALL
            .iter()
            .flat_map(|&p| Square::ALL.iter().map(move |&s| piece_key(p, s)))
            .collect();
        all.push(side_key());
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
