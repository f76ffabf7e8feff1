//! `chariot go`: searches one position through the engine and prints its info lines.

use chariot::engine::{Engine, Limits, Options, Score};
use chariot::rules::RuleSet;
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub struct GoArgs {
    /// Position to search (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (ICCS) played from the FEN first.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search depth.
    #[arg(long)]
    depth: Option<i32>,
    /// Search time in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Rule set: cxa or axf.
    #[arg(long, default_value = "cxa")]
    rules: String,
    /// Evaluation: nnue (the embedded net), hce (hand-crafted) or a net file.
    #[arg(long, default_value = "nnue")]
    eval: String,
}

pub fn run(a: GoArgs) -> Result<(), String> {
    let rules: RuleSet = a.rules.parse()?;
    super::check_threads_hash(a.threads, a.hash)?;
    let mut engine = Engine::new(Options {
        hash_mib: a.hash,
        threads: a.threads,
        rules,
    });
    engine.set_eval(&a.eval)?;
    let texts: Vec<&str> = a.moves.iter().map(String::as_str).collect();
    engine.set_position(a.fen.as_deref(), &texts)?;
    let time = a.movetime.map(Duration::from_millis);
    let limits = Limits {
        depth: a.depth.or(if time.is_none() && a.nodes.is_none() {
            Some(10)
        } else {
            None
        }),
        nodes: a.nodes,
        soft_time: time,
        hard_time: time,
        ..Limits::default()
    };
    let r = engine.go(limits, |info| {
        let score = match Score::of(info.score).mate_moves() {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", info.score),
        };
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        let ms = info.time.as_millis().max(1);
        out!(
            "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.nodes,
            info.nodes as u128 * 1000 / ms,
            info.time.as_millis(),
            pv.join(" ")
        );
    });
    match r.best {
        Some(m) => match r.ponder {
            Some(p) => out!("bestmove {m} ponder {p}"),
            None => out!("bestmove {m}"),
        },
        None => out!("nobestmove"),
    }
    Ok(())
}
