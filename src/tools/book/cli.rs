//! The `chariot book …` subcommands: build, grow, probe, stats, export. Each returns a
//! one-line error for the command line to print.

use super::export::{ExportOptions, balanced, candidates};
use super::grow::{GrowOptions, grow};
use crate::book::build::{BuildOptions, Builder};
use crate::book::format::{FLAG_GROWN, FLAG_SOURCE, FLAG_VETTED};
use crate::book::mirror::canonical_key;
use crate::book::{Book, default_book_path};
use crate::core::Position;
use crate::core::notation::{parse_any, to_chinese};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The book named, or the shipped one.
pub fn book_path(given: Option<PathBuf>) -> Result<PathBuf, String> {
    given.or_else(default_book_path).ok_or_else(|| {
        "no book given (--book FILE) and no book/chariot.book found beside the executable or in the working directory".to_string()
    })
}

pub fn load(path: &Path) -> Result<Book, String> {
    Book::load(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `book build`: every file through the builder (records via `crate::records`); with
/// `skip_bad` a bad game is reported and skipped, otherwise it stops the build.
pub fn run_build(
    from: &[PathBuf],
    max_ply: usize,
    min_games: u32,
    skip_bad: bool,
    out: &Path,
) -> Result<(), String> {
    if from.is_empty() {
        return Err("book build needs at least one --from FILE".into());
    }
    let mut b = Builder::new(BuildOptions { max_ply, min_games });
    for path in from {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        b.add_bytes(&bytes, &path.display().to_string(), skip_bad)?;
    }
    for w in &b.warnings {
        eprintln!("skipped: {w}");
    }
    let games = b.games;
    let warnings = b.warnings.len();
    let book = b.finish();
    book.save(out)?;
    println!(
        "{} records, {} names from {games} games/lines ({warnings} with problems) -> {}",
        book.len(),
        book.names().len(),
        out.display()
    );
    Ok(())
}

pub fn run_grow(book: &Path, o: &GrowOptions, out: &Path, verbose: bool) -> Result<(), String> {
    let input = load(book)?;
    let start = Instant::now();
    let (grown, report) = grow(&input, o, |l| eprintln!("{l}"))?;
    if verbose {
        for d in &report.dropped {
            println!("dropped: {d}");
        }
    }
    grown.save(out)?;
    println!(
        "{} positions, {} searches at depth {}: {} book moves kept, {} dropped, {} added, {} input records unreachable; {} records -> {} ({:.1} s)",
        report.positions,
        report.searches,
        o.depth,
        report.vetted,
        report.dropped.len(),
        report.added,
        report.unreachable,
        grown.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Plays move texts (ICCS, WXF or Chinese) from a FEN or the start position.
pub fn setup(fen: Option<&str>, moves: &[String]) -> Result<Position, String> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    for (i, t) in moves.iter().flat_map(|m| m.split_whitespace()).enumerate() {
        let m = parse_any(&pos, t).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.make_move(m);
    }
    Ok(pos)
}

fn flags_text(flags: u8) -> String {
    let mut parts = Vec::new();
    if flags & FLAG_SOURCE != 0 {
        parts.push("source");
    }
    if flags & FLAG_GROWN != 0 {
        parts.push("grown");
    }
    if flags & FLAG_VETTED != 0 {
        parts.push("vetted");
    }
    parts.join(",")
}

pub fn run_probe(book: &Path, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    let b = load(book)?;
    let pos = setup(fen, moves)?;
    println!("position {}", pos.fen());
    if let Some(n) = b.name(&pos) {
        println!("name {n}");
    }
    let list = b.probe(&pos);
    if list.is_empty() {
        println!("not in the book");
        return Ok(());
    }
    let total: u32 = list.iter().map(|m| u32::from(m.weight)).sum();
    println!(
        "{:<6} {:<10} {:>6} {:>7} {:>6} {:>5}  from",
        "move", "chinese", "weight", "share", "score", "depth"
    );
    for m in &list {
        let share = if total > 0 {
            100.0 * f64::from(m.weight) / f64::from(total)
        } else {
            0.0
        };
        let score = m.score.map_or("-".to_string(), |s| format!("{s:+}"));
        let mut child = pos.clone();
        child.make_move(m.mv);
        let name = b.name(&child).map(|n| format!("  {n}")).unwrap_or_default();
        println!(
            "{:<6} {}  {:>6} {:>6.1}% {:>6} {:>5}  {}{name}",
            m.mv.to_string(),
            to_chinese(&pos, m.mv),
            m.weight,
            share,
            score,
            m.depth,
            flags_text(m.flags)
        );
    }
    Ok(())
}

pub fn run_stats(path: &Path) -> Result<(), String> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let b = load(path)?;
    let keys: HashSet<u64> = b.records().iter().map(|r| r.key).collect();
    let count = |f: u8| b.records().iter().filter(|r| r.flags & f != 0).count();
    println!(
        "file {} ({size} bytes, version {}, checksum ok)",
        path.display(),
        crate::book::format::VERSION
    );
    println!(
        "records {} in {} positions, {} names",
        b.len(),
        keys.len(),
        b.names().len()
    );
    println!(
        "from source {}, added by search {}, vetted by search {}",
        count(FLAG_SOURCE),
        count(FLAG_GROWN),
        count(FLAG_VETTED)
    );
    // positions reachable from the start, by ply
    let mut seen: HashSet<u64> = HashSet::new();
    let mut level = vec![Position::startpos()];
    let mut by_ply = Vec::new();
    while !level.is_empty() && by_ply.len() < 200 {
        let mut next = Vec::new();
        let mut here = 0;
        for pos in &level {
            let list = b.probe(pos);
            if list.is_empty() {
                continue;
            }
            here += 1;
            for m in list {
                let mut c = pos.clone();
                c.make_move(m.mv);
                if seen.insert(canonical_key(&c).0) {
                    next.push(c);
                }
            }
        }
        if here == 0 {
            break;
        }
        by_ply.push(here);
        level = next;
    }
    let reach: usize = by_ply.iter().sum();
    println!(
        "book positions reachable from the start: {reach}, by ply: {}",
        by_ply
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let unreachable = keys.len().saturating_sub(reach);
    println!("positions not reachable from the start: {unreachable}");
    Ok(())
}

/// `A..B` or `N`.
pub fn parse_plies(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--plies '{text}' is not N or A..B (such as 6..12)");
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a > b || b > 200 {
        return Err(bad());
    }
    Ok((a, b))
}

pub fn run_export(
    path: &Path,
    balanced_only: bool,
    o: &ExportOptions,
    out: &Path,
) -> Result<(), String> {
    let b = load(path)?;
    let mut text = String::new();
    let lines: Vec<String> = if balanced_only {
        let start = Instant::now();
        let found = balanced(&b, o, |l| eprintln!("{l}"))?;
        text.push_str(&format!(
            "# Balanced Xiangqi openings from {}: positions the book reaches at plies {}..{}, searched by\n\
             # Chariot to depth {} (one thread), kept when |score| <= {} cp; seed {}.\n\
             # Regenerate: chariot book export --balanced --plies {}..{} --depth {} --max-score {} --count {} --seed {} -o FILE\n\
             # Each line: FEN ;ce score (side to move, cp) ;acd depth ;c1 \"moves from the start\" ;c0 \"opening\"\n",
            path.file_name().map_or(path.display().to_string(), |n| n.to_string_lossy().into_owned()),
            o.min_ply, o.max_ply, o.depth, o.max_score, o.seed,
            o.min_ply, o.max_ply, o.depth, o.max_score, o.count, o.seed
        ));
        eprintln!("{:.1} s", start.elapsed().as_secs_f64());
        found.iter().map(|op| op.epd()).collect()
    } else {
        text.push_str(&format!(
            "# Positions the book reaches at plies {}..{} (not searched)\n",
            o.min_ply, o.max_ply
        ));
        candidates(&b, o.min_ply, o.max_ply)
            .into_iter()
            .take(o.count)
            .map(|(p, moves, name)| {
                let mut l = format!("{} ;c1 \"{}\"", p.fen(), moves.join(" "));
                if let Some(n) = name {
                    l.push_str(&format!(" ;c0 \"{n}\""));
                }
                l
            })
            .collect()
    };
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("{} positions -> {}", lines.len(), out.display());
    Ok(())
}
