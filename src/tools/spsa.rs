//! `chariot tune spsa`: tunes some of the search's tunable numbers ([`TUNABLES`]) by SPSA
//! (simultaneous perturbation stochastic approximation) with game pairs between two copies
//! of an engine, θ+ and θ−, played by the match runner ([`matchrun::play_games`]) and judged
//! by the rules like every match (and by score with `--resign` / `--draw`, as `chariot match`
//! adjudicates; the rules chosen are part of the run's settings).
//!
//! The gains are fishtest's. For tuned parameter i, with c_end = the table's `step` and
//! a_end = r_end · c_end², over N iterations and A = a_ratio · N:
//!
//! - c_i = c_end · N^γ and a_i = a_end · (A + N)^α, so that the last iteration has c_end and
//!   a_end;
//! - at iteration k (from 1): c_k = c_i / k^γ, a_k = a_i / (A + k)^α;
//! - Δ_i = ±1 at random, drawn from (seed, k) alone, so a resumed run draws the same;
//! - θ+ = θ + c_k·Δ and θ− = θ − c_k·Δ, each rounded to an integer and clamped to the
//!   table's range, are sent as options (`setoption`) to two copies of the engine;
//! - P game pairs (each opening twice, colours swapped) θ+ against θ−; R = wins − losses of
//!   θ+ over the 2P games;
//! - θ_i += a_k / c_k · R · Δ_i, clamped to the range; θ is kept as a real number.
//!
//! Iteration k plays openings (k−1)·P … k·P−1 (modulo the file) of the openings file
//! shuffled by the seed, or the start position without a file. The engines are started
//! afresh every iteration with that iteration's values.
//!
//! After every iteration the state (settings, iteration, θ, W-D-L, the latest history) is
//! written to `--state` (a temporary file, then renamed): the same command resumes from it,
//! and settings that differ are refused. When the last iteration is done the final θ is
//! printed as `setoption` lines, `chariot match` engine keys and lines of the table.

use crate::rules::RuleSet;
use crate::search::params::{TUNABLES, Tunable, Tunables};
use crate::tools::json::{self, Header, Num, Ordered};
use crate::tools::matchrun::{
    self,
    args::{engine_spec, parse_draw, parse_resign},
    engine::{EngineProcess, EngineSpec},
    game::{DrawRule, GameConfig, GameRecord, ResignRule},
    openings::{self, Opening, Order},
    tc::TimeControl,
};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU8;
use std::time::{Duration, Instant};

/// What the state file says it is, and its layout's version.
pub const STATE_FORMAT: &str = "chariot-spsa";
pub const STATE_VERSION: u64 = 1;
/// The state keeps the history of this many latest iterations.
pub const HISTORY_KEPT: usize = 500;
/// Longest wait for start-up, `isready` and a move without a clock.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The words of `chariot tune spsa`.
#[derive(clap::Args, Debug)]
pub struct SpsaArgs {
    /// The engine both sides run: the keys of `chariot match --engine` (cmd=, proto=,
    /// `option.<Name>=`, margin=, dir=, tc=). Default: this program with `--tunables`; a cmd=
    /// must offer the tuned parameters as options (Chariot: `cmd="chariot --tunables"`).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Tunable names to tune (see src/search/params.rs), or `all`.
    #[arg(long, num_args = 1.., required = true, value_name = "NAME")]
    pub params: Vec<String>,
    /// SPSA iterations N.
    #[arg(long)]
    pub iterations: u64,
    /// Game pairs (each opening twice, colours swapped) per iteration.
    #[arg(long, default_value_t = 4)]
    pub pairs: usize,
    /// Time control, as `chariot match --tc` (e.g. 10+0.1, nodes=5000).
    #[arg(long)]
    pub tc: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file (as `chariot match --openings`); default: the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the perturbation signs and of the openings' order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// State file, written after every iteration; an existing one is resumed.
    #[arg(long, value_name = "FILE.json")]
    pub state: Option<PathBuf>,
    /// Learning rate at the last iteration: a_end = r_end · c_end².
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Exponent of a_k's decay.
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// Exponent of c_k's decay.
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// A = a_ratio · N (stability constant of a_k).
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    /// Rule set for adjudication: cxa or axf.
    #[arg(long, default_value = "cxa")]
    pub rules: String,
    /// Score adjudication of a loss, as `chariot match --resign`: `score=<cp> moves=<n>`
    /// (default: none); part of the run's settings.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Score adjudication of a draw, as `chariot match --draw`: `score=<cp> moves=<n>
    /// after=<ply>` (default: none); part of the run's settings.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Stop once this many iterations are done (the state file resumes the rest) and print θ
    /// so far; at or below the iterations done it plays nothing and only prints θ.
    #[arg(long, value_name = "K")]
    pub stop_after: Option<u64>,
    /// Where θ starts, for some tuned parameters (default: the table's defaults); part of
    /// the run's settings.
    #[arg(long, num_args = 1.., value_name = "NAME=VALUE")]
    pub start: Vec<String>,
}

/// The gains of the run (the same for every parameter but for c_end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub iterations: u64,
    pub r_end: f64,
    pub alpha: f64,
    pub gamma: f64,
    pub a_ratio: f64,
}

impl Gains {
    fn big_a(&self) -> f64 {
        self.a_ratio * self.iterations as f64
    }

    /// (c_k, a_k) of a parameter whose last perturbation is `c_end`, at iteration `k` (from 1).
    pub fn at(&self, c_end: f64, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let a_end = self.r_end * c_end * c_end;
        let c_i = c_end * n.powf(self.gamma);
        let a_i = a_end * (self.big_a() + n).powf(self.alpha);
        let k = k as f64;
        (
            c_i / k.powf(self.gamma),
            a_i / (self.big_a() + k).powf(self.alpha),
        )
    }
}

/// SplitMix64: a small generator whose stream is fixed by its start.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The signs Δ (±1) of iteration `k` for `count` parameters: a function of (seed, k) only.
pub fn deltas(seed: u64, k: u64, count: usize) -> Vec<i8> {
    let mut state = seed ^ k.wrapping_mul(0xd1b5_4a32_d192_ed03);
    splitmix(&mut state);
    (0..count)
        .map(|_| {
            if splitmix(&mut state) >> 63 == 1 {
                1
            } else {
                -1
            }
        })
        .collect()
}

/// θ ± c·Δ for one parameter, rounded and clamped to its range.
fn perturbed(t: &Tunable, theta: f64, c: f64, sign: f64) -> i32 {
    let v = (theta + sign * c).round();
    v.clamp(f64::from(t.min), f64::from(t.max)) as i32
}

/// The values θ+ and θ− play with: `base` with each tuned parameter `params[i]` set to
/// round(θ_i ± c_i·Δ_i) within its range; every other parameter is left as in `base`.
pub fn theta_pair(
    base: &Tunables,
    params: &[&'static Tunable],
    theta: &[f64],
    c: &[f64],
    delta: &[i8],
) -> (Tunables, Tunables) {
    let (mut plus, mut minus) = (*base, *base);
    for (i, t) in params.iter().enumerate() {
        let cd = c[i] * f64::from(delta[i]);
        (t.set)(&mut plus, perturbed(t, theta[i], cd, 1.0));
        (t.set)(&mut minus, perturbed(t, theta[i], cd, -1.0));
    }
    (plus, minus)
}

/// The tuned parameters' values in `values` as engine options.
pub fn options_of(params: &[&'static Tunable], values: &Tunables) -> Vec<(String, String)> {
    params
        .iter()
        .map(|t| (t.name.to_string(), (t.get)(values).to_string()))
        .collect()
}

/// One iteration's update: θ_i += a_k / c_k · R · Δ_i, clamped to the range.
pub fn update(
    params: &[&'static Tunable],
    theta: &mut [f64],
    a: &[f64],
    c: &[f64],
    r: i64,
    delta: &[i8],
) {
    for (i, t) in params.iter().enumerate() {
        let step = a[i] / c[i] * r as f64 * f64::from(delta[i]);
        theta[i] = (theta[i] + step).clamp(f64::from(t.min), f64::from(t.max));
    }
}

/// One iteration as the state file keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub k: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub theta: Vec<f64>,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub done: u64,
    pub theta: Vec<f64>,
    /// θ+'s wins, draws and losses over every iteration.
    pub wdl: [u64; 3],
    pub history: Vec<HistoryEntry>,
}

/// A checked run.
struct Config {
    params: Vec<&'static Tunable>,
    gains: Gains,
    pairs: usize,
    concurrency: usize,
    seed: u64,
    rules: RuleSet,
    resign: Option<ResignRule>,
    draw: Option<DrawRule>,
    spec: EngineSpec,
    openings: Vec<Arc<Opening>>,
    openings_text: String,
    state: Option<PathBuf>,
    stop_after: Option<u64>,
    /// θ before the first iteration.
    start: Vec<f64>,
    /// Was `--start` given (then the settings name it)?
    start_given: bool,
}

/// `settings` of a state file: everything that shapes the run (compared on resume).
#[derive(Serialize)]
struct Settings<'a> {
    params: Vec<&'static str>,
    iterations: u64,
    pairs: usize,
    tc: String,
    engine: String,
    proto: String,
    dir: Option<String>,
    /// [name, value] of each `option.<Name>=` the engine is given.
    options: &'a [(String, String)],
    margin_ms: u64,
    openings: &'a str,
    seed: u64,
    rules: String,
    r_end: Num,
    alpha: Num,
    gamma: Num,
    a_ratio: Num,
    /// Where θ started; left out when from the defaults, as runs made before `--start`
    /// existed were written.
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<Ordered<Num>>,
    /// The adjudication rules (`score=… moves=…`); left out when none, as runs made before
    /// `--resign` and `--draw` existed were written.
    #[serde(skip_serializing_if = "Option::is_none")]
    resign: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<String>,
}

/// The state file: its settings written as [`Settings`], read back as an object whose
/// members are compared one by one with this run's.
#[derive(Serialize, Deserialize)]
struct StateJson<S> {
    format: String,
    version: u64,
    settings: S,
    /// Iterations done.
    iteration: u64,
    /// θ after them, by parameter name.
    theta: Ordered<Num>,
    /// θ+'s results over every iteration.
    wins: u64,
    draws: u64,
    losses: u64,
    /// The latest iterations, oldest first.
    history: Vec<HistoryJson>,
}

#[derive(Serialize, Deserialize)]
struct HistoryJson {
    k: u64,
    /// wins − losses: for readers, not read back.
    #[serde(default)]
    r: i64,
    wins: u64,
    draws: u64,
    losses: u64,
    theta: Ordered<Num>,
}

impl Config {
    /// Everything that shapes the run.
    fn settings(&self) -> Settings<'_> {
        let g = &self.gains;
        Settings {
            params: self.params.iter().map(|t| t.name).collect(),
            iterations: g.iterations,
            pairs: self.pairs,
            tc: self.spec.tc.to_string(),
            engine: self.spec.command_line(),
            proto: format!("{:?}", self.spec.proto).to_ascii_lowercase(),
            dir: self.spec.dir.as_ref().map(|d| d.display().to_string()),
            options: &self.spec.options,
            margin_ms: self.spec.margin.as_millis() as u64,
            openings: &self.openings_text,
            seed: self.seed,
            rules: self.rules.to_string(),
            r_end: Num(g.r_end),
            alpha: Num(g.alpha),
            gamma: Num(g.gamma),
            a_ratio: Num(g.a_ratio),
            start: self.start_given.then(|| self.theta_json(&self.start)),
            resign: self.resign.map(|r| r.to_string()),
            draw: self.draw.map(|d| d.to_string()),
        }
    }

    fn theta_json(&self, theta: &[f64]) -> Ordered<Num> {
        Ordered(
            self.params
                .iter()
                .zip(theta)
                .map(|(t, v)| (t.name.to_string(), Num(*v)))
                .collect(),
        )
    }

    /// The state file's text.
    pub fn state_json(&self, st: &State) -> String {
        json::to_text(&StateJson {
            format: STATE_FORMAT.into(),
            version: STATE_VERSION,
            settings: self.settings(),
            iteration: st.done,
            theta: self.theta_json(&st.theta),
            wins: st.wdl[0],
            draws: st.wdl[1],
            losses: st.wdl[2],
            history: st
                .history
                .iter()
                .map(|h| HistoryJson {
                    k: h.k,
                    r: h.wins as i64 - h.losses as i64,
                    wins: h.wins,
                    draws: h.draws,
                    losses: h.losses,
                    theta: self.theta_json(&h.theta),
                })
                .collect(),
        })
    }

    fn theta_from(&self, v: &Ordered<Num>, what: &str) -> Result<Vec<f64>, String> {
        let mut out = Vec::new();
        for t in &self.params {
            let x = v
                .get(t.name)
                .map(|n| n.0)
                .ok_or_else(|| format!("{what} has no value of {}, a tuned parameter", t.name))?;
            if !(f64::from(t.min)..=f64::from(t.max)).contains(&x) {
                return Err(format!(
                    "{what}: {} {x} is outside {}..={}",
                    t.name, t.min, t.max
                ));
            }
            out.push(x);
        }
        Ok(out)
    }

    /// Reads a state file written with these settings.
    pub fn read_state(&self, text: &str) -> Result<State, String> {
        let head: Header = json::read(text)?;
        if head.format() != Some(STATE_FORMAT) {
            return Err(
                "not a chariot tune spsa state file (no \"format\": \"chariot-spsa\")".into(),
            );
        }
        let version = head.version();
        if version != Some(STATE_VERSION) {
            return Err(format!(
                "state file version {} is not {STATE_VERSION}",
                version.map_or("?".into(), |v| v.to_string())
            ));
        }
        let doc: StateJson<serde_json::Map<String, serde_json::Value>> = json::read(text)?;
        let mine = match serde_json::to_value(self.settings()) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err("this run's settings are not a JSON object".into()),
        };
        let theirs = &doc.settings;
        for (k, v) in &mine {
            let t = theirs.get(k);
            if t != Some(v) {
                return Err(format!(
                    "written with other settings ({k} {} there, {v} here): give the same settings or another --state file",
                    t.map_or("missing".into(), |t| t.to_string()),
                ));
            }
        }
        if let Some(k) = theirs.keys().find(|k| !mine.contains_key(*k)) {
            return Err(format!(
                "written with other settings ({k} there, not here): give the same settings or another --state file"
            ));
        }
        let done = doc.iteration;
        if done > self.gains.iterations {
            return Err(format!(
                "the state file has iteration {done} of {}",
                self.gains.iterations
            ));
        }
        let theta = self.theta_from(&doc.theta, "\"theta\"")?;
        let wdl = [doc.wins, doc.draws, doc.losses];
        let mut history = Vec::new();
        for (i, h) in doc.history.iter().enumerate() {
            history.push(HistoryEntry {
                k: h.k,
                wins: h.wins,
                draws: h.draws,
                losses: h.losses,
                theta: self.theta_from(&h.theta, &format!("history entry {}", i + 1))?,
            });
        }
        if wdl.iter().sum::<u64>() != done * 2 * self.pairs as u64 {
            return Err(format!(
                "the state file's games ({}) are not {done} iterations of {} games",
                wdl.iter().sum::<u64>(),
                2 * self.pairs
            ));
        }
        Ok(State {
            done,
            theta,
            wdl,
            history,
        })
    }
}

/// Writes `text` to `path` by way of a temporary file and a rename, so a reader (or a run
/// killed while writing) sees the old file or the new one, never a part.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `--params`: names (any case) or `all`.
pub fn parse_params(names: &[String]) -> Result<Vec<&'static Tunable>, String> {
    if names.iter().any(|n| n.eq_ignore_ascii_case("all")) {
        if names.len() > 1 {
            return Err("--params all tunes every parameter: give no names beside it".into());
        }
        return Ok(TUNABLES.iter().collect());
    }
    let mut out: Vec<&'static Tunable> = Vec::new();
    for n in names {
        let t = Tunables::find(n).ok_or_else(|| {
            format!("--params: no tunable named '{n}' (the names are in src/search/params.rs, or give all)")
        })?;
        if out.iter().any(|o| o.name == t.name) {
            return Err(format!("--params: {} given twice", t.name));
        }
        out.push(t);
    }
    Ok(out)
}

fn config(a: SpsaArgs) -> Result<Config, String> {
    let params = parse_params(&a.params)?;
    if a.iterations == 0 || a.iterations > 10_000_000 {
        return Err("--iterations must be from 1 to 10000000".into());
    }
    if a.pairs == 0 || a.pairs > 100_000 {
        return Err("--pairs must be from 1 to 100000".into());
    }
    if a.concurrency == 0 || a.concurrency > 256 {
        return Err(format!(
            "--concurrency {} is not from 1 to 256",
            a.concurrency
        ));
    }
    if !(a.r_end.is_finite() && a.r_end > 0.0) {
        return Err("--r-end must be a number above 0".into());
    }
    let unit = |x: f64| x.is_finite() && x > 0.0 && x <= 1.0;
    if !(unit(a.alpha) && unit(a.gamma)) {
        return Err("--alpha and --gamma must lie above 0 and at most 1".into());
    }
    if !(a.a_ratio.is_finite() && a.a_ratio >= 0.0) {
        return Err("--a-ratio must be a number, 0 or more".into());
    }
    if a.stop_after == Some(0) {
        return Err("--stop-after must be at least 1".into());
    }
    let rules: RuleSet = a.rules.parse()?;
    let resign = parse_resign(a.resign.as_deref())?;
    let draw = parse_draw(a.draw.as_deref())?;
    let tc = a.tc.as_deref().map(TimeControl::parse).transpose()?;
    let mut words = a.engine;
    let own = !words.iter().any(|w| w.starts_with("cmd="));
    if own {
        let exe =
            std::env::current_exe().map_err(|e| format!("cannot find this program's path: {e}"))?;
        words.insert(0, format!("cmd={}", exe.display()));
    }
    let mut spec = engine_spec(&words, &[], 0, tc.as_ref(), Duration::from_millis(50))
        .map_err(|e| e.replacen("--engine 1", "--engine", 1))?;
    if own {
        spec.args = vec!["--tunables".into()];
    }
    for (name, _) in &spec.options {
        if let Some(t) = params.iter().find(|t| t.name.eq_ignore_ascii_case(name)) {
            return Err(format!(
                "--engine option.{name} sets {}, which is tuned: drop it",
                t.name
            ));
        }
    }
    let mut start: Vec<f64> = params.iter().map(|t| f64::from(t.default)).collect();
    let mut started = vec![false; params.len()];
    for w in &a.start {
        let (name, value) = w
            .split_once('=')
            .ok_or_else(|| format!("--start {w}: not NAME=VALUE"))?;
        let i = params
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("--start {w}: {name} is not among the tuned --params"))?;
        if std::mem::replace(&mut started[i], true) {
            return Err(format!("--start: {} given twice", params[i].name));
        }
        let t = params[i];
        let v: i32 = value
            .parse()
            .map_err(|_| format!("--start {w}: {value} is not a whole number"))?;
        if !(t.min..=t.max).contains(&v) {
            return Err(format!(
                "--start {w}: {} ranges from {} to {}",
                t.name, t.min, t.max
            ));
        }
        start[i] = f64::from(v);
    }
    let (list, openings_text) = match &a.openings {
        None => (vec![Opening::startpos()], "startpos".to_string()),
        Some(p) => {
            let list = openings::read_file(p, rules)?;
            if list.is_empty() {
                return Err(format!("{}: no openings", p.display()));
            }
            let text = format!("{} ({} lines)", p.display(), list.len());
            (list, text)
        }
    };
    let openings = openings::arrange(list, Order::Random, a.seed)
        .into_iter()
        .map(Arc::new)
        .collect();
    Ok(Config {
        params,
        gains: Gains {
            iterations: a.iterations,
            r_end: a.r_end,
            alpha: a.alpha,
            gamma: a.gamma,
            a_ratio: a.a_ratio,
        },
        pairs: a.pairs,
        concurrency: a.concurrency,
        seed: a.seed,
        rules,
        resign,
        draw,
        spec,
        openings,
        openings_text,
        state: a.state,
        stop_after: a.stop_after,
        start,
        start_given: !a.start.is_empty(),
    })
}

/// A copy of the engine spec named `name` with the tuned values as options.
fn side_spec(base: &EngineSpec, name: &str, options: Vec<(String, String)>) -> EngineSpec {
    let mut all = base.options.clone();
    all.extend(options);
    EngineSpec {
        name: name.to_string(),
        program: base.program.clone(),
        args: base.args.clone(),
        dir: base.dir.clone(),
        proto: base.proto,
        options: all,
        each_only: base.each_only.clone(),
        tc: base.tc.clone(),
        margin: base.margin,
        detected: AtomicU8::new(0),
    }
}

/// Starts the engine once with every tuned parameter as an option at its default: the start
/// refuses an engine that does not offer one (it would ignore them, and SPSA would tune noise).
fn check_engine(cfg: &Config) -> Result<(), String> {
    let options = cfg
        .params
        .iter()
        .map(|t| (t.name.to_string(), t.default.to_string()))
        .collect();
    let spec = side_spec(&cfg.spec, "engine", options);
    let e = EngineProcess::start(&spec, TIMEOUT, None).map_err(|e| match e {
        matchrun::engine::StartError::Setup(m) => m,
        matchrun::engine::StartError::Handshake(_) => format!(
            "the engine '{}' did not complete the ucci/uci handshake",
            spec.command_line()
        ),
    })?;
    e.quit();
    Ok(())
}

/// Plays iteration `k` from `theta`: returns θ+'s wins, draws and losses.
fn play_iteration(cfg: &Config, k: u64, theta: &[f64]) -> Result<[u64; 3], String> {
    let n = cfg.params.len();
    let delta = deltas(cfg.seed, k, n);
    let c: Vec<f64> = cfg
        .params
        .iter()
        .map(|t| cfg.gains.at(t.step, k).0)
        .collect();
    let (plus, minus) = theta_pair(&Tunables::DEFAULT, &cfg.params, theta, &c, &delta);
    let specs = [
        side_spec(&cfg.spec, "theta+", options_of(&cfg.params, &plus)),
        side_spec(&cfg.spec, "theta-", options_of(&cfg.params, &minus)),
    ];
    let p = cfg.pairs;
    let first = (k - 1) as usize * p;
    let these: Vec<Arc<Opening>> = (0..p)
        .map(|j| Arc::clone(&cfg.openings[(first + j) % cfg.openings.len()]))
        .collect();
    let jobs = matchrun::schedule(2, 2 * p, 1, &these);
    let game_cfg = GameConfig {
        rules: cfg.rules,
        timeout: TIMEOUT,
        resign: cfg.resign,
        draw: cfg.draw,
        log: None,
    };
    let mut wdl = [0u64; 3];
    matchrun::play_games(
        jobs,
        &specs,
        &game_cfg,
        cfg.concurrency,
        |rec: GameRecord| {
            match rec.points_for(0) {
                Some(x) if x > 0.75 => wdl[0] += 1,
                Some(x) if x < 0.25 => wdl[2] += 1,
                _ => wdl[1] += 1,
            }
            Ok(true)
        },
    )?;
    if wdl.iter().sum::<u64>() != 2 * p as u64 {
        return Err(format!(
            "iteration {k}: only {} of {} games ended",
            wdl.iter().sum::<u64>(),
            2 * p
        ));
    }
    Ok(wdl)
}

/// One iteration's θ update from its result.
fn apply(cfg: &Config, k: u64, theta: &mut [f64], wdl: [u64; 3]) {
    let n = cfg.params.len();
    let delta = deltas(cfg.seed, k, n);
    let (c, a): (Vec<f64>, Vec<f64>) = cfg.params.iter().map(|t| cfg.gains.at(t.step, k)).unzip();
    let r = wdl[0] as i64 - wdl[2] as i64;
    update(&cfg.params, theta, &a, &c, r, &delta);
}

/// The progress line's parameters: all of them when few, else the eight that moved most
/// (in steps) from their defaults.
fn theta_text(params: &[&'static Tunable], theta: &[f64]) -> String {
    let mut idx: Vec<usize> = (0..params.len()).collect();
    if params.len() > 8 {
        let moved = |i: usize| ((theta[i] - f64::from(params[i].default)) / params[i].step).abs();
        idx.sort_by(|&x, &y| moved(y).total_cmp(&moved(x)));
        idx.truncate(8);
    }
    let parts: Vec<String> = idx
        .iter()
        .map(|&i| format!("{}={:.2}", params[i].name, theta[i]))
        .collect();
    parts.join(" ")
}

/// θ, rounded, as `setoption` lines, `chariot match` engine keys and table lines: the final
/// values, or θ so far when the run stopped early (`--stop-after`).
fn final_text(cfg: &Config, st: &State) -> String {
    let head = if st.done < cfg.gains.iterations {
        "spsa paused (theta so far)"
    } else {
        "spsa done"
    };
    let mut s = format!(
        "{head}: {} of {} iterations ({} games each), theta+ scored +{} ={} -{}\n",
        st.done,
        cfg.gains.iterations,
        2 * cfg.pairs,
        st.wdl[0],
        st.wdl[1],
        st.wdl[2]
    );
    s.push_str("# setoption lines (UCI; for an engine started with --tunables):\n");
    let rounded: Vec<i32> = cfg
        .params
        .iter()
        .zip(&st.theta)
        .map(|(t, v)| (v.round() as i32).clamp(t.min, t.max))
        .collect();
    for (t, v) in cfg.params.iter().zip(&rounded) {
        s.push_str(&format!("setoption name {} value {v}\n", t.name));
    }
    s.push_str("# chariot match --engine keys:\n");
    let keys: Vec<String> = cfg
        .params
        .iter()
        .zip(&rounded)
        .map(|(t, v)| format!("option.{}={v}", t.name))
        .collect();
    s.push_str(&keys.join(" "));
    s.push('\n');
    s.push_str("# new defaults, src/search/params.rs:\n");
    for (t, v) in cfg.params.iter().zip(&rounded) {
        s.push_str(&format!(
            "    {} \"{}\" = {v}, {} ..= {}, step {:?};  // was {}\n",
            t.field, t.name, t.min, t.max, t.step, t.default
        ));
    }
    s
}

/// Runs `chariot tune spsa`: progress lines to stderr, the final values to stdout.
pub fn run(args: SpsaArgs) -> Result<(), String> {
    let cfg = config(args)?;
    let n = cfg.gains.iterations;
    let stop = cfg.stop_after.unwrap_or(n).min(n);
    let mut st = State {
        done: 0,
        theta: cfg.start.clone(),
        wdl: [0; 3],
        history: Vec::new(),
    };
    if let Some(p) = &cfg.state
        && p.exists()
    {
        let text = std::fs::read_to_string(p)
            .map_err(|e| format!("cannot read the state file {}: {e}", p.display()))?;
        st = cfg
            .read_state(&text)
            .map_err(|e| format!("state file {}: {e}", p.display()))?;
        if st.done < stop {
            eprintln!(
                "spsa resumes {} after iteration {}/{n}",
                p.display(),
                st.done
            );
        }
    }
    if st.done < stop {
        check_engine(&cfg)?;
        if let Some(p) = &cfg.state {
            // fail now rather than after the first iteration
            write_atomically(p, &cfg.state_json(&st))?;
        }
    }
    let start = Instant::now();
    while st.done < stop {
        let k = st.done + 1;
        let wdl = play_iteration(&cfg, k, &st.theta)?;
        apply(&cfg, k, &mut st.theta, wdl);
        for (total, n) in st.wdl.iter_mut().zip(wdl) {
            *total += n;
        }
        st.done = k;
        st.history.push(HistoryEntry {
            k,
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
            theta: st.theta.clone(),
        });
        if st.history.len() > HISTORY_KEPT {
            st.history.remove(0);
        }
        if let Some(p) = &cfg.state {
            write_atomically(p, &cfg.state_json(&st))?;
        }
        let _ = writeln!(
            std::io::stderr(),
            "spsa iter {k}/{n}  +{} ={} -{}  total +{} ={} -{}  {:.0}s  {}",
            wdl[0],
            wdl[1],
            wdl[2],
            st.wdl[0],
            st.wdl[1],
            st.wdl[2],
            start.elapsed().as_secs_f64(),
            theta_text(&cfg.params, &st.theta)
        );
    }
    if st.done < n {
        let _ = writeln!(
            std::io::stderr(),
            "spsa stopped after iteration {}/{n}{}",
            st.done,
            cfg.state
                .as_ref()
                .map(|p| format!("; the same command resumes from {}", p.display()))
                .unwrap_or_default()
        );
    }
    let _ = std::io::stdout().write_all(final_text(&cfg, &st).as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_depend_on_seed_and_iteration_only() {
        let a = deltas(7, 3, 40);
        assert_eq!(a, deltas(7, 3, 40));
        assert!(a.iter().all(|&d| d == 1 || d == -1));
        assert_ne!(a, deltas(7, 4, 40));
        assert_ne!(a, deltas(8, 3, 40));
        // both signs turn up
        assert!(a.contains(&1) && a.contains(&-1));
        // the first signs do not depend on how many are drawn
        assert_eq!(deltas(7, 3, 5), a[..5]);
    }
}
