//! Choosing a book move: weighted random choice shaped by the `randomness` option.
//!
//! A move of weight `w` is chosen with probability proportional to `w^e`, where `e` depends
//! on the level: `none` always takes the heaviest move (ties: the lowest move encoding);
//! `tiny` e = 4, `small` e = 2, `medium` e = 1 (plain weights), `large` e = 1/2, `huge`
//! e = 0 (every move of positive weight alike). Weight-0 moves are never chosen.

use super::mirror::{mirror_key, mirror_move};
use super::{BookMove, BookSet};
use crate::core::{Move, Position};
use std::str::FromStr;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Randomness {
    #[default]
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

impl Randomness {
    pub const NAMES: [&'static str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

    /// The exponent applied to weights; `None` for "always the heaviest".
    fn exponent(self) -> Option<f64> {
        match self {
            Randomness::None => None,
            Randomness::Tiny => Some(4.0),
            Randomness::Small => Some(2.0),
            Randomness::Medium => Some(1.0),
            Randomness::Large => Some(0.5),
            Randomness::Huge => Some(0.0),
        }
    }
}

impl FromStr for Randomness {
    type Err = String;
    fn from_str(s: &str) -> Result<Randomness, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(Randomness::None),
            "tiny" => Ok(Randomness::Tiny),
            "small" => Ok(Randomness::Small),
            "medium" => Ok(Randomness::Medium),
            "large" => Ok(Randomness::Large),
            "huge" => Ok(Randomness::Huge),
            other => Err(format!(
                "randomness '{other}' is not one of none, tiny, small, medium, large, huge"
            )),
        }
    }
}

/// A small deterministic generator (SplitMix64): seeded from the clock in play, from a
/// fixed number in tests and tools.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// Seeded from the system clock and the process id.
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Rng(nanos ^ (u64::from(std::process::id()) << 32))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Below `n` (n > 0): `next_u64() % n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The index of the chosen move among `moves` (any order), or `None` when no move has a
/// positive weight.
pub fn pick(moves: &[BookMove], randomness: Randomness, rng: &mut Rng) -> Option<usize> {
    let candidates = moves.iter().enumerate().filter(|(_, b)| b.weight > 0);
    let Some(e) = randomness.exponent() else {
        return candidates
            .max_by(|(_, a), (_, b)| a.weight.cmp(&b.weight).then(b.mv.bits().cmp(&a.mv.bits())))
            .map(|(i, _)| i);
    };
    let weighted: Vec<(usize, f64)> = candidates
        .map(|(i, b)| (i, f64::from(b.weight).powf(e)))
        .collect();
    let total: f64 = weighted.iter().map(|w| w.1).sum();
    if weighted.is_empty() || total <= 0.0 {
        return None;
    }
    let mut x = rng.next_f64() * total;
    for &(i, w) in &weighted {
        if x < w {
            return Some(i);
        }
        x -= w;
    }
    weighted.last().map(|w| w.0)
}

/// What the engine plays from the book, with every move the book offered (for the `info`
/// lines) and the name of the position, when it has one.
#[derive(Clone, Debug)]
pub struct BookChoice {
    pub mv: Move,
    pub offered: Vec<BookMove>,
    pub book: String,
}

/// The book move to play in `pos`: from the first book of `books` that has a playable move
/// (positive weight, not banned, not returning to a position of the game's history), chosen
/// by [`pick`]. `None` leaves the book: the position is unknown or nothing is playable.
pub fn book_move(
    books: &BookSet,
    pos: &Position,
    randomness: Randomness,
    rng: &mut Rng,
    banned: &[Move],
) -> Option<BookChoice> {
    for (path, book) in &books.books {
        let offered = book.probe(pos);
        let ok = |m: Move| !banned.contains(&m) && !repeats(pos, m);
        let symmetric = mirror_key(pos) == pos.key();
        // in a symmetric position a move and its mirror are one choice: pick among classes,
        // then one side of the board at random
        let playable: Vec<BookMove> = offered
            .iter()
            .copied()
            .filter(|b| b.weight > 0)
            .filter(|b| {
                let mm = mirror_move(b.mv);
                if symmetric && mm != b.mv {
                    b.mv.bits() < mm.bits() && (ok(b.mv) || ok(mm))
                } else {
                    ok(b.mv)
                }
            })
            .collect();
        if let Some(i) = pick(&playable, randomness, rng) {
            let m = playable[i].mv;
            let mm = mirror_move(m);
            let flip = symmetric
                && mm != m
                && (!ok(m)
                    || (randomness != Randomness::None && ok(mm) && rng.next_u64() & 1 == 1));
            return Some(BookChoice {
                mv: if flip { mm } else { m },
                offered,
                book: path.clone(),
            });
        }
    }
    None
}

/// Would `m` bring back a position already seen in the game? (A book knows nothing of the
/// repetition rules, so it leaves such moves to search.)
fn repeats(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.make_move(m);
    let key = p.key();
    let n = p.history().len();
    (1..=n).any(|k| p.key_at(k) == Some(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bm(text: &str, weight: u16) -> BookMove {
        BookMove {
            mv: Move::parse_iccs(text).unwrap(),
            weight,
            score: None,
            depth: 0,
            flags: 0,
        }
    }

    #[test]
    fn none_takes_the_heaviest_and_zero_is_never_chosen() {
        let moves = [bm("h2e2", 3), bm("b2e2", 9), bm("c3c4", 0)];
        let mut rng = Rng::new(1);
        assert_eq!(pick(&moves, Randomness::None, &mut rng), Some(1));
        for level in Randomness::NAMES {
            let r: Randomness = level.parse().unwrap();
            for _ in 0..200 {
                assert_ne!(pick(&moves, r, &mut rng), Some(2), "{level}");
            }
        }
        assert_eq!(pick(&[bm("h2e2", 0)], Randomness::Huge, &mut rng), None);
        assert!("wild".parse::<Randomness>().is_err());
    }

    #[test]
    fn levels_spread_the_choice_in_order() {
        // share of the light move (weight 1 against 4) grows with the level
        let moves = [bm("h2e2", 4), bm("b2e2", 1)];
        let share = |r: Randomness| {
            let mut rng = Rng::new(7);
            (0..4000)
                .filter(|_| pick(&moves, r, &mut rng) == Some(1))
                .count()
        };
        let shares: Vec<usize> = Randomness::NAMES
            .iter()
            .map(|n| share(n.parse().unwrap()))
            .collect();
        assert_eq!(shares[0], 0);
        for w in shares.windows(2) {
            assert!(w[0] < w[1], "{shares:?}");
        }
        // huge: even odds
        assert!((1800..2200).contains(&shares[5]), "{shares:?}");
    }
}
