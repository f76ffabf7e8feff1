//! `chariot book`: build, grow, probe, stats and export of the opening book.

use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book from game records (PGN in UTF-8 or GBK with ICCS/WXF/Chinese moves, XQF)
    /// and move-line files (`<moves> [; name]` a line); the weight of a move is the number of
    /// games playing it.
    Build {
        /// Input files (a record when XQF or when the first non-comment line is a tag pair).
        #[arg(long, num_args = 1.., value_name = "FILE", required = true)]
        from: Vec<PathBuf>,
        /// A game that cannot be read is reported in one line and skipped (otherwise it
        /// stops the build).
        #[arg(long)]
        skip_bad: bool,
        /// Count moves only up to this ply.
        #[arg(long, default_value_t = 40)]
        max_ply: usize,
        /// Keep a move only when at least this many games play it.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// The book to write.
        #[arg(short = 'o', long = "output", value_name = "BOOK")]
        out: PathBuf,
    },
    /// Check the book's moves with search (keep those within --margin of the best) and
    /// extend its lines by the search's best moves.
    Grow {
        /// The book to read (default: the shipped book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// The book to write.
        #[arg(short = 'o', long = "output", value_name = "BOOK")]
        out: PathBuf,
        /// Search depth of every check.
        #[arg(long, default_value_t = 8)]
        depth: i32,
        /// Keep book moves scoring at most this many centipawns below the best.
        #[arg(long, default_value_t = 60)]
        margin: i32,
        /// Add search moves scoring at most this many centipawns below the best.
        #[arg(long, default_value_t = 30)]
        add_margin: i32,
        /// Moves added at most in a position past the end of a line.
        #[arg(long, default_value_t = 3)]
        width: usize,
        /// Plies added past the end of each line (0: check only).
        #[arg(long, default_value_t = 4)]
        extend: usize,
        /// Look at no position deeper than this.
        #[arg(long, default_value_t = 40)]
        max_ply: usize,
        /// Worker threads (each search uses one; results do not depend on this).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table per worker in MiB.
        #[arg(long, default_value_t = 8)]
        hash: usize,
        /// Rule set: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// Print every dropped move.
        #[arg(long)]
        verbose: bool,
    },
    /// List the book moves of a position with weights, in ICCS and Chinese notation.
    Probe {
        #[arg(long)]
        book: Option<PathBuf>,
        #[arg(long)]
        fen: Option<String>,
        /// Moves (ICCS, WXF or Chinese) played from the FEN or the start position.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// Records, positions, names, and how deep the book reaches from the start.
    Stats {
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Write positions the book reaches as EPD lines; with --balanced only those whose
    /// search score is near equal.
    Export {
        #[arg(long)]
        book: Option<PathBuf>,
        /// Keep only positions whose score is within --max-score.
        #[arg(long)]
        balanced: bool,
        /// Plies from the start: N or A..B.
        #[arg(long, default_value = "6..12")]
        plies: String,
        /// Search depth for --balanced.
        #[arg(long, default_value_t = 10)]
        depth: i32,
        /// Largest |score| in centipawns kept by --balanced.
        #[arg(long, default_value_t = 40)]
        max_score: i32,
        /// Positions to write at most.
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Seed of the order in which candidates are tried.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 16)]
        hash: usize,
        #[arg(long, default_value = "cxa")]
        rules: String,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        out: PathBuf,
    },
}

pub fn run(action: BookCommand) -> Result<(), String> {
    use chariot::tools::book::cli;
    let check_threads = |threads: usize, hash: usize| {
        if threads == 0 || threads > 256 || hash == 0 {
            Err("--threads must be from 1 to 256 and --hash at least 1".to_string())
        } else {
            Ok(())
        }
    };
    match action {
        BookCommand::Build {
            from,
            skip_bad,
            max_ply,
            min_games,
            out,
        } => cli::run_build(&from, max_ply, min_games, skip_bad, &out),
        BookCommand::Grow {
            book,
            out,
            depth,
            margin,
            add_margin,
            width,
            extend,
            max_ply,
            threads,
            hash,
            rules,
            verbose,
        } => {
            check_threads(threads, hash)?;
            if !(1..=64).contains(&depth) {
                return Err(format!("--depth {depth} is not from 1 to 64"));
            }
            let o = chariot::tools::book::grow::GrowOptions {
                depth,
                margin: margin.max(0),
                add_margin: add_margin.max(0),
                width: width.clamp(1, 16),
                extend,
                max_ply,
                threads,
                hash_mib: hash,
                rules: rules.parse()?,
            };
            cli::run_grow(&cli::book_path(book)?, &o, &out, verbose)
        }
        BookCommand::Probe { book, fen, moves } => {
            cli::run_probe(&cli::book_path(book)?, fen.as_deref(), &moves)
        }
        BookCommand::Stats { book } => cli::run_stats(&cli::book_path(book)?),
        BookCommand::Export {
            book,
            balanced,
            plies,
            depth,
            max_score,
            count,
            seed,
            threads,
            hash,
            rules,
            out,
        } => {
            check_threads(threads, hash)?;
            if !(1..=64).contains(&depth) {
                return Err(format!("--depth {depth} is not from 1 to 64"));
            }
            let (min_ply, max_ply) = cli::parse_plies(&plies)?;
            let o = chariot::tools::book::export::ExportOptions {
                min_ply,
                max_ply,
                depth,
                max_score: max_score.max(0),
                count,
                seed,
                threads,
                hash_mib: hash,
                rules: rules.parse()?,
            };
            cli::run_export(&cli::book_path(book)?, balanced, &o, &out)
        }
    }
}
