//! Where each weight lives in [`super::weights::W`]: the evaluation is a sum of features
//! times weights, so the tuner and the search read one table. Every entry is a
//! (middlegame, endgame) pair, blended by game phase.
//!
//! Piece-square tables are folded left-right (the board is symmetric): entry
//! `rank * 5 + min(file, 8 - file)`, ranks and files from the owner's side.

/// Material of king, advisor, elephant, horse, rook, cannon, pawn (7 entries).
pub const MATERIAL: usize = 0;
/// Piece-square tables, 50 entries for each piece type in material order.
pub const PST: usize = MATERIAL + 7;
pub const PST_LEN: usize = 50;
/// Rook mobility by the number of points it reaches (0..=17): empty points and enemy men.
pub const ROOK_MOB: usize = PST + 7 * PST_LEN;
/// Horse mobility by the number of points it reaches with its legs free (0..=8).
pub const HORSE_MOB: usize = ROOK_MOB + 18;
/// Cannon mobility by the number of empty points it can move to (0..=17).
pub const CANNON_MOB: usize = HORSE_MOB + 9;
/// By the number of our rooks, horses, cannons and crossed pawns that hit the enemy
/// palace (0, 1, 2, 3, 4 or more).
pub const KING_ATTACKERS: usize = CANNON_MOB + 18;
/// The side to move.
pub const TEMPO: usize = KING_ATTACKERS + 5;
/// Each enemy man a cannon attacks over a screen.
pub const CANNON_THREAT: usize = TEMPO + 1;
/// A cannon on the enemy king's file with nothing between (空头炮).
pub const EMPTY_HEAD_CANNON: usize = CANNON_THREAT + 1;
/// A cannon on the enemy king's file with men between.
pub const CANNON_KING_FILE: usize = EMPTY_HEAD_CANNON + 1;
/// A cannon that would check if one of the two men between it and the king left.
pub const CANNON_XRAY_KING: usize = CANNON_KING_FILE + 1;
/// A cannon on the enemy's back rank while the enemy king is still on it (沉底炮).
pub const BOTTOM_CANNON: usize = CANNON_XRAY_KING + 1;
/// Points of the enemy palace attacked, by rooks, horses, cannons; crossed pawns that
/// attack a palace point.
pub const ROOK_PALACE: usize = BOTTOM_CANNON + 1;
pub const HORSE_PALACE: usize = ROOK_PALACE + 1;
pub const CANNON_PALACE: usize = HORSE_PALACE + 1;
pub const PAWN_PALACE: usize = CANNON_PALACE + 1;
/// Each missing advisor (elephant) times the enemy's rooks, horses and cannons (up to 4);
/// each missing elephant times the enemy's cannons.
pub const MISSING_ADVISOR_X_ATT: usize = PAWN_PALACE + 1;
pub const MISSING_ELEPHANT_X_ATT: usize = MISSING_ADVISOR_X_ATT + 1;
pub const MISSING_ELEPHANT_X_CANNON: usize = MISSING_ELEPHANT_X_ATT + 1;
/// Both advisors, guarding each other; both elephants, guarding each other (eyes free).
pub const ADVISORS_CONNECTED: usize = MISSING_ELEPHANT_X_CANNON + 1;
pub const ELEPHANTS_CONNECTED: usize = ADVISORS_CONNECTED + 1;
/// No man of ours in front of our king on its file, times the enemy's rooks.
pub const KING_FILE_OPEN_X_ROOKS: usize = ELEPHANTS_CONNECTED + 1;
/// Crossed pawns side by side (each pair); crossed pawns stacked on a file (each extra).
pub const CONNECTED_PAWNS: usize = KING_FILE_OPEN_X_ROOKS + 1;
pub const STACKED_PAWNS: usize = CONNECTED_PAWNS + 1;
/// A rook on a file without pawns; on a file without own pawns but with enemy pawns.
pub const ROOK_OPEN_FILE: usize = STACKED_PAWNS + 1;
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// Two rooks on one line with nothing between (they guard each other).
pub const ROOKS_CONNECTED: usize = ROOK_SEMI_OPEN_FILE + 1;
/// 多子归边: by the most of our rooks, horses and cannons in the enemy half on one wing
/// (files a–e or e–i, the centre file counting for both): 1, 2, 3, 4 or more.
pub const WING_MASS: usize = ROOKS_CONNECTED + 1;
/// Enemy pieces we attack that no enemy piece defends, by victim kind (advisor .. pawn,
/// 6 entries), first when we are to move, then when the enemy is.
pub const THREAT_HANGING: usize = WING_MASS + 4;
/// Enemy rooks we attack with a lesser piece, and enemy horses and cannons we attack with a
/// pawn, advisor or elephant: (rook, minor) when we are to move, then when the enemy is.
pub const THREAT_BY_LESSER: usize = THREAT_HANGING + 12;
/// Material imbalance: products of our piece counts (advisor .. pawn, pairs i ≤ j, 21
/// entries), then of ours and the enemy's (pairs i < j, 15 entries).
pub const IMBALANCE_OWN: usize = THREAT_BY_LESSER + 4;
pub const IMBALANCE_OPP: usize = IMBALANCE_OWN + 21;
/// Points from which our rook, horse or cannon could give check with its next move where
/// no enemy piece guards the point, by kind of checker (rook, horse, cannon).
pub const SAFE_CHECKS: usize = IMBALANCE_OPP + 15;
/// Our rook on a line with the enemy king and exactly one piece between: theirs (pinned),
/// then ours (a discovered check in waiting).
pub const ROOK_PIN: usize = SAFE_CHECKS + 3;
/// The points our king can step to that no enemy piece attacks: 0, 1, 2, 3 or more.
pub const KING_ESCAPES: usize = ROOK_PIN + 2;
/// Attack against shelter: by the number of our rooks, horses, cannons and crossed pawns
/// that hit the enemy palace (0..=4, as `KING_ATTACKERS`) times 5, plus the enemy's
/// advisors and elephants (0..=4).
pub const KING_DANGER: usize = KING_ESCAPES + 4;
/// Points our rook, horse or cannon could move to (empty or enemy) that an enemy pawn,
/// advisor or elephant attacks, by kind (rook, horse, cannon).
pub const UNSAFE_REACH: usize = KING_DANGER + 25;
/// Our rooks, horses, cannons and crossed pawns that no piece of ours defends, by kind.
pub const LOOSE_PIECES: usize = UNSAFE_REACH + 3;
pub const NUM_WEIGHTS: usize = LOOSE_PIECES + 4;

/// Named groups of weights, in table order: (name, first index, length).
pub const GROUPS: &[(&str, usize, usize)] = &[
    ("material", MATERIAL, 7),
    ("pst king", PST, PST_LEN),
    ("pst advisor", PST + PST_LEN, PST_LEN),
    ("pst elephant", PST + 2 * PST_LEN, PST_LEN),
    ("pst horse", PST + 3 * PST_LEN, PST_LEN),
    ("pst rook", PST + 4 * PST_LEN, PST_LEN),
    ("pst cannon", PST + 5 * PST_LEN, PST_LEN),
    ("pst pawn", PST + 6 * PST_LEN, PST_LEN),
    ("rook mobility", ROOK_MOB, 18),
    ("horse mobility", HORSE_MOB, 9),
    ("cannon mobility", CANNON_MOB, 18),
    ("king attackers", KING_ATTACKERS, 5),
    ("tempo", TEMPO, 1),
    ("cannon threat", CANNON_THREAT, 1),
    ("empty head cannon", EMPTY_HEAD_CANNON, 1),
    ("cannon king file", CANNON_KING_FILE, 1),
    ("cannon xray king", CANNON_XRAY_KING, 1),
    ("bottom cannon", BOTTOM_CANNON, 1),
    ("rook palace", ROOK_PALACE, 1),
    ("horse palace", HORSE_PALACE, 1),
    ("cannon palace", CANNON_PALACE, 1),
    ("pawn palace", PAWN_PALACE, 1),
    ("missing advisor x att", MISSING_ADVISOR_X_ATT, 1),
    ("missing elephant x att", MISSING_ELEPHANT_X_ATT, 1),
    ("missing elephant x cannon", MISSING_ELEPHANT_X_CANNON, 1),
    ("advisors connected", ADVISORS_CONNECTED, 1),
    ("elephants connected", ELEPHANTS_CONNECTED, 1),
    ("king file open x rooks", KING_FILE_OPEN_X_ROOKS, 1),
    ("connected pawns", CONNECTED_PAWNS, 1),
    ("stacked pawns", STACKED_PAWNS, 1),
    ("rook open file", ROOK_OPEN_FILE, 1),
    ("rook semi-open file", ROOK_SEMI_OPEN_FILE, 1),
    ("rooks connected", ROOKS_CONNECTED, 1),
    ("wing mass", WING_MASS, 4),
    ("threat hanging", THREAT_HANGING, 12),
    ("threat by lesser", THREAT_BY_LESSER, 4),
    ("imbalance own", IMBALANCE_OWN, 21),
    ("imbalance opp", IMBALANCE_OPP, 15),
    ("safe checks", SAFE_CHECKS, 3),
    ("rook pin", ROOK_PIN, 2),
    ("king escapes", KING_ESCAPES, 4),
    ("king danger", KING_DANGER, 25),
    ("unsafe reach", UNSAFE_REACH, 3),
    ("loose pieces", LOOSE_PIECES, 4),
];

/// The folded piece-square entry of a point seen from its owner's side.
#[inline(always)]
pub const fn pst_index(kind: usize, rel_sq: usize) -> usize {
    let file = rel_sq % 9;
    let folded = if file > 4 { 8 - file } else { file };
    PST + kind * PST_LEN + (rel_sq / 9) * 5 + folded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table() {
        let mut next = 0;
        for &(name, start, len) in GROUPS {
            assert_eq!(start, next, "{name} starts where the previous group ends");
            assert!(len > 0, "{name}");
            next = start + len;
        }
        assert_eq!(next, NUM_WEIGHTS);
    }
}
