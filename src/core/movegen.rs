//! Legal move generation: all moves, captures only, quiet moves only; check evasions when
//! the side to move is in check.
//!
//! Outside check a move is legal unless it moves a *blocker* (a piece between the king and
//! an enemy line piece, or on an enemy horse's leg), lands on a *danger* point (becomes the
//! screen of an enemy cannon facing the king), or moves the king; only those moves take the
//! full test. In check, only moves that touch the checking lines, the checkers or a horse
//! leg can help, and each of those takes the full test.

use super::attacks::{
    advisor_attacks, between, cannon_attacks, elephant_attacks, horse_attacks, king_attacks,
    pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::PieceType;
use super::position::Position;
use super::square::Square;
use std::mem::MaybeUninit;
use std::num::NonZeroU16;

/// More than the most moves any Xiangqi position has (2 rooks and 2 cannons 17 each, 2
/// horses 8, elephants and advisors 4 each, 5 pawns 3, king 4: at most 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        // A position has at most 119 moves (see MAX_MOVES), so this never overflows; the
        // indexing still checks it.
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    #[inline]
    fn push_from(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            // `to != from` (no piece attacks its own point), so `bits` is never zero.
            let bits = from.raw() as u16 | (to.raw() as u16) << 7;
            if let Some(nz) = NonZeroU16::new(bits) {
                self.push(Move::from_nonzero(nz));
            }
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`, and `MaybeUninit<Move>`
        // has the same layout as `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Which moves to generate.
pub mod gen_type {
    pub const CAPTURES: u8 = 0;
    pub const QUIETS: u8 = 1;
    pub const ALL: u8 = 2;
}
use gen_type::{ALL, CAPTURES, QUIETS};

const NON_KING: [PieceType; 6] = [
    PieceType::Rook,
    PieceType::Cannon,
    PieceType::Horse,
    PieceType::Pawn,
    PieceType::Elephant,
    PieceType::Advisor,
];

impl Position {
    /// Targets of a non-king piece of the side to move on `from`, limited to `target`
    /// (empty points for quiet moves, enemy pieces for captures).
    #[inline(always)]
    fn targets<const G: u8>(&self, kind: PieceType, from: Square, target: Bitboard) -> Bitboard {
        let occ = self.occupancy();
        let enemy = self.color_pieces(!self.side_to_move());
        match kind {
            PieceType::Rook => rook_attacks(from, occ) & target,
            PieceType::Cannon => {
                let caps = if G == QUIETS {
                    Bitboard::EMPTY
                } else {
                    cannon_attacks(from, occ) & enemy
                };
                let quiet = if G == CAPTURES {
                    Bitboard::EMPTY
                } else {
                    rook_attacks(from, occ) - occ.bitboard()
                };
                caps | quiet
            }
            PieceType::Horse => horse_attacks(from, occ.bitboard()) & target,
            PieceType::Pawn => pawn_attacks(self.side_to_move(), from) & target,
            PieceType::Elephant => elephant_attacks(from, occ.bitboard()) & target,
            PieceType::Advisor => advisor_attacks(from) & target,
            PieceType::King => king_attacks(from) & target,
        }
    }

    /// Appends the legal moves of kind `G` ([`gen_type`]) to `list`.
    pub fn generate<const G: u8>(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let own = self.color_pieces(us);
        let target = match G {
            CAPTURES => self.color_pieces(!us),
            QUIETS => !self.occupied(),
            _ => !own,
        };
        let k = self.king_square(us);
        if self.in_check() {
            self.generate_evasions::<G>(list, target);
            return;
        }
        let slow = self.blockers() & own;
        let danger = self.danger();
        for kind in NON_KING {
            for from in self.pieces(us, kind) {
                let to_set = self.targets::<G>(kind, from, target);
                if slow.contains(from) {
                    self.push_checked(list, from, to_set);
                } else {
                    list.push_from(from, to_set - danger);
                    if (to_set & danger).any() {
                        self.push_checked(list, from, to_set & danger);
                    }
                }
            }
        }
        self.push_checked(list, k, king_attacks(k) & target);
    }

    /// Pushes each move `from` -> t (t in `to_set`) that leaves the king safe.
    #[inline]
    fn push_checked(&self, list: &mut MoveList, from: Square, to_set: Bitboard) {
        for to in to_set {
            if self.safe_after(from, to) {
                list.push(Move::new_unchecked(from, to));
            }
        }
    }

    /// Legal moves of kind `G` when in check.
    fn generate_evasions<const G: u8>(&self, list: &mut MoveList, target: Bitboard) {
        let us = self.side_to_move();
        let k = self.king_square(us);
        // Points a non-king move must leave or reach to have any chance of helping.
        let mut relevant = self.checkers();
        for c in self.checkers() {
            match self.piece_on(c).map(|p| p.kind()) {
                Some(PieceType::Horse) => {
                    relevant = relevant.with(super::attacks::horse_leg(c, k));
                }
                Some(PieceType::Pawn) | None => {}
                _ => relevant |= between(k, c),
            }
        }
        for kind in NON_KING {
            for from in self.pieces(us, kind) {
                let to_set = self.targets::<G>(kind, from, target);
                let candidates = if relevant.contains(from) {
                    to_set
                } else {
                    to_set & relevant
                };
                self.push_checked(list, from, candidates);
            }
        }
        self.push_checked(list, k, king_attacks(k) & target);
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<ALL>(&mut list);
        list
    }

    /// Legal captures.
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<CAPTURES>(&mut list);
        list
    }

    /// Legal non-captures.
    pub fn legal_quiets(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<QUIETS>(&mut list);
        list
    }

    /// Legal moves when in check (the same as [`Position::legal_moves`] then; empty when
    /// not in check).
    pub fn evasions(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.in_check() {
            self.generate_evasions::<ALL>(&mut list, !self.color_pieces(self.side_to_move()));
        }
        list
    }

    /// Appends every pseudo-legal move (own king safety not tested) to `list`: for search
    /// code that defers the legality test to [`Position::legal`].
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let target = !self.color_pieces(us);
        for kind in NON_KING {
            for from in self.pieces(us, kind) {
                list.push_from(from, self.targets::<ALL>(kind, from, target));
            }
        }
        let k = self.king_square(us);
        list.push_from(k, king_attacks(k) & target);
    }

    /// Number of legal moves (what perft counts at its last ply).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.generate::<ALL>(&mut list);
        list.len()
    }
}
