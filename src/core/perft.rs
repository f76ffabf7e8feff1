//! perft: counts leaf nodes of the legal move tree, the standard test of move generation.
//! The last ply is bulk-counted (the number of legal moves, without making them).

use super::movegen::{MoveList, gen_type};
use super::mv::Move;
use super::position::Position;
use rayon::prelude::*;

/// Leaf count at `depth` plies from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate::<{ gen_type::ALL }>(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Per-root-move counts, in ICCS order of the moves (`a0a1` < `a0b0` < …), split over
/// `threads` worker threads when more than one. The parallel work items are the positions
/// two plies deep, so that even a root with one legal move keeps every thread busy.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    moves.sort_by_key(|m| m.to_string());
    if depth == 0 {
        return Vec::new();
    }
    let sequential = |m: &Move| {
        let mut p = pos.clone();
        p.make_move(*m);
        (*m, perft(&mut p, depth - 1))
    };
    if threads <= 1 || depth < 3 {
        return moves.iter().map(sequential).collect();
    }
    // (root index, reply) pairs; a root move without replies counts 0 below it
    let mut items = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let mut p = pos.clone();
        p.make_move(m);
        items.extend(p.legal_moves().iter().map(|&r| (i, r)));
    }
    let count = |&(i, r): &(usize, Move)| {
        let mut p = pos.clone();
        p.make_move(moves[i]);
        p.make_move(r);
        (i, perft(&mut p, depth - 2))
    };
    let counts: Vec<(usize, u64)> =
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| items.par_iter().map(count).collect()),
            Err(_) => items.iter().map(count).collect(),
        };
    let mut totals = vec![0u64; moves.len()];
    for (i, n) in counts {
        totals[i] += n;
    }
    moves.into_iter().zip(totals).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 44);
        assert_eq!(perft(&mut pos, 2), 1920);
        assert_eq!(perft(&mut pos, 3), 79666);
        let total: u64 = divide(&pos, 3, 2).iter().map(|&(_, n)| n).sum();
        assert_eq!(total, 79666);
    }
}
