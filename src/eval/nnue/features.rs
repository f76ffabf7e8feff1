//! The network's inputs: one feature per (plane, point) seen from one side's view.
//!
//! A perspective is a side: its own pieces and the enemy's, on the board as that side sees it
//! (Black's board rotated 180°, so both sides' features are alike), optionally mirrored
//! left-right. Nine planes of 90 points each (810 inputs) hold every piece without loss,
//! because some pieces can never share a point:
//!
//! | plane | pieces |
//! |---|---|
//! | 0 | own king and own pawns (a pawn never stands in its own palace) |
//! | 1 | enemy king and enemy pawns |
//! | 2 | advisors and elephants of both sides (each stays on its own half, and an advisor's points are never an elephant's) |
//! | 3, 4 | own horses, enemy horses |
//! | 5, 6 | own rooks, enemy rooks |
//! | 7, 8 | own cannons, enemy cannons |

use crate::core::{Color, Piece, PieceType, Position, Square};

/// Points on the board.
pub const POINTS: usize = 90;
/// Planes of 90 points.
pub const PLANES: usize = 9;
/// Inputs of one perspective.
pub const NUM_FEATURES: usize = PLANES * POINTS;

/// The plane of `piece` seen by `persp`.
#[inline]
pub const fn plane(persp: Color, piece: Piece) -> usize {
    let own = piece.color() as u8 == persp as u8;
    match piece.kind() {
        PieceType::King | PieceType::Pawn => {
            if own {
                0
            } else {
                1
            }
        }
        PieceType::Advisor | PieceType::Elephant => 2,
        PieceType::Horse => 3 + !own as usize,
        PieceType::Rook => 5 + !own as usize,
        PieceType::Cannon => 7 + !own as usize,
    }
}

/// The point `sq` as `persp` sees it: Red's view is the board itself, Black's is rotated 180°;
/// `mirror` then reflects it left-right.
#[inline]
pub const fn relative_point(persp: Color, sq: Square, mirror: bool) -> usize {
    let s = match persp {
        Color::Red => sq.index(),
        Color::Black => POINTS - 1 - sq.index(),
    };
    if mirror { s - s % 9 + 8 - s % 9 } else { s }
}

/// The input index of `piece` on `sq` for perspective `persp` (mirrored or not).
#[inline]
pub const fn index(persp: Color, piece: Piece, sq: Square, mirror: bool) -> usize {
    plane(persp, piece) * POINTS + relative_point(persp, sq, mirror)
}

/// [`index`] for every (perspective, mirror) pair, piece and point, worked out at compile
/// time: the search asks for four input rows a piece on each move it evaluates after, and one
/// load is cheaper than the plane and point arithmetic (a table of 10 KB).
static INDEX_TABLE: [[[u16; POINTS]; Piece::NUM]; 4] = index_table();

const fn index_table() -> [[[u16; POINTS]; Piece::NUM]; 4] {
    let mut t = [[[0u16; POINTS]; Piece::NUM]; 4];
    let mut view = 0;
    while view < 4 {
        let persp = if view / 2 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let mirror = view % 2 == 1;
        let mut p = 0;
        while p < Piece::NUM {
            let mut sq = 0;
            while sq < POINTS {
                t[view][p][sq] =
                    index(persp, Piece::ALL[p], Square::from_index(sq as u8), mirror) as u16;
                sq += 1;
            }
            p += 1;
        }
        view += 1;
    }
    t
}

/// [`index`] by table lookup (the same value).
#[inline]
pub fn index_fast(persp: Color, piece: Piece, sq: Square, mirror: bool) -> usize {
    usize::from(INDEX_TABLE[persp.index() * 2 + usize::from(mirror)][piece.index()][sq.index()])
}

/// Output bucket of each material count (rooks, horses and cannons of both sides, 0..=12)
/// for 8 buckets, banded so that each holds 7-22 % of the generation-4 training positions
/// (docs/nnue.md): 0-1, 2, 3, 4, 5-6, 7-8, 9-10, 11-12 (odd counts are rare: pieces are
/// mostly traded in pairs). Fewer buckets merge neighbours (`bucket · B / 8`).
const BUCKET_OF_COUNT: [u8; 13] = [0, 0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7];

/// Rooks, horses and cannons on the board, both sides together (0..=12): the same for the
/// position, its colour flip and its mirror image.
#[inline]
pub fn material_count(pos: &Position) -> usize {
    let mut n = 0;
    for c in Color::ALL {
        for k in [PieceType::Rook, PieceType::Horse, PieceType::Cannon] {
            n += pos.pieces(c, k).count() as usize;
        }
    }
    n
}

/// The output bucket (0..buckets) of a position with `count` rooks, horses and cannons;
/// `buckets` is 1, 2, 4 or 8.
#[inline]
pub fn bucket_of_count(count: usize, buckets: usize) -> usize {
    usize::from(BUCKET_OF_COUNT[count.min(12)]) * buckets / 8
}

/// The output bucket of `pos` for a net of `buckets` output layers (0 for one).
#[inline]
pub fn material_bucket(pos: &Position, buckets: usize) -> usize {
    if buckets == 1 {
        0
    } else {
        bucket_of_count(material_count(pos), buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    /// No two pieces of any reachable kind share an input: walk random games and check that
    /// every perspective's active inputs are distinct.
    #[test]
    fn pieces_never_share_an_input() {
        let mut seed = 0x1234_5678_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                for persp in Color::ALL {
                    for mirror in [false, true] {
                        let mut seen = [false; NUM_FEATURES];
                        for sq in Square::ALL {
                            if let Some(p) = pos.piece_on(sq) {
                                let i = index(persp, p, sq, mirror);
                                assert!(!seen[i], "two pieces on input {i}: {}", pos.fen());
                                seen[i] = true;
                            }
                        }
                    }
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal.as_slice()[(next() % legal.len() as u64) as usize];
                pos.make_move(m);
            }
        }
    }

    #[test]
    fn the_index_table_equals_the_arithmetic() {
        for persp in Color::ALL {
            for mirror in [false, true] {
                for piece in Piece::ALL {
                    for sq in Square::ALL {
                        assert_eq!(
                            index_fast(persp, piece, sq, mirror),
                            index(persp, piece, sq, mirror),
                            "{persp:?} {piece:?} {sq:?} mirror {mirror}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_colour_flip_keeps_the_inputs() {
        // Red's rook on a0 seen by Red is Black's rook on i9 seen by Black.
        let red_rook = Piece::new(Color::Red, PieceType::Rook);
        let black_rook = Piece::new(Color::Black, PieceType::Rook);
        let a0 = Square::from_index(0);
        let i9 = Square::from_index(89);
        assert_eq!(
            index(Color::Red, red_rook, a0, false),
            index(Color::Black, black_rook, i9, false)
        );
        assert_eq!(index(Color::Red, red_rook, a0, false), 5 * 90);
        assert_eq!(index(Color::Red, red_rook, a0, true), 5 * 90 + 8);
        assert_eq!(index(Color::Black, red_rook, a0, false), 6 * 90 + 89);
    }
}
