//! `chariot analyze`: reviews recorded games move by move (see `tools::analyze`).

use chariot::records;
use chariot::rules::RuleSet;
use chariot::tools::analyze::{self, Budget, Notation, Settings};
use chariot::tools::progress::Progress;
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Game records: PGN (UTF-8 or GBK) or XQF, several games a file.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Nodes searched per position (deterministic: the same input gives the same output).
    #[arg(long, default_value_t = 200_000, conflicts_with = "movetime")]
    nodes: u64,
    /// Milliseconds per position instead of a node count (not deterministic).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Rule set: cxa (Chinese Xiangqi Association, default) or axf (Asian rules).
    #[arg(long, default_value = "cxa")]
    rules: String,
    /// Hash table per game, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Move notation of the table and the PGN: chinese, wxf or iccs.
    #[arg(long, default_value = "chinese")]
    notation: String,
    /// Write the review as JSON to FILE; `-` writes it to stdout instead of the table.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the annotated games as one PGN (UTF-8) to FILE.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Write one SVG evaluation graph per game into DIR (game-N.svg, N counting all games).
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Skip games that cannot be read (a warning each) instead of stopping.
    #[arg(long)]
    skip_bad: bool,
    /// No progress bar (it is drawn on stderr only when stderr is a terminal, and never
    /// with `--json -`).
    #[arg(long, short)]
    quiet: bool,
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn run(a: AnalyzeArgs) -> Result<(), String> {
    let rules: RuleSet = a.rules.parse()?;
    let notation: Notation = a.notation.parse()?;
    super::check_threads_hash(1, a.hash)?;
    let budget = match a.movetime {
        Some(0) => return Err("--movetime must be at least 1".into()),
        Some(ms) => Budget::Movetime(ms),
        None if a.nodes == 0 => return Err("--nodes must be at least 1".into()),
        None => Budget::Nodes(a.nodes),
    };
    let settings = Settings {
        budget,
        rules,
        hash_mib: a.hash,
        notation,
    };
    let mut games = Vec::new();
    for path in &a.files {
        let source = path.display().to_string();
        for entry in records::read_file(path).map_err(|e| e.to_string())? {
            match entry {
                Ok(g) => games.push((source.clone(), g)),
                Err(bad) if a.skip_bad => eprintln!("warning: skipped {}", bad.error),
                Err(bad) => return Err(format!("{} (--skip-bad goes on)", bad.error)),
            }
        }
    }
    if games.is_empty() {
        return Err("no games to analyse".into());
    }
    let json_stdout = a.json.as_deref() == Some(Path::new("-"));
    let positions = games.iter().map(|(_, g)| analyze::positions(g)).sum();
    let progress = Progress::new(
        std::io::stderr().is_terminal() && !a.quiet && !json_stdout,
        positions,
        games.len(),
    );
    let results = analyze::analyze_games(&games, &settings, &progress);
    progress.finish();
    let mut reviews = Vec::with_capacity(results.len());
    for r in results {
        reviews.push(r?);
    }
    if !json_stdout {
        for (i, g) in reviews.iter().enumerate() {
            if i > 0 {
                out!("");
            }
            super::write_out(format_args!("{}", analyze::table(g)));
        }
    }
    let report = analyze::report(reviews, &settings);
    match &a.json {
        Some(_) if json_stdout => super::write_out(format_args!("{}", analyze::to_json(&report))),
        Some(path) => write(path, &analyze::to_json(&report))?,
        None => {}
    }
    if let Some(path) = &a.pgn {
        let text: String = report
            .games
            .iter()
            .map(|g| analyze::pgn(g, &report.budget))
            .collect();
        write(path, &text)?;
    }
    if let Some(dir) = &a.svg {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        for (i, g) in report.games.iter().enumerate() {
            write(&dir.join(format!("game-{}.svg", i + 1)), &analyze::svg(g))?;
        }
    }
    Ok(())
}
