//! `Bitboard`: a set of squares in the low 90 bits of a `u128`, bit `i` = square `i`.

use super::square::{NUM_SQUARES, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << NUM_SQUARES) - 1);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.raw())
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.raw()) & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub fn lsb_unchecked(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index(self.0.trailing_zeros() as u8)
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.raw())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.raw()))
    }

    #[inline]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1u128 << sq.raw())
    }

    /// Builds a set from a predicate over squares (used for tables and tests).
    pub fn from_fn(mut f: impl FnMut(Square) -> bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in Square::ALL {
            if f(sq) {
                b = b.with(sq);
            }
        }
        b
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 board squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board, rank 9 on top, `x` for a member.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
                f.write_str(if self.contains(sq) { "x" } else { "." })?;
            }
            writeln!(f)?;
        }
        write!(f, "  abcdefghi")
    }
}

/// A bitboard from a picture: 10 rows (rank 9 first) of 9 characters, `x` = member,
/// `.` = empty; whitespace between rows is ignored. Handy for readable tests.
pub fn bitboard_from_picture(picture: &str) -> Bitboard {
    let cells: Vec<u8> = picture
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    assert_eq!(cells.len(), NUM_SQUARES, "a board picture has 90 cells");
    let mut b = Bitboard::EMPTY;
    for (i, &c) in cells.iter().enumerate() {
        let rank = 9 - (i / 9) as u8;
        let file = (i % 9) as u8;
        if c == b'x' {
            b = b.with(Square::from_coords(file, rank).expect("on board"));
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = Bitboard::from_square(Square::parse("a0").unwrap());
        let b = Bitboard::from_square(Square::parse("i9").unwrap());
        let ab = a | b;
        assert_eq!(ab.count(), 2);
        assert!(ab.more_than_one());
        assert!(!a.more_than_one());
        assert_eq!(ab - a, b);
        assert_eq!(ab & a, a);
        assert_eq!((ab ^ a), b);
        assert_eq!((!ab).count(), 88);
        assert_eq!(
            ab.collect::<Vec<_>>(),
            vec![Square::parse("a0").unwrap(), Square::parse("i9").unwrap()]
        );
    }

    #[test]
    fn picture_matches_squares() {
        let b = bitboard_from_picture(
            "x........
             .........
             .........
             .........
             .........
             .........
             .........
             .........
             .........
             ........x",
        );
        assert_eq!(
            b,
            Bitboard::from_iter([Square::parse("a9").unwrap(), Square::parse("i0").unwrap()])
        );
    }
}
