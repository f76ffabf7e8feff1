//! Rules benchmarks: the search's cheap repetition test and the full verdict on a 12-ply
//! cycle, and judging a 1,000-ply game. Run: `cargo bench --bench rules`.

use chariot::core::{Move, Position};
use chariot::rules::repetition::{is_repetition, judge_cycle};
use chariot::rules::{RuleSet, adjudicate};
use chariot::tools::judge::{GameText, judge};
use criterion::{Criterion, black_box, criterion_group, criterion_main};

/// A 12-ply cycle: two rooks chasing about while the kings shuffle, ending on the third
/// occurrence of the start position.
const CYCLE_FEN: &str = "3k5/9/9/9/9/9/r8/9/9/4K3R w - - 0 1";
const CYCLE: &str = "i0i1 a3a4 i1i2 a4a5 i2i0 a5a3 i0i1 a3a4 i1i2 a4a5 i2i0 a5a3";

fn cycle_position() -> Position {
    let mut pos = Position::from_fen(CYCLE_FEN).expect("bench FEN");
    for t in CYCLE.split_whitespace() {
        let m = Move::parse_iccs(t)
            .filter(|&m| pos.is_legal(m))
            .expect("legal bench move");
        pos.make_move(m);
    }
    pos
}

/// A long game without a decisive event: random legal moves (fixed seed) that avoid a
/// third occurrence, mates, and capture often enough to stay clear of the move limit.
pub fn long_game(plies: usize) -> (String, Vec<String>) {
    let mut pos = Position::startpos();
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = pos.legal_moves();
        let mut candidates: Vec<Move> = legal.to_vec();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let want_capture = pos.halfmove_clock() > 90;
        candidates.retain(|&m| (pos.piece_on(m.to()).is_some()) == want_capture || legal.len() < 3);
        if candidates.is_empty() {
            candidates = legal.to_vec();
        }
        let start = (seed % candidates.len() as u64) as usize;
        let mut chosen = None;
        for k in 0..candidates.len() {
            let m = candidates[(start + k) % candidates.len()];
            pos.make_move(m);
            let ok = !adjudicate(&pos, RuleSet::Cxa).is_over() && !pos.legal_moves().is_empty();
            pos.unmake_move();
            if ok {
                chosen = Some(m);
                break;
            }
        }
        let Some(m) = chosen else { break };
        pos.make_move(m);
        moves.push(m.to_string());
    }
    (chariot::core::START_FEN.to_string(), moves)
}

fn rules(c: &mut Criterion) {
    let pos = cycle_position();
    assert!(is_repetition(&pos));
    c.bench_function("repetition/is_repetition_12ply", |b| {
        b.iter(|| is_repetition(black_box(&pos)))
    });
    c.bench_function("repetition/judge_cycle_12ply", |b| {
        b.iter(|| judge_cycle(black_box(&pos), RuleSet::Cxa))
    });
    let (fen, moves) = long_game(1000);
    let game = GameText {
        fen: Some(fen),
        moves,
    };
    let mut group = c.benchmark_group("judge");
    group.sample_size(10);
    group.bench_function(format!("game_{}_plies", game.moves.len()), |b| {
        b.iter(|| judge(black_box(&game), RuleSet::Cxa))
    });
    group.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
