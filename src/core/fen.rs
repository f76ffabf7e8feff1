//! FEN in and out, and the checks that reject positions the rules cannot produce.
//!
//! Accepted: UCCI/Pikafish letters `RNBAKCP` / `rnbakcp`, WXF letters `H`/`E` for horse and
//! elephant, side letters `w`, `r` (Red) and `b`, and FENs with only the board and side.

use super::attacks::masks;
use super::piece::{Color, Piece, PieceType};
use super::position::Position;
use super::square::Square;
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused. Ranks are numbered as in ICCS (9 = the first field of the FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    /// The board field does not have 10 ranks.
    RankCount(usize),
    /// A rank describes more or fewer than 9 files.
    RankWidth {
        rank: u8,
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    BadChar {
        rank: u8,
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// A move counter is not a number.
    BadCounter {
        field: &'static str,
        text: String,
    },
    /// The placement is one the rules cannot produce.
    Illegal(IllegalPosition),
}

/// A placement that no legal game reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalPosition {
    KingCount {
        color: Color,
        count: u32,
    },
    KingOutsidePalace {
        color: Color,
        square: Square,
    },
    AdvisorOffPoint {
        color: Color,
        square: Square,
    },
    ElephantOffPoint {
        color: Color,
        square: Square,
    },
    PawnUnreachable {
        color: Color,
        square: Square,
    },
    TooMany {
        color: Color,
        kind: PieceType,
        count: u32,
    },
    KingsFacing,
    /// The side that just moved has its king attacked.
    SideNotToMoveInCheck(Color),
}

impl fmt::Display for IllegalPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalPosition::KingCount { color, count } => {
                write!(f, "{color} has {count} kings, needs exactly 1")
            }
            IllegalPosition::KingOutsidePalace { color, square } => {
                write!(f, "{color} king on {square} is outside its palace")
            }
            IllegalPosition::AdvisorOffPoint { color, square } => {
                write!(f, "{color} advisor on {square} is not on an advisor point")
            }
            IllegalPosition::ElephantOffPoint { color, square } => {
                write!(
                    f,
                    "{color} elephant on {square} is not on an elephant point"
                )
            }
            IllegalPosition::PawnUnreachable { color, square } => {
                write!(
                    f,
                    "{color} pawn on {square} is on a point a pawn can never reach"
                )
            }
            IllegalPosition::TooMany { color, kind, count } => {
                write!(
                    f,
                    "{color} has {count} pieces of type {}, at most {}",
                    kind.letter(),
                    kind.max_count()
                )
            }
            IllegalPosition::KingsFacing => write!(f, "the kings face each other on an open file"),
            IllegalPosition::SideNotToMoveInCheck(c) => {
                write!(f, "{c} is in check but it is not {c}'s turn")
            }
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "FEN: empty"),
            FenError::RankCount(n) => write!(f, "FEN: board has {n} ranks, needs 10"),
            FenError::RankWidth { rank, files } => {
                write!(f, "FEN: rank {rank} has {files} files, needs 9")
            }
            FenError::BadChar { rank, ch } => {
                write!(f, "FEN: rank {rank} has unknown character '{ch}'")
            }
            FenError::BadSide(s) => write!(f, "FEN: side to move '{s}' is not w, r or b"),
            FenError::BadCounter { field, text } => {
                write!(f, "FEN: {field} '{text}' is not a number")
            }
            FenError::Illegal(why) => write!(f, "FEN: illegal position: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

// FEN parsing builds on the position (this file imports `position`, never the reverse), so
// the constructors that go through a FEN live here.
impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Parses a FEN (see the module doc for the accepted dialects).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut files = 0usize;
            for ch in rank_text.chars() {
                match ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    Some(d) => files += d as usize,
                    None if Piece::from_letter(ch).is_some() => files += 1,
                    None => return Err(FenError::BadChar { rank, ch }),
                }
            }
            if files != 9 {
                return Err(FenError::RankWidth { rank, files });
            }
            let mut file = 0u8;
            for ch in rank_text.chars() {
                match (ch.to_digit(10), Piece::from_letter(ch)) {
                    (Some(d), _) => file += d as u8,
                    (None, Some(piece)) => {
                        pos.put(
                            piece,
                            Square::from_coords(file, rank).expect("width checked"),
                        );
                        file += 1;
                    }
                    (None, None) => unreachable!("characters checked above"),
                }
            }
        }
        let side = match fields.next() {
            None => Color::Red,
            Some(s) => match s.to_ascii_lowercase().as_str() {
                "w" | "r" => Color::Red,
                "b" => Color::Black,
                _ => return Err(FenError::BadSide(s.to_string())),
            },
        };
        // fields 3 and 4 (castling, en passant) are always '-' in Xiangqi; ignore them
        let _ = fields.next();
        let _ = fields.next();
        let halfmove = match fields.next() {
            None => 0,
            Some(t) => t.parse::<u16>().map_err(|_| FenError::BadCounter {
                field: "halfmove clock",
                text: t.into(),
            })?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(t) => t.parse::<u16>().map_err(|_| FenError::BadCounter {
                field: "move number",
                text: t.into(),
            })?,
        };
        let game_ply = fullmove
            .max(1)
            .saturating_sub(1)
            .saturating_mul(2)
            .saturating_add(u16::from(side == Color::Black));
        pos.set_side(side);
        pos.set_counters(halfmove, game_ply);
        check_placement(&pos).map_err(FenError::Illegal)?;
        pos.finish_setup();
        if pos.validate().is_err() {
            return Err(FenError::Illegal(IllegalPosition::SideNotToMoveInCheck(
                !side,
            )));
        }
        Ok(pos)
    }

    /// The FEN of the position, UCCI letters, side `w`/`b`.
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.piece_on(Square::from_coords(file, rank).expect("on board")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side_to_move() == Color::Red {
            'w'
        } else {
            'b'
        };
        s.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        s
    }
}

/// Rejects placements the rules cannot produce (everything but the check tests, which need
/// the attack code and run in `from_fen`).
fn check_placement(pos: &Position) -> Result<(), IllegalPosition> {
    for color in Color::ALL {
        for kind in PieceType::ALL {
            let count = pos.pieces(color, kind).count();
            if kind == PieceType::King && count != 1 {
                return Err(IllegalPosition::KingCount { color, count });
            }
            if count > kind.max_count() {
                return Err(IllegalPosition::TooMany { color, kind, count });
            }
        }
        let outside = |kind: PieceType, allowed| (pos.pieces(color, kind) - allowed).lsb();
        if let Some(square) = outside(PieceType::King, masks::palace(color)) {
            return Err(IllegalPosition::KingOutsidePalace { color, square });
        }
        if let Some(square) = outside(PieceType::Advisor, masks::advisor_points(color)) {
            return Err(IllegalPosition::AdvisorOffPoint { color, square });
        }
        if let Some(square) = outside(PieceType::Elephant, masks::elephant_points(color)) {
            return Err(IllegalPosition::ElephantOffPoint { color, square });
        }
        if let Some(square) = outside(PieceType::Pawn, masks::pawn_points(color)) {
            return Err(IllegalPosition::PawnUnreachable { color, square });
        }
    }
    let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
    if rk.file() == bk.file() && (super::attacks::between(rk, bk) & pos.occupied()).is_empty() {
        return Err(IllegalPosition::KingsFacing);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.fen(), START_FEN);
        assert_eq!(pos.occupied().count(), 32);
        assert!(!pos.in_check());
    }

    #[test]
    fn dialects_are_accepted() {
        let two_fields =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert_eq!(two_fields.fen(), START_FEN);
        let wxf = Position::from_fen(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1",
        )
        .unwrap();
        assert_eq!(wxf.fen(), START_FEN);
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7",
        )
        .unwrap();
        assert_eq!(
            black.fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 3 7"
        );
        assert_eq!(black.game_ply(), 13);
        assert_ne!(black.key(), two_fields.key());
    }

    #[test]
    fn malformed_fens_say_what_is_wrong() {
        let err = |f: &str| Position::from_fen(f).unwrap_err();
        assert_eq!(err(""), FenError::Empty);
        assert_eq!(err("rnbakabnr/9/1c5c1 w"), FenError::RankCount(3));
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
            FenError::RankWidth { rank: 0, files: 10 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/8/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            FenError::RankWidth { rank: 4, files: 8 }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
            FenError::BadChar { rank: 0, ch: 'X' }
        );
        assert_eq!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x"),
            FenError::BadSide("x".into())
        );
        assert!(matches!(
            err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1"),
            FenError::BadCounter { .. }
        ));
        let msg = err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/8/P1P1P1P1P/1C5C1/9/RNBAKABNR w").to_string();
        assert_eq!(msg, "FEN: rank 4 has 8 files, needs 9");
    }

    #[test]
    fn impossible_positions_are_rejected() {
        let illegal = |f: &str| match Position::from_fen(f) {
            Err(FenError::Illegal(why)) => why,
            other => panic!("expected an illegal-position error for {f}, got {other:?}"),
        };
        use IllegalPosition as I;
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(
            illegal("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
            I::KingCount {
                color: Color::Black,
                count: 0
            }
        );
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/9/9/K8 w"),
            I::KingOutsidePalace {
                color: Color::Red,
                square: sq("a0")
            }
        );
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/4A4/9/4K4 w"),
            I::AdvisorOffPoint {
                color: Color::Red,
                square: sq("e2")
            }
        );
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/9/9/3BK4 w"),
            I::ElephantOffPoint {
                color: Color::Red,
                square: sq("d0")
            }
        );
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/1P7/9/4K4 w"),
            I::PawnUnreachable {
                color: Color::Red,
                square: sq("b2")
            }
        );
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/9/P8/4K4 w"),
            I::PawnUnreachable {
                color: Color::Red,
                square: sq("a1")
            }
        );
        assert_eq!(
            illegal("3k5/9/4p4/9/9/9/9/9/9/4K4 w"),
            I::PawnUnreachable {
                color: Color::Black,
                square: sq("e7")
            }
        );
        assert_eq!(
            illegal("3k5/9/9/RRR6/9/9/9/9/9/4K4 w"),
            I::TooMany {
                color: Color::Red,
                kind: PieceType::Rook,
                count: 3
            }
        );
        assert_eq!(illegal("4k4/9/9/9/9/9/9/9/9/4K4 w"), I::KingsFacing);
        // Red to move, but Black's king is attacked by the red rook
        assert_eq!(
            illegal("3k5/9/9/9/9/9/9/9/9/3RK4 w"),
            I::SideNotToMoveInCheck(Color::Black)
        );
        // the same with Black to move is a legal position (Black is in check)
        assert!(
            Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b")
                .unwrap()
                .in_check()
        );
    }
}
