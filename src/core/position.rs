//! `Position`: the board, incremental Zobrist key, make/unmake, and the check information
//! of the side to move (checkers, blockers, danger squares) that move generation and the
//! legality test are built on.

use super::attacks::{
    self, Occupancy, advisor_attacks, cannon_attacks, cannon_xray, elephant_attacks,
    horse_attackers_to, horse_attacks, king_attacks, pawn_attackers_to, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Piece, PieceType};
use super::square::{NUM_SQUARES, Square};
use super::zobrist;
use std::fmt;

/// What `unmake_move` needs to restore, plus what the rules layer reads back (keys,
/// captures, checks) to judge repetitions.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    /// The move that was made (`None` for a null move).
    pub mv: Option<Move>,
    /// The piece that moved (`None` for a null move).
    pub moved: Option<Piece>,
    /// The piece it captured.
    pub captured: Option<Piece>,
    /// Key of the position before the move.
    pub key: u64,
    /// Plies since the last capture, before the move.
    pub halfmove: u16,
    checkers: Bitboard,
    blockers: Bitboard,
    danger: Bitboard,
}

impl Undo {
    /// Was the side that made this move in check before it?
    #[inline]
    pub fn was_in_check(&self) -> bool {
        self.checkers.any()
    }
}

#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; NUM_SQUARES],
    pieces: [[Bitboard; PieceType::NUM]; Color::NUM],
    by_color: [Bitboard; Color::NUM],
    occ: Occupancy,
    king: [Square; Color::NUM],
    side: Color,
    key: u64,
    /// Plies since the last capture (FEN field 5).
    halfmove: u16,
    /// Plies from the start of the game (derived from the FEN move number).
    game_ply: u16,
    /// Pieces of the opponent giving check to the side to move.
    checkers: Bitboard,
    /// Pieces (of either colour) whose leaving their point could expose the side to move's
    /// king: the only piece between it and an enemy rook or king, either of the two pieces
    /// between it and an enemy cannon, the leg of an enemy horse aimed at it.
    blockers: Bitboard,
    /// Empty points between the side to move's king and an enemy cannon facing it with no
    /// screen: a piece landing there would become the screen.
    danger: Bitboard,
    /// Piece counts, four bits each (see [`Position::material_counts`]).
    material: u64,
    history: Vec<Undo>,
}

/// Bit offset of the count of `kind` (not the king) of `color` in the material counts: Red's
/// advisors in the top nibble (bits 44–47), then Red's elephants, horses, rooks, cannons and
/// pawns, then Black's in the same order down to bit 0.
#[inline]
const fn count_shift(color: usize, kind: usize) -> u32 {
    4 * (11 - (6 * color + kind - 1)) as u32
}

/// One piece in the material counts (0 for a king, which is not counted).
#[inline]
fn count_unit(piece: Piece) -> u64 {
    match piece.kind() {
        PieceType::King => 0,
        k => 1 << count_shift(piece.color().index(), k.index()),
    }
}

/// Offset from a horse to its leg, indexed by `target - horse + 19` for a horse move.
const HORSE_LEG_OFFSET: [i8; 39] = {
    let mut t = [0i8; 39];
    t[(11 + 19) as usize] = 1;
    t[(7 + 19) as usize] = -1;
    t[(-7 + 19) as usize] = 1;
    t[(-11 + 19) as usize] = -1;
    t[(19 + 19) as usize] = 9;
    t[(17 + 19) as usize] = 9;
    t[(-17 + 19) as usize] = -9;
    t[(-19 + 19) as usize] = -9;
    t
};

impl Position {
    /// An empty board with Red to move; only for building positions (FEN, tests).
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; NUM_SQUARES],
            pieces: [[Bitboard::EMPTY; PieceType::NUM]; Color::NUM],
            by_color: [Bitboard::EMPTY; Color::NUM],
            occ: Occupancy::default(),
            king: [Square::from_index(4), Square::from_index(85)],
            side: Color::Red,
            key: 0,
            halfmove: 0,
            game_ply: 0,
            checkers: Bitboard::EMPTY,
            blockers: Bitboard::EMPTY,
            danger: Bitboard::EMPTY,
            material: 0,
            history: Vec::with_capacity(256),
        }
    }

    /// Places a piece on an empty point (building only: keys and check info are
    /// refreshed by [`Position::finish_setup`]).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        self.board[sq.index()] = Some(piece);
        let (c, t) = (piece.color().index(), piece.kind().index());
        self.pieces[c][t] = self.pieces[c][t].with(sq);
        self.by_color[c] = self.by_color[c].with(sq);
        self.occ.toggle(sq);
        self.material += count_unit(piece);
        if piece.kind() == PieceType::King {
            self.king[c] = sq;
        }
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(crate) fn set_counters(&mut self, halfmove: u16, game_ply: u16) {
        self.halfmove = halfmove;
        self.game_ply = game_ply;
    }

    /// Recomputes the key and check information after building.
    pub(crate) fn finish_setup(&mut self) {
        self.key = self.compute_key();
        self.update_check_info();
        self.history.clear();
    }

    // ---- accessors -------------------------------------------------------------------

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.pieces[color.index()][kind.index()]
    }

    #[inline]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occ.bitboard()
    }

    #[inline]
    pub fn occupancy(&self) -> &Occupancy {
        &self.occ
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    /// Zobrist key of the position (placement and side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key of the position after the legal move `m`, without making it (what
    /// `make_move` would set), so a caller can fetch what it keeps under that key early.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return self.key ^ zobrist::side_key();
        };
        let mut key = self.key
            ^ zobrist::side_key()
            ^ zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to);
        if let Some(cap) = self.board[to.index()] {
            key ^= zobrist::piece_key(cap, to);
        }
        key
    }

    /// How many pieces of each kind but the king are on the board, four bits each: Red's
    /// advisors, elephants, horses, rooks, cannons and pawns from bit 47 down, then Black's
    /// in the same order down to bit 0. Kept as moves are made, for tables keyed by material.
    #[inline]
    pub fn material_counts(&self) -> u64 {
        self.material
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Plies since the start of the game (as far as the FEN move number tells).
    #[inline]
    pub fn game_ply(&self) -> u16 {
        self.game_ply
    }

    /// Full-move number as written in a FEN (starts at 1, grows after Black moves).
    pub fn fullmove_number(&self) -> u16 {
        self.game_ply / 2 + 1
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces whose move could expose the side to move's king (see the field comment).
    #[inline]
    pub fn blockers(&self) -> Bitboard {
        self.blockers
    }

    /// Empty points where a piece of the side to move would screen an enemy cannon onto
    /// its own king.
    #[inline]
    pub fn danger(&self) -> Bitboard {
        self.danger
    }

    /// The moves made since the position was set up, oldest first.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Was the position `plies_ago` plies back (0 = now) a check to its side to move?
    /// `None` when that position is before the start of the history.
    pub fn was_check(&self, plies_ago: usize) -> Option<bool> {
        let n = self.history.len();
        match plies_ago {
            0 => Some(self.in_check()),
            k if k <= n => Some(self.history[n - k].was_in_check()),
            _ => None,
        }
    }

    /// Key of the position `plies_ago` plies back (0 = now), if the history reaches it.
    #[inline]
    pub fn key_at(&self, plies_ago: usize) -> Option<u64> {
        match plies_ago {
            0 => Some(self.key),
            k => self
                .history
                .len()
                .checked_sub(k)
                .map(|i| self.history[i].key),
        }
    }

    // ---- attacks ---------------------------------------------------------------------

    /// Pieces of `color` attacking `sq` with occupancy `occ` (pieces off `occ` are ignored):
    /// rook and king along lines (a king only "attacks" along the file the enemy king
    /// stands on, the flying-general rule), cannons over exactly one screen, horses with
    /// their legs free, pawns, advisors, elephants with their eyes free, king steps.
    pub fn attackers_to(&self, sq: Square, color: Color, occ: Bitboard) -> Bitboard {
        self.attackers_to_occ(sq, color, &Occupancy::from_bitboard(occ)) & occ
    }

    /// [`Position::attackers_to`] with a ready two-layout occupancy.
    pub fn attackers_to_occ(&self, sq: Square, color: Color, occ: &Occupancy) -> Bitboard {
        let p = &self.pieces[color.index()];
        let bb = occ.bitboard();
        let mut att = rook_attacks(sq, occ) & p[PieceType::Rook.index()]
            | cannon_attacks(sq, occ) & p[PieceType::Cannon.index()]
            | horse_attackers_to(sq, bb) & p[PieceType::Horse.index()]
            | pawn_attackers_to(color, sq) & p[PieceType::Pawn.index()]
            | advisor_attacks(sq) & p[PieceType::Advisor.index()]
            | elephant_attacks(sq, bb) & p[PieceType::Elephant.index()]
            | king_attacks(sq) & p[PieceType::King.index()];
        if sq == self.king[(!color).index()] {
            att |= rook_attacks(sq, occ) & p[PieceType::King.index()];
        }
        att
    }

    /// Squares the piece on `sq` attacks (captures it could make, ignoring the colour of
    /// the target and the safety of its own king), with occupancy `occ`.
    pub fn piece_attacks(&self, piece: Piece, sq: Square, occ: &Occupancy) -> Bitboard {
        match piece.kind() {
            PieceType::King => king_attacks(sq),
            PieceType::Advisor => advisor_attacks(sq),
            PieceType::Elephant => elephant_attacks(sq, occ.bitboard()),
            PieceType::Horse => horse_attacks(sq, occ.bitboard()),
            PieceType::Rook => rook_attacks(sq, occ),
            PieceType::Cannon => cannon_attacks(sq, occ),
            PieceType::Pawn => pawn_attacks(piece.color(), sq),
        }
    }

    /// Is the king of `color` attacked, with occupancy `occ`, by enemy pieces other than
    /// those in `removed`? (Shared by the legality test and `validate`.)
    #[inline]
    fn king_attacked(&self, k: Square, color: Color, occ: &Occupancy, removed: Bitboard) -> bool {
        let them = &self.pieces[(!color).index()];
        let keep = !removed;
        let line = rook_attacks(k, occ);
        (line & (them[PieceType::Rook.index()] | them[PieceType::King.index()]) & keep).any()
            || (cannon_attacks(k, occ) & them[PieceType::Cannon.index()] & keep).any()
            || (horse_attackers_to(k, occ.bitboard()) & them[PieceType::Horse.index()] & keep).any()
            || (pawn_attackers_to(!color, k) & them[PieceType::Pawn.index()] & keep).any()
    }

    /// Recomputes checkers, blockers and danger points for the side to move.
    fn update_check_info(&mut self) {
        let us = self.side;
        let them = &self.pieces[(!us).index()];
        let k = self.king[us.index()];
        let occ = &self.occ;
        let occ_bb = occ.bitboard();

        let rooks_kings = them[PieceType::Rook.index()] | them[PieceType::King.index()];
        let cannons = them[PieceType::Cannon.index()];
        let horses = them[PieceType::Horse.index()];

        let line = rook_attacks(k, occ);
        let second = cannon_attacks(k, occ);
        let third = cannon_xray(k, occ);

        self.checkers = line & rooks_kings
            | second & cannons
            | horse_attackers_to(k, occ_bb) & horses
            | pawn_attackers_to(!us, k) & them[PieceType::Pawn.index()];

        let first = line & occ_bb;
        let mut blockers = Bitboard::EMPTY;
        // a rook or king behind exactly one piece pins it
        for p in second & rooks_kings {
            blockers |= first & rook_attacks(p, occ);
        }
        // a cannon behind exactly two pieces: either may not leave the line
        for p in third & cannons {
            blockers |= (first & cannon_attacks(p, occ)) | (second & rook_attacks(p, occ) & occ_bb);
        }
        // a horse whose leg is occupied
        let near_horses = horse_attackers_to(k, Bitboard::EMPTY) & horses;
        for h in near_horses {
            let leg = h.raw() as i32
                + HORSE_LEG_OFFSET[(k.raw() as i32 - h.raw() as i32 + 19) as usize] as i32;
            let leg = Square::from_index(leg as u8);
            if occ_bb.contains(leg) {
                blockers = blockers.with(leg);
            }
        }
        self.blockers = blockers;

        let mut danger = Bitboard::EMPTY;
        for c in line & cannons {
            danger |= line & (rook_attacks(c, occ) - occ_bb);
        }
        self.danger = danger;
    }

    // ---- make / unmake ---------------------------------------------------------------

    /// Plays a legal move.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on the from-square");
        let captured = self.board[to.index()];
        self.history.push(Undo {
            mv: Some(m),
            moved: Some(piece),
            captured,
            key: self.key,
            halfmove: self.halfmove,
            checkers: self.checkers,
            blockers: self.blockers,
            danger: self.danger,
        });

        let us = piece.color().index();
        let kind = piece.kind().index();
        let from_to = Bitboard::from(from) | Bitboard::from(to);
        self.pieces[us][kind] ^= from_to;
        self.by_color[us] ^= from_to;
        self.occ.toggle(from);
        let key = self.key_after(m);
        if let Some(cap) = captured {
            let them = cap.color().index();
            self.pieces[them][cap.kind().index()] ^= Bitboard::from(to);
            self.by_color[them] ^= Bitboard::from(to);
            self.material -= count_unit(cap);
            self.halfmove = 0;
        } else {
            self.occ.toggle(to);
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        if kind == PieceType::King.index() {
            self.king[us] = to;
        }
        self.side = !self.side;
        self.key = key;
        self.game_ply = self.game_ply.wrapping_add(1);
        self.update_check_info();

        #[cfg(debug_assertions)]
        if let Err(e) = self.validate() {
            panic!("position invalid after {m}: {e}\n{self}");
        }
    }

    /// Takes back the last move made with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move: no move to take back");
        let m = undo.mv.expect("unmake_move: the last move was a null move");
        let (from, to) = (m.from(), m.to());
        let piece = self.board[to.index()].expect("unmake_move: moved piece missing");
        let us = piece.color().index();
        let kind = piece.kind().index();
        let from_to = Bitboard::from(from) | Bitboard::from(to);
        self.pieces[us][kind] ^= from_to;
        self.by_color[us] ^= from_to;
        self.occ.toggle(from);
        if let Some(cap) = undo.captured {
            let them = cap.color().index();
            self.pieces[them][cap.kind().index()] ^= Bitboard::from(to);
            self.by_color[them] ^= Bitboard::from(to);
            self.material += count_unit(cap);
        } else {
            self.occ.toggle(to);
        }
        self.board[to.index()] = undo.captured;
        self.board[from.index()] = Some(piece);
        if kind == PieceType::King.index() {
            self.king[us] = from;
        }
        self.side = !self.side;
        self.key = undo.key;
        self.halfmove = undo.halfmove;
        self.game_ply = self.game_ply.wrapping_sub(1);
        self.checkers = undo.checkers;
        self.blockers = undo.blockers;
        self.danger = undo.danger;
    }

    /// Passes the turn (for null-move search). Not legal when in check.
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        self.pass_turn();
    }

    /// Passes the turn even when in check, leaving a position no game reaches (the side
    /// that moved next could take the king). Only for the rules' "what if the check were
    /// answered" questions: the caller never captures the king. Undo with `unmake_null`.
    pub fn make_null_in_check(&mut self) {
        self.pass_turn();
    }

    fn pass_turn(&mut self) {
        self.history.push(Undo {
            mv: None,
            moved: None,
            captured: None,
            key: self.key,
            halfmove: self.halfmove,
            checkers: self.checkers,
            blockers: self.blockers,
            danger: self.danger,
        });
        self.side = !self.side;
        self.key ^= zobrist::side_key();
        self.halfmove = self.halfmove.saturating_add(1);
        self.game_ply = self.game_ply.wrapping_add(1);
        self.update_check_info();
    }

    pub fn unmake_null(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null: nothing to take back");
        debug_assert!(undo.mv.is_none());
        self.side = !self.side;
        self.key = undo.key;
        self.halfmove = undo.halfmove;
        self.game_ply = self.game_ply.wrapping_sub(1);
        self.checkers = undo.checkers;
        self.blockers = undo.blockers;
        self.danger = undo.danger;
    }

    // ---- legality --------------------------------------------------------------------

    /// Would the side to move's king be safe after moving `from` -> `to`? The full test,
    /// used for king moves, blockers, danger points and check evasions.
    #[inline]
    pub(crate) fn safe_after(&self, from: Square, to: Square) -> bool {
        let mut occ = self.occ;
        occ.toggle(from);
        if self.board[to.index()].is_none() {
            occ.toggle(to);
        }
        let k = if from == self.king[self.side.index()] {
            to
        } else {
            self.king[self.side.index()]
        };
        !self.king_attacked(k, self.side, &occ, Bitboard::from(to))
    }

    /// Is the pseudo-legal move `m` (a piece of the side to move going where it may go)
    /// legal? Fast: only moves that touch the check information need the full test.
    #[inline]
    pub fn legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if self.checkers.is_empty()
            && !self.blockers.contains(from)
            && !self.danger.contains(to)
            && from != self.king[self.side.index()]
        {
            return true;
        }
        self.safe_after(from, to)
    }

    /// Is `m` a pseudo-legal move here: a piece of the side to move on its from-square
    /// that can go to its to-square by the movement rules (own king safety not checked)?
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        if piece.color() != self.side || self.by_color[self.side.index()].contains(to) {
            return false;
        }
        let targets = match piece.kind() {
            PieceType::Cannon => {
                if self.board[to.index()].is_some() {
                    cannon_attacks(from, &self.occ)
                } else {
                    rook_attacks(from, &self.occ)
                }
            }
            _ => self.piece_attacks(piece, from, &self.occ),
        };
        targets.contains(to)
    }

    /// Is `m` a legal move in this position? Works for any move (from a hash table, a
    /// book, a user), legal or not.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.legal(m)
    }

    /// Does the legal move `m` give check?
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let us = self.side;
        let ek = self.king[(!us).index()];
        let zone = attacks::check_zone(ek);
        if !zone.contains(from) && !zone.contains(to) {
            return false;
        }
        let mut occ = self.occ;
        occ.toggle(from);
        if self.board[to.index()].is_none() {
            occ.toggle(to);
        }
        let moved = Bitboard::from(from) | Bitboard::from(to);
        let mine = |t: PieceType| {
            let b = self.pieces[us.index()][t.index()];
            if t == piece.kind() { b ^ moved } else { b }
        };
        (rook_attacks(ek, &occ) & (mine(PieceType::Rook) | mine(PieceType::King))).any()
            || (cannon_attacks(ek, &occ) & mine(PieceType::Cannon)).any()
            || (horse_attackers_to(ek, occ.bitboard()) & mine(PieceType::Horse)).any()
            || (pawn_attackers_to(us, ek) & mine(PieceType::Pawn)).any()
    }

    // ---- consistency -----------------------------------------------------------------

    /// The key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::side_key()
        } else {
            0
        };
        for sq in Square::ALL {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        key
    }

    /// Checks every redundant piece of state against the board array: bitboards, both
    /// occupancy layouts, king squares, key, check information; and that the side not to
    /// move is not in check. Called after every move in debug builds and by tests.
    pub fn validate(&self) -> Result<(), String> {
        let mut fresh = Position::empty();
        for sq in Square::ALL {
            if let Some(p) = self.board[sq.index()] {
                fresh.put(p, sq);
            }
        }
        if fresh.pieces != self.pieces {
            return Err("piece bitboards disagree with the board".into());
        }
        if fresh.by_color != self.by_color {
            return Err("colour bitboards disagree with the board".into());
        }
        if fresh.occ != self.occ {
            return Err("occupancy layouts disagree with the board".into());
        }
        if fresh.material != self.material {
            return Err("material counts disagree with the board".into());
        }
        for c in Color::ALL {
            if self.pieces(c, PieceType::King).count() != 1 {
                return Err(format!(
                    "{c} has {} kings",
                    self.pieces(c, PieceType::King).count()
                ));
            }
            if fresh.king[c.index()] != self.king[c.index()] {
                return Err(format!("{c} king square is stale"));
            }
        }
        if self.compute_key() != self.key {
            return Err("incremental key differs from the recomputed key".into());
        }
        fresh.side = self.side;
        fresh.update_check_info();
        if (fresh.checkers, fresh.blockers, fresh.danger)
            != (self.checkers, self.blockers, self.danger)
        {
            return Err("check information is stale".into());
        }
        let them = !self.side;
        if self.king_attacked(self.king[them.index()], them, &self.occ, Bitboard::EMPTY) {
            return Err(format!("{them}, not to move, is in check"));
        }
        Ok(())
    }
}

impl PartialEq for Position {
    /// Same placement, side to move and counters (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.game_ply == other.game_ply
            && self.key == other.key
    }
}

impl fmt::Display for Position {
    /// A text diagram (rank 9 on top, upper case Red), the FEN and the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
                let c = self.board[sq.index()].map_or('.', Piece::letter);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        writeln!(f, "fen {}", self.fen())?;
        write!(f, "key {:016x}", self.key)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Re-exported for tests of the tables' users.
pub use attacks::between;
