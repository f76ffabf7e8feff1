//! The `chariot` binary: command-line subcommands; with no arguments, the protocol loop.

mod cli;

use chariot::core::{Move, Position};
use chariot::rules::RuleSet;
use chariot::tools::{bench, judge, perft, tune};
use clap::{Parser, Subcommand};
use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

/// Writes the subcommands' output to stdout: when the reader goes away (`chariot bench |
/// head`) the program ends quietly instead of panicking; any other write error is reported.
fn write_out(args: std::fmt::Arguments) {
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
        write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a rule-exact Xiangqi engine (UCCI/UCI)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move-generation test).
    Perft {
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
    },
    /// Fixed search of fixed positions: a deterministic node count (one thread).
    Bench {
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
    },
    /// Search one position and print info lines and the best move.
    Go {
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
    },
    /// Judge a game by the rules: who wins and why, clause by clause.
    Judge {
        /// Rule set: cxa (Chinese Xiangqi Association, default) or axf (Asian rules).
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// Start from this FEN instead of the start position (or the PGN's FEN tag).
        #[arg(long)]
        fen: Option<String>,
        /// Moves in ICCS, WXF or Chinese notation (otherwise read from --pgn or stdin).
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Option<Vec<String>>,
        /// Read the game (first one) from a PGN file.
        #[arg(long)]
        pgn: Option<std::path::PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Engine-vs-engine matches (UCCI/UCI) judged by the rules: Elo, LOS, SPRT, PGN.
    Match(Box<chariot::tools::matchrun::args::MatchArgs>),
    /// Opening book: build, grow, probe, stats, export.
    Book {
        #[command(subcommand)]
        action: BookCommand,
    },
    /// Texel tuning of the evaluation: make training positions, fit the weights.
    Tune {
        #[command(subcommand)]
        action: TuneAction,
    },
    /// The neural evaluation: self-play training data, the trainer.
    Nnue {
        #[command(subcommand)]
        action: cli::nnue::NnueAction,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book from PGN files (ICCS/WXF/Chinese moves) and move-line files
    /// (`<moves> [; name]` a line); the weight of a move is the number of games playing it.
    Build {
        /// Input files (PGN when the first non-comment line is a tag pair).
        #[arg(long, num_args = 1.., value_name = "FILE", required = true)]
        from: Vec<std::path::PathBuf>,
        /// Count moves only up to this ply.
        #[arg(long, default_value_t = 40)]
        max_ply: usize,
        /// Keep a move only when at least this many games play it.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// The book to write.
        #[arg(short = 'o', long = "output", value_name = "BOOK")]
        out: std::path::PathBuf,
    },
    /// Check the book's moves with search (keep those within --margin of the best) and
    /// extend its lines by the search's best moves.
    Grow {
        /// The book to read (default: the shipped book).
        #[arg(long)]
        book: Option<std::path::PathBuf>,
        /// The book to write.
        #[arg(short = 'o', long = "output", value_name = "BOOK")]
        out: std::path::PathBuf,
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
        book: Option<std::path::PathBuf>,
        #[arg(long)]
        fen: Option<String>,
        /// Moves (ICCS, WXF or Chinese) played from the FEN or the start position.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
    },
    /// Records, positions, names, and how deep the book reaches from the start.
    Stats {
        #[arg(long)]
        book: Option<std::path::PathBuf>,
    },
    /// Write positions the book reaches as EPD lines; with --balanced only those whose
    /// search score is near equal.
    Export {
        #[arg(long)]
        book: Option<std::path::PathBuf>,
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
        out: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
enum TuneAction {
    /// Play self-play games and write their quiet positions as `FEN | result` lines.
    Gen {
        /// File to write (positions are appended as games finish).
        #[arg(long)]
        out: std::path::PathBuf,
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
        data: Vec<std::path::PathBuf>,
        /// File to write (`FEN | label` lines, in input order).
        #[arg(long)]
        out: std::path::PathBuf,
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
        data: Vec<std::path::PathBuf>,
        /// Full passes of Adam over the data.
        #[arg(long, default_value_t = 1500)]
        epochs: usize,
        /// Adam step size (centipawns).
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Positions from other games to check the fit on; the weights kept are those with
        /// the lowest error there (checked every 50 epochs).
        #[arg(long)]
        valid: Option<std::path::PathBuf>,
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
        out: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // one line, like every other error of the command line
            let text = e.to_string();
            let what: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            eprintln!(
                "error: {} (see `chariot --help`)",
                what.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => {
            chariot::protocol::run();
            Ok(())
        }
        Some(Command::Perft {
            depth,
            fen,
            moves,
            divide,
            threads,
        }) => run_perft(&depth, fen.as_deref(), &moves, divide, threads),
        Some(Command::Judge {
            rules,
            fen,
            moves,
            pgn,
            json,
        }) => run_judge(&rules, fen, moves, pgn, json),
        Some(Command::Bench {
            depth,
            threads,
            hash,
            eval,
        }) => run_bench(depth, threads, hash, &eval),
        Some(Command::Go {
            fen,
            moves,
            depth,
            movetime,
            nodes,
            threads,
            hash,
            rules,
            eval,
        }) => run_go(
            fen, &moves, depth, movetime, nodes, threads, hash, &rules, &eval,
        ),
        Some(Command::Match(args)) => chariot::tools::matchrun::run(*args),
        Some(Command::Book { action }) => run_book(action),
        Some(Command::Tune { action }) => run_tune(action),
        Some(Command::Nnue { action }) => cli::nnue::run(action),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
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

fn run_perft(
    depth: &str,
    fen: Option<&str>,
    moves: &[String],
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let depth: u32 = match depth.parse() {
        Ok(d) if (1..=20).contains(&d) => d,
        _ => {
            return Err(format!(
                "perft depth '{depth}' is not a number from 1 to 20"
            ));
        }
    };
    if threads == 0 || threads > 1024 {
        return Err(format!("--threads {threads} is not from 1 to 1024"));
    }
    let pos = setup(fen, moves)?;
    let start = Instant::now();
    let total = if divide || threads > 1 {
        let counts = perft::divide(&pos, depth, threads);
        if divide {
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

fn run_judge(
    rules: &str,
    fen: Option<String>,
    moves: Option<Vec<String>>,
    pgn: Option<std::path::PathBuf>,
    json: bool,
) -> Result<(), String> {
    let rules: RuleSet = rules.parse()?;
    let mut game = match (moves, pgn) {
        (Some(_), Some(_)) => return Err("give either --moves or --pgn, not both".into()),
        (Some(m), None) => judge::GameText {
            fen: None,
            moves: m.iter().flat_map(|t| judge::movetext_tokens(t)).collect(),
        },
        (None, Some(path)) => {
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            judge::parse_pgn(&String::from_utf8_lossy(&bytes))?
        }
        (None, None) => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            if text.trim_start().starts_with('[') {
                judge::parse_pgn(&text)?
            } else {
                judge::GameText {
                    fen: None,
                    moves: judge::movetext_tokens(&text),
                }
            }
        }
    };
    if fen.is_some() {
        game.fen = fen;
    }
    let j = judge::judge(&game, rules)?;
    if json {
        out!("{}", judge::report_json(&j));
    } else {
        write_out(format_args!("{}", judge::report_text(&j)));
    }
    Ok(())
}

fn run_bench(depth: i32, threads: usize, hash: usize, eval: &str) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("bench depth {depth} is not from 1 to 64"));
    }
    if threads == 0 || hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    bench::run(depth, threads, hash, eval, |line| out!("{line}")).map(|_| ())
}

#[allow(clippy::too_many_arguments)]
fn run_go(
    fen: Option<String>,
    moves: &[String],
    depth: Option<i32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    threads: usize,
    hash: usize,
    rules: &str,
    eval: &str,
) -> Result<(), String> {
    use chariot::engine::{Engine, Options};
    use chariot::search::{Limits, mate_plies};
    let rules: RuleSet = rules.parse()?;
    if threads == 0 || hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    let mut engine = Engine::new(Options {
        hash_mib: hash,
        threads,
        rules,
    });
    engine.set_eval(eval)?;
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(fen.as_deref(), &texts)?;
    let time = movetime.map(std::time::Duration::from_millis);
    let limits = Limits {
        depth: depth.or(if time.is_none() && nodes.is_none() {
            Some(10)
        } else {
            None
        }),
        nodes,
        soft_time: time,
        hard_time: time,
        ..Limits::default()
    };
    let r = engine.go(limits, |info| {
        let score = match mate_plies(info.score) {
            Some(n) => format!("mate {}", if n > 0 { (n + 1) / 2 } else { n / 2 }),
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

fn run_book(action: BookCommand) -> Result<(), String> {
    use chariot::book::cli;
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
            max_ply,
            min_games,
            out,
        } => cli::run_build(&from, max_ply, min_games, &out),
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
            let o = chariot::book::grow::GrowOptions {
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
            let o = chariot::book::export::ExportOptions {
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

fn run_tune(action: TuneAction) -> Result<(), String> {
    match action {
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
            let range = random_plies
                .split_once('-')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
                .or_else(|| random_plies.trim().parse().ok().map(|n| (n, n)))
                .ok_or_else(|| format!("--random-plies '{random_plies}' is not MIN-MAX"))?;
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
                    write_out(format_args!("{text}"));
                    Ok(())
                }
            }
        }
    }
}
