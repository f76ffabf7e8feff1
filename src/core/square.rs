//! Board squares: 90 points, index = rank * 9 + file, which is exactly the ICCS coordinate
//! (`a0` is Red's left corner, `i9` Black's far right corner).

use std::fmt;

/// Number of files (a..i).
pub const FILES: u8 = 9;
/// Number of ranks (0..9).
pub const RANKS: u8 = 10;
/// Number of squares on the board.
pub const NUM_SQUARES: usize = 90;

/// A point of the board, `0..90`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square, in index order.
    pub const ALL: [Square; NUM_SQUARES] = {
        let mut all = [Square(0); NUM_SQUARES];
        let mut i = 0;
        while i < NUM_SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index, if it is on the board.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 90`.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// The square at `file` (0..9) and `rank` (0..10), if both are in range.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// File 0..9 (`a`..`i`) from Red's left.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10 from Red's back rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square moved by (`df`, `dr`), if it stays on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f >= FILES as i8 || r >= RANKS as i8 {
            None
        } else {
            Some(Square((r * FILES as i8 + f) as u8))
        }
    }

    /// The same point seen from the other side (rotated 180 degrees).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(NUM_SQUARES as u8 - 1 - self.0)
    }

    /// Parses an ICCS coordinate such as `e0` or `h2` (file letter case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&f) || !b[1].is_ascii_digit() {
            return None;
        }
        Square::from_coords(f - b'a', b[1] - b'0')
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::ALL {
            let text = sq.to_string();
            assert_eq!(Square::parse(&text), Some(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
        }
        assert_eq!(Square::parse("a0").map(Square::index), Some(0));
        assert_eq!(Square::parse("i9").map(Square::index), Some(89));
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn offsets_stay_on_board() {
        let a0 = Square::parse("a0").unwrap();
        assert_eq!(a0.offset(-1, 0), None);
        assert_eq!(a0.offset(0, -1), None);
        assert_eq!(a0.offset(8, 9), Square::parse("i9"));
        assert_eq!(
            Square::parse("e4").unwrap().flip(),
            Square::parse("e5").unwrap()
        );
    }
}
