//! The command line: one file per subcommand over one output path ([`write_out`] and the
//! `out!` macro) and one error path (every subcommand returns `Result<(), String>`, which
//! `main` prints as one `error: …` line).

use clap::{Parser, Subcommand};

/// Writes the subcommands' output to stdout: when the reader goes away (`chariot bench |
/// head`) the program ends quietly instead of panicking; any other write error is reported.
pub fn write_out(args: std::fmt::Arguments) {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().write_fmt(args) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: writing the output: {e}");
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

/// `println!` through [`write_out`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analyze;
mod bench;
mod book;
mod go;
mod judge;
mod matches;
mod nnue;
mod perft;
mod tune;

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a rule-exact Xiangqi engine (UCCI, UCI, CECP/XBoard)",
    after_help = "With no subcommand Chariot talks a protocol on stdin/stdout: the first line \
                  picks it (ucci, uci or xboard); type help there for its commands."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// With no subcommand: offer the search's tunable numbers as protocol options (for
    /// tuners such as `chariot tune spsa` and match runners; GUIs never see them).
    #[arg(long, hide = true)]
    pub tunables: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Count the leaves of the legal move tree (move-generation test).
    Perft(perft::PerftArgs),
    /// Fixed search of fixed positions: a deterministic node count (one thread).
    Bench(bench::BenchArgs),
    /// Search one position and print info lines and the best move.
    Go(go::GoArgs),
    /// Judge a game by the rules: who wins and why, clause by clause.
    Judge(judge::JudgeArgs),
    /// Review games move by move: evaluations, mistakes and blunders, accuracy, rules
    /// events; a table, and JSON, annotated PGN and SVG graphs on request.
    Analyze(analyze::AnalyzeArgs),
    /// Engine-vs-engine matches (UCCI/UCI) judged by the rules: Elo, LOS, SPRT, PGN;
    /// `--shard K/N` plays one shard of a run, `match merge` joins the shards, `match
    /// compare` pairs two runs of the same openings.
    Match(Box<matches::MatchCommand>),
    /// Opening book: build, grow, probe, stats, export.
    Book {
        #[command(subcommand)]
        action: book::BookCommand,
    },
    /// Texel tuning of the evaluation (gen, label, fit); SPSA of the search numbers (spsa).
    Tune {
        #[command(subcommand)]
        action: tune::TuneAction,
    },
    /// The neural evaluation: self-play training data, the trainer.
    Nnue {
        #[command(subcommand)]
        action: nnue::NnueAction,
    },
}

/// The subcommands as (name, one-line summary), from their definition above: `help` in the
/// protocol loop lists them.
pub fn summaries() -> Vec<(String, String)> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| {
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            let about = about.split_whitespace().collect::<Vec<_>>().join(" ");
            (c.get_name().to_string(), about)
        })
        .collect()
}

/// Runs one subcommand.
pub fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Go(args) => go::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Match(args) => matches::run(*args),
        Command::Book { action } => book::run(action),
        Command::Tune { action } => tune::run(action),
        Command::Nnue { action } => nnue::run(action),
    }
}

/// Refuses a thread count or hash size of 0 (the search's own limits cap the rest).
fn check_threads_hash(threads: usize, hash: usize) -> Result<(), String> {
    if threads == 0 || hash == 0 {
        Err("--threads and --hash must be at least 1".into())
    } else {
        Ok(())
    }
}
