//! Attack tables, all built at compile time.
//!
//! * Rook and cannon attacks come from occupancy-indexed lookups along one rank or one file.
//!   The rank occupancy is read from the ordinary (rank-major) occupancy; the file occupancy
//!   from a second, file-major ("rotated") copy that [`Occupancy`] keeps in step. Edge squares
//!   never change an attack set, so only the inner 7 (rank) or 8 (file) bits index the tables.
//! * Horse moves are indexed by the four leg points, elephant moves by the four eye points,
//!   each gathered from the occupancy with two shifts. "Horse attacks to" a square uses the
//!   diagonal neighbours of the target as legs, which differ from the "from" legs.

use super::bitboard::Bitboard;
use super::piece::Color;
use super::square::{NUM_SQUARES, Square};

/// Occupancy in two layouts: `ranks` (bit = rank * 9 + file, the normal bitboard) and
/// `files` (bit = file * 10 + rank), so that both a rank and a file are contiguous bits.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    pub ranks: u128,
    pub files: u128,
}

/// File-major bit index of each square.
const FILE_MAJOR: [u8; NUM_SQUARES] = {
    let mut t = [0u8; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        t[sq] = ((sq % 9) * 10 + sq / 9) as u8;
        sq += 1;
    }
    t
};

impl Occupancy {
    /// Builds both layouts from an ordinary bitboard.
    pub fn from_bitboard(b: Bitboard) -> Occupancy {
        let mut occ = Occupancy::default();
        for sq in b {
            occ.toggle(sq);
        }
        occ
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.ranks ^= 1u128 << sq.raw();
        self.files ^= 1u128 << FILE_MAJOR[sq.index()];
    }

    #[inline]
    pub fn bitboard(&self) -> Bitboard {
        Bitboard(self.ranks)
    }
}

/// One line of `len` points with the slider at `pos`, for a line occupancy `occ`: the points
/// after 0, 1 and 2 pieces, each up to and including the next piece. These are the rook's
/// attacks, the cannon's attacks (over one screen) and the cannon's x-ray (over two). The
/// occupancy of the end points never matters, which keeps the tables small.
const fn slide_line(len: u32, pos: u32, occ: u32) -> [u16; 3] {
    let mut out = [0u16; 3];
    let mut dir = 0;
    while dir < 2 {
        let mut seen = 0; // pieces passed so far
        let mut p = pos as i32;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as i32 {
                break;
            }
            out[seen] |= 1 << p;
            if occ >> p & 1 != 0 {
                seen += 1;
                if seen == 3 {
                    break;
                }
            }
        }
        dir += 1;
    }
    out
}

const fn rank_table() -> [[[u16; 3]; 128]; 9] {
    let mut t = [[[0u16; 3]; 128]; 9];
    let mut pos = 0;
    while pos < 9 {
        let mut inner = 0;
        while inner < 128 {
            t[pos][inner] = slide_line(9, pos as u32, (inner as u32) << 1);
            inner += 1;
        }
        pos += 1;
    }
    t
}

const fn file_table() -> [[[u16; 3]; 256]; 10] {
    let mut t = [[[0u16; 3]; 256]; 10];
    let mut pos = 0;
    while pos < 10 {
        let mut inner = 0;
        while inner < 256 {
            t[pos][inner] = slide_line(10, pos as u32, (inner as u32) << 1);
            inner += 1;
        }
        pos += 1;
    }
    t
}

/// `[file][inner rank occupancy]` -> line masks.
static RANK_SLIDE: [[[u16; 3]; 128]; 9] = rank_table();
/// `[rank][inner file occupancy]` -> line masks.
static FILE_SLIDE: [[[u16; 3]; 256]; 10] = file_table();

/// A 10-bit file mask spread onto file a (bit `i` -> square `9 * i`).
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut i = 0;
        while i < 10 {
            if m >> i & 1 != 0 {
                t[m] |= 1u128 << (9 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

const FILE_OF: [u8; NUM_SQUARES] = {
    let mut t = [0u8; NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        t[i] = (i % 9) as u8;
        i += 1;
    }
    t
};
const RANK_OF: [u8; NUM_SQUARES] = {
    let mut t = [0u8; NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
};

/// Which of the three line masks to read.
const ROOK: usize = 0;
const CANNON: usize = 1;
const XCANNON: usize = 2;

#[inline(always)]
fn line_attacks<const KIND: usize>(sq: Square, occ: &Occupancy) -> Bitboard {
    let f = FILE_OF[sq.index()] as u32;
    let r = RANK_OF[sq.index()] as u32;
    let rank_bits = ((occ.ranks >> (9 * r + 1)) as usize) & 0x7f;
    let file_bits = ((occ.files >> (10 * f + 1)) as usize) & 0xff;
    let along_rank = (RANK_SLIDE[f as usize][rank_bits][KIND] as u128) << (9 * r);
    let along_file = FILE_SPREAD[FILE_SLIDE[r as usize][file_bits][KIND] as usize] << f;
    Bitboard(along_rank | along_file)
}

/// Squares a rook on `sq` attacks: every empty point up to and including the first piece.
#[inline]
pub fn rook_attacks(sq: Square, occ: &Occupancy) -> Bitboard {
    line_attacks::<ROOK>(sq, occ)
}

/// Squares a cannon on `sq` attacks: beyond the first piece along each line, up to and
/// including the next piece (the one it can capture).
#[inline]
pub fn cannon_attacks(sq: Square, occ: &Occupancy) -> Bitboard {
    line_attacks::<CANNON>(sq, occ)
}

/// Squares beyond the second piece along each line from `sq`, up to and including the third
/// piece: a cannon there would attack `sq` if one of the two pieces in between left.
#[inline]
pub fn cannon_xray(sq: Square, occ: &Occupancy) -> Bitboard {
    line_attacks::<XCANNON>(sq, occ)
}

/// Gathers the four orthogonal neighbours of `sq` (S, W, E, N) into a 4-bit index.
#[inline(always)]
fn orth_index(sq: Square, occ: u128) -> usize {
    let x = ((occ << 9) >> sq.raw()) as u32;
    ((x & 1) | ((x >> 7) & 2) | ((x >> 8) & 4) | ((x >> 15) & 8)) as usize
}

/// Gathers the four diagonal neighbours of `sq` (SW, SE, NW, NE) into a 4-bit index.
#[inline(always)]
fn diag_index(sq: Square, occ: u128) -> usize {
    let x = ((occ << 10) >> sq.raw()) as u32;
    ((x & 1) | ((x >> 1) & 2) | ((x >> 16) & 4) | ((x >> 17) & 8)) as usize
}

const ORTH: [(i8, i8); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
const DIAG: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

const fn sq_offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq % 9) as i8 + df;
    let r = (sq / 9) as i8 + dr;
    if f < 0 || r < 0 || f >= 9 || r >= 10 {
        None
    } else {
        Some(r as usize * 9 + f as usize)
    }
}

const fn in_palace(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Same half of the board (Red: ranks 0..4, Black: ranks 5..9).
const fn same_half(a: usize, b: usize) -> bool {
    (a / 9 <= 4) == (b / 9 <= 4)
}

/// Horse moves from `sq` with the orthogonal legs blocked per `legs` (bit i = ORTH[i]).
const fn horse_from_entry(sq: usize, legs: usize) -> u128 {
    let mut out = 0u128;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = ORTH[i];
        if legs >> i & 1 == 0 && sq_offset(sq, df, dr).is_some() {
            // the two targets beyond this leg: one step further plus one sideways
            let (a, b) = if df == 0 {
                ((-1, 2 * dr), (1, 2 * dr))
            } else {
                ((2 * df, -1), (2 * df, 1))
            };
            if let Some(t) = sq_offset(sq, a.0, a.1) {
                out |= 1u128 << t;
            }
            if let Some(t) = sq_offset(sq, b.0, b.1) {
                out |= 1u128 << t;
            }
        }
        i += 1;
    }
    out
}

/// Squares from which a horse attacks `sq`, with the diagonal neighbours of `sq` (each is
/// the leg of two such horses) blocked per `legs` (bit i = DIAG[i]).
const fn horse_to_entry(sq: usize, legs: usize) -> u128 {
    let mut out = 0u128;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = DIAG[i];
        if legs >> i & 1 == 0 && sq_offset(sq, df, dr).is_some() {
            if let Some(t) = sq_offset(sq, 2 * df, dr) {
                out |= 1u128 << t;
            }
            if let Some(t) = sq_offset(sq, df, 2 * dr) {
                out |= 1u128 << t;
            }
        }
        i += 1;
    }
    out
}

/// Elephant moves from `sq` with eyes blocked per `eyes` (bit i = DIAG[i]); never across
/// the river.
const fn elephant_entry(sq: usize, eyes: usize) -> u128 {
    let mut out = 0u128;
    let mut i = 0;
    while i < 4 {
        let (df, dr) = DIAG[i];
        if eyes >> i & 1 == 0
            && let Some(t) = sq_offset(sq, 2 * df, 2 * dr)
            && same_half(sq, t)
        {
            out |= 1u128 << t;
        }
        i += 1;
    }
    out
}

macro_rules! table16 {
    ($f:ident) => {{
        let mut t = [[0u128; 16]; NUM_SQUARES];
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let mut i = 0;
            while i < 16 {
                t[sq][i] = $f(sq, i);
                i += 1;
            }
            sq += 1;
        }
        t
    }};
}

static HORSE_FROM: [[u128; 16]; NUM_SQUARES] = table16!(horse_from_entry);
static HORSE_TO: [[u128; 16]; NUM_SQUARES] = table16!(horse_to_entry);
static ELEPHANT: [[u128; 16]; NUM_SQUARES] = table16!(elephant_entry);

/// Squares a horse on `sq` attacks (legs read from `occ`).
#[inline]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE_FROM[sq.index()][orth_index(sq, occ.0)])
}

/// Squares from which a horse attacks `sq` (legs read from `occ`).
#[inline]
pub fn horse_attackers_to(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE_TO[sq.index()][diag_index(sq, occ.0)])
}

/// Squares an elephant on `sq` moves to (eyes read from `occ`), on its own half.
#[inline]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ELEPHANT[sq.index()][diag_index(sq, occ.0)])
}

/// For a horse on `horse` attacking `target` (a horse move apart), its leg point.
pub fn horse_leg(horse: Square, target: Square) -> Square {
    let df = target.file() as i8 - horse.file() as i8;
    let dr = target.rank() as i8 - horse.rank() as i8;
    let (lf, lr) = if df.abs() == 2 {
        (df / 2, 0)
    } else {
        (0, dr / 2)
    };
    horse
        .offset(lf, lr)
        .expect("the leg of an on-board horse move is on the board")
}

static KING: [u128; NUM_SQUARES] = {
    let mut t = [0u128; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        if in_palace(sq) {
            let mut i = 0;
            while i < 4 {
                if let Some(to) = sq_offset(sq, ORTH[i].0, ORTH[i].1)
                    && in_palace(to)
                    && same_half(sq, to)
                {
                    t[sq] |= 1u128 << to;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
};

static ADVISOR: [u128; NUM_SQUARES] = {
    let mut t = [0u128; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        if in_palace(sq) {
            let mut i = 0;
            while i < 4 {
                if let Some(to) = sq_offset(sq, DIAG[i].0, DIAG[i].1)
                    && in_palace(to)
                    && same_half(sq, to)
                {
                    t[sq] |= 1u128 << to;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
};

const fn pawn_entry(color: usize, sq: usize) -> u128 {
    let forward: i8 = if color == 0 { 1 } else { -1 };
    let crossed = if color == 0 { sq / 9 >= 5 } else { sq / 9 <= 4 };
    let mut out = 0u128;
    if let Some(t) = sq_offset(sq, 0, forward) {
        out |= 1u128 << t;
    }
    if crossed {
        if let Some(t) = sq_offset(sq, -1, 0) {
            out |= 1u128 << t;
        }
        if let Some(t) = sq_offset(sq, 1, 0) {
            out |= 1u128 << t;
        }
    }
    out
}

static PAWN: [[u128; NUM_SQUARES]; 2] = {
    let mut t = [[0u128; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            t[c][sq] = pawn_entry(c, sq);
            sq += 1;
        }
        c += 1;
    }
    t
};

static PAWN_TO: [[u128; NUM_SQUARES]; 2] = {
    let mut t = [[0u128; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < NUM_SQUARES {
            let mut a = pawn_entry(c, from);
            while a != 0 {
                let to = a.trailing_zeros() as usize;
                t[c][to] |= 1u128 << from;
                a &= a - 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// For each king square: every square whose leaving or entering could give that king check —
/// its rank and file (rooks, cannons and their screens, pawns, the facing kings), the eight
/// horse points around it (a horse arriving) and the four diagonal neighbours (a horse's
/// leg leaving). A move touching none of them cannot give check.
static CHECK_ZONE: [u128; NUM_SQUARES] = {
    let mut t = [0u128; NUM_SQUARES];
    let mut k = 0;
    while k < NUM_SQUARES {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let df = (sq % 9) as i32 - (k % 9) as i32;
            let dr = (sq / 9) as i32 - (k / 9) as i32;
            let (af, ar) = (df.abs(), dr.abs());
            if sq != k && (af == 0 || ar == 0 || af * ar == 1 || af * ar == 2) {
                t[k] |= 1u128 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    t
};

/// The squares whose leaving or entering could give check to a king on `king`: a superset,
/// for a fast "cannot give check" answer.
#[inline]
pub fn check_zone(king: Square) -> Bitboard {
    Bitboard(CHECK_ZONE[king.index()])
}

/// King steps from `sq` inside its palace.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Advisor steps from `sq` inside its palace.
#[inline]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(ADVISOR[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (forward, and sideways once across the river).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline]
pub fn pawn_attackers_to(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_TO[color.index()][sq.index()])
}

/// Squares strictly between two points on one rank or one file (empty otherwise).
pub fn between(a: Square, b: Square) -> Bitboard {
    let (fa, ra, fb, rb) = (
        a.file() as i8,
        a.rank() as i8,
        b.file() as i8,
        b.rank() as i8,
    );
    if fa != fb && ra != rb {
        return Bitboard::EMPTY;
    }
    let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
    let mut out = Bitboard::EMPTY;
    let mut s = a.offset(df, dr);
    while let Some(sq) = s {
        if sq == b {
            break;
        }
        out = out.with(sq);
        s = sq.offset(df, dr);
    }
    out
}

/// Board regions.
pub mod masks {
    use super::*;

    /// The set of squares whose index satisfies the predicate expression.
    macro_rules! region {
        (|$sq:ident| $pred:expr) => {{
            let mut b = 0u128;
            let mut $sq = 0usize;
            while $sq < NUM_SQUARES {
                if $pred {
                    b |= 1u128 << $sq;
                }
                $sq += 1;
            }
            Bitboard(b)
        }};
    }

    /// The two palaces (3 x 3 points each).
    pub const PALACES: Bitboard = region!(|sq| in_palace(sq));
    pub const RED_PALACE: Bitboard = region!(|sq| in_palace(sq) && sq / 9 <= 2);
    pub const BLACK_PALACE: Bitboard = region!(|sq| in_palace(sq) && sq / 9 >= 7);
    /// Red's half (ranks 0..4), i.e. the side of the river Red starts on.
    pub const RED_HALF: Bitboard = region!(|sq| sq / 9 <= 4);
    pub const BLACK_HALF: Bitboard = region!(|sq| sq / 9 >= 5);
    /// The 7 points an elephant of each side can stand on.
    pub const RED_ELEPHANT_POINTS: Bitboard =
        region!(|sq| matches!(sq, 2 | 6 | 18 | 22 | 26 | 38 | 42));
    pub const BLACK_ELEPHANT_POINTS: Bitboard =
        region!(|sq| matches!(sq, 47 | 51 | 63 | 67 | 71 | 83 | 87));
    /// The 5 points an advisor of each side can stand on.
    pub const RED_ADVISOR_POINTS: Bitboard = region!(|sq| matches!(sq, 3 | 5 | 13 | 21 | 23));
    pub const BLACK_ADVISOR_POINTS: Bitboard = region!(|sq| matches!(sq, 66 | 68 | 76 | 84 | 86));

    #[inline]
    pub const fn palace(c: Color) -> Bitboard {
        match c {
            Color::Red => RED_PALACE,
            Color::Black => BLACK_PALACE,
        }
    }

    #[inline]
    pub const fn own_half(c: Color) -> Bitboard {
        match c {
            Color::Red => RED_HALF,
            Color::Black => BLACK_HALF,
        }
    }

    pub const fn elephant_points(c: Color) -> Bitboard {
        match c {
            Color::Red => RED_ELEPHANT_POINTS,
            Color::Black => BLACK_ELEPHANT_POINTS,
        }
    }

    pub const fn advisor_points(c: Color) -> Bitboard {
        match c {
            Color::Red => RED_ADVISOR_POINTS,
            Color::Black => BLACK_ADVISOR_POINTS,
        }
    }

    /// Points a pawn of colour `c` can ever stand on: its own half only on the five pawn
    /// files from its start rank forward, everything across the river.
    pub const fn pawn_points(c: Color) -> Bitboard {
        match c {
            Color::Red => region!(|sq| {
                let (f, r) = (sq % 9, sq / 9);
                r >= 5 || (r >= 3 && f % 2 == 0)
            }),
            Color::Black => region!(|sq| {
                let (f, r) = (sq % 9, sq / 9);
                r <= 4 || (r <= 6 && f % 2 == 0)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::bitboard_from_picture;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Rook and cannon attacks by walking rays, to test the tables against.
    fn walk(from: Square, occ: Bitboard) -> (Bitboard, Bitboard, Bitboard) {
        let (mut rook, mut cannon, mut x) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
        for (df, dr) in ORTH {
            let mut seen = 0;
            let mut s = from.offset(df, dr);
            while let Some(t) = s {
                match seen {
                    0 => rook = rook.with(t),
                    1 => cannon = cannon.with(t),
                    _ => x = x.with(t),
                }
                if occ.contains(t) {
                    seen += 1;
                    if seen == 3 {
                        break;
                    }
                }
                s = t.offset(df, dr);
            }
        }
        (rook, cannon, x)
    }

    #[test]
    fn sliders_match_ray_walk() {
        // a fixed xorshift sequence of occupancies, dense (1/2) and sparse (1/4) in turn
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for i in 0..2000 {
            let mut bits = (next() as u128) << 64 | next() as u128;
            if i % 2 == 1 {
                bits &= (next() as u128) << 64 | next() as u128;
            }
            let occ = Bitboard(bits) & Bitboard::FULL;
            let o = Occupancy::from_bitboard(occ);
            for from in Square::ALL {
                let (r, c, x) = walk(from, occ);
                assert_eq!(rook_attacks(from, &o), r, "rook from {from}");
                assert_eq!(cannon_attacks(from, &o), c, "cannon from {from}");
                assert_eq!(cannon_xray(from, &o), x, "xray from {from}");
            }
        }
    }

    #[test]
    fn horse_from_and_to_agree() {
        let occ = bitboard_from_picture(
            "x.x.x.x.x
             .x.x.x.x.
             ..x...x..
             .x..x..x.
             x...x...x
             ..x...x..
             .x.x.x.x.
             x..x.x..x
             ....x....
             x.x...x.x",
        );
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(
                    horse_attacks(a, occ).contains(b),
                    horse_attackers_to(b, occ).contains(a),
                    "horse {a} -> {b}"
                );
            }
        }
        // the leg of b1->c3 is b2; with b2 occupied, no move
        let b1 = sq("b1");
        assert!(horse_attacks(b1, Bitboard::EMPTY).contains(sq("c3")));
        assert!(!horse_attacks(b1, Bitboard::from(sq("b2"))).contains(sq("c3")));
        assert!(horse_attacks(b1, Bitboard::from(sq("b2"))).contains(sq("d2")));
        assert_eq!(horse_leg(b1, sq("c3")), sq("b2"));
        assert_eq!(horse_leg(b1, sq("d0")), sq("c1"));
        assert_eq!(horse_attacks(sq("a0"), Bitboard::EMPTY).count(), 2);
        assert_eq!(horse_attacks(sq("e4"), Bitboard::EMPTY).count(), 8);
    }

    #[test]
    fn elephants_stay_home_and_respect_eyes() {
        assert_eq!(
            elephant_attacks(sq("c4"), Bitboard::EMPTY),
            Bitboard::from_iter([sq("a2"), sq("e2")])
        );
        assert_eq!(
            elephant_attacks(sq("c5"), Bitboard::EMPTY),
            Bitboard::from_iter([sq("a7"), sq("e7")])
        );
        assert_eq!(
            elephant_attacks(sq("c0"), Bitboard::from(sq("d1"))),
            Bitboard::from(sq("a2"))
        );
    }

    #[test]
    fn king_advisor_pawn_tables() {
        assert_eq!(
            king_attacks(sq("e0")),
            Bitboard::from_iter([sq("d0"), sq("f0"), sq("e1")])
        );
        assert_eq!(king_attacks(sq("d9")).count(), 2);
        assert_eq!(advisor_attacks(sq("e1")).count(), 4);
        assert_eq!(advisor_attacks(sq("d7")), Bitboard::from(sq("e8")));
        assert_eq!(pawn_attacks(Color::Red, sq("e3")), Bitboard::from(sq("e4")));
        assert_eq!(pawn_attacks(Color::Red, sq("e5")).count(), 3);
        assert_eq!(pawn_attacks(Color::Red, sq("a9")), Bitboard::from(sq("b9")));
        assert_eq!(
            pawn_attacks(Color::Black, sq("e6")),
            Bitboard::from(sq("e5"))
        );
        assert_eq!(pawn_attacks(Color::Black, sq("e4")).count(), 3);
        for c in Color::ALL {
            for a in Square::ALL {
                for b in pawn_attacks(c, a) {
                    assert!(pawn_attackers_to(c, b).contains(a));
                }
            }
        }
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert_eq!(between(sq("a0"), sq("c0")), Bitboard::from(sq("b0")));
        assert!(between(sq("a0"), sq("b1")).is_empty());
        assert_eq!(masks::PALACES.count(), 18);
        assert_eq!(masks::pawn_points(Color::Red).count(), 45 + 10);
    }
}
