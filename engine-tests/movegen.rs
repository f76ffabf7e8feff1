//! Cross-checks of the position core, each implementation against another, on positions
//! from random legal games that start at every perft-suite position:
//! * legal moves == a naive generator (walks rays on a plain board array, tests king
//!   safety by brute force) — the generator shares no tables with the engine;
//! * captures ∪ quiets == all moves, disjoint; evasions == all moves when in check;
//! * `is_legal` agrees with the legal list for every from × to pair;
//! * `gives_check` and `key_after` agree with making the move; material counts follow the
//!   board; `attackers_to` agrees with piece attacks;
//! * incremental key == recomputed key; make/unmake restores the exact position;
//!   FEN round-trips; `validate()` passes everywhere.

mod common;

use chariot::core::{Bitboard, Color, Move, Piece, PieceType, Position, Square};
use std::collections::BTreeSet;

type Board = [Option<Piece>; 90];

fn board_of(pos: &Position) -> Board {
    let mut b = [None; 90];
    for sq in Square::ALL {
        b[sq.index()] = pos.piece_on(sq);
    }
    b
}

fn at(b: &Board, f: i32, r: i32) -> Option<Option<Piece>> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some(b[(r * 9 + f) as usize])
    } else {
        None
    }
}

fn in_palace(color: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && if color == Color::Red {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

/// Pseudo-legal destinations of the piece on (f, r), by the rules of RULES.md §1, for any
/// board (the target's colour is not checked).
fn naive_targets(b: &Board, f: i32, r: i32) -> Vec<(i32, i32)> {
    let p = b[(r * 9 + f) as usize].expect("a piece");
    let c = p.color();
    let mut out = Vec::new();
    let forward = if c == Color::Red { 1 } else { -1 };
    let own_half = |rr: i32| if c == Color::Red { rr <= 4 } else { rr >= 5 };
    match p.kind() {
        PieceType::King => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if in_palace(c, f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        PieceType::Advisor => {
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                if in_palace(c, f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        PieceType::Elephant => {
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                if at(b, f + 2 * df, r + 2 * dr).is_some()
                    && own_half(r + 2 * dr)
                    && at(b, f + df, r + dr) == Some(None)
                {
                    out.push((f + 2 * df, r + 2 * dr));
                }
            }
        }
        PieceType::Horse => {
            for (lf, lr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if at(b, f + lf, r + lr) != Some(None) {
                    continue;
                }
                let ends = if lf != 0 {
                    [(2 * lf, 1), (2 * lf, -1)]
                } else {
                    [(1, 2 * lr), (-1, 2 * lr)]
                };
                for (df, dr) in ends {
                    if at(b, f + df, r + dr).is_some() {
                        out.push((f + df, r + dr));
                    }
                }
            }
        }
        PieceType::Rook | PieceType::Cannon => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut ff, mut rr) = (f + df, r + dr);
                let mut screens = 0;
                while let Some(cell) = at(b, ff, rr) {
                    match (p.kind(), screens, cell) {
                        (PieceType::Rook, _, None) | (PieceType::Cannon, 0, None) => {
                            out.push((ff, rr))
                        }
                        (PieceType::Rook, _, Some(_)) => {
                            out.push((ff, rr));
                            break;
                        }
                        (_, 0, Some(_)) => screens = 1,
                        (_, _, Some(_)) => {
                            out.push((ff, rr));
                            break;
                        }
                        (_, _, None) => {}
                    }
                    ff += df;
                    rr += dr;
                }
            }
        }
        PieceType::Pawn => {
            if at(b, f, r + forward).is_some() {
                out.push((f, r + forward));
            }
            if !own_half(r) {
                for df in [-1, 1] {
                    if at(b, f + df, r).is_some() {
                        out.push((f + df, r));
                    }
                }
            }
        }
    }
    out
}

/// Is the king of `color` attacked on board `b` (kings facing on an open file count)?
fn naive_in_check(b: &Board, color: Color) -> bool {
    let king = Piece::new(color, PieceType::King);
    let k = (0..90).find(|&i| b[i] == Some(king)).expect("a king");
    let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
    for i in 0..90 {
        let Some(p) = b[i] else { continue };
        if p.color() == color {
            continue;
        }
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        if p.kind() == PieceType::King {
            if f == kf && (r.min(kr) + 1..r.max(kr)).all(|rr| b[(rr * 9 + f) as usize].is_none()) {
                return true;
            }
            continue;
        }
        if naive_targets(b, f, r).contains(&(kf, kr)) {
            return true;
        }
    }
    false
}

fn naive_legal_moves(pos: &Position) -> BTreeSet<(Square, Square)> {
    let b = board_of(pos);
    let us = pos.side_to_move();
    let mut out = BTreeSet::new();
    for i in 0..90 {
        let Some(p) = b[i] else { continue };
        if p.color() != us {
            continue;
        }
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        for (tf, tr) in naive_targets(&b, f, r) {
            let t = (tr * 9 + tf) as usize;
            if b[t].is_some_and(|q| q.color() == us) {
                continue;
            }
            let mut after = b;
            after[t] = after[i].take();
            if !naive_in_check(&after, us) {
                out.insert((Square::ALL[i], Square::ALL[t]));
            }
        }
    }
    out
}

fn move_set(moves: &[Move]) -> BTreeSet<(Square, Square)> {
    let set: BTreeSet<_> = moves.iter().map(|m| (m.from(), m.to())).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in a list");
    set
}

fn positions() -> Vec<Position> {
    common::sample_positions(8, 120)
}

#[test]
fn legal_moves_match_naive_generator() {
    let mut in_check = 0;
    for pos in positions() {
        let got = move_set(&pos.legal_moves());
        let want = naive_legal_moves(&pos);
        assert_eq!(got, want, "legal moves differ in {}", pos.fen());
        assert_eq!(
            pos.in_check(),
            naive_in_check(&board_of(&pos), pos.side_to_move()),
            "in_check in {}",
            pos.fen()
        );
        in_check += usize::from(pos.in_check());
    }
    assert!(
        in_check > 50,
        "the sample should hold many positions in check, has {in_check}"
    );
}

#[test]
fn captures_and_quiets_partition_all_moves() {
    for pos in positions() {
        let all = move_set(&pos.legal_moves());
        let caps = move_set(&pos.legal_captures());
        let quiets = move_set(&pos.legal_quiets());
        assert!(caps.is_disjoint(&quiets), "{}", pos.fen());
        assert_eq!(
            caps.union(&quiets).copied().collect::<BTreeSet<_>>(),
            all,
            "{}",
            pos.fen()
        );
        for &(_, to) in &caps {
            assert!(
                pos.piece_on(to)
                    .is_some_and(|p| p.color() != pos.side_to_move())
            );
        }
        if pos.in_check() {
            assert_eq!(move_set(&pos.evasions()), all, "{}", pos.fen());
        } else {
            assert!(pos.evasions().is_empty());
        }
        // pseudo-legal moves filtered by the fast legality test give the legal moves
        let mut pseudo = chariot::core::MoveList::new();
        pos.generate_pseudo(&mut pseudo);
        let filtered: Vec<Move> = pseudo.iter().copied().filter(|&m| pos.legal(m)).collect();
        assert_eq!(move_set(&filtered), all, "{}", pos.fen());
    }
}

#[test]
fn is_legal_agrees_with_generation_for_every_pair() {
    for pos in positions().iter().step_by(3) {
        let legal = move_set(&pos.legal_moves());
        for from in Square::ALL {
            for to in Square::ALL {
                let Some(m) = Move::new(from, to) else {
                    continue;
                };
                assert_eq!(
                    pos.is_legal(m),
                    legal.contains(&(from, to)),
                    "is_legal({m}) in {}",
                    pos.fen()
                );
            }
        }
    }
}

#[test]
fn make_unmake_keys_and_fen_are_consistent() {
    for pos in positions() {
        pos.validate()
            .unwrap_or_else(|e| panic!("{e} in {}", pos.fen()));
        assert_eq!(pos.key(), pos.compute_key());
        let again = Position::from_fen(&pos.fen()).expect("FEN round-trips");
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.key(), pos.key());
        let mut p = pos.clone();
        for &m in pos.legal_moves().iter() {
            let check = p.gives_check(m);
            let key_after = p.key_after(m);
            p.make_move(m);
            assert_eq!(p.key(), key_after, "key_after({m}) in {}", pos.fen());
            p.validate()
                .unwrap_or_else(|e| panic!("{e} after {m} in {}", pos.fen()));
            assert_eq!(p.key(), p.compute_key(), "key after {m} in {}", pos.fen());
            assert_eq!(check, p.in_check(), "gives_check({m}) in {}", pos.fen());
            p.unmake_move();
            assert!(p == pos, "unmake {m} did not restore {}", pos.fen());
            assert_eq!(
                (p.checkers(), p.blockers(), p.danger()),
                (pos.checkers(), pos.blockers(), pos.danger())
            );
        }
    }
}

#[test]
fn attackers_to_agrees_with_piece_attacks() {
    for pos in positions().iter().step_by(5) {
        let occ = pos.occupied();
        let b = board_of(pos);
        for sq in Square::ALL {
            for color in Color::ALL {
                let mut want = Bitboard::EMPTY;
                for from in pos.color_pieces(color) {
                    let p = pos.piece_on(from).expect("a piece");
                    let hits = if p.kind() == PieceType::King {
                        // steps, and the flying general onto the enemy king's point
                        let (f, r) = (from.file() as i32, from.rank() as i32);
                        let enemy_king = sq == pos.king_square(!color);
                        let open_file = sq.file() as i32 == f
                            && (r.min(sq.rank() as i32) + 1..r.max(sq.rank() as i32))
                                .all(|rr| b[(rr * 9 + f) as usize].is_none());
                        naive_targets(&b, f, r).contains(&(sq.file() as i32, sq.rank() as i32))
                            || (enemy_king && open_file)
                    } else {
                        naive_targets(&b, from.file() as i32, from.rank() as i32)
                            .contains(&(sq.file() as i32, sq.rank() as i32))
                    };
                    // a cannon's capture needs a piece on the target: compare on occupied points only
                    let relevant = p.kind() != PieceType::Cannon || occ.contains(sq);
                    if hits && relevant {
                        want = want.with(from);
                    }
                }
                let got = pos.attackers_to(sq, color, occ);
                if occ.contains(sq) {
                    assert_eq!(got, want, "attackers of {sq} by {color} in {}", pos.fen());
                } else {
                    // on an empty point the cannon set may be larger (it attacks past its screen)
                    assert_eq!(
                        got - pos.pieces(color, PieceType::Cannon),
                        want - pos.pieces(color, PieceType::Cannon)
                    );
                }
            }
        }
    }
}

#[test]
fn material_counts_follow_the_board() {
    // the documented layout: Red's advisors ... pawns from bit 47 down, then Black's
    let packed = |pos: &Position| {
        let mut counts = 0u64;
        for color in Color::ALL {
            for kind in PieceType::ALL.iter().skip(1) {
                counts = (counts << 4) | u64::from(pos.pieces(color, *kind).count());
            }
        }
        counts
    };
    let mut captures = 0;
    for pos in positions() {
        assert_eq!(pos.material_counts(), packed(&pos), "{}", pos.fen());
        let mut p = pos.clone();
        for &m in pos.legal_moves().iter() {
            captures += usize::from(p.piece_on(m.to()).is_some());
            p.make_move(m);
            assert_eq!(
                p.material_counts(),
                packed(&p),
                "after {m} in {}",
                pos.fen()
            );
            p.unmake_move();
            assert_eq!(p.material_counts(), pos.material_counts());
        }
    }
    assert!(
        captures > 1000,
        "the sample should capture often, did {captures} times"
    );
}
