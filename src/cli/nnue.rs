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
        /// Evaluation both sides play with: nnue (the embedded net), hce (hand-crafted; the
        /// teacher of the first generation) or a net file (net N plays generation N+1's data).
        #[arg(long, default_value = "nnue")]
        eval: String,
    },
    /// Train a net on training-games files (`chariot nnue gen`) and write it.
    Train {
        /// Training-games files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        /// Hidden width (a multiple of 16, 16..=512).
        #[arg(long, default_value_t = 256)]
        hidden: usize,
        /// Most passes over the training positions.
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Peak learning rate (cosine decay to 5 % of it).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// AdamW's decoupled weight decay (a pull of every weight towards 0 each step).
        #[arg(long, default_value_t = 1e-4)]
        weight_decay: f32,
        /// Weight of the game result in the target (the search score gets the rest).
        #[arg(long, default_value_t = 0.25)]
        wdl: f32,
        /// Logistic scale in centipawns.
        #[arg(long, default_value_t = 400.0)]
        k: f32,
        /// Use the K fitted to the data's scores and results instead of --k.
        #[arg(long)]
        fit_k: bool,
        /// Fraction of the games held out for validation.
        #[arg(long, default_value_t = 0.02)]
        valid: f64,
        /// Epochs without a better validation loss before stopping (0: never).
        #[arg(long, default_value_t = 3)]
        patience: usize,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Drop positions scored beyond this many centipawns (0: no cap).
        #[arg(long, default_value_t = 3000)]
        max_score: i32,
        /// Drop the first plies of each game.
        #[arg(long, default_value_t = 0)]
        skip_plies: usize,
        /// Keep positions with the side to move in check.
        #[arg(long)]
        keep_checks: bool,
        /// Keep positions whose move is a capture.
        #[arg(long)]
        keep_captures: bool,
        /// Keep positions with a mate score.
        #[arg(long)]
        keep_mates: bool,
    },
}

pub fn run(action: NnueAction) -> Result<(), String> {
    use chariot::tools::nnue::train;
    match action {
        NnueAction::Train {
            files,
            out,
            hidden,
            epochs,
            batch,
            lr,
            weight_decay,
            wdl,
            k,
            fit_k,
            valid,
            patience,
            threads,
            seed,
            max_score,
            skip_plies,
            keep_checks,
            keep_captures,
            keep_mates,
        } => {
            let opts = train::TrainOptions {
                hidden,
                epochs,
                batch,
                lr,
                weight_decay,
                wdl,
                k,
                fit_k,
                valid,
                patience,
                threads,
                seed,
                max_score: (max_score > 0).then_some(max_score),
                skip_plies,
                skip_checks: !keep_checks,
                skip_captures: !keep_captures,
                skip_mates: !keep_mates,
                ..train::TrainOptions::default()
            };
            let r = train::train(&files, &opts, |line| eprintln!("{line}"))?;
            train::write_net(&r.net, &out)?;
            out!(
                "wrote {} (hidden {}): {} training positions from {} games, {} dropped ({}); best validation loss {:.6} at epoch {} of {} (from {:.6}), {:.0} positions/s, {:.0} s",
                out.display(),
                r.net.hidden,
                r.train_positions,
                r.games,
                r.dropped.total(),
                r.dropped,
                r.best_valid_loss,
                r.best_epoch,
                r.epochs,
                r.initial_valid_loss,
                r.positions_per_s,
                r.elapsed_s
            );
            Ok(())
        }

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
            eval,
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
                    eval: eval.clone(),
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
                "nnue gen: seed {seed} shard {shard}, {games} games at {nodes} nodes, eval {eval}, {} threads -> {}",
                opts.threads,
                out.display()
            );
            let stats = datagen::generate(&opts, file, |s| eprintln!("{}", s.summary()))?;
            out!("wrote {}: {}", out.display(), stats.summary());
            Ok(())
        }
    }
}
