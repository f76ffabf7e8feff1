//! Static evaluation, hand-crafted: material and piece-square tables tapered by game phase,
//! mobility of rooks, horses and cannons, and a few pieces of Xiangqi knowledge (the empty
//! central cannon 空头炮, king exposure). Scores are in centipawn-like units, about 100 for
//! an uncrossed pawn... more exactly, a horse or cannon is about 300, as GUIs expect, from
//! the side to move's point of view.
//!
//! The tables are written for Red; Black reads them through the 180° rotation of the board,
//! and every table is symmetric between the left and right wings, so a mirrored or
//! colour-flipped position evaluates the same.

use crate::core::attacks::{cannon_attacks, horse_attacks, rook_attacks};
use crate::core::{Color, PieceType, Position, Square};

/// Middlegame and endgame values of each piece type (king, advisor, elephant, horse, rook,
/// cannon, pawn). Pawns get their crossed-river value from the tables.
pub const MATERIAL_MG: [i32; 7] = [0, 110, 110, 300, 640, 320, 40];
pub const MATERIAL_EG: [i32; 7] = [0, 110, 110, 330, 680, 290, 70];

/// Phase weight of each piece type; the sum over the start position is `PHASE_MAX`.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 1, 2, 1, 0];
const PHASE_MAX: i32 = 16;

/// Mobility weights (per reachable point) for rook, horse, cannon, middlegame / endgame.
const ROOK_MOB: (i32, i32) = (4, 6);
const HORSE_MOB: (i32, i32) = (8, 10);
const CANNON_MOB: (i32, i32) = (2, 2);
/// A cannon on the king's file with nothing between (空头炮).
const EMPTY_HEAD_CANNON: i32 = 60;
/// Per missing advisor or elephant while the opponent still has attackers.
const MISSING_DEFENDER: i32 = 20;
/// Bonus for the side to move.
const TEMPO: i32 = 12;

/// Piece-square bonus for Red on (file, rank), middlegame and endgame.
const fn pst(kind: usize, file: i32, rank: i32) -> (i32, i32) {
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file }; // 0 at the edge .. 4 in the middle
    match kind {
        // king: home on the e-file, not raised
        0 => {
            let v = if file == 4 { 8 } else { -6 } - 10 * rank;
            (v, v / 2)
        }
        // advisor and elephant: central points are better
        1 | 2 => {
            let v = if file == 4 { 6 } else { 0 };
            (v, v)
        }
        // horse: central and forward, but not stuck on the edge or the back rank
        3 => {
            let fwd = if rank > 7 {
                14 - 2 * (rank - 7)
            } else {
                2 * rank
            };
            let edge = if file == 0 || file == 8 { -18 } else { 0 };
            let back = if rank == 0 { -12 } else { 0 };
            let v = 3 * centre + fwd + edge + back;
            (v, v)
        }
        // rook: crossing the river and holding ranks near the enemy palace
        4 => {
            let v = match rank {
                0 => -6,
                5 | 6 => 10,
                7 => 14,
                8 => 8,
                _ => 2,
            } + if file == 3 || file == 5 { 4 } else { 0 };
            (v, v / 2)
        }
        // cannon: the central file and the home ranks early, less later
        5 => {
            let mut v = if file == 4 { 14 } else { 0 };
            if rank == 9 {
                v += 10; // 沉底炮
            }
            if rank == 2 || rank == 3 {
                v += 4;
            }
            (v, v / 3 - 6)
        }
        // pawn: worth little at home; across the river it grows as it nears the palace,
        // most on the central files, and less once it reaches the last rank
        _ => {
            if rank < 5 {
                let v = if rank == 4 { 6 } else { 0 };
                (v, v)
            } else {
                let adv = match rank {
                    5 => 30,
                    6 => 48,
                    7 => 60,
                    8 => 56,
                    _ => 20,
                };
                let mid = if file >= 3 && file <= 5 { 16 } else { 0 };
                (adv + mid, adv + mid + 30)
            }
        }
    }
}

/// `[kind][square] -> (mg, eg)` for Red.
static PST: [[(i32, i32); 90]; 7] = {
    let mut t = [[(0, 0); 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut sq = 0;
        while sq < 90 {
            t[k][sq] = pst(k, (sq % 9) as i32, (sq / 9) as i32);
            sq += 1;
        }
        k += 1;
    }
    t
};

/// Evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    let occ = pos.occupancy();
    let occ_bb = pos.occupied();
    for color in Color::ALL {
        let sign = if color == Color::Red { 1 } else { -1 };
        let own = pos.color_pieces(color);
        let enemy_king = pos.king_square(!color);
        let (mut m, mut e) = (0, 0);
        for kind in PieceType::ALL {
            let k = kind.index();
            for sq in pos.pieces(color, kind) {
                let rel = if color == Color::Red { sq } else { sq.flip() };
                let (pm, pe) = PST[k][rel.index()];
                m += MATERIAL_MG[k] + pm;
                e += MATERIAL_EG[k] + pe;
                phase += PHASE_WEIGHT[k];
                match kind {
                    PieceType::Rook => {
                        let n = (rook_attacks(sq, occ) - own).count() as i32;
                        m += ROOK_MOB.0 * n;
                        e += ROOK_MOB.1 * n;
                    }
                    PieceType::Horse => {
                        let n = (horse_attacks(sq, occ_bb) - own).count() as i32;
                        m += HORSE_MOB.0 * n;
                        e += HORSE_MOB.1 * n;
                    }
                    PieceType::Cannon => {
                        let quiet = (rook_attacks(sq, occ) - occ_bb).count() as i32;
                        let caps =
                            (cannon_attacks(sq, occ) & pos.color_pieces(!color)).count() as i32;
                        m += CANNON_MOB.0 * quiet + 6 * caps;
                        e += CANNON_MOB.1 * quiet + 6 * caps;
                        if sq.file() == enemy_king.file() && empty_between(pos, sq, enemy_king) {
                            m += EMPTY_HEAD_CANNON;
                        }
                    }
                    _ => {}
                }
            }
        }
        // king shelter: missing advisors and elephants matter while the enemy can attack
        let attackers = [PieceType::Rook, PieceType::Horse, PieceType::Cannon]
            .iter()
            .map(|&t| pos.pieces(!color, t).count() as i32)
            .sum::<i32>();
        let defenders = (pos.pieces(color, PieceType::Advisor)
            | pos.pieces(color, PieceType::Elephant))
        .count() as i32;
        m -= MISSING_DEFENDER * (4 - defenders) * attackers.min(4) / 4;
        mg += sign * m;
        eg += sign * e;
    }
    let phase = phase.min(PHASE_MAX);
    let score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let stm = if pos.side_to_move() == Color::Red {
        score
    } else {
        -score
    };
    stm + TEMPO
}

/// No piece between two points on one file.
fn empty_between(pos: &Position, a: Square, b: Square) -> bool {
    (crate::core::attacks::between(a, b) & pos.occupied()).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position mirrored left-right and, separately, with colours swapped (board
    /// rotated, case swapped, side flipped).
    fn mirror(fen: &str) -> String {
        let mut parts = fen.split_whitespace();
        let board: Vec<String> = parts
            .next()
            .unwrap()
            .split('/')
            .map(|r| r.chars().rev().collect::<String>())
            .collect();
        let rest: Vec<&str> = parts.collect();
        format!("{} {}", board.join("/"), rest.join(" "))
    }

    fn colour_flip(fen: &str) -> String {
        let mut parts = fen.split_whitespace();
        let ranks: Vec<&str> = parts.next().unwrap().split('/').collect();
        let board: Vec<String> = ranks
            .iter()
            .rev()
            .map(|r| {
                r.chars()
                    .rev()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts.next() == Some("b") { "w" } else { "b" };
        format!("{} {side}", board.join("/"))
    }

    #[test]
    fn symmetric_under_mirror_and_colour_flip() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
            "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 b",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
        ] {
            let p = Position::from_fen(fen).unwrap();
            let m = Position::from_fen(&mirror(fen)).unwrap();
            let f = Position::from_fen(&colour_flip(fen)).unwrap();
            assert_eq!(evaluate(&p), evaluate(&m), "mirror of {fen}");
            assert_eq!(evaluate(&p), evaluate(&f), "colour flip of {fen}");
        }
    }

    #[test]
    fn material_counts() {
        let even = Position::startpos();
        let up_rook =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(evaluate(&up_rook) > evaluate(&even) + 400);
        assert!(evaluate(&even).abs() < 50);
    }
}
