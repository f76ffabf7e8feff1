//! Correction history: what searches found the static evaluation to miss, remembered by
//! features of the position the evaluation sees only as a whole (its pawn structure, its
//! material), and added to the evaluation of later positions that share them.
//!
//! After a node's search, the gap between its result and its static evaluation (when the
//! bound says which way it points) moves the entries of the node's pawn structure and
//! material, for the side to move, a step toward it: a running average weighted by depth.
//! The search then evaluates `raw + correction`, so a structure the evaluation keeps
//! misjudging in this game is judged better from then on.

use crate::core::{Color, PieceType, Position};

/// Entries per table and side to move (a power of two).
const SIZE: usize = 16384;
/// An entry holds a correction in 1/GRAIN centipawns.
const GRAIN: i32 = 64;
/// Entries stay within ±LIMIT (±256 centipawns).
const LIMIT: i32 = 256 * GRAIN;
/// A gap counts for at most this much (centipawns), and an update moves an entry by at most
/// `MAX_WEIGHT / WEIGHT_SCALE` of the way.
const MAX_GAP: i32 = 256;
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;

/// Two tables (pawn structure, material), each per side to move.
pub struct Correction {
    pawns: Vec<i16>,
    material: Vec<i16>,
}

/// The table slots of one position: `[pawns, material]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots([usize; 2]);

impl Default for Correction {
    fn default() -> Correction {
        Correction::new()
    }
}

/// Mixes a 128-bit value into a table index.
#[inline]
fn mix(x: u128, seed: u64) -> usize {
    let folded = (x as u64) ^ ((x >> 64) as u64).rotate_left(29) ^ seed;
    let h = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - SIZE.trailing_zeros())) as usize
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            pawns: vec![0; 2 * SIZE],
            material: vec![0; 2 * SIZE],
        }
    }

    pub fn clear(&mut self) {
        self.pawns.iter_mut().for_each(|v| *v = 0);
        self.material.iter_mut().for_each(|v| *v = 0);
    }

    /// How many entries hold something (for tests).
    #[cfg(test)]
    pub fn learnt(&self) -> usize {
        self.pawns
            .iter()
            .chain(&self.material)
            .filter(|&&v| v != 0)
            .count()
    }

    /// The slots of `pos` (for the side to move).
    #[inline]
    pub fn slots(pos: &Position) -> Slots {
        let side = pos.side_to_move().index() * SIZE;
        let red = pos.pieces(Color::Red, PieceType::Pawn).0;
        let black = pos.pieces(Color::Black, PieceType::Pawn).0;
        let pawns = mix(red, 0x5EED_0001) ^ mix(black.rotate_left(17), 0x5EED_0002);
        // piece counts, four bits each: [colour][kind] for every kind but the king
        let material = mix(u128::from(pos.material_counts()), 0x5EED_0003);
        Slots([side + pawns, side + material])
    }

    /// The correction (centipawns) for a position with these slots, scaled by `percent`.
    #[inline]
    pub fn get(&self, slots: Slots, percent: i32) -> i32 {
        let sum = i32::from(self.pawns[slots.0[0]]) + i32::from(self.material[slots.0[1]]);
        sum * percent / (100 * GRAIN)
    }

    /// Moves the entries of `slots` toward `gap` (search result minus static evaluation,
    /// centipawns), the more the deeper the search.
    pub fn update(&mut self, slots: Slots, gap: i32, depth: i32) {
        let target = gap.clamp(-MAX_GAP, MAX_GAP) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        for (table, slot) in [
            (&mut self.pawns, slots.0[0]),
            (&mut self.material, slots.0[1]),
        ] {
            let v = i32::from(table[slot]);
            let moved = (v * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            table[slot] = moved.clamp(-LIMIT, LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn positions_of_one_structure_share_slots_and_learn_toward_the_gap() {
        let start = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // a horse moved: same pawns and material, same slots
        let moved = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 0 1");
        // a pawn moved: another pawn slot, the same material slot
        let pawn = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        let s = Correction::slots(&start);
        assert_eq!(s, Correction::slots(&moved));
        let p = Correction::slots(&pawn);
        assert_ne!(s.0[0], p.0[0]);
        assert_eq!(s.0[1], p.0[1]);
        let b = Correction::slots(&black);
        assert_ne!(s.0[0], b.0[0], "each side to move has its own entries");
        assert_ne!(s.0[1], b.0[1]);

        let mut c = Correction::new();
        assert_eq!(c.get(s, 100), 0);
        for _ in 0..200 {
            c.update(s, 50, 10);
        }
        // both tables near +50: the sum near +100
        let full = c.get(s, 100);
        assert!((95..=100).contains(&full), "{full}");
        assert_eq!(c.get(s, 0), 0, "off at 0 %");
        assert_eq!(c.get(s, 50), full / 2);
        // the pawn entry is shared with the pawn move's position only through material
        let shared = c.get(p, 100);
        assert!((45..=50).contains(&shared), "{shared}");
        assert_eq!(c.get(b, 100), 0, "the other side's entries untouched");
        // a huge gap counts as MAX_GAP, and entries stay in range
        for _ in 0..500 {
            c.update(s, -10_000, 30);
        }
        let floor = c.get(s, 100);
        assert!(
            (-2 * MAX_GAP..=-2 * MAX_GAP + 4).contains(&floor),
            "{floor}"
        );
        c.clear();
        assert_eq!(c.get(s, 100), 0);
    }
}
