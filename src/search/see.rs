//! Static exchange evaluation for Xiangqi: does a move win at least `threshold` once every
//! capture on its target square has been played out, each side capturing with its least
//! valuable piece and free to stop?
//!
//! What makes it Xiangqi: after every capture the attackers of the square are computed
//! again from the changed occupancy, because removing a piece can *add* an attacker (a rook
//! behind, a horse whose leg is freed, a cannon that gains a screen) and can also *remove*
//! one (a cannon whose screen just captured or was taken). The king captures last and only
//! onto a square the other side no longer attacks; the flying-general rule counts the king
//! as an attacker along its file. Pins are ignored (as in every engine's SEE).

use crate::core::attacks::Occupancy;
use crate::core::{Bitboard, Move, PieceType, Position, Square};

/// Exchange values (centipawns). Advisors and elephants are cheap, crossed pawns are not
/// told apart here (SEE only orders and prunes captures).
pub const SEE_VALUE: [i32; 7] = [
    20000, // king
    200,   // advisor
    200,   // elephant
    400,   // horse
    900,   // rook
    450,   // cannon
    100,   // pawn
];

/// Exchange order: least valuable first.
const ORDER: [PieceType; 7] = [
    PieceType::Pawn,
    PieceType::Advisor,
    PieceType::Elephant,
    PieceType::Horse,
    PieceType::Cannon,
    PieceType::Rook,
    PieceType::King,
];

/// The exchange value of the piece standing on `sq` (0 if empty).
#[inline]
pub fn value_on(pos: &Position, sq: Square) -> i32 {
    pos.piece_on(sq).map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// Does `m` (legal in `pos`) gain at least `threshold` by static exchange?
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_on(from) else {
        return false;
    };
    let mut swap = value_on(pos, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ: Occupancy = *pos.occupancy();
    occ.toggle(from);
    if pos.piece_on(to).is_none() {
        occ.toggle(to);
    }
    // pieces taken off the board (the original victim is replaced by the mover: it is not
    // in `occ`'s sense "gone", but it can no longer capture)
    let mut gone = Bitboard::from_square(from) | Bitboard::from_square(to);
    let mut stm = !mover.color();
    let mut res = true;
    loop {
        let live = occ.bitboard() - gone;
        let attackers = pos.attackers_to_occ(to, stm, &occ) & live;
        if attackers.is_empty() {
            break;
        }
        // the least valuable attacker
        let mut pick = None;
        for kind in ORDER {
            let b = attackers & pos.pieces(stm, kind);
            if let Some(sq) = b.lsb() {
                pick = Some((kind, sq));
                break;
            }
        }
        let Some((kind, sq)) = pick else { break };
        if kind == PieceType::King {
            // the king may only take if the other side has nothing left on the square
            let theirs = pos.attackers_to_occ(to, !stm, &occ) & live;
            if theirs.any() {
                break;
            }
            res = !res;
            break;
        }
        res = !res;
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < i32::from(res) {
            break;
        }
        occ.toggle(sq);
        gone |= Bitboard::from_square(sq);
        stm = !stm;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, m: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = Move::parse_iccs(m).unwrap();
        assert!(pos.is_legal(m), "{m} illegal in {fen}");
        see_ge(&pos, m, t)
    }

    /// The exact exchange value, found by bisection over the threshold.
    fn value(fen: &str, m: &str) -> i32 {
        let (mut lo, mut hi) = (-2000i32, 2000i32);
        while lo < hi {
            let mid = (lo + hi + 1).div_euclid(2);
            if see(fen, m, mid) {
                lo = mid
            } else {
                hi = mid - 1
            }
        }
        lo
    }

    #[test]
    fn free_and_defended_pieces() {
        // rook takes an undefended horse
        assert_eq!(value("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), 400);
        // the horse defended by the pawn e6: 400 - 900
        assert_eq!(
            value("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"),
            -500
        );
    }

    #[test]
    fn cannon_needs_its_screen() {
        // cannon e9 defends e5 over the elephant e7
        assert_eq!(
            value("3kc4/9/4b4/9/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"),
            -500
        );
        // without the screen it cannot take back
        assert_eq!(value("3kc4/9/9/9/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), 400);
    }

    #[test]
    fn rook_battery_recaptures() {
        // RxN rxR RxR: 400 - 900 + 900
        assert_eq!(
            value("4rk3/9/9/9/4n4/9/9/9/4R4/3KR4 w - - 0 1", "e1e5"),
            400
        );
    }

    #[test]
    fn a_screen_that_captures_disarms_its_cannon() {
        // cannon e0 fires over the rook e1; if the rook takes first, the cannon loses its
        // screen and cannot take back: RxN rxR = -500
        let fen = "4rk3/9/9/9/4n4/9/9/9/4R4/3KC4 w - - 0 1";
        assert_eq!(value(fen, "e1e5"), -500);
        // the cannon takes first (the cheaper piece) and the rook stands behind: black
        // will not take back (CxN rxC RxR would cost black more): +400
        assert_eq!(value(fen, "e0e5"), 400);
    }

    #[test]
    fn cannon_captures_over_a_pawn() {
        // cannon e0 over the pawn e3 takes the horse, the rook e9 takes back: 400 - 450
        assert_eq!(
            value("4rk3/9/9/9/4n4/9/4P4/9/9/3KC4 w - - 0 1", "e0e5"),
            -50
        );
    }

    #[test]
    fn king_recaptures_only_on_a_safe_point() {
        // two rooks: the king cannot take the first one back
        assert_eq!(value("4k4/4a4/9/9/9/9/9/9/4R4/3KR4 w - - 0 1", "e1e8"), 200);
        // one rook: the king takes it: 200 - 900
        assert_eq!(value("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8"), -700);
    }

    #[test]
    fn quiet_move_onto_an_attacked_point() {
        // the horse steps to c4, where the pawn c5 takes it
        let fen = "4k4/9/9/9/2p6/9/9/1N7/9/3K5 w - - 0 1";
        assert!(!see(fen, "b2c4", 0));
        assert!(see(fen, "b2c4", -400));
        assert!(!see(fen, "b2c4", -399));
        // a4 is safe
        assert!(see(fen, "b2a4", 0));
    }
}
