//! Evaluation cost: the net's full refresh, one incremental update (a quiet move made, the
//! position evaluated, the move unmade) with each kernel, and the hand-crafted evaluation of
//! the same position. Run: `cargo bench --bench nnue`. With `CHARIOT_BENCH_NET=FILE` the
//! net in FILE is timed too, in the same run (the embedded net beside the one before it, or
//! another architecture).

use chariot::core::{Move, Position};
use chariot::eval::evaluate;
use chariot::eval::nnue::accumulator::evaluate_full_with;
use chariot::eval::nnue::format::Network;
use chariot::eval::nnue::simd::{self, Kernel};
use chariot::eval::nnue::{EMBEDDED, NnueEval, load_file};
use criterion::{Criterion, black_box, criterion_group, criterion_main};

const MIDDLEGAME: &str =
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1CN1C1N2/9/R1BAKAB1R w - - 6 4";

fn eval(c: &mut Criterion) {
    let mut nets: Vec<(String, Network)> = vec![(
        format!("embedded, H {}", EMBEDDED.hidden),
        (**EMBEDDED).clone(),
    )];
    if let Some(path) = std::env::var_os("CHARIOT_BENCH_NET") {
        let path = std::path::PathBuf::from(path);
        match load_file(&path) {
            Ok(net) => nets.push((format!("{}, H {}", path.display(), net.hidden), net)),
            Err(e) => {
                eprintln!("CHARIOT_BENCH_NET: {e}");
                std::process::exit(2);
            }
        }
    }
    let mut pos = Position::from_fen(MIDDLEGAME).expect("bench FEN");
    // two quiet moves in turn: the ply's cached entry always belongs to the other one, so
    // every evaluation applies a move to the parent's accumulators
    let quiet: Vec<Move> = pos
        .legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|m| pos.piece_on(m.to()).is_none())
        .take(2)
        .collect();
    let kernels: Vec<Kernel> = [Kernel::Avx2, Kernel::Portable]
        .into_iter()
        .filter(|&k| simd::available(k))
        .collect();
    for (name, net) in &nets {
        for &k in &kernels {
            c.bench_function(&format!("nnue full refresh ({k:?}; {name})"), |b| {
                b.iter(|| evaluate_full_with(k, net, black_box(&pos)))
            });
            let mut e = NnueEval::with_kernel(k);
            e.evaluate(net, &pos);
            c.bench_function(&format!("nnue incremental update ({k:?}; {name})"), |b| {
                let mut i = 0;
                b.iter(|| {
                    i ^= 1;
                    pos.make_move(quiet[i]);
                    let v = e.evaluate(net, black_box(&pos));
                    pos.unmake_move();
                    v
                })
            });
        }
    }
    c.bench_function("hand-crafted evaluate", |b| {
        b.iter(|| evaluate(black_box(&pos)))
    });
}

criterion_group!(benches, eval);
criterion_main!(benches);
