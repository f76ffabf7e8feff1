//! Left-right mirroring: file `f` becomes `8 - f`. Xiangqi is symmetric under it, so a book
//! stores one of each mirrored pair of positions and a probe looks up both.

use crate::core::{Color, Move, Piece, Position, Square, zobrist};
use std::sync::LazyLock;

/// `piece_key(piece, mirror_square(sq))` for every piece and point.
static MIRRORED_KEYS: LazyLock<[[u64; 90]; Piece::NUM]> = LazyLock::new(|| {
    let mut t = [[0u64; 90]; Piece::NUM];
    for p in Piece::ALL {
        for sq in Square::ALL {
            t[p.index()][sq.index()] = zobrist::piece_key(p, mirror_square(sq));
        }
    }
    t
});

/// The point mirrored across the central file.
#[inline]
pub fn mirror_square(sq: Square) -> Square {
    Square::from_index(sq.rank() * 9 + (8 - sq.file()))
}

/// The move mirrored across the central file.
#[inline]
pub fn mirror_move(m: Move) -> Move {
    Move::new_unchecked(mirror_square(m.from()), mirror_square(m.to()))
}

/// The Zobrist key the mirrored position would have, computed from the piece placement
/// (one table look-up per piece, no position built).
#[inline]
pub fn mirror_key(pos: &Position) -> u64 {
    let table = &*MIRRORED_KEYS;
    let mut key = if pos.side_to_move() == Color::Black {
        zobrist::side_key()
    } else {
        0
    };
    for p in Piece::ALL {
        let keys = &table[p.index()];
        for sq in pos.pieces(p.color(), p.kind()) {
            key ^= keys[sq.index()];
        }
    }
    key
}

/// The key under which a book stores `pos` (the smaller of its key and its mirror's), and
/// whether that is the mirror's.
#[inline]
pub fn canonical_key(pos: &Position) -> (u64, bool) {
    let (k, m) = (pos.key(), mirror_key(pos));
    if m < k { (m, true) } else { (k, false) }
}

/// Where a book stores move `m` of `pos`: the canonical key and the move as seen from that
/// orientation. In a symmetric position (its own mirror) a move and its mirror image are
/// one choice, stored once as the one with the smaller encoding.
#[inline]
pub fn stored_move(pos: &Position, m: Move) -> (u64, Move) {
    let (k, mk) = (pos.key(), mirror_key(pos));
    if mk < k {
        (mk, mirror_move(m))
    } else if mk == k {
        let mm = mirror_move(m);
        (k, if mm.bits() < m.bits() { mm } else { m })
    } else {
        (k, m)
    }
}

/// The FEN with every rank reversed (side and counters kept).
pub fn mirror_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    let mut out = ranks.join("/");
    for f in fields {
        out.push(' ');
        out.push_str(f);
    }
    out
}

/// The mirrored position (for tests and tools; probes use [`mirror_key`]).
pub fn mirror_position(pos: &Position) -> Position {
    Position::from_fen(&mirror_fen(&pos.fen())).expect("a mirrored legal position is legal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_key_matches_the_mirrored_position() {
        let mut pos = Position::startpos();
        assert_eq!(
            mirror_key(&pos),
            pos.key(),
            "the start position is symmetric"
        );
        for text in ["h2e2", "h9g7", "b0c2", "i9h9", "c3c4"] {
            let m = Move::parse_iccs(text).unwrap();
            pos.make_move(m);
            let mirrored = mirror_position(&pos);
            assert_eq!(mirror_key(&pos), mirrored.key(), "after {text}");
            assert_eq!(mirror_key(&mirrored), pos.key());
        }
        for sq in Square::ALL {
            assert_eq!(mirror_square(mirror_square(sq)), sq);
            assert_eq!(mirror_square(sq).rank(), sq.rank());
        }
        assert_eq!(
            mirror_move(Move::parse_iccs("h2e2").unwrap()).to_string(),
            "b2e2"
        );
    }
}
