//! `chariot bench --tree`: the shape of the search over the bench positions (or the positions
//! of a file, `--positions`), at a fixed depth or a fixed time a position. Where the nodes go
//! (main search or quiescence), how well moves are ordered (the share of cut-offs made by the
//! first move), what each pruning, reduction and extension did, how the hash table served, and
//! what each iteration cost (time to depth, effective branching factor). It is how a search that stops gaining from
//! time is diagnosed: a branching factor that grows with depth, extensions that widen the
//! tree, re-searches that waste it.

use crate::core::samples::POSITIONS;
use crate::engine::{Engine, Limits, Options, SearchStats};
use crate::rules::RuleSet;
use crate::search::stats::{geometric_mean, percent};
use crate::tools::matchrun::openings;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeLimit {
    Depth(i32),
    MoveTime(Duration),
}

/// A position the report searches: a FEN (`None`: the start position) and the ICCS moves
/// played from it (they give the search the game's history: repetitions, the move limit).
struct TreePosition {
    fen: Option<String>,
    moves: Vec<String>,
}

/// The bench positions ([`POSITIONS`]), the report's default.
fn bench_positions() -> Vec<TreePosition> {
    POSITIONS
        .iter()
        .map(|fen| TreePosition {
            fen: Some((*fen).to_string()),
            moves: Vec::new(),
        })
        .collect()
}

/// The positions of a file, read as `chariot match --openings` reads one: EPD/FEN lines, a FEN
/// (or `startpos`) and ICCS moves, or ICCS move lines; blank lines and `#` comments skipped.
/// Every position must be legal and its game not over (under the CXA rules).
fn read_positions(path: &Path) -> Result<Vec<TreePosition>, String> {
    let found =
        openings::read_file(path, RuleSet::default()).map_err(|e| format!("--positions: {e}"))?;
    Ok(found
        .into_iter()
        .map(|o| TreePosition {
            fen: o.fen,
            moves: o.moves.iter().map(ToString::to_string).collect(),
        })
        .collect())
}

/// One position's search.
struct PositionRun {
    depth: i32,
    time: Duration,
    stats: SearchStats,
}

/// Runs the report: a line per position, then the totals. Returns the summed counts.
pub fn run(
    limit: TreeLimit,
    hash_mib: usize,
    eval: &str,
    out: impl FnMut(&str),
) -> Result<SearchStats, String> {
    run_with(limit, hash_mib, eval, &[], None, out)
}

/// [`run`] with some of the search's tunables set (`name`, value), named in the output, over
/// the positions of a file (`Some(path)`) instead of the bench positions.
pub fn run_with(
    limit: TreeLimit,
    hash_mib: usize,
    eval: &str,
    tunables: &[(String, i32)],
    file: Option<&Path>,
    mut out: impl FnMut(&str),
) -> Result<SearchStats, String> {
    let (positions, source) = match file {
        Some(path) => (
            read_positions(path)?,
            format!("positions of {}", path.display()),
        ),
        None => (bench_positions(), "bench positions".to_string()),
    };
    let mut engine = Engine::new(Options {
        hash_mib,
        threads: 1,
        ..Options::default()
    });
    let what = engine.set_eval(eval)?;
    let set = crate::engine::bench::set_tunables(&mut engine, tunables)?;
    let how = match limit {
        TreeLimit::Depth(d) => format!("depth {d}"),
        TreeLimit::MoveTime(t) => format!("{} ms a position", t.as_millis()),
    };
    out(&format!(
        "tree: {} {source}, {how}, 1 thread, hash {hash_mib} MiB, eval: {what}",
        positions.len()
    ));
    if let Some(line) = set {
        out(&line);
    }
    let mut runs = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        engine.new_game();
        let moves: Vec<&str> = p.moves.iter().map(String::as_str).collect();
        engine
            .set_position(p.fen.as_deref(), &moves)
            .map_err(|e| format!("position {}: {e}", i + 1))?;
        let limits = match limit {
            TreeLimit::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            TreeLimit::MoveTime(t) => Limits {
                soft_time: Some(t),
                hard_time: Some(t),
                ..Limits::default()
            },
        };
        let t0 = Instant::now();
        let r = engine.go(limits, |_| {});
        let time = t0.elapsed();
        let s = &r.stats;
        let ebf = geometric_mean(
            s.branching_factors()
                .into_iter()
                .filter(|&(d, _)| d > 4)
                .map(|(_, b)| b),
        );
        out(&format!(
            "position {:>2}/{}: depth {:>2} nodes {:>9} time {:>6} ms  ebf {}  first-move cuts {:>5.1}%  qnodes {:>5.1}%",
            i + 1,
            positions.len(),
            r.depth,
            r.nodes,
            time.as_millis(),
            ebf.map_or("  -  ".to_string(), |b| format!("{b:5.2}")),
            percent(s.first_move_cuts, s.cut_nodes),
            percent(s.qnodes, s.nodes + s.qnodes),
        ));
        runs.push(PositionRun {
            depth: r.depth,
            time,
            stats: r.stats,
        });
    }
    let mut total = SearchStats::default();
    for r in &runs {
        total.add(&r.stats);
    }
    for line in summary(&runs, &total) {
        out(&line);
    }
    Ok(total)
}

fn median(mut xs: Vec<f64>) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The totals as lines of text.
fn summary(runs: &[PositionRun], t: &SearchStats) -> Vec<String> {
    let mut lines = Vec::new();
    let nodes = t.root_nodes + t.nodes + t.qnodes;
    let secs: f64 = runs.iter().map(|r| r.time.as_secs_f64()).sum();
    lines.push(format!(
        "nodes: {nodes} in {:.2} s ({:.0} nodes/s); main search {} ({:.1}%), quiescence {} ({:.1}%); depth reached: median {}",
        secs,
        nodes as f64 / secs.max(1e-9),
        t.nodes,
        percent(t.nodes, nodes),
        t.qnodes,
        percent(t.qnodes, nodes),
        median(runs.iter().map(|r| f64::from(r.depth)).collect()),
    ));
    // time to depth and branching factor, depth by depth, over the positions that got there
    let mut by_depth: BTreeMap<i32, (Vec<f64>, Vec<f64>, u32, u32)> = BTreeMap::new();
    for r in runs {
        let bfs: BTreeMap<i32, f64> = r.stats.branching_factors().into_iter().collect();
        for it in &r.stats.iterations {
            let e = by_depth.entry(it.depth).or_default();
            e.0.push(it.time.as_secs_f64() * 1000.0);
            if let Some(&b) = bfs.get(&it.depth) {
                e.1.push(b);
            }
            e.2 += it.fail_lows;
            e.3 += it.fail_highs;
        }
    }
    lines.push(
        "depth  positions  time to depth (ms, median)  branching factor (geometric mean)  aspiration re-searches (low/high)"
            .to_string(),
    );
    for (d, (times, bfs, lows, highs)) in &by_depth {
        lines.push(format!(
            "{d:>5}  {:>9}  {:>26.1}  {:>33}  {lows}/{highs}",
            times.len(),
            median(times.clone()),
            geometric_mean(bfs.iter().copied()).map_or("-".to_string(), |b| format!("{b:.2}")),
        ));
    }
    lines.push(format!(
        "move ordering: {} cut nodes, the first move cut in {:.1}%; main nodes that searched moves: cut {:.1}%, all {:.1}%, exact {:.1}% (the rest ended before: table, pruning, rules)",
        t.cut_nodes,
        percent(t.first_move_cuts, t.cut_nodes),
        percent(t.cut_nodes, t.nodes),
        percent(t.all_nodes, t.nodes),
        percent(t.exact_nodes, t.nodes),
    ));
    lines.push(format!(
        "hash table: {} probes, {:.1}% hits, {:.1}% cut off the node; {} stores, {:.1}% evicted another position",
        t.tt_probes,
        percent(t.tt_hits, t.tt_probes),
        percent(t.tt_cutoffs, t.tt_probes),
        t.tt_stores,
        percent(t.tt_overwrites, t.tt_stores),
    ));
    lines.push(format!(
        "node pruning (of main nodes): reverse futility {:.1}%, null move tried {:.1}% and cut {:.1}% ({} verifications failed), razoring tried {:.1}% and cut {:.1}%, ProbCut tried {:.1}% and cut {:.1}%, internal iterative reduction {:.1}%",
        percent(t.rfp_cuts, t.nodes),
        percent(t.nmp_tries, t.nodes),
        percent(t.nmp_cuts, t.nodes),
        t.nmp_verify_fails,
        percent(t.razor_tries, t.nodes),
        percent(t.razor_cuts, t.nodes),
        percent(t.probcut_tries, t.nodes),
        percent(t.probcut_cuts, t.nodes),
        percent(t.iir, t.nodes),
    ));
    let considered = t.moves + t.lmp_futility + t.history_pruned + t.see_pruned;
    lines.push(format!(
        "move pruning (of {considered} moves picked in the main search): searched {:.1}%; skipped by late-move and futility pruning {:.1}%, by history {:.1}%, by static exchange {:.1}%; {} quiescence captures skipped by delta pruning",
        percent(t.moves, considered),
        percent(t.lmp_futility, considered),
        percent(t.history_pruned, considered),
        percent(t.see_pruned, considered),
        t.delta_pruned,
    ));
    lines.push(format!(
        "reductions: {:.1}% of moves searched reduced, {:.2} plies on average; {:.1}% of reduced moves searched again at full depth; {} PV re-searches with the full window ({:.2}% of moves)",
        percent(t.reduced, t.moves),
        if t.reduced == 0 {
            0.0
        } else {
            t.reduction_plies as f64 / t.reduced as f64
        },
        percent(t.lmr_researches, t.reduced),
        t.pvs_researches,
        percent(t.pvs_researches, t.moves),
    ));
    lines.push(format!(
        "extensions: in check {} ({:.1}% of main nodes), checking moves {}; singular: {} tests, {} single, {} double, {} multi-cuts, {} negative; repetitions judged {}",
        t.ext_in_check,
        percent(t.ext_in_check, t.nodes),
        t.ext_check_move,
        t.se_tests,
        t.se_single,
        t.se_double,
        t.se_multicut,
        t.se_negative,
        t.repetitions,
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shallow_report_counts_a_consistent_tree() {
        let mut lines = Vec::new();
        let t = run(TreeLimit::Depth(5), 4, "hce", |l| lines.push(l.to_string()))
            .expect("bench positions search");
        assert!(lines[0].starts_with("tree: "));
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("position ")).count(),
            POSITIONS.len()
        );
        // every cut-off by the first move is a cut-off; every hit was a probe
        assert!(t.first_move_cuts <= t.cut_nodes && t.cut_nodes > 0);
        assert!(t.tt_hits <= t.tt_probes && t.tt_cutoffs <= t.tt_hits);
        assert!(t.reduced <= t.moves && t.lmr_researches <= t.reduced);
        assert!(t.nmp_cuts <= t.nmp_tries && t.razor_cuts <= t.razor_tries);
        assert!(t.probcut_cuts <= t.probcut_tries);
        assert!(t.nodes > 0 && t.qnodes > 0);
        // the iterations of the last position reach depth 5 in order
        let depths: Vec<i32> = lines
            .iter()
            .skip_while(|l| !l.starts_with("depth "))
            .skip(1)
            .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_positions_file_is_searched_line_by_line() {
        let dir = std::env::temp_dir().join(format!("chariot-tree-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("positions.epd");
        // the same position twice: as moves from the start, and as the FEN they lead to
        std::fs::write(
            &file,
            "# two ways to one position\nstartpos moves h2e2 h9g7\n\
             rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n",
        )
        .unwrap();
        let mut lines = Vec::new();
        run_with(TreeLimit::Depth(5), 4, "hce", &[], Some(&file), |l| {
            lines.push(l.to_string())
        })
        .expect("the file's positions search");
        assert!(
            lines[0].starts_with("tree: 2 positions of "),
            "{}",
            lines[0]
        );
        let nodes: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with("position "))
            .map(|l| {
                l.split("nodes")
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
            })
            .collect();
        assert_eq!(nodes.len(), 2);
        // the moves were played: the same search as from the FEN they reach
        assert_eq!(nodes[0], nodes[1]);
        let bench: Vec<String> = {
            let mut v = Vec::new();
            run(TreeLimit::Depth(1), 4, "hce", |l| v.push(l.to_string())).unwrap();
            v
        };
        assert!(bench[0].starts_with(&format!("tree: {} bench positions", POSITIONS.len())));
        // a bad line is refused with its place, a missing file with its name
        std::fs::write(&file, "startpos moves h2e2 h2e2\n").unwrap();
        let e = run_with(TreeLimit::Depth(2), 4, "hce", &[], Some(&file), |_| {}).unwrap_err();
        assert!(
            e.starts_with("--positions: ") && e.contains("positions.epd:1"),
            "{e}"
        );
        let gone = dir.join("no-such.epd");
        let e = run_with(TreeLimit::Depth(2), 4, "hce", &[], Some(&gone), |_| {}).unwrap_err();
        assert!(e.contains("no-such.epd") && !e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_counts_do_not_change_the_search() {
        // the report's node count is the bench's: counting changes nothing searched
        let t = run(TreeLimit::Depth(6), 16, "nnue", |_| {}).expect("searches");
        let (bench_nodes, _) = crate::engine::bench::run(6, 1, 16, "nnue", |_| {}).expect("bench");
        // every node the bench counts is a root move, a main-search or a quiescence node
        assert_eq!(t.root_nodes + t.nodes + t.qnodes, bench_nodes);
    }
}
