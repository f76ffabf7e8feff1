//! `chariot perft`: counts the leaves of the legal move tree.

use chariot::core::{Move, Position, perft};
use clap::Args;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies (1 or more).
    depth: String,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves (ICCS, e.g. h2e2) to play before counting.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Print the count of each root move, in ICCS order.
    #[arg(long)]
    divide: bool,
    /// Worker threads (root moves are split between them).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(a: PerftArgs) -> Result<(), String> {
    let depth: u32 = match a.depth.parse() {
        Ok(d) if (1..=20).contains(&d) => d,
        _ => {
            return Err(format!(
                "perft depth '{}' is not a number from 1 to 20",
                a.depth
            ));
        }
    };
    if a.threads == 0 || a.threads > 1024 {
        return Err(format!("--threads {} is not from 1 to 1024", a.threads));
    }
    let pos = setup(a.fen.as_deref(), &a.moves)?;
    let start = Instant::now();
    let total = if a.divide || a.threads > 1 {
        let counts = perft::divide(&pos, depth, a.threads);
        if a.divide {
            for (m, n) in &counts {
                out!("{m}: {n}");
            }
        }
        counts.iter().map(|&(_, n)| n).sum()
    } else {
        perft::perft(&mut pos.clone(), depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    out!("total {total} time_ms {ms} nps {nps}");
    Ok(())
}

/// Sets up a position from an optional FEN and a list of ICCS moves, refusing the first
/// illegal move by ply and text.
fn setup(fen: Option<&str>, moves: &[String]) -> Result<Position, String> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = Move::parse_iccs(text)
            .ok_or_else(|| format!("move {} '{text}' is not an ICCS move", i + 1))?;
        if !pos.is_legal(m) {
            return Err(format!(
                "move {} '{text}' is illegal in {}",
                i + 1,
                pos.fen()
            ));
        }
        pos.make_move(m);
    }
    Ok(pos)
}
