//! Colours, piece types and coloured pieces.

use std::fmt;
use std::ops::Not;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];
    pub const NUM: usize = 2;

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Chinese name of the side: 红 / 黑.
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 7] = [
        PieceType::King,
        PieceType::Advisor,
        PieceType::Elephant,
        PieceType::Horse,
        PieceType::Rook,
        PieceType::Cannon,
        PieceType::Pawn,
    ];
    pub const NUM: usize = 7;

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Most pieces of this type a side can have.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceType::King => 1,
            PieceType::Pawn => 5,
            _ => 2,
        }
    }

    /// UCCI/Pikafish FEN letter, upper case (Red): K A B N R C P.
    pub const fn letter(self) -> char {
        match self {
            PieceType::King => 'K',
            PieceType::Advisor => 'A',
            PieceType::Elephant => 'B',
            PieceType::Horse => 'N',
            PieceType::Rook => 'R',
            PieceType::Cannon => 'C',
            PieceType::Pawn => 'P',
        }
    }

    /// Parses a FEN letter of either case: UCCI/Pikafish `KABNRCP`, and the WXF
    /// letters `E` (elephant) and `H` (horse).
    pub const fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceType::King,
            'A' => PieceType::Advisor,
            'B' | 'E' => PieceType::Elephant,
            'N' | 'H' => PieceType::Horse,
            'R' => PieceType::Rook,
            'C' => PieceType::Cannon,
            'P' => PieceType::Pawn,
            _ => return None,
        })
    }
}

/// A coloured piece, `0..14` = colour * 7 + type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    RedKing,
    RedAdvisor,
    RedElephant,
    RedHorse,
    RedRook,
    RedCannon,
    RedPawn,
    BlackKing,
    BlackAdvisor,
    BlackElephant,
    BlackHorse,
    BlackRook,
    BlackCannon,
    BlackPawn,
}

impl Piece {
    pub const NUM: usize = 14;
    pub const ALL: [Piece; 14] = [
        Piece::RedKing,
        Piece::RedAdvisor,
        Piece::RedElephant,
        Piece::RedHorse,
        Piece::RedRook,
        Piece::RedCannon,
        Piece::RedPawn,
        Piece::BlackKing,
        Piece::BlackAdvisor,
        Piece::BlackElephant,
        Piece::BlackHorse,
        Piece::BlackRook,
        Piece::BlackCannon,
        Piece::BlackPawn,
    ];

    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::ALL[color as usize * 7 + kind as usize]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn color(self) -> Color {
        if (self as u8) < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[self as usize % 7]
    }

    /// FEN letter: upper case Red, lower case Black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Parses a FEN letter (see [`PieceType::from_letter`]); case gives the colour.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match PieceType::from_letter(c) {
            Some(kind) => {
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                Some(Piece::new(color, kind))
            }
            None => None,
        }
    }

    /// The Chinese character used in game records (帅仕相马车炮兵 / 将士象马车炮卒).
    pub const fn chinese(self) -> char {
        match self {
            Piece::RedKing => '帅',
            Piece::RedAdvisor => '仕',
            Piece::RedElephant => '相',
            Piece::RedHorse => '马',
            Piece::RedRook => '车',
            Piece::RedCannon => '炮',
            Piece::RedPawn => '兵',
            Piece::BlackKing => '将',
            Piece::BlackAdvisor => '士',
            Piece::BlackElephant => '象',
            Piece::BlackHorse => '马',
            Piece::BlackRook => '车',
            Piece::BlackCannon => '炮',
            Piece::BlackPawn => '卒',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_round_trips() {
        for p in Piece::ALL {
            assert_eq!(Piece::new(p.color(), p.kind()), p);
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
        }
        assert_eq!(Piece::from_letter('H'), Some(Piece::RedHorse));
        assert_eq!(Piece::from_letter('e'), Some(Piece::BlackElephant));
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
