//! Move generation, make/unmake (against copy-make) and perft benchmarks.
//! Run: `cargo bench --bench movegen`.

use chariot::core::perft::perft;
use chariot::core::{MoveList, Position, gen_type};
use criterion::{Criterion, black_box, criterion_group, criterion_main};

/// A busy middlegame: both sides developed, many captures and cannon screens.
const MIDDLEGAME: &str = "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1";

fn movegen(c: &mut Criterion) {
    for (name, fen) in [
        ("start", chariot::core::START_FEN),
        ("middlegame", MIDDLEGAME),
    ] {
        let pos = Position::from_fen(fen).expect("bench FEN");
        c.bench_function(&format!("movegen/all/{name}"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                black_box(&pos).generate::<{ gen_type::ALL }>(&mut list);
                list.len()
            })
        });
        c.bench_function(&format!("movegen/captures/{name}"), |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                black_box(&pos).generate::<{ gen_type::CAPTURES }>(&mut list);
                list.len()
            })
        });
    }
}

fn make_unmake(c: &mut Criterion) {
    let pos = Position::from_fen(MIDDLEGAME).expect("bench FEN");
    let moves = pos.legal_moves();
    c.bench_function("make_unmake/middlegame_all_moves", |b| {
        let mut p = pos.clone();
        b.iter(|| {
            for &m in moves.iter() {
                p.make_move(m);
                black_box(p.key());
                p.unmake_move();
            }
        })
    });
    // The alternative design: copy the position, then make on the copy.
    c.bench_function("copy_make/middlegame_all_moves", |b| {
        b.iter(|| {
            for &m in moves.iter() {
                let mut p = black_box(&pos).clone();
                p.make_move(m);
                black_box(p.key());
            }
        })
    });
}

fn perft4(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("start_depth4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| perft(&mut pos, 4))
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft4);
criterion_main!(benches);
