//! `chariot tune`: Texel tuning of the hand-crafted evaluation (positions, labels, fit), and
//! SPSA of the search's tunable numbers (`tune spsa`, in `chariot::tools::spsa`).

use chariot::tools::selfplay::parse_range;
use chariot::tools::tune;
use clap::Subcommand;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand)]
pub enum TuneAction {
    /// Play self-play games and write their quiet positions as `FEN | result` lines.
    Gen {
        /// File to write (positions are appended as games finish).
        #[arg(long)]
        out: PathBuf,
        /// Games to play.
        #[arg(long, default_value_t = 2000)]
        games: usize,
        /// Node budget of each move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random opening length in plies, MIN-MAX (e.g. 6-10).
        #[arg(long, default_value = "6-10")]
        random_plies: String,
        /// Plies after which a game is drawn.
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// Rule set: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
    },
    /// Re-label positions with a search of each: Red's expected result from the search's
    /// score, blended with the game's result.
    Label {
        /// Position files (`FEN | result` lines).
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// File to write (`FEN | label` lines, in input order).
        #[arg(long)]
        out: PathBuf,
        /// Node budget of each position's search.
        #[arg(long, default_value_t = 10000)]
        nodes: u64,
        /// Weight of the search in the label; the game result gets the rest.
        #[arg(long, default_value_t = 0.75)]
        lambda: f64,
        /// Logistic scale K (fitted to the positions' results if not given).
        #[arg(long)]
        k: Option<f64>,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Rule set: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
    },
    /// Fit the evaluation weights to position files; write the table as Rust source.
    Fit {
        /// Position files (`FEN | result` lines, result 1, 0.5 or 0 for Red).
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Full passes of Adam over the data.
        #[arg(long, default_value_t = 1500)]
        epochs: usize,
        /// Adam step size (centipawns).
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Positions from other games to check the fit on; the weights kept are those with
        /// the lowest error there (checked every 50 epochs).
        #[arg(long)]
        valid: Option<PathBuf>,
        /// Keep the weights of these groups (name prefixes, e.g. `pst`, `material`) as they are.
        #[arg(long, num_args = 1.., value_name = "GROUP")]
        freeze: Vec<String>,
        /// L2 pull towards the current weights.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Logistic scale K (fitted to the data if not given).
        #[arg(long)]
        k: Option<f64>,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Write the table here (e.g. src/eval/weights.rs) instead of to stdout.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Tune the search's tunable numbers by SPSA: game pairs between theta+ and theta- at
    /// every iteration; the state file resumes a run; the end prints the new values.
    Spsa(chariot::tools::spsa::SpsaArgs),
}

pub fn run(action: TuneAction) -> Result<(), String> {
    match action {
        TuneAction::Spsa(args) => chariot::tools::spsa::run(args),
        TuneAction::Gen {
            out,
            games,
            nodes,
            threads,
            seed,
            random_plies,
            max_plies,
            rules,
        } => {
            let range = parse_range(&random_plies).map_err(|e| format!("--random-plies: {e}"))?;
            let opts = tune::GenOptions {
                games,
                nodes,
                threads,
                seed,
                random_plies: range,
                max_plies,
                rules: rules.parse()?,
                ..tune::GenOptions::default()
            };
            let file = std::fs::File::create(&out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let start = Instant::now();
            let stats = tune::generate(&opts, file, |s| {
                eprintln!(
                    "{} games, {} positions ({} red wins, {} black wins, {} draws) {:.0} s",
                    s.games,
                    s.positions,
                    s.red_wins,
                    s.black_wins,
                    s.draws,
                    start.elapsed().as_secs_f64()
                )
            })?;
            out!(
                "wrote {} positions from {} games ({} red wins, {} black wins, {} draws) to {} in {:.0} s",
                stats.positions,
                stats.games,
                stats.red_wins,
                stats.black_wins,
                stats.draws,
                out.display(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        TuneAction::Label {
            data,
            out,
            nodes,
            lambda,
            k,
            threads,
            rules,
        } => {
            if k.is_some_and(|k| !(k > 0.0 && k.is_finite())) {
                return Err("--k must be positive".into());
            }
            let mut lines = Vec::new();
            for path in &data {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                lines.extend(text.lines().map(str::to_string));
            }
            let opts = tune::LabelOptions {
                nodes,
                lambda,
                k,
                threads,
                rules: rules.parse()?,
            };
            let start = Instant::now();
            let total = lines.len();
            let (labelled, k) = tune::label(&lines, &opts, |n| {
                eprintln!(
                    "{n} / {total} positions {:.0} s",
                    start.elapsed().as_secs_f64()
                )
            })?;
            let mut text = labelled.join("\n");
            text.push('\n');
            std::fs::write(&out, text)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            out!(
                "labelled {} positions (K {k:.4}, lambda {lambda}) to {} in {:.0} s",
                labelled.len(),
                out.display(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        TuneAction::Fit {
            data,
            valid,
            freeze,
            epochs,
            lr,
            l2,
            k,
            threads,
            out,
        } => {
            if !(lr > 0.0 && lr.is_finite() && l2 >= 0.0 && l2.is_finite()) {
                return Err("--lr must be positive and --l2 not negative".into());
            }
            if k.is_some_and(|k| !(k > 0.0 && k.is_finite())) {
                return Err("--k must be positive".into());
            }
            let start = Instant::now();
            let set = tune::load(&data)?;
            eprintln!(
                "{} positions loaded in {:.1} s",
                set.len(),
                start.elapsed().as_secs_f64()
            );
            let opts = tune::FitOptions {
                epochs,
                lr,
                l2,
                k,
                threads,
                freeze,
            };
            let valid = match valid {
                Some(path) => Some(tune::load(std::slice::from_ref(&path))?),
                None => None,
            };
            let fit = tune::fit(
                &set,
                valid.as_ref(),
                &chariot::eval::weights::W,
                &opts,
                |epoch, loss, v| match v {
                    Some(v) => eprintln!("epoch {epoch} error {loss:.6} validation {v:.6}"),
                    None => eprintln!("epoch {epoch} error {loss:.6}"),
                },
            )?;
            eprintln!(
                "K {:.4}, error {:.6} -> {:.6}, {:.0} s",
                fit.k,
                fit.loss_before,
                fit.loss_after,
                start.elapsed().as_secs_f64()
            );
            if let (Some(a), Some(b)) = (fit.valid_before, fit.valid_after) {
                eprintln!(
                    "validation error {a:.6} -> {b:.6} (weights of epoch {})",
                    fit.best_epoch
                );
            }
            let text = tune::weights_source(&fit.weights);
            match out {
                Some(path) => std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display())),
                None => {
                    super::write_out(format_args!("{text}"));
                    Ok(())
                }
            }
        }
    }
}
