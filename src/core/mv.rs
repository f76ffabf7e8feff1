//! `Move`: 16 bits, `from | to << 7`. A move never has `from == to`, so the encoding is never
//! zero and `Option<Move>` fits in the same two bytes.

use super::square::Square;
use std::fmt;
use std::num::NonZeroU16;

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);
const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// A move between two different squares (`None` when they are the same).
    #[inline]
    pub const fn new(from: Square, to: Square) -> Option<Move> {
        if from.raw() == to.raw() {
            return None;
        }
        match NonZeroU16::new(from.raw() as u16 | (to.raw() as u16) << 7) {
            Some(bits) => Some(Move(bits)),
            None => None,
        }
    }

    /// A move between two squares the caller knows to differ.
    #[inline]
    pub fn new_unchecked(from: Square, to: Square) -> Move {
        debug_assert!(from != to);
        let bits = from.raw() as u16 | (to.raw() as u16) << 7;
        // `to != from`, so one of them is non-zero and so is `bits`.
        Move(NonZeroU16::new(bits).unwrap_or(NonZeroU16::MIN))
    }

    /// A move from its raw non-zero encoding (for move generation).
    #[inline]
    pub(crate) const fn from_nonzero(bits: NonZeroU16) -> Move {
        Move(bits)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0.get() & 0x7f) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0.get() >> 7) as u8)
    }

    /// The raw 16-bit encoding (for hash tables and books).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::bits`]; `None` for an encoding no move has.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let from = Square::new((bits & 0x7f) as u8)?;
        let to = Square::new((bits >> 7) as u8)?;
        if bits >> 14 != 0 {
            return None;
        }
        Move::new(from, to)
    }

    /// Parses ICCS text such as `h2e2` (also `H2-E2`, the hyphenated form of the ICCS
    /// standard). Only the syntax is checked, not legality.
    pub fn parse_iccs(text: &str) -> Option<Move> {
        let t = text.trim();
        let (a, b) = match t.len() {
            4 => (t.get(0..2)?, t.get(2..4)?),
            5 if t.as_bytes()[2] == b'-' => (t.get(0..2)?, t.get(3..5)?),
            _ => return None,
        };
        Move::new(Square::parse(a)?, Square::parse(b)?)
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates, lower case: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for from in Square::ALL {
            for to in Square::ALL {
                match Move::new(from, to) {
                    None => assert_eq!(from, to),
                    Some(m) => {
                        assert_eq!((m.from(), m.to()), (from, to));
                        assert_eq!(Move::from_bits(m.bits()), Some(m));
                        assert_eq!(Move::parse_iccs(&m.to_string()), Some(m));
                    }
                }
            }
        }
        assert_eq!(
            Move::parse_iccs("H2-E2").map(|m| m.to_string()),
            Some("h2e2".to_string())
        );
        assert_eq!(Move::parse_iccs("h2h2"), None);
        assert_eq!(Move::parse_iccs("z2e2"), None);
        assert_eq!(Move::from_bits(0), None);
    }
}
