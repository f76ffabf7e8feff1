//! `chariot bench`: a fixed search of fixed positions, a deterministic node count; with
//! `--tree`, the shape of the search over the same positions.

use chariot::engine::bench;
use chariot::tools::tree::{self, TreeLimit};
use clap::Args;
use std::time::Duration;

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
    /// Report the shape of the search (pruning, reductions, extensions, hash table, time to
    /// depth, branching factor) instead of the bench line; one thread.
    #[arg(long)]
    tree: bool,
    /// With --tree: search each position for this many milliseconds instead of to a depth.
    #[arg(long, value_name = "MS", requires = "tree")]
    movetime: Option<u64>,
    /// With --tree: search the positions of this file instead of the bench positions (EPD/FEN
    /// lines, or a FEN or `startpos` with ICCS moves, as `chariot match --openings` reads).
    #[arg(long, value_name = "FILE", requires = "tree")]
    positions: Option<std::path::PathBuf>,
    /// Set one of the search's tunables (as an engine started with `--tunables` takes it by
    /// `setoption`), e.g. `--set QsBadCaptures=0`; give it again for more.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

/// `NAME=VALUE` pairs, each a known tunable (the engine checks the range).
fn parse_sets(sets: &[String]) -> Result<Vec<(String, i32)>, String> {
    sets.iter()
        .map(|s| {
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| format!("--set '{s}' is not NAME=VALUE"))?;
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("--set '{s}': the value is not a whole number"))?;
            Ok((name.trim().to_string(), value))
        })
        .collect()
}

pub fn run(a: BenchArgs) -> Result<(), String> {
    if !(1..=64).contains(&a.depth) {
        return Err(format!("bench depth {} is not from 1 to 64", a.depth));
    }
    super::check_threads_hash(a.threads, a.hash)?;
    let sets = parse_sets(&a.set)?;
    let mut check = chariot::engine::Tunables::DEFAULT;
    for (name, value) in &sets {
        check.set(name, *value)?;
    }
    if a.tree {
        if a.threads != 1 {
            return Err("bench --tree searches with one thread".to_string());
        }
        let limit = match a.movetime {
            Some(0) => return Err("bench --movetime must be at least 1 ms".to_string()),
            Some(ms) => TreeLimit::MoveTime(Duration::from_millis(ms)),
            None => TreeLimit::Depth(a.depth),
        };
        let file = a.positions.as_deref();
        return tree::run_with(limit, a.hash, &a.eval, &sets, file, |line| out!("{line}"))
            .map(|_| ());
    }
    bench::run_with(a.depth, a.threads, a.hash, &a.eval, &sets, |line| {
        out!("{line}")
    })
    .map(|_| ())
}
