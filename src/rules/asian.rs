//! What the Asian (AXF) rules judge differently from the Chinese ones when a move chases
//! (issue 42); used by `classify` under [`RuleSet::Axf`](super::RuleSet) only.
//!
//! - **Protected or not.** The Asian rules know protected and unprotected pieces, not the
//!   Chinese rules' insufficiently protected piece that an exchange sequence would win (少根子,
//!   25.6 / 28.15). So a capture wins the piece when the piece has no true root (a root that
//!   could take back legally without being mated at once), or the capturer is worth less than
//!   it (a horse or cannon on a rook); no exchange is played out. A chase is then new when the
//!   victim loses its last true root (a pin created on the root, a root's line cut), whatever
//!   an exchange count said before.
//! - **Frozen pieces** (AXF rule 19, diagrams 39–41: "When a Rook cannot move because of an
//!   opponent's Knight, the Rook cannot be perpetually chased, regardless of whether the
//!   opponent's Knight is protected"). A piece standing on the leg of an enemy horse that would
//!   check its king if the leg were free can move only by taking that horse. Attacking it is a
//!   chase whether or not it is protected (it cannot escape), and its own standing attack on
//!   the horse is no chase.

use super::classify::{has_mate_in_one, piece_name, true_roots, value};
use crate::core::attacks::horse_attackers_to;
use crate::core::{Bitboard, Move, PieceType, Position, Square};

/// The enemy horse that freezes the piece on `sq`: the piece stands on that horse's leg, and
/// with the leg free the horse would check the piece's king (it does not now). `None` for an
/// empty square, a king, or a piece that may move freely.
pub fn frozen_by(pos: &Position, sq: Square) -> Option<Square> {
    let piece = pos.piece_on(sq)?;
    if piece.kind() == PieceType::King {
        return None;
    }
    let us = piece.color();
    let king = pos.king_square(us);
    let horses = pos.pieces(!us, PieceType::Horse);
    let occ = pos.occupied();
    let free = occ - Bitboard::from(sq);
    let would = horse_attackers_to(king, free) & horses;
    let now = horse_attackers_to(king, occ) & horses;
    (would - now).into_iter().next()
}

/// Is the capture `from` → `to` a frozen piece taking the horse that freezes it? Under the
/// Asian rules that standing attack is no chase (rule 19).
pub fn takes_own_pinner(pos: &Position, from: Square, to: Square) -> bool {
    frozen_by(pos, from) == Some(to)
}

/// Does the side to move win the piece on `to` by capturing it from `from`, under the Asian
/// rules? `None` when the capture lets the opponent mate at once (it wins nothing, as in
/// 29.3.3); otherwise whether the piece is frozen, worth more than the capturer, or without a
/// true root against this capture.
pub fn capture_wins(pos: &mut Position, from: Square, to: Square) -> Option<bool> {
    let attacker = pos.piece_on(from)?;
    let victim = pos.piece_on(to)?;
    let m = Move::new(from, to)?;
    pos.make_move(m);
    let mated = has_mate_in_one(pos);
    pos.unmake_move();
    if mated {
        return None;
    }
    if frozen_by(pos, to).is_some() || value(victim, to) > value(attacker, from) {
        return Some(true);
    }
    Some(true_roots(pos, from, to).is_empty())
}

/// Plain words on a frozen piece, for `judge`: `frozen: the black rook on f8 is the leg of the
/// red horse on g8 …`; `None` when the piece on `sq` is not frozen.
pub fn frozen_note(pos: &Position, sq: Square) -> Option<String> {
    let horse_sq = frozen_by(pos, sq)?;
    let piece = pos.piece_on(sq)?;
    let horse = pos.piece_on(horse_sq)?;
    let king = pos.king_square(piece.color());
    let attacks = pos
        .piece_attacks(piece, sq, pos.occupancy())
        .contains(horse_sq);
    let standing = if attacks {
        "; its attack on the horse is no chase"
    } else {
        ""
    };
    Some(format!(
        "frozen: the {} on {sq} is the leg of the {} on {horse_sq}, which would check its \
         king on {king} if the leg were free, so it can move only by taking that horse{standing}, \
         and it may not be chased perpetually, protected or not (AXF rule 19, diagrams 39-41)",
        piece_name(piece),
        piece_name(horse),
    ))
}

/// Every frozen piece on the board, by square.
pub fn frozen_pieces(pos: &Position) -> Vec<Square> {
    Square::ALL
        .iter()
        .copied()
        .filter(|&sq| frozen_by(pos, sq).is_some())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;
    use crate::rules::classify::{MoveKind, classify_under};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn a_rook_on_the_leg_of_a_checking_horse_is_frozen() {
        // black king e9, black rook f8 on the leg of the red horse g8 (g8 -> e9 over f8)
        let pos = Position::from_fen("4k4/5rN2/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(frozen_by(&pos, sq("f8")), Some(sq("g8")));
        assert!(takes_own_pinner(&pos, sq("f8"), sq("g8")));
        assert_eq!(frozen_pieces(&pos), vec![sq("f8")]);
        let note = frozen_note(&pos, sq("f8")).unwrap();
        assert!(
            note.starts_with("frozen: the black rook on f8 is the leg of the red horse on g8"),
            "{note}"
        );
        assert!(
            note.contains("its attack on the horse is no chase"),
            "{note}"
        );
        // the king one file over: the horse would not check, nothing is frozen
        let pos = Position::from_fen("3k5/5rN2/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(frozen_by(&pos, sq("f8")), None);
        assert!(frozen_note(&pos, sq("f8")).is_none());
        // a king is never frozen, an empty square neither
        assert_eq!(frozen_by(&pos, sq("d9")), None);
        assert_eq!(frozen_by(&pos, sq("a0")), None);
    }

    #[test]
    fn a_frozen_piece_is_won_even_when_protected() {
        // the red rook b8 attacks the frozen black rook f8, protected by the black rook f5
        // along the f-file: rook for rook, but the frozen rook cannot escape (red's advisors
        // and the pawn e3 keep the red king out of a mate after the capture)
        let fen = "4k4/1R3rN2/9/9/5r3/9/4P4/9/9/3AKA3 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(capture_wins(&mut pos, sq("b8"), sq("f8")), Some(true));
        // the same rook not frozen (king on d9): protected, rook for rook wins nothing
        let fen = "3k5/1R3rN2/9/9/5r3/9/4P4/9/9/3AKA3 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(capture_wins(&mut pos, sq("b8"), sq("f8")), Some(false));
        assert_eq!(pos.fen(), Position::from_fen(fen).unwrap().fen());
    }
    fn kinds(fen: &str, mv: &str) -> (MoveKind, MoveKind) {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs(mv)
            .filter(|&m| pos.is_legal(m))
            .expect("legal test move");
        let cxa = classify_under(&mut pos, m, RuleSet::Cxa).kind;
        let axf = classify_under(&mut pos, m, RuleSet::Axf);
        assert_eq!(pos.fen(), Position::from_fen(fen).unwrap().fen());
        (cxa, axf.kind)
    }

    #[test]
    fn the_frozen_rooks_attack_on_its_horse_is_no_chase_under_axf() {
        // casebook A01 after d5d8: the advisor e8 leaves, the cannon d8 loses its screen and
        // can no longer take back on g8, so the frozen rook f8 could take the horse for free
        let fen = "4k4/1R1CarN2/9/9/9/9/9/9/9/3K5 b - - 0 1";
        assert_eq!(kinds(fen, "e8d9"), (MoveKind::Chase, MoveKind::Idle));
    }

    #[test]
    fn a_protected_frozen_rook_is_chased_under_axf() {
        // casebook A02 after d5d8 e8d9: d8d5 uncovers the rook b8 on the frozen rook f8,
        // protected by the horse h7: rook for rook is no chase by the CXA exchange, a chase
        // of a piece that cannot escape under the Asian rules
        let fen = "3ak4/1R1C1rN2/7n1/9/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(kinds(fen, "d8d5"), (MoveKind::Idle, MoveKind::Chase));
    }

    #[test]
    fn cutting_the_last_root_is_a_new_chase_only_under_axf() {
        // casebook A03: the cannon d5, attacked by the horse e3 and the rook a5, loses its
        // root d9 when the rook f7 cuts the d-file; the CXA exchange count won it before
        let fen = "3rkr3/4a4/5R3/4p4/R2c5/9/4N4/9/9/4K4 w - - 0 1";
        assert_eq!(kinds(fen, "f7d7"), (MoveKind::Idle, MoveKind::Chase));
        // two attackers against a protected piece (casebook S07): a chase by the exchange
        // count, none under the Asian rules
        let fen = "3aka3/9/9/1R7/9/9/rp6R/9/9/3K5 b - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        pos.make_move(Move::parse_iccs("b3c3").unwrap());
        let fen = pos.fen();
        assert_eq!(kinds(&fen, "b6c6"), (MoveKind::Chase, MoveKind::Idle));
    }
}
