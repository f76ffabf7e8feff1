//! Sample positions: openings, middlegames and endgames that `chariot bench` searches and
//! that tests across the layers walk from. They sit in `core` so that every layer's tests can
//! use them without importing anything above themselves; changing the list changes the
//! bench's node count.

#[cfg(test)]
use super::Position;

/// The bench's positions: openings, middlegames and endgames (the perft suite's positions and
/// common openings).
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R b - - 1 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR w - - 2 2",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1C1N2/9/R1BAKAB2 w - - 0 1",
    "r1bakab1r/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1N2/9/R1BAKAB1R w - - 0 1",
    "2bakab2/9/4c1n2/p3p1p1p/2p6/6P2/P1P1P3P/4C1N2/9/2BAKAB2 w - - 0 1",
    "3akab2/9/4b4/p3p3p/2p3p2/9/P1P1P1P1P/4B4/4A4/2BAK4 w - - 0 1",
    "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1R2 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/4A4/3AK1C2 w - - 0 1",
    "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "4ka3/4a4/9/9/9/9/9/9/4N4/3K5 w - - 0 1",
    "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAKR3 w - - 0 1",
    "4k4/4a4/4ba3/9/2P6/9/9/9/4K4/9 w - - 0 1",
    "3a1k3/9/4b4/4p4/9/9/9/4B4/9/3K1A3 w - - 0 1",
    "4kab2/4a4/9/9/9/9/9/9/4A4/2CK1AB2 w - - 0 1",
    "r3kab2/4a4/2n1b4/p3p1p1p/9/2P6/P3P1P1P/4B1N2/4A4/2B1KA2R w - - 0 1",
    "2bakab1r/9/1c2c1n2/p3p1p1p/2p6/6P2/P1P1P3P/2N1C1N2/9/R1BAKAB2 b - - 0 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 2 2",
    "1rbakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 6 4",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKAB1R w - - 6 4",
    "3akab2/9/2n1b4/p1p1p1p1p/9/9/P1P1P1P1P/4B4/4A4/2NAK1B2 w - - 0 1",
    "2ba1k3/4a4/4b4/p3N3p/9/9/P7P/4B4/4A4/3AK1B2 w - - 0 1",
];

/// Test positions: each bench position and the positions after up to `plies` random legal
/// moves from it (an xorshift stream from `seed`, so every run draws the same).
#[cfg(test)]
pub fn random_walks(plies: usize, seed: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = seed;
    for fen in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("bench positions are legal");
        out.push(pos.clone());
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make_move(legal.as_slice()[(seed % legal.len() as u64) as usize]);
            out.push(pos.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{POSITIONS, Position};

    #[test]
    fn bench_positions_are_legal_and_distinct() {
        let mut keys = std::collections::HashSet::new();
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert!(keys.insert(pos.key()), "duplicate {fen}");
        }
        assert!(POSITIONS.len() >= 30);
    }
}
