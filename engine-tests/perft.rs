//! Runs every count of `engine-tests/perft.epd` up to a node cap, so CI stays fast:
//! 20 million leaves per count in optimised builds, 200 thousand in debug builds. Set
//! `CHARIOT_PERFT_MAX_NODES` to change the cap (`0` = no cap: the whole suite, which takes
//! a few minutes in release: `CHARIOT_PERFT_MAX_NODES=0 cargo test --release --test perft`).

mod common;

use chariot::core::Position;
use chariot::core::perft::{divide, perft};

fn node_cap() -> u64 {
    match std::env::var("CHARIOT_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(0) => u64::MAX,
        Some(n) => n,
        None if cfg!(debug_assertions) => 200_000,
        None => 20_000_000,
    }
}

#[test]
fn perft_suite_counts() {
    let cap = node_cap();
    let mut checked = 0;
    for case in common::perft_cases() {
        let mut pos =
            Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for &(depth, expected) in &case.counts {
            if expected > cap {
                continue;
            }
            let got = perft(&mut pos, depth);
            assert_eq!(
                got, expected,
                "perft {depth} of {} (perft.epd line {})",
                case.fen, case.line
            );
            checked += 1;
        }
        // perft leaves the position as it found it
        assert_eq!(pos.fen(), Position::from_fen(&case.fen).unwrap().fen());
    }
    assert!(checked >= 30, "only {checked} counts were under the cap");
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    for case in common::perft_cases().iter().take(4) {
        let pos = Position::from_fen(&case.fen).unwrap();
        let &(depth, expected) = case
            .counts
            .iter()
            .find(|&&(d, _)| d == 3)
            .expect("every case has a depth-3 count");
        let one = divide(&pos, depth, 1);
        let two = divide(&pos, depth, 2);
        assert_eq!(one, two, "thread count changed the divide of {}", case.fen);
        assert_eq!(one.iter().map(|&(_, n)| n).sum::<u64>(), expected);
        let names: Vec<String> = one.iter().map(|(m, _)| m.to_string()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "divide is in ICCS order");
        assert_eq!(one.len(), pos.legal_moves().len());
    }
}
