//! Results as they come in: per engine pair W-D-L and game pairs (pentanomial), end
//! reasons, faults by engine and the runner's own overhead; the live progress line, the
//! final text report and the JSON document for tools.

use super::game::{GameRecord, Termination};
use super::pgn::result_text;
use super::stats::{
    EloEstimate, Penta, Prior, Sprt, SprtModel, SprtState, Wdl, elo_pentanomial, elo_trinomial, los,
};
use crate::tools::json::{self, Num, Ordered};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::time::Duration;

/// Two engines' results against each other, from the first one's point of view.
#[derive(Clone, Debug)]
pub struct PairStats {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub penta: Penta,
    /// Game pairs with one game finished: pair id -> the first engine's points.
    open_pairs: HashMap<usize, f64>,
}

/// A one-line summary of a finished game (for JSON).
#[derive(Clone, Debug)]
pub struct GameLine {
    pub id: usize,
    pub round: usize,
    pub pair: usize,
    pub red: usize,
    pub black: usize,
    pub result: &'static str,
    pub termination: Termination,
    /// The engine that lost by a fault, if the game ended that way.
    pub fault: Option<usize>,
    pub reason: String,
    pub plies: usize,
    pub opening: String,
}

/// The move-number bands of the search summary: an engine's own moves, counted from its
/// first move after the opening, as (first, last) with `None` for no end.
pub const SEARCH_BANDS: [(u32, Option<u32>); 6] = [
    (1, Some(10)),
    (11, Some(20)),
    (21, Some(30)),
    (31, Some(40)),
    (41, Some(60)),
    (61, None),
];

/// One engine's moves in one band of [`SEARCH_BANDS`]: sums, so that shards add up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchBand {
    pub moves: u64,
    /// Think time as the runner measured it (`go` sent to `bestmove` read), microseconds.
    pub time_us: u64,
    /// The depths of the last `info` line before each `bestmove`, summed, and the moves
    /// that reported one.
    pub depth_sum: u64,
    pub depth_moves: u64,
}

impl SearchBand {
    fn add(&mut self, o: &SearchBand) {
        self.moves += o.moves;
        self.time_us += o.time_us;
        self.depth_sum += o.depth_sum;
        self.depth_moves += o.depth_moves;
    }
}

/// Per engine, its moves by band of [`SEARCH_BANDS`].
pub type SearchBands = [SearchBand; SEARCH_BANDS.len()];

/// The band of an engine's `n`-th own move (1-based).
fn band_of(n: u32) -> usize {
    SEARCH_BANDS
        .iter()
        .position(|&(_, last)| last.is_none_or(|l| n <= l))
        .expect("the last band has no end")
}

pub struct Tally {
    pub names: Vec<String>,
    pub pairs: Vec<PairStats>,
    pub terminations: HashMap<Termination, u64>,
    /// Per engine: losses by fault, by kind.
    pub faults: Vec<HashMap<Termination, u64>>,
    /// Runner overhead per move: whole microseconds -> moves (what the report prints is
    /// in microseconds, so this is exact, and shards' histograms add up).
    pub overhead: BTreeMap<u64, u64>,
    pub games: Vec<GameLine>,
    pub red_wins: u64,
    pub black_wins: u64,
    pub draws: u64,
    /// Per engine, its moves' think time and depth by move number; `None` once a result
    /// file without them (written before they were recorded) has been merged in.
    pub search: Option<Vec<SearchBands>>,
}

impl Tally {
    pub fn new(names: Vec<String>) -> Tally {
        let n = names.len();
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                pairs.push(PairStats {
                    first: a,
                    second: b,
                    wdl: Wdl::default(),
                    penta: Penta::default(),
                    open_pairs: HashMap::new(),
                });
            }
        }
        Tally {
            names,
            pairs,
            terminations: HashMap::new(),
            faults: vec![HashMap::new(); n],
            overhead: BTreeMap::new(),
            games: Vec::new(),
            red_wins: 0,
            black_wins: 0,
            draws: 0,
            search: Some(vec![SearchBands::default(); n]),
        }
    }

    /// The index of the stats of the pair of engines `a`, `b`.
    pub fn pair_index(&self, a: usize, b: usize) -> usize {
        let (a, b) = (a.min(b), a.max(b));
        self.pairs
            .iter()
            .position(|p| p.first == a && p.second == b)
            .expect("every pair of engines has stats")
    }

    /// Counts a finished game; returns the index of its pair's stats.
    pub fn add(&mut self, rec: &GameRecord) -> usize {
        let o = &rec.setup.opening;
        let [red, black] = rec.setup.engines;
        for d in &rec.overhead {
            *self.overhead.entry(d.as_micros() as u64).or_default() += 1;
        }
        if let Some(search) = &mut self.search {
            // the side to move after the opening plays the engines' first move
            let first = o.position.side_to_move();
            for (i, m) in rec.moves.iter().enumerate() {
                let side = if i % 2 == 0 { first } else { !first };
                let b = &mut search[rec.setup.engines[side.index()]][band_of(i as u32 / 2 + 1)];
                b.moves += 1;
                b.time_us += m.time.as_micros() as u64;
                if let Some(d) = m.depth {
                    b.depth_sum += u64::from(d);
                    b.depth_moves += 1;
                }
            }
        }
        self.add_line(GameLine {
            id: rec.setup.id,
            round: rec.setup.round,
            pair: rec.setup.pair,
            red,
            black,
            result: result_text(rec.result),
            termination: rec.termination,
            fault: rec.faulty_engine(),
            reason: rec.reason.clone(),
            plies: o.moves.len() + rec.moves.len(),
            opening: o.source.clone(),
        })
    }

    /// Counts a finished game from its summary (a live game, or one read back from a
    /// shard's JSON); returns the index of its pair's stats.
    pub fn add_line(&mut self, g: GameLine) -> usize {
        let pi = self.pair_index(g.red, g.black);
        let p = &mut self.pairs[pi];
        let red_pts = match g.result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let pts = if g.red == p.first {
            red_pts
        } else {
            1.0 - red_pts
        };
        match pts {
            x if x > 0.75 => p.wdl.wins += 1,
            x if x < 0.25 => p.wdl.losses += 1,
            _ => p.wdl.draws += 1,
        }
        match p.open_pairs.remove(&g.pair) {
            Some(other) => p.penta.add(other, pts),
            None => {
                p.open_pairs.insert(g.pair, pts);
            }
        }
        *self.terminations.entry(g.termination).or_default() += 1;
        if let Some(e) = g.fault {
            *self.faults[e].entry(g.termination).or_default() += 1;
        }
        match red_pts {
            x if x > 0.75 => self.red_wins += 1,
            x if x < 0.25 => self.black_wins += 1,
            _ => self.draws += 1,
        }
        self.games.push(g);
        pi
    }

    pub fn games_played(&self) -> usize {
        self.games.len()
    }

    /// Adds a result file's search summary (by this tally's engine indices); a file
    /// without one leaves the whole summary unknown rather than counting part of the games.
    pub fn add_search(&mut self, other: Option<&[SearchBands]>) {
        match (&mut self.search, other) {
            (Some(mine), Some(theirs)) => {
                for (m, t) in mine.iter_mut().zip(theirs) {
                    for (a, b) in m.iter_mut().zip(t) {
                        a.add(b);
                    }
                }
            }
            _ => self.search = None,
        }
    }

    /// Moves whose runner overhead was measured.
    pub fn overhead_moves(&self) -> u64 {
        self.overhead.values().sum()
    }

    /// (median, 99th percentile, max) of the runner overhead per move.
    pub fn overhead_summary(&self) -> Option<(Duration, Duration, Duration)> {
        let n = self.overhead_moves();
        if n == 0 {
            return None;
        }
        // the value at position k of the sorted list
        let nth = |k: u64| {
            let mut seen = 0;
            for (&us, &count) in &self.overhead {
                seen += count;
                if seen > k {
                    return Duration::from_micros(us);
                }
            }
            Duration::from_micros(*self.overhead.keys().last().expect("not empty"))
        };
        let at = |q: f64| nth(((n - 1) as f64 * q).round() as u64);
        Some((at(0.5), at(0.99), nth(n - 1)))
    }
}

pub(super) fn signed(x: f64) -> String {
    // + 0.0 turns -0.0 into 0.0
    let x = x + 0.0;
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.1}")
    }
}

pub(super) fn plain(x: f64) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

pub(super) fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        Some(e) => format!("{} ± {}", signed(e.elo), plain(e.error)),
        None => "n/a".into(),
    }
}

pub(super) fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn us(d: Duration) -> String {
    format!("{} µs", d.as_micros())
}

/// The SPRT's verdict so far for the (only) pair.
pub fn sprt_status(sprt: &Sprt, p: &PairStats) -> (f64, SprtState) {
    let llr = sprt.llr(&p.wdl, &p.penta);
    (llr, sprt.state(llr))
}

fn state_text(s: SprtState) -> &'static str {
    match s {
        SprtState::Continue => "continue",
        SprtState::AcceptH0 => "H0 accepted",
        SprtState::AcceptH1 => "H1 accepted",
    }
}

/// The live line after each game.
pub fn progress_line(
    t: &Tally,
    rec: &GameRecord,
    pair: usize,
    total: usize,
    sprt: Option<&Sprt>,
) -> String {
    let p = &t.pairs[pair];
    let [red, black] = rec.setup.engines;
    let width = total.to_string().len();
    let mut s = format!(
        "[{:>width$}/{total}] game {}: {} - {} {} ({}) | {} vs {}: {}-{}-{} {} Elo {}",
        t.games_played(),
        rec.setup.id,
        t.names[red],
        t.names[black],
        result_text(rec.result),
        rec.termination.key(),
        t.names[p.first],
        t.names[p.second],
        p.wdl.wins,
        p.wdl.draws,
        p.wdl.losses,
        percent(p.wdl.score()),
        elo_text(elo_trinomial(&p.wdl)),
    );
    if let Some(sprt) = sprt {
        let (llr, _) = sprt_status(sprt, p);
        let (lo, hi) = sprt.bounds();
        let _ = write!(s, " LLR {llr:.2} [{lo:.2}, {hi:.2}]");
    }
    s
}

/// Everything the final report says beside the tally.
pub struct ReportInfo<'a> {
    pub engines: Vec<(String, String, String)>,
    pub rules: &'a str,
    pub scheduled: usize,
    pub stopped: Option<String>,
    pub sprt: Option<Sprt>,
    pub seed: Option<u64>,
    pub openings: String,
    /// A fingerprint of the openings in the order played ([`openings_hash`]).
    pub openings_hash: String,
    /// [`MatchConfig::settings_text`](super::args::MatchConfig::settings_text).
    pub settings: String,
    pub shards: ShardSet,
    /// Earlier games of this run whose files are gone, as recorded (`match merge
    /// --prior-wdl … --prior-penta …` without `--sprt`; with one, the SPRT's prior): the
    /// report adds them to the first pair's games in a line of its own.
    pub prior: Option<Prior>,
}

/// Which shards of a run a result holds: `count` 1 and `indices` `[0]` for a whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSet {
    pub count: usize,
    pub indices: Vec<usize>,
    /// Games in the whole run's schedule.
    pub run_games: usize,
}

/// FNV-1a over the openings' starting FEN and moves, in the order played: shards of one
/// run must agree on it (the same file, order and seed).
pub fn openings_hash(openings: &[std::sync::Arc<super::openings::Opening>]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        let text = format!(
            "{}|{}\n",
            o.fen.as_deref().unwrap_or("startpos"),
            o.moves
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The final text report.
pub fn text_report(t: &Tally, info: &ReportInfo) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Match finished: {} of {} games played{}",
        t.games_played(),
        info.scheduled,
        info.stopped
            .as_ref()
            .map(|w| format!(" (stopped: {w})"))
            .unwrap_or_default()
    );
    for (name, cmd, tc) in &info.engines {
        let _ = writeln!(s, "  engine {name}: {cmd} (tc {tc})");
    }
    let _ = writeln!(
        s,
        "  rules {}, openings {}{}",
        info.rules,
        info.openings,
        info.seed.map(|x| format!(", seed {x}")).unwrap_or_default()
    );
    let sh = &info.shards;
    if sh.count > 1 {
        let which = if sh.indices.len() == 1 {
            format!(
                "shard {}/{} (game pairs i with i % {} == {})",
                sh.indices[0], sh.count, sh.count, sh.indices[0]
            )
        } else {
            let missing: Vec<String> = (0..sh.count)
                .filter(|i| !sh.indices.contains(i))
                .map(|i| i.to_string())
                .collect();
            format!(
                "shards {} of {} merged{}",
                sh.indices
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                sh.count,
                if missing.is_empty() {
                    String::new()
                } else {
                    format!(" (missing: {})", missing.join(", "))
                }
            )
        };
        let _ = writeln!(
            s,
            "  {which}: {} of the run's {} games",
            info.scheduled, sh.run_games
        );
    }
    let _ = writeln!(
        s,
        "  red wins {}, black wins {}, draws {}",
        t.red_wins, t.black_wins, t.draws
    );
    for p in &t.pairs {
        if p.wdl.games() == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "{} vs {}: {} games, W-D-L {}-{}-{}, score {}",
            t.names[p.first],
            t.names[p.second],
            p.wdl.games(),
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            percent(p.wdl.score())
        );
        let _ = writeln!(
            s,
            "  Elo {} (95%, per game); {} (95%, per game pair)",
            elo_text(elo_trinomial(&p.wdl)),
            elo_text(elo_pentanomial(&p.penta))
        );
        let _ = writeln!(
            s,
            "  LOS {}, draw ratio {}",
            percent(los(&p.wdl)),
            percent(p.wdl.draw_ratio())
        );
        let _ = writeln!(
            s,
            "  pentanomial (game pairs by points 0, 0.5, 1, 1.5, 2): [{}]",
            p.penta
                .0
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if t.names.len() > 2 {
        let _ = writeln!(s, "Standings:");
        let mut rows: Vec<(usize, f64, u64)> = (0..t.names.len())
            .map(|e| {
                let mut pts = 0.0;
                let mut n = 0;
                for p in &t.pairs {
                    let w = if p.first == e {
                        p.wdl
                    } else if p.second == e {
                        p.wdl.flipped()
                    } else {
                        continue;
                    };
                    pts += w.wins as f64 + 0.5 * w.draws as f64;
                    n += w.games();
                }
                (e, pts, n)
            })
            .collect();
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (i, (e, pts, n)) in rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {}. {}: {pts} / {n} ({})",
                i + 1,
                t.names[*e],
                percent(if *n > 0 { pts / *n as f64 } else { 0.0 })
            );
        }
    }
    let mut ends: Vec<(&Termination, &u64)> = t.terminations.iter().collect();
    ends.sort();
    let _ = writeln!(
        s,
        "Terminations: {}",
        if ends.is_empty() {
            "none".to_string()
        } else {
            ends.iter()
                .map(|(k, v)| format!("{} {v}", k.key()))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    for (e, f) in t.faults.iter().enumerate() {
        let mut f: Vec<(&Termination, &u64)> = f.iter().collect();
        f.sort();
        let _ = writeln!(
            s,
            "Losses by fault, {}: {}",
            t.names[e],
            if f.is_empty() {
                "none".to_string()
            } else {
                f.iter()
                    .map(|(k, v)| format!("{} {v}", k.key()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
    }
    if let Some((med, p99, max)) = t.overhead_summary() {
        let _ = writeln!(
            s,
            "Runner overhead per move (bestmove read to next go sent): median {}, 99th percentile {}, max {} over {} moves",
            us(med),
            us(p99),
            us(max),
            t.overhead_moves()
        );
    }
    s.push_str(&search_text(t));
    if let (Some(sprt), Some(p)) = (&info.sprt, t.pairs.first()) {
        let (llr, state) = sprt_status(sprt, p);
        let (lo, hi) = sprt.bounds();
        let _ = writeln!(
            s,
            "SPRT: elo0 {} elo1 {} alpha {} beta {} ({}): LLR {llr:.3} [{lo:.3}, {hi:.3}], {}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            model_name(sprt.model),
            state_text(state)
        );
        if let Some(prior) = &sprt.prior {
            s.push_str(&prior_line("the LLR counts", "test", prior, p));
        }
    }
    if let (Some(prior), Some(p)) = (&info.prior, t.pairs.first()) {
        s.push_str(&prior_line("with", "run", prior, p));
    }
    s
}

/// How each engine spent its moves: think time and depth a move, overall and by move
/// number, and think time a game (nothing when no move was recorded, or a merged file
/// lacked the counts).
fn search_text(t: &Tally) -> String {
    let mut s = String::new();
    let Some(search) = &t.search else {
        return s;
    };
    if search.iter().flatten().all(|b| b.moves == 0) {
        return s;
    }
    let _ = writeln!(
        s,
        "Search per move (own moves after the opening; time from go to bestmove, depth of the last info):"
    );
    let ms = |b: &SearchBand| b.time_us as f64 / 1000.0 / b.moves as f64;
    let depth = |b: &SearchBand| {
        if b.depth_moves == 0 {
            "n/a".to_string()
        } else {
            format!("{:.1}", b.depth_sum as f64 / b.depth_moves as f64)
        }
    };
    for (e, bands) in search.iter().enumerate() {
        let mut all = SearchBand::default();
        bands.iter().for_each(|b| all.add(b));
        if all.moves == 0 {
            continue;
        }
        let games = t
            .games
            .iter()
            .filter(|g| g.red == e || g.black == e)
            .count()
            .max(1);
        let _ = writeln!(
            s,
            "  {}: {} moves in {games} games, {:.0} ms and depth {} a move, {:.1} s a game",
            t.names[e],
            all.moves,
            ms(&all),
            depth(&all),
            all.time_us as f64 / 1e6 / games as f64
        );
        let by: Vec<String> = SEARCH_BANDS
            .iter()
            .zip(bands)
            .filter(|(_, b)| b.moves > 0)
            .map(|(&(first, last), b)| {
                let range = match last {
                    Some(l) => format!("{first}-{l}"),
                    None => format!("{first}+"),
                };
                format!("{range} {:.0} ms d{}", ms(b), depth(b))
            })
            .collect();
        let _ = writeln!(s, "    by move: {}", by.join(", "));
    }
    s
}

/// The line that adds a prior's counts (earlier games whose files are gone) to the pair's.
fn prior_line(lead: &str, of: &str, prior: &Prior, p: &PairStats) -> String {
    let (w, q) = prior.added_to(&p.wdl, &p.penta);
    format!(
        "  {lead} {} earlier games of this {of} (files gone; recorded W-D-L {}, pentanomial {}): all {} games {} ({}), Elo per game pair {}, pentanomial {}\n",
        prior.wdl.games(),
        prior.wdl,
        prior.penta,
        w.games(),
        w,
        percent(w.score()),
        elo_text(elo_pentanomial(&q)),
        q
    )
}

fn model_name(m: SprtModel) -> &'static str {
    match m {
        SprtModel::Pentanomial => "pentanomial",
        SprtModel::Trinomial => "trinomial",
    }
}

/// What the JSON report says it is (`"format"`), and its layout's version: 2 added the
/// fields a merge of shards needs (`openings_hash`, `settings`, `shards`,
/// `overhead_hist_us`, each game's `fault`).
pub const JSON_FORMAT: &str = "chariot-match";
pub const JSON_VERSION: u32 = 2;

/// The JSON report (`--json`): the whole match, written from the tally and read back by
/// `chariot match merge`. What merge counts again from the games (the totals, Elo, SPRT,
/// terminations, faults) is only written: reading passes it over.
#[derive(Serialize, Deserialize)]
pub struct MatchJson {
    pub format: String,
    pub version: u32,
    pub engines: Vec<EngineJson>,
    pub rules: String,
    pub openings: String,
    pub seed: Option<u64>,
    pub openings_hash: String,
    pub settings: String,
    pub shards: ShardSet,
    pub games_scheduled: usize,
    pub games_played: usize,
    /// Why the match stopped before its end, if it did.
    pub stopped: Option<String>,
    #[serde(skip_deserializing)]
    pub red_wins: u64,
    #[serde(skip_deserializing)]
    pub black_wins: u64,
    #[serde(skip_deserializing)]
    pub draws: u64,
    pub pairs: Vec<PairJson>,
    /// Games by how they ended.
    #[serde(skip_deserializing)]
    pub terminations: Ordered<u64>,
    /// Per engine: losses by fault, by kind.
    #[serde(skip_deserializing)]
    pub faults: Ordered<Ordered<u64>>,
    #[serde(skip_deserializing)]
    pub overhead_us: Option<OverheadJson>,
    /// Runner overhead per move: [whole microseconds, moves], by microseconds.
    pub overhead_hist_us: Vec<(u64, u64)>,
    /// Per engine, its moves' think time and depth by move number (absent from files
    /// written before they were recorded: a merge with one of those shows none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<Vec<SearchJson>>,
    #[serde(skip_deserializing)]
    pub sprt: Option<SprtJson>,
    /// Earlier games of this run whose files are gone, as a merge without an SPRT was told
    /// ([`ReportInfo::prior`]); not in `pairs` or the totals, which count these games only.
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub prior: Option<PriorJson>,
    /// Every game, by number.
    pub games: Vec<GameJson>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineJson {
    pub name: String,
    pub command: String,
    pub tc: String,
}

/// Two engines' results against each other, from the first one's point of view.
#[derive(Serialize, Deserialize)]
pub struct PairJson {
    pub first: String,
    pub second: String,
    #[serde(skip_deserializing)]
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(skip_deserializing)]
    pub score: Num,
    #[serde(skip_deserializing)]
    pub elo: Option<EloJson>,
    #[serde(skip_deserializing)]
    pub elo_pentanomial: Option<EloJson>,
    #[serde(skip_deserializing)]
    pub los: Num,
    #[serde(skip_deserializing)]
    pub draw_ratio: Num,
    /// Game pairs by the first engine's points 0, 0.5, 1, 1.5, 2.
    pub pentanomial: [u64; 5],
}

/// An Elo estimate with its 95% error bar and interval (null where infinite).
#[derive(Serialize)]
pub struct EloJson {
    pub elo: Num,
    pub error: Num,
    pub low: Num,
    pub high: Num,
}

impl EloJson {
    pub(super) fn of(e: Option<EloEstimate>) -> Option<EloJson> {
        e.map(|e| EloJson {
            elo: Num::round4(e.elo),
            error: Num::round4(e.error),
            low: Num::round4(e.low),
            high: Num::round4(e.high),
        })
    }
}

/// One engine's [`SearchBands`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchJson {
    pub engine: String,
    pub bands: Vec<SearchBandJson>,
}

/// One band of [`SEARCH_BANDS`]: the engine's own moves `first` to `last` (null: no end).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchBandJson {
    pub first: u32,
    pub last: Option<u32>,
    #[serde(flatten)]
    pub counts: SearchBand,
}

impl SearchJson {
    fn of(name: &str, bands: &SearchBands) -> SearchJson {
        SearchJson {
            engine: name.to_string(),
            bands: SEARCH_BANDS
                .iter()
                .zip(bands)
                .map(|(&(first, last), &counts)| SearchBandJson {
                    first,
                    last,
                    counts,
                })
                .collect(),
        }
    }

    /// The summary read back, by the indices of `names`: every engine once, the bands
    /// those of this build; `None` when it does not fit.
    pub fn read(list: &[SearchJson], names: &[String]) -> Option<Vec<SearchBands>> {
        let mut out = vec![None; names.len()];
        for j in list {
            let e = names.iter().position(|n| *n == j.engine)?;
            if out[e].is_some() || j.bands.len() != SEARCH_BANDS.len() {
                return None;
            }
            let mut bands = SearchBands::default();
            for ((b, &(first, last)), jb) in bands.iter_mut().zip(&SEARCH_BANDS).zip(&j.bands) {
                if (jb.first, jb.last) != (first, last) || jb.counts.depth_moves > jb.counts.moves {
                    return None;
                }
                *b = jb.counts;
            }
            out[e] = Some(bands);
        }
        out.into_iter().collect()
    }
}

/// The runner's overhead per move in whole microseconds.
#[derive(Serialize)]
pub struct OverheadJson {
    pub median: u128,
    pub p99: u128,
    pub max: u128,
    pub moves: u64,
}

/// The SPRT's test and where it stands (`state`: continue, H0 or H1).
#[derive(Serialize)]
pub struct SprtJson {
    pub elo0: Num,
    pub elo1: Num,
    pub alpha: Num,
    pub beta: Num,
    pub model: &'static str,
    pub llr: Num,
    pub lower: Num,
    pub upper: Num,
    pub state: &'static str,
    /// The recorded counts of earlier games the LLR includes ([`Sprt::prior`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior: Option<PriorJson>,
}

/// [`Sprt::prior`] as JSON.
#[derive(Serialize)]
pub struct PriorJson {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pentanomial: [u64; 5],
}

impl PriorJson {
    fn of(q: &Prior) -> PriorJson {
        PriorJson {
            wins: q.wdl.wins,
            draws: q.wdl.draws,
            losses: q.wdl.losses,
            pentanomial: q.penta.0,
        }
    }
}

/// One finished game; engines by name.
#[derive(Clone, Serialize, Deserialize)]
pub struct GameJson {
    pub id: usize,
    pub round: usize,
    pub pair: usize,
    pub red: String,
    pub black: String,
    pub result: String,
    pub termination: String,
    /// The engine that lost by a fault, if the game ended that way.
    pub fault: Option<String>,
    pub reason: String,
    pub plies: usize,
    pub opening: String,
}

fn counts(m: &HashMap<Termination, u64>) -> Ordered<u64> {
    let mut v: Vec<(&Termination, &u64)> = m.iter().collect();
    v.sort();
    Ordered(v.iter().map(|(k, n)| (k.key().to_string(), **n)).collect())
}

/// The whole match as the JSON report's document.
pub fn match_json(t: &Tally, info: &ReportInfo) -> MatchJson {
    let name = |e: usize| t.names[e].clone();
    let pairs = t
        .pairs
        .iter()
        .map(|p| PairJson {
            first: name(p.first),
            second: name(p.second),
            games: p.wdl.games(),
            wins: p.wdl.wins,
            draws: p.wdl.draws,
            losses: p.wdl.losses,
            score: Num::round4(p.wdl.score()),
            elo: EloJson::of(elo_trinomial(&p.wdl)),
            elo_pentanomial: EloJson::of(elo_pentanomial(&p.penta)),
            los: Num::round4(los(&p.wdl)),
            draw_ratio: Num::round4(p.wdl.draw_ratio()),
            pentanomial: p.penta.0,
        })
        .collect();
    let sprt = match (&info.sprt, t.pairs.first()) {
        (Some(sprt), Some(p)) => {
            let (llr, state) = sprt_status(sprt, p);
            let (lo, hi) = sprt.bounds();
            Some(SprtJson {
                elo0: Num::round4(sprt.elo0),
                elo1: Num::round4(sprt.elo1),
                alpha: Num::round4(sprt.alpha),
                beta: Num::round4(sprt.beta),
                model: model_name(sprt.model),
                llr: Num::round4(llr),
                lower: Num::round4(lo),
                upper: Num::round4(hi),
                state: match state {
                    SprtState::Continue => "continue",
                    SprtState::AcceptH0 => "H0",
                    SprtState::AcceptH1 => "H1",
                },
                prior: sprt.prior.as_ref().map(PriorJson::of),
            })
        }
        _ => None,
    };
    let mut games = t.games.clone();
    games.sort_by_key(|g| g.id);
    MatchJson {
        format: JSON_FORMAT.into(),
        version: JSON_VERSION,
        engines: info
            .engines
            .iter()
            .map(|(n, c, tc)| EngineJson {
                name: n.clone(),
                command: c.clone(),
                tc: tc.clone(),
            })
            .collect(),
        rules: info.rules.to_string(),
        openings: info.openings.clone(),
        seed: info.seed,
        openings_hash: info.openings_hash.clone(),
        settings: info.settings.clone(),
        shards: info.shards.clone(),
        games_scheduled: info.scheduled,
        games_played: t.games_played(),
        stopped: info.stopped.clone(),
        red_wins: t.red_wins,
        black_wins: t.black_wins,
        draws: t.draws,
        pairs,
        terminations: counts(&t.terminations),
        faults: Ordered(
            t.faults
                .iter()
                .enumerate()
                .map(|(e, f)| (name(e), counts(f)))
                .collect(),
        ),
        overhead_us: t.overhead_summary().map(|(m, p, x)| OverheadJson {
            median: m.as_micros(),
            p99: p.as_micros(),
            max: x.as_micros(),
            moves: t.overhead_moves(),
        }),
        overhead_hist_us: t.overhead.iter().map(|(&us, &n)| (us, n)).collect(),
        search: t.search.as_ref().map(|v| {
            v.iter()
                .enumerate()
                .map(|(e, b)| SearchJson::of(&t.names[e], b))
                .collect()
        }),
        sprt,
        prior: info.prior.as_ref().map(PriorJson::of),
        games: games
            .iter()
            .map(|g| GameJson {
                id: g.id,
                round: g.round,
                pair: g.pair,
                red: name(g.red),
                black: name(g.black),
                result: g.result.to_string(),
                termination: g.termination.key().to_string(),
                fault: g.fault.map(name),
                reason: g.reason.clone(),
                plies: g.plies,
                opening: g.opening.clone(),
            })
            .collect(),
    }
}

/// The whole match as the text of a JSON file.
pub fn json_report(t: &Tally, info: &ReportInfo) -> String {
    json::to_text(&match_json(t, info))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_histogram_gives_the_sorted_list_percentiles() {
        // what the report printed when every duration was kept: sort, pick, whole µs
        let ds: Vec<Duration> = (0..1000u64)
            .map(|i| Duration::from_nanos((i * 7919 % 1000) * 37 + i % 3 * 400))
            .collect();
        let mut v = ds.clone();
        v.sort();
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize].as_micros();
        let mut t = Tally::new(vec!["a".into(), "b".into()]);
        for d in &ds {
            *t.overhead.entry(d.as_micros() as u64).or_default() += 1;
        }
        let (m, p, x) = t.overhead_summary().unwrap();
        assert_eq!(
            (m.as_micros(), p.as_micros(), x.as_micros()),
            (at(0.5), at(0.99), v[999].as_micros())
        );
        assert_eq!(t.overhead_moves(), 1000);
        assert!(Tally::new(vec![]).overhead_summary().is_none());
    }

    /// A game of `n` engine moves after `opening`, engine 1 red and engine 0 black; move
    /// i took i + 1 ms and reported depth i + 2, but every fifth reported none.
    fn game_of(opening: super::super::openings::Opening, n: usize) -> GameRecord {
        use super::super::game::{GameSetup, PlayedMove};
        use crate::core::{Move, Square};
        let mv = Move::new(Square::from_index(0), Square::from_index(1)).unwrap();
        GameRecord {
            setup: GameSetup {
                id: 1,
                round: 1,
                pair: 1,
                opening: std::sync::Arc::new(opening),
                engines: [1, 0],
            },
            moves: (0..n)
                .map(|i| PlayedMove {
                    mv,
                    score: None,
                    depth: (i % 5 != 4).then_some(i as u32 + 2),
                    time: Duration::from_millis(i as u64 + 1),
                })
                .collect(),
            result: crate::rules::GameResult::Draw,
            termination: Termination::MoveLimit,
            reason: String::new(),
            overhead: Vec::new(),
        }
    }

    #[test]
    fn search_summary_counts_each_engines_moves_by_move_number() {
        use super::super::openings::Opening;
        // the standard start: red (engine 1) plays the engines' first move; 25 moves give
        // red its moves 1..=13 (even i) and black its moves 1..=12 (odd i)
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        t.add(&game_of(Opening::startpos(), 25));
        // the same start with black to move: black (engine 0) moves first
        let mut black_first = Opening::startpos();
        black_first.position = crate::core::Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        t.add(&game_of(black_first, 3));
        // what each engine's moves should add up to, counted here move by move
        let mut want = vec![SearchBands::default(); 2];
        for (game_moves, first_engine) in [(25usize, 1usize), (3, 0)] {
            for i in 0..game_moves {
                let e = if i % 2 == 0 {
                    first_engine
                } else {
                    1 - first_engine
                };
                let own = i / 2 + 1;
                let band = if own <= 10 {
                    0
                } else if own <= 20 {
                    1
                } else {
                    2
                };
                let b = &mut want[e][band];
                b.moves += 1;
                b.time_us += (i as u64 + 1) * 1000;
                if i % 5 != 4 {
                    b.depth_sum += i as u64 + 2;
                    b.depth_moves += 1;
                }
            }
        }
        let got = t.search.clone().unwrap();
        assert_eq!(got, want);
        assert_eq!(got[1][1].moves, 3, "red's moves 11-13 of the first game");
        assert_eq!(
            got[0][0].moves,
            10 + 2,
            "black's first ten, and two of the second game"
        );
        // the JSON carries the sums and reads back to the same numbers
        let names = t.names.clone();
        let list: Vec<SearchJson> = got
            .iter()
            .enumerate()
            .map(|(e, b)| SearchJson::of(&names[e], b))
            .collect();
        assert_eq!(SearchJson::read(&list, &names), Some(got.clone()));
        let mut swapped = list.clone();
        swapped.reverse();
        assert_eq!(SearchJson::read(&swapped, &names), Some(got.clone()));
        let mut bad = list.clone();
        bad[0].bands[2].first = 22;
        assert_eq!(SearchJson::read(&bad, &names), None, "other bands");
        assert_eq!(
            SearchJson::read(&list[..1], &names),
            None,
            "an engine missing"
        );
        // the report: B (engine 1) played 13 moves in the first game and 1 in the second
        let text = search_text(&t);
        assert!(text.contains("  B: 14 moves in 2 games"), "{text}");
        assert!(text.contains("by move: 1-10 "), "{text}");
        // a merged file without the counts leaves the summary out, not half counted
        t.add_search(None);
        assert!(t.search.is_none() && search_text(&t).is_empty());
    }

    #[test]
    fn json_report_has_the_tally() {
        let mut t = Tally::new(vec!["A \"x\"".into(), "B".into()]);
        t.add_line(GameLine {
            id: 2,
            round: 1,
            pair: 1,
            red: 1,
            black: 0,
            result: "0-1",
            termination: Termination::IllegalMove,
            fault: Some(1),
            reason: "why\n".into(),
            plies: 3,
            opening: "startpos".into(),
        });
        t.overhead.insert(12, 3);
        let info = ReportInfo {
            engines: vec![
                ("A \"x\"".into(), "a".into(), "1+0".into()),
                ("B".into(), "b".into(), "1+0".into()),
            ],
            rules: "cxa",
            scheduled: 2,
            stopped: Some("stop file".into()),
            sprt: None,
            seed: None,
            openings: "startpos".into(),
            openings_hash: "00".into(),
            settings: "s".into(),
            shards: ShardSet {
                count: 1,
                indices: vec![0],
                run_games: 2,
            },
            prior: None,
        };
        let text = json_report(&t, &info);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["format"], JSON_FORMAT);
        assert_eq!(v["pairs"][0]["wins"], 1);
        assert_eq!(v["pairs"][0]["score"], 1);
        assert_eq!(v["pairs"][0]["elo"]["error"], serde_json::Value::Null);
        assert_eq!(v["faults"]["B"]["illegal-move"], 1);
        assert_eq!(v["games"][0]["fault"], "B");
        assert_eq!(v["games"][0]["black"], "A \"x\"");
        assert_eq!(v["overhead_hist_us"][0], serde_json::json!([12, 3]));
        assert_eq!(v["stopped"], "stop file");
        assert!(v["sprt"].is_null() && v["seed"].is_null());
        // a game a line
        assert!(
            text.contains("\n    {\"id\": 2, \"round\": 1, \"pair\": 1, \"red\": \"B\", "),
            "{text}"
        );
    }
}
