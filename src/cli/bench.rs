//! `chariot bench`: a fixed search of fixed positions, a deterministic node count.

use chariot::engine::bench;
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Evaluation: nnue (the embedded net), hce (hand-crafted) or a net file.
    #[arg(long, default_value = "nnue")]
    eval: String,
}

pub fn run(a: BenchArgs) -> Result<(), String> {
    if !(1..=64).contains(&a.depth) {
        return Err(format!("bench depth {} is not from 1 to 64", a.depth));
    }
    super::check_threads_hash(a.threads, a.hash)?;
    bench::run(a.depth, a.threads, a.hash, &a.eval, |line| out!("{line}")).map(|_| ())
}
