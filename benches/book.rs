//! Book probe cost: `Book::probe` (key and mirrored key, two binary searches, legality of
//! each move found) on positions of the shipped book and on positions it does not hold.
//! Run: `cargo bench --bench book`.

use chariot::book::Book;
use chariot::core::Position;
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::collections::HashSet;

/// Positions the book reaches within `plies` plies (mirror images once), in walk order.
fn book_positions(book: &Book, plies: usize) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut level = vec![Position::startpos()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in level {
            if !seen.insert(pos.key()) {
                continue;
            }
            for b in book.probe(&pos) {
                let mut c = pos.clone();
                c.make_move(b.mv);
                next.push(c);
            }
            out.push(pos);
        }
        level = next;
    }
    out
}

fn probe(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/chariot.book");
    let book = Book::load(&path).expect("book/chariot.book");
    let inside = book_positions(&book, 16);
    // one ply past the book: mostly positions it does not hold
    let outside: Vec<Position> = inside
        .iter()
        .filter_map(|p| {
            let moves = p.legal_moves();
            let m = *moves.as_slice().last()?;
            let mut c = p.clone();
            c.make_move(m);
            (!book.contains(&c)).then_some(c)
        })
        .collect();
    let mut i = 0;
    c.bench_function("book probe (in book)", |b| {
        b.iter(|| {
            i = (i + 1) % inside.len();
            black_box(book.probe(black_box(&inside[i])))
        })
    });
    let mut j = 0;
    c.bench_function("book probe (not in book)", |b| {
        b.iter(|| {
            j = (j + 1) % outside.len();
            black_box(book.probe(black_box(&outside[j])))
        })
    });
}

criterion_group!(benches, probe);
criterion_main!(benches);
