//! `chariot match compare`: the difference between two runs of the same openings (another
//! time control, build or peer), paired game pair by game pair.
//!
//! Each run is one result file or the shards of one run, read and checked as `match merge`
//! reads them (`merge::read_run`); the two must have played the same openings in the same
//! order (the same `openings_hash`: the same `--openings`, `--order` and `--seed`), or the
//! comparison is refused. One engine, the subject, is followed in both: its points in each
//! complete game pair (one opening, both colours) give a pair score in [0, 1], the
//! pentanomial unit. A pair of run A and one of run B are matched when they hold the same
//! place in the subject's schedule against its opponent (and, where the subject met more
//! than one opponent in either run, the same opponent by name): with the same openings in
//! the same order that place is the opening and its occurrence (a run with more pairs than
//! openings goes round the list again), counted in the whole schedule rather than among the
//! games the files hold, so runs that hold different shards still line up. Pairs with one
//! game only are left out and counted.
//!
//! On the n pairs complete in both runs, a_i and b_i the subject's pair scores:
//! d_i = b_i − a_i, the difference m = mean(d), its standard error se = sd(d)/√n (sd with
//! n − 1) and 95% interval m ± 1.96 se. Elo(s) = −400 log10(1/s − 1); the Elo difference is
//! Elo(p_B) − Elo(p_A), p the mean pair scores, with two 95% intervals: the delta method,
//! ± 1.96 √((e_B² var(b) + e_A² var(a) − 2 e_A e_B cov(a, b)) / n) with e = 400 / (ln 10 ·
//! p (1 − p)) the slope of the Elo curve at each run's score (so swapping the runs only turns
//! the sign; the ad-hoc script used before this command took A's slope alone, ± 1.96 se ·
//! e_A, which agrees where the scores do), and the score interval's ends taken
//! through the curve, [Elo(p_A + m − 1.96 se), Elo(p_A + m + 1.96 se)] − Elo(p_A), which is
//! lopsided where the curve bends and infinite where an end leaves (0, 1). Pairing takes out
//! what the openings share between the runs: an opening that goes the same way in both adds
//! nothing to the difference's variance.

use super::args::CompareArgs;
use super::merge::{self, ShardFile};
use super::report::{EloJson, elo_text, percent, plain, signed};
use super::stats::{Penta, Z95, elo_from_score, elo_pentanomial, normal_cdf};
use crate::tools::json::{self, Num};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the comparison's JSON says it is, and its layout's version.
pub const JSON_FORMAT: &str = "chariot-match-compare";
pub const JSON_VERSION: u32 = 1;

/// Where a game pair stands in the subject's schedule: the opponent's name (empty where
/// each run has one opponent, which may then differ between the runs) and the pair's index
/// among the subject's pairs against that opponent, from 0.
type Key = (String, usize);

/// One complete game pair of the subject.
#[derive(Clone, Debug)]
struct PairResult {
    /// The `pair` number in its run.
    id: usize,
    opening: String,
    /// The subject's points in the two games, in half points (0 to 4).
    halves: usize,
}

/// One run, its subject's game pairs keyed by their place in the schedule.
struct Run {
    files: Vec<ShardFile>,
    subject: usize,
    pairs: BTreeMap<Key, PairResult>,
    /// Game pairs of the subject with one game only (left out).
    incomplete: usize,
    /// The subject's games lost by a fault (time, crash, illegal move).
    faults: usize,
}

impl Run {
    fn subject_name(&self) -> &str {
        &self.files[0].engines[self.subject].0
    }

    fn penta(&self) -> Penta {
        let mut p = Penta::default();
        for r in self.pairs.values() {
            p.0[r.halves] += 1;
        }
        p
    }

    /// The shards the run's files hold, in order.
    fn shard_indices(&self) -> Vec<usize> {
        let mut indices: Vec<usize> = self
            .files
            .iter()
            .flat_map(|f| f.shards.indices.iter().copied())
            .collect();
        indices.sort_unstable();
        indices
    }

    /// "Chariot (tc 10+0.1) vs Pikafish-HCE (tc 10+0.1); shards 0, 1, 2 of 8 (3 files)".
    fn describe(&self) -> String {
        let engines = &self.files[0].engines;
        let who = |i: usize| format!("{} (tc {})", engines[i].0, engines[i].2);
        let others: Vec<String> = (0..engines.len())
            .filter(|&i| i != self.subject)
            .map(who)
            .collect();
        let set = &self.files[0].shards;
        let indices = self.shard_indices();
        let held = if set.count == 1 {
            "the whole run".to_string()
        } else {
            format!(
                "shard{} {} of {}",
                if indices.len() == 1 { "" } else { "s" },
                indices
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                set.count
            )
        };
        let files = self.files.len();
        format!(
            "{} vs {}; {held} ({files} file{})",
            who(self.subject),
            others.join(", "),
            if files == 1 { "" } else { "s" }
        )
    }
}

/// The pair's index among the pairs of its pairing, from 0, for a pair of engines `a` and
/// `b` (a < b) of `engines`: the schedule ([`super::schedule`]) numbers pairs round by
/// round, pairing by pairing, `games / 2` pairs each, and the pairing's j-th pair plays
/// opening j (modulo the number of openings). None where the pair does not fit.
fn schedule_index(
    pair: usize,
    (a, b): (usize, usize),
    engines: usize,
    settings: &str,
) -> Option<usize> {
    let pairings = engines * (engines - 1) / 2;
    if pair == 0 {
        return None;
    }
    if pairings == 1 {
        return Some(pair - 1);
    }
    // `games <N> rounds <R> …` (MatchConfig::settings_text): N games a pairing a round
    let per_pairing = settings
        .strip_prefix("games ")?
        .split_whitespace()
        .next()?
        .parse::<usize>()
        .ok()?
        / 2;
    if per_pairing == 0 {
        return None;
    }
    let per_round = pairings * per_pairing;
    let (round, within) = ((pair - 1) / per_round, (pair - 1) % per_round);
    // pairings in the order the schedule plays them: (0, 1), (0, 2), …, (1, 2), …
    let pairing = (0..engines)
        .flat_map(|x| (x + 1..engines).map(move |y| (x, y)))
        .position(|p| p == (a.min(b), a.max(b)))?;
    (within / per_pairing == pairing).then_some(round * per_pairing + within % per_pairing)
}

/// One run's files (read by [`merge::read_run`]) with its subject's game pairs.
fn subject_pairs(
    label: &str,
    files: Vec<ShardFile>,
    subject: &str,
    by_opponent: bool,
) -> Result<Run, String> {
    let names: Vec<String> = files[0].engines.iter().map(|e| e.0.clone()).collect();
    let Some(s) = names.iter().position(|n| n == subject) else {
        return Err(format!(
            "run {label} has no engine '{subject}' (its engines: {})",
            names.join(", ")
        ));
    };
    let mut by_pair: BTreeMap<usize, Vec<&super::report::GameLine>> = BTreeMap::new();
    for g in files.iter().flat_map(|f| &f.games) {
        if g.red == s || g.black == s {
            by_pair.entry(g.pair).or_default().push(g);
        }
    }
    let mut pairs = BTreeMap::new();
    let (mut incomplete, mut faults) = (0, 0);
    let engines = names.len();
    let settings = &files[0].settings;
    for (&id, games) in &by_pair {
        faults += games.iter().filter(|g| g.fault == Some(s)).count();
        let g = games[0];
        let opponent = if g.red == s { g.black } else { g.red };
        let swapped = |h: &super::report::GameLine| {
            h.red == g.black && h.black == g.red && h.opening == g.opening
        };
        match games.len() {
            1 => {
                incomplete += 1;
                continue;
            }
            2 if swapped(games[1]) => {}
            n => {
                return Err(format!(
                    "run {label}: game pair {id} holds {n} games of {subject}, not one opening with colours swapped"
                ));
            }
        }
        let index = schedule_index(id, (s, opponent), engines, settings).ok_or_else(|| {
            format!("run {label}: game pair {id} does not fit the run's schedule")
        })?;
        let halves: usize = games
            .iter()
            .map(|g| {
                let red = match g.result {
                    "1-0" => 2,
                    "0-1" => 0,
                    _ => 1,
                };
                if g.red == s { red } else { 2 - red }
            })
            .sum();
        let key = (
            if by_opponent {
                names[opponent].clone()
            } else {
                String::new()
            },
            index,
        );
        pairs.insert(
            key,
            PairResult {
                id,
                opening: g.opening.clone(),
                halves,
            },
        );
    }
    Ok(Run {
        files,
        subject: s,
        pairs,
        incomplete,
        faults,
    })
}

/// The paired statistics of the common game pairs.
#[derive(Clone, Debug, PartialEq)]
struct Paired {
    n: usize,
    /// Mean pair scores of A and B.
    score_a: f64,
    score_b: f64,
    /// B − A: mean and standard error of the per-pair differences (NaN with one pair).
    diff: f64,
    se: f64,
    /// Elo(score_b) − Elo(score_a).
    elo_diff: f64,
    /// Half the 95% interval by the delta method (both runs' slopes and their covariance).
    elo_error: f64,
    /// The 95% score interval's ends through the Elo curve, less Elo(score_a).
    elo_low: f64,
    elo_high: f64,
    /// The probability that B is the better, Φ(m / se) (NaN without a spread).
    los: f64,
    better: usize,
    worse: usize,
    same: usize,
    /// Pairs by the subject's half points in A (row) and in B (column).
    moves: [[u64; 5]; 5],
}

/// The statistics of pairs given as (A's, B's) half points, 0 to 4; None for no pairs.
fn paired(pairs: &[(usize, usize)]) -> Option<Paired> {
    let n = pairs.len();
    if n == 0 {
        return None;
    }
    let score = |h: usize| h as f64 / 4.0;
    let nf = n as f64;
    let score_a = pairs.iter().map(|p| score(p.0)).sum::<f64>() / nf;
    let score_b = pairs.iter().map(|p| score(p.1)).sum::<f64>() / nf;
    let d: Vec<f64> = pairs.iter().map(|p| score(p.1) - score(p.0)).collect();
    let diff = d.iter().sum::<f64>() / nf;
    let se = if n > 1 {
        (d.iter().map(|x| (x - diff).powi(2)).sum::<f64>() / (nf - 1.0)).sqrt() / nf.sqrt()
    } else {
        f64::NAN
    };
    let elo_a = elo_from_score(score_a);
    let elo_b = elo_from_score(score_b);
    // the delta method for Elo(p_B) − Elo(p_A) with both slopes and the covariance of the
    // two runs' pair scores (the same openings), so swapping the runs only turns the sign
    let elo_error = if n < 2 {
        f64::NAN
    } else if !elo_a.is_finite() || !elo_b.is_finite() {
        f64::INFINITY
    } else {
        let slope = |s: f64| 400.0 / std::f64::consts::LN_10 / (s * (1.0 - s));
        let (sa, sb) = (slope(score_a), slope(score_b));
        let (mut var_a, mut var_b, mut cov) = (0.0, 0.0, 0.0);
        for &(a, b) in pairs {
            let (x, y) = (score(a) - score_a, score(b) - score_b);
            var_a += x * x;
            var_b += y * y;
            cov += x * y;
        }
        let var = (sb * sb * var_b + sa * sa * var_a - 2.0 * sa * sb * cov) / (nf - 1.0) / nf;
        Z95 * var.max(0.0).sqrt()
    };
    let mut moves = [[0u64; 5]; 5];
    for &(a, b) in pairs {
        moves[a][b] += 1;
    }
    Some(Paired {
        n,
        score_a,
        score_b,
        diff,
        se,
        elo_diff: elo_b - elo_a,
        elo_error,
        elo_low: elo_from_score(score_a + diff - Z95 * se) - elo_a,
        elo_high: elo_from_score(score_a + diff + Z95 * se) - elo_a,
        los: if se > 0.0 {
            normal_cdf(diff / se)
        } else {
            f64::NAN
        },
        better: pairs.iter().filter(|p| p.1 > p.0).count(),
        worse: pairs.iter().filter(|p| p.1 < p.0).count(),
        same: pairs.iter().filter(|p| p.1 == p.0).count(),
        moves,
    })
}

/// An Elo value or difference: signed, `n/a` where undefined (infinite less infinite).
fn elo(x: f64) -> String {
    if x.is_nan() { "n/a".into() } else { signed(x) }
}

/// Half points as points: 0, 0.5, 1, 1.5, 2.
const POINTS: [&str; 5] = ["0", "0.5", "1", "1.5", "2"];

/// The comparison as the JSON file of `--json`.
#[derive(Serialize)]
struct CompareJson {
    format: &'static str,
    version: u32,
    openings: String,
    openings_hash: String,
    seed: Option<u64>,
    /// Whether pairs were matched by opponent name too (a run where the subject met several).
    by_opponent: bool,
    a: RunJson,
    b: RunJson,
    common: usize,
    only_a: usize,
    only_b: usize,
    /// Each run on the common pairs.
    common_a: SideJson,
    common_b: SideJson,
    /// B − A.
    diff: DiffJson,
    better: usize,
    worse: usize,
    same: usize,
    /// Common pairs by the subject's points (0, 0.5, 1, 1.5, 2) in A (rows) and B (columns).
    moves: [[u64; 5]; 5],
    pairs: Vec<PairJson>,
}

#[derive(Serialize)]
struct RunJson {
    files: Vec<String>,
    engine: String,
    engines: Vec<super::report::EngineJson>,
    shard_count: usize,
    shards: Vec<usize>,
    /// The subject's complete game pairs, and those with one game (left out).
    pairs: usize,
    incomplete: usize,
    faults: usize,
    score: Num,
    elo: Option<EloJson>,
    pentanomial: [u64; 5],
}

#[derive(Serialize)]
struct SideJson {
    score: Num,
    elo: Option<EloJson>,
    pentanomial: [u64; 5],
}

#[derive(Serialize)]
struct DiffJson {
    score: Num,
    /// Standard error of the score difference, and half its 95% interval.
    score_se: Num,
    score_error: Num,
    elo: Num,
    /// Half the 95% interval by the delta method (both runs' slopes and their covariance).
    elo_error: Num,
    /// The score interval's ends through the Elo curve.
    elo_low: Num,
    elo_high: Num,
    los: Num,
}

#[derive(Serialize)]
struct PairJson {
    opponent: Option<String>,
    /// The pair's place among the subject's pairs against that opponent, from 0.
    index: usize,
    opening: String,
    pair_a: usize,
    pair_b: usize,
    /// The subject's points in the pair (0 to 2).
    a: Num,
    b: Num,
}

fn run_json(r: &Run) -> RunJson {
    let p = r.penta();
    let shards = r.shard_indices();
    RunJson {
        files: r.files.iter().map(|f| f.path.clone()).collect(),
        engine: r.subject_name().to_string(),
        engines: r.files[0]
            .engines
            .iter()
            .map(|(name, command, tc)| super::report::EngineJson {
                name: name.clone(),
                command: command.clone(),
                tc: tc.clone(),
            })
            .collect(),
        shard_count: r.files[0].shards.count,
        shards,
        pairs: r.pairs.len(),
        incomplete: r.incomplete,
        faults: r.faults,
        score: Num::round4(penta_score(&p)),
        elo: EloJson::of(elo_pentanomial(&p)),
        pentanomial: p.0,
    }
}

fn side_json(p: &Penta) -> SideJson {
    SideJson {
        score: Num::round4(penta_score(p)),
        elo: EloJson::of(elo_pentanomial(p)),
        pentanomial: p.0,
    }
}

/// The mean pair score of pentanomial counts (NaN for none).
fn penta_score(p: &Penta) -> f64 {
    let halves: u64 = p.0.iter().enumerate().map(|(h, &c)| h as u64 * c).sum();
    halves as f64 / 4.0 / p.pairs() as f64
}

/// Compares the runs: the report to stdout, `--json` written.
pub fn run(args: CompareArgs) -> Result<(), String> {
    let (text, doc) = compare(&args)?;
    if let Some(path) = &args.json {
        std::fs::write(path, json::to_text(&doc))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(())
}

/// The comparison's text report and JSON document.
fn compare(args: &CompareArgs) -> Result<(String, CompareJson), String> {
    let (a_files, b_files) = (
        merge::read_run(&args.a).map_err(|e| format!("run A: {e}"))?,
        merge::read_run(&args.vs).map_err(|e| format!("run B: {e}"))?,
    );
    let (fa, fb) = (&a_files[0], &b_files[0]);
    if fa.openings_hash != fb.openings_hash {
        return Err(format!(
            "the runs played different openings (A: {}, seed {}, fingerprint {}; B: {}, seed {}, fingerprint {}): their game pairs cannot be matched by opening; play both with the same --openings, --order and --seed",
            fa.openings,
            fa.seed.map_or("none".into(), |s| s.to_string()),
            fa.openings_hash,
            fb.openings,
            fb.seed.map_or("none".into(), |s| s.to_string()),
            fb.openings_hash
        ));
    }
    let names = |f: &ShardFile| f.engines.iter().map(|e| e.0.clone()).collect::<Vec<_>>();
    let (names_a, names_b) = (names(fa), names(fb));
    let (subject_a, subject_b) = match (&args.engine, &args.engine_b) {
        (Some(a), b) => (a.clone(), b.clone().unwrap_or_else(|| a.clone())),
        (None, _) => match names_a.iter().find(|n| names_b.contains(n)) {
            Some(n) => (n.clone(), n.clone()),
            None => {
                return Err(format!(
                    "no engine is in both runs (A: {}; B: {}): name it with --engine NAME (its name in A) and --engine-b NAME (in B)",
                    names_a.join(", "),
                    names_b.join(", ")
                ));
            }
        },
    };
    let by_opponent = names_a.len() > 2 || names_b.len() > 2;
    let a = subject_pairs("A", a_files, &subject_a, by_opponent)?;
    let b = subject_pairs("B", b_files, &subject_b, by_opponent)?;
    let common: Vec<(&Key, &PairResult, &PairResult)> = a
        .pairs
        .iter()
        .filter_map(|(k, pa)| b.pairs.get(k).map(|pb| (k, pa, pb)))
        .collect();
    let halves: Vec<(usize, usize)> = common.iter().map(|c| (c.1.halves, c.2.halves)).collect();
    let Some(st) = paired(&halves) else {
        return Err(format!(
            "no game pair of {} is complete in both runs (A holds {} complete pairs, B {}): the runs hold different parts of the schedule{}",
            if subject_a == subject_b {
                subject_a.clone()
            } else {
                format!("{subject_a} / {subject_b}")
            },
            a.pairs.len(),
            b.pairs.len(),
            if by_opponent {
                ", or other opponents (with more than two engines in a run, pairs are matched against the same opponent by name)"
            } else {
                ""
            }
        ));
    };
    let (mut common_a, mut common_b) = (Penta::default(), Penta::default());
    for &(x, y) in &halves {
        common_a.0[x] += 1;
        common_b.0[y] += 1;
    }

    let fa = &a.files[0];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{subject_b} in run B against {}run A, game pair by game pair (the same opening, both colours)",
        if subject_a == subject_b {
            String::new()
        } else {
            format!("{subject_a} in ")
        }
    );
    let _ = writeln!(
        s,
        "  openings {}{}; fingerprint {}",
        fa.openings,
        fa.seed.map(|x| format!(", seed {x}")).unwrap_or_default(),
        fa.openings_hash
    );
    let _ = writeln!(s, "  A: {}", a.describe());
    let _ = writeln!(s, "  B: {}", b.describe());
    let _ = writeln!(s, "Each run over all its game pairs:");
    for (label, r) in [("A", &a), ("B", &b)] {
        let p = r.penta();
        let _ = writeln!(
            s,
            "  {label}: {} pairs, score {}, Elo {} (95%, per game pair); pairs with one game {} (left out), losses by fault {}",
            r.pairs.len(),
            percent(penta_score(&p)),
            elo_text(elo_pentanomial(&p)),
            r.incomplete,
            r.faults
        );
    }
    let _ = writeln!(
        s,
        "Common game pairs: {} (only in A {}, only in B {})",
        st.n,
        a.pairs.len() - st.n,
        b.pairs.len() - st.n
    );
    for (label, p) in [("A", &common_a), ("B", &common_b)] {
        let _ = writeln!(
            s,
            "  {label}: score {}, Elo {}",
            percent(penta_score(p)),
            elo_text(elo_pentanomial(p))
        );
    }
    let _ = writeln!(
        s,
        "  B - A: score {}% ± {} (95%), LOS {}",
        signed(st.diff * 100.0),
        if st.se.is_nan() {
            "n/a".to_string()
        } else {
            format!("{:.1}%", Z95 * st.se * 100.0)
        },
        if st.los.is_nan() {
            "n/a".to_string()
        } else {
            percent(st.los)
        }
    );
    let _ = writeln!(
        s,
        "  B - A: Elo {} ± {} (95%, delta method); [{}, {}] (the 95% score interval through the Elo curve)",
        elo(st.elo_diff),
        plain(st.elo_error),
        elo(st.elo_low),
        elo(st.elo_high)
    );
    let _ = writeln!(
        s,
        "  pairs scored better in B {}, worse {}, the same {}",
        st.better, st.worse, st.same
    );
    let _ = writeln!(
        s,
        "Common pairs by {}'s points in A (rows) and in B (columns):",
        subject_a
    );
    let _ = writeln!(
        s,
        "  A \\ B {}",
        POINTS.iter().map(|p| format!("{p:>5}")).collect::<String>()
    );
    for (h, row) in st.moves.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:>5} {}",
            POINTS[h],
            row.iter().map(|c| format!("{c:>5}")).collect::<String>()
        );
    }

    let doc = CompareJson {
        format: JSON_FORMAT,
        version: JSON_VERSION,
        openings: fa.openings.clone(),
        openings_hash: fa.openings_hash.clone(),
        seed: fa.seed,
        by_opponent,
        a: run_json(&a),
        b: run_json(&b),
        common: st.n,
        only_a: a.pairs.len() - st.n,
        only_b: b.pairs.len() - st.n,
        common_a: side_json(&common_a),
        common_b: side_json(&common_b),
        diff: DiffJson {
            score: Num::round4(st.diff),
            score_se: Num::round4(st.se),
            score_error: Num::round4(Z95 * st.se),
            elo: Num::round4(st.elo_diff),
            elo_error: Num::round4(st.elo_error),
            elo_low: Num::round4(st.elo_low),
            elo_high: Num::round4(st.elo_high),
            los: Num::round4(st.los),
        },
        better: st.better,
        worse: st.worse,
        same: st.same,
        moves: st.moves,
        pairs: common
            .iter()
            .map(|(k, pa, pb)| PairJson {
                opponent: by_opponent.then(|| k.0.clone()),
                index: k.1,
                opening: pa.opening.clone(),
                pair_a: pa.id,
                pair_b: pb.id,
                a: Num(pa.halves as f64 / 2.0),
                b: Num(pb.halves as f64 / 2.0),
            })
            .collect(),
    };
    Ok((s, doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, want: f64) -> bool {
        (x - want).abs() < 1e-9
    }

    #[test]
    fn paired_statistics_are_those_of_the_per_pair_differences() {
        // half points of the subject in A and in B; the wanted numbers come from the
        // ad-hoc Python script's formulas (sd with n − 1, z = 1.959964)
        let a = [4, 2, 2, 1, 3, 0, 2, 4];
        let b = [3, 2, 4, 1, 4, 1, 2, 2];
        let pairs: Vec<(usize, usize)> = a.iter().copied().zip(b).collect();
        let p = paired(&pairs).unwrap();
        assert_eq!(p.n, 8);
        assert!(
            close(p.score_a, 0.5625) && close(p.score_b, 0.59375),
            "{p:?}"
        );
        assert!(close(p.diff, 0.03125), "{p:?}");
        assert!(close(p.se, 0.110_169_309_636_188_08), "{p:?}");
        assert!(close(p.elo_diff, 22.266_311_688_369_655), "{p:?}");
        // the delta method with both slopes and the covariance, from the same formula in Python
        assert!(close(p.elo_error, 153.476_897_305_345_1), "{p:?}");
        assert!(close(p.elo_low, -130.308_661_581_691_67), "{p:?}");
        assert!(close(p.elo_high, 207.871_414_426_768_47), "{p:?}");
        // Φ(m / se), from an approximation good to 1e-7
        assert!((p.los - 0.611_662_345_529_521_9).abs() < 1e-6, "{p:?}");
        assert_eq!((p.better, p.worse, p.same), (3, 2, 3));
        assert_eq!(p.moves[4][3] + p.moves[4][2], 2);
        assert_eq!(p.moves[2][4], 1);
        assert_eq!(p.moves.iter().flatten().sum::<u64>(), 8);
        // the same pairs seen from B: the difference turns round, the counts swap
        let back: Vec<(usize, usize)> = pairs.iter().map(|&(x, y)| (y, x)).collect();
        let q = paired(&back).unwrap();
        assert!(close(q.diff, -p.diff) && close(q.se, p.se));
        assert!(close(q.elo_diff, -p.elo_diff));
        assert!(close(q.elo_error, p.elo_error), "{q:?}");
        assert_eq!((q.better, q.worse, q.same), (2, 3, 3));
        assert!(paired(&[]).is_none());
    }

    #[test]
    fn paired_statistics_without_a_spread_say_so() {
        // one pair: no standard error
        let one = paired(&[(2, 3)]).unwrap();
        assert!(close(one.diff, 0.25) && one.se.is_nan() && one.los.is_nan());
        assert!(one.elo_error.is_nan() && one.elo_low.is_nan());
        // every pair scored alike: a zero interval and no LOS
        let alike = paired(&[(1, 1), (3, 3), (2, 2)]).unwrap();
        assert!(close(alike.diff, 0.0) && close(alike.se, 0.0) && alike.los.is_nan());
        assert!(close(alike.elo_diff, 0.0) && close(alike.elo_error, 0.0));
        assert_eq!(alike.same, 3);
        // A won every pair: its Elo is infinite and so is the delta method's slope
        let all = paired(&[(4, 3), (4, 4)]).unwrap();
        assert!(all.elo_diff == f64::NEG_INFINITY && all.elo_error.is_infinite());
        assert_eq!(elo(all.elo_diff), "-inf");
        assert_eq!(elo(all.elo_low), "-inf");
        // the interval's top end is past a score of 1 too: infinite less infinite
        assert_eq!(elo(all.elo_high), "n/a");
    }

    #[test]
    fn schedule_index_names_the_opening_the_schedule_plays() {
        // three engines, 3 pairs a pairing a round, two rounds, four openings: the pairing's
        // j-th pair plays opening j mod 4
        let openings = super::super::tests::numbered_openings(4);
        let games = super::super::schedule(3, 6, 2, &openings);
        let settings = "games 6 rounds 2 timeout 30s notation Iccs event \"x\"";
        let mut seen: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for g in games.iter().step_by(2) {
            let [a, b] = g.engines;
            let j = schedule_index(g.pair, (a, b), 3, settings).unwrap();
            assert_eq!(openings[j % 4].source, g.opening.source, "pair {}", g.pair);
            // either engine order names the same pairing
            assert_eq!(schedule_index(g.pair, (b, a), 3, settings), Some(j));
            // a pair of another pairing does not fit
            let other = if a == 0 && b == 1 { (0, 2) } else { (0, 1) };
            assert_eq!(schedule_index(g.pair, other, 3, settings), None);
            seen.entry((a, b)).or_default().push(j);
        }
        for js in seen.values() {
            assert_eq!(js, &(0..6).collect::<Vec<_>>());
        }
        // two engines need no settings: pair p is the (p − 1)-th
        assert_eq!(schedule_index(7, (1, 0), 2, ""), Some(6));
        assert_eq!(schedule_index(0, (0, 1), 2, ""), None);
        assert_eq!(schedule_index(3, (0, 1), 3, "rounds 2"), None);
    }
}
