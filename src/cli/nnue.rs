//! `chariot nnue`: training data from self-play and the network's trainer.

use chariot::rules::RuleSet;
use chariot::tools::nnue::datagen::{self, GenOptions};
use chariot::tools::selfplay::{SelfPlay, parse_range};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum NnueAction {
    /// Play self-play games at fixed nodes and write them (moves, search scores, results)
    /// to a training-games file.
    Gen {
        /// File to write (created; games are written as they finish).
        #[arg(long)]
        out: PathBuf,
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Node budget of each move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the run: with the shard it fixes every game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This machine's shard of the run (0, 1, 2, …): shards never repeat a game.
        #[arg(long, default_value_t = 0)]
        shard: u64,
        /// Random opening length in plies, MIN-MAX.
        #[arg(long, default_value = "6-10")]
        random_plies: String,
        /// Plies after which a game is drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Score (centipawns) beyond which, held for 6 plies, a game is won.
        #[arg(long, default_value_t = 1000)]
        resign: i32,
        /// Rule set: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
    },
}

pub fn run(action: NnueAction) -> Result<(), String> {
    match action {
        NnueAction::Gen {
            out,
            games,
            nodes,
            threads,
            seed,
            shard,
            random_plies,
            max_plies,
            resign,
            rules,
        } => {
            let rules: RuleSet = rules.parse()?;
            let opts = GenOptions {
                play: SelfPlay {
                    nodes,
                    random_plies: parse_range(&random_plies)
                        .map_err(|e| format!("--random-plies: {e}"))?,
                    max_plies,
                    resign,
                    rules,
                    ..SelfPlay::default()
                },
                games,
                threads: threads.unwrap_or(GenOptions::default().threads),
                seed,
                shard,
            };
            opts.play.check()?;
            let file = std::fs::File::create(&out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            eprintln!(
                "nnue gen: seed {seed} shard {shard}, {games} games at {nodes} nodes, {} threads -> {}",
                opts.threads,
                out.display()
            );
            let stats = datagen::generate(&opts, file, |s| eprintln!("{}", s.summary()))?;
            println!("wrote {}: {}", out.display(), stats.summary());
            Ok(())
        }
    }
}
