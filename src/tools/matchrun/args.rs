//! The `chariot match` command line: clap reads the words, this file checks them and
//! turns them into a [`MatchConfig`], with one-line errors for anything wrong.

use super::engine::{EngineSpec, ProtoChoice, split_command};
use super::game::{DrawRule, ResignRule};
use super::openings::Order;
use super::pgn::Notation;
use super::stats::{Prior, Sprt, SprtModel};
use super::tc::TimeControl;
use crate::rules::RuleSet;
use std::path::PathBuf;
use std::sync::atomic::AtomicU8;
use std::time::Duration;

/// The words of `chariot match`, with the `--engine` words grouped by occurrence.
#[derive(Debug)]
pub struct MatchArgs {
    pub raw: RawArgs,
    /// The words of each `--engine`, in order.
    pub engine_groups: Vec<Vec<String>>,
}

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let raw = RawArgs::from_arg_matches(m)?;
        let engine_groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchArgs { raw, engine_groups })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        RawArgs::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        RawArgs::augment_args_for_update(cmd)
    }
}

/// The options as clap reads them (`engine` flattened; see [`MatchArgs`]).
#[derive(clap::Args, Debug)]
pub struct RawArgs {
    /// An engine: `cmd=<path or command>` `[name=<n>]` `[proto=auto|ucci|uci]` `[dir=<cwd>]`
    /// `[option.<Name>=<v>]...` `[tc=<tc>]` `[margin=<ms>]`. Give it twice or more (more than two:
    /// a round robin).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    pub engine: Vec<String>,
    /// Keys applied to every engine before its own (e.g. option.Hash=16 tc=10+0.1).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games per pair of engines and round: each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Times the whole schedule is played (new openings each round).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time control: `<base>+<inc>` (seconds), `<moves>/<base>[:<moves>/<base>...]`,
    /// `st=<sec per move>`, `nodes=<N>`, `depth=<D>`.
    #[arg(long)]
    pub tc: Option<String>,
    /// Milliseconds an engine may go over its clock before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub margin: u64,
    /// Seconds to wait for an engine with no clock (nodes, depth), for start-up and for
    /// `isready`; an engine that misses it loses and is killed.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// Openings: EPD/FEN lines, FEN + ICCS moves, or ICCS move lines.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Openings from Chariot's book: a file written by `chariot book export` (EPD lines).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Order of the openings: sequential or random.
    #[arg(long, default_value = "sequential")]
    pub order: String,
    /// Seed for the random order (default: from the clock, printed in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rule set for adjudication: cxa or axf.
    #[arg(long, default_value = "cxa")]
    pub rules: String,
    /// Score adjudication of a loss: `score=<cp> moves=<n>`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Score adjudication of a draw: `score=<cp> moves=<n> after=<ply>`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// SPRT: `elo0=<a> elo1=<b> alpha=<x> beta=<y>` `[model=pentanomial|trinomial]`
    /// [prior-wdl=W-D-L prior-penta=P0-P1-P2-P3-P4] (the prior: recorded counts of this
    /// test's earlier games whose files are gone, counted with these games).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Write every game to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// PGN move text: iccs, chinese or wxf.
    #[arg(long, default_value = "iccs")]
    pub notation: String,
    /// After each engine move in the PGN, a comment with its score (side to move's view, in
    /// pawns; `+M5` mates), depth and think time, as `{+0.35/14 1.234s}`.
    #[arg(long, requires = "pgn")]
    pub pgn_comments: bool,
    /// Write the results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Log every line sent to and read from the engines to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Event name for the PGN.
    #[arg(long, default_value = "Chariot match")]
    pub event: String,
    /// No progress line after each game.
    #[arg(long)]
    pub quiet: bool,
    /// Play one shard of the run: of the full schedule, only the game pairs i (counted from
    /// 0) with i % N == K; `chariot match merge` joins the shards' JSON and PGN.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Stop the match once this file exists (looked for after every game): no more games
    /// are handed out, games under way are dropped, and the report, JSON and PGN of the
    /// games played are written as for an SPRT stop. For ending a long run early on a
    /// shared machine without losing its results.
    #[arg(long, value_name = "FILE")]
    pub stop_file: Option<PathBuf>,
}

/// The words of `chariot match merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The JSON results (`--json`) of shards of one run.
    #[arg(required = true, value_name = "FILE.json")]
    pub files: Vec<PathBuf>,
    /// Write the merged results as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the games of the `--pgn-in` files, ordered by game number, to this file.
    #[arg(long, value_name = "FILE", requires = "pgn_in")]
    pub pgn: Option<PathBuf>,
    /// The shards' PGN files (`--pgn` of each shard).
    #[arg(long, num_args = 1.., value_name = "FILE.pgn", requires = "pgn")]
    pub pgn_in: Vec<PathBuf>,
    /// Judge the merged games by an SPRT: `elo0=<a> elo1=<b> alpha=<x> beta=<y>`
    /// `[model=pentanomial|trinomial]` (a match of two engines whose shards are merged in order
    /// as they finish: stop playing shards once it says H0 or H1).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// The recorded W-D-L of earlier games of this run whose files are gone (a machine that
    /// lost them): the report adds them to the merged games' in one more line, and an
    /// `--sprt` counts them (as its `prior-wdl=`). Give `--prior-penta` with it.
    #[arg(long, value_name = "W-D-L", requires = "prior_penta")]
    pub prior_wdl: Option<String>,
    /// The same earlier games' pentanomial, P0-P1-P2-P3-P4 (pairs by the first engine's
    /// points 0, ½, 1, 1½, 2).
    #[arg(long, value_name = "P0-P1-P2-P3-P4", requires = "prior_wdl")]
    pub prior_penta: Option<String>,
}

/// The words of `chariot match compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Run A: its JSON results (`--json`), one file or the shards of one run.
    #[arg(required = true, value_name = "A.json")]
    pub a: Vec<PathBuf>,
    /// Run B, the same way: the run compared with A (the result is B − A).
    #[arg(long, required = true, num_args = 1.., value_name = "B.json")]
    pub vs: Vec<PathBuf>,
    /// The engine whose results are compared, by name (default: the first engine of run A
    /// that run B has too).
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// The same engine's name in run B, where it differs from `--engine` (two builds
    /// against the same peer).
    #[arg(long, value_name = "NAME", requires = "engine")]
    pub engine_b: Option<String>,
    /// Write the comparison, with every common game pair, as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `--sprt elo0=<a> elo1=<b> [alpha=<x>] [beta=<y>] [model=pentanomial|trinomial]
/// [prior-wdl=W-D-L prior-penta=P0-P1-P2-P3-P4]`, as `chariot match` and `chariot match
/// merge` take it (the prior: the recorded counts of this test's earlier games whose files
/// are gone, [`Sprt::prior`]).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let kv = key_values(
        words,
        "--sprt",
        &[
            "elo0",
            "elo1",
            "alpha",
            "beta",
            "model",
            "prior-wdl",
            "prior-penta",
        ],
    )?;
    let mut s = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Pentanomial,
        prior: None,
    };
    let (mut prior_wdl, mut prior_penta) = (None, None);
    for (k, v) in kv {
        match k {
            "elo0" => s.elo0 = number("--sprt", k, v)?,
            "elo1" => s.elo1 = number("--sprt", k, v)?,
            "alpha" => s.alpha = number("--sprt", k, v)?,
            "beta" => s.beta = number("--sprt", k, v)?,
            "prior-wdl" => prior_wdl = Some(v),
            "prior-penta" => prior_penta = Some(v),
            _ => {
                s.model = match v.to_ascii_lowercase().as_str() {
                    "pentanomial" => SprtModel::Pentanomial,
                    "trinomial" => SprtModel::Trinomial,
                    _ => {
                        return Err(format!(
                            "--sprt: model '{v}' is not pentanomial or trinomial"
                        ));
                    }
                }
            }
        }
    }
    if !(s.elo0.is_finite() && s.elo1.is_finite()) || s.elo0 >= s.elo1 {
        return Err("--sprt needs elo0=<a> elo1=<b> with a < b".into());
    }
    if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
        return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
    }
    s.prior = match (prior_wdl, prior_penta) {
        (None, None) => None,
        (Some(w), Some(p)) => Some(Prior::parse(w, p).map_err(|e| format!("--sprt: {e}"))?),
        _ => return Err("--sprt: give prior-wdl and prior-penta together".into()),
    };
    Ok(s)
}

/// `--shard K/N`: this run plays the game pairs i with i % count == index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{text}' is not K/N with 0 <= K < N (e.g. --shard 0/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game pair `pair` (numbered from 1 as in the schedule) is this shard's.
    pub fn has_pair(self, pair: usize) -> bool {
        (pair - 1) % self.count == self.index
    }
}

/// Where the openings come from.
#[derive(Debug, Clone)]
pub enum OpeningSource {
    StartPosition,
    File(PathBuf),
    BookExport(PathBuf),
}

/// A checked match set-up.
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub games: usize,
    pub rounds: usize,
    pub concurrency: usize,
    pub timeout: Duration,
    pub openings: OpeningSource,
    pub order: Order,
    pub seed: u64,
    pub seed_given: bool,
    pub rules: RuleSet,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    pub notation: Notation,
    /// `--pgn-comments`: each engine move's score, depth and time as a comment.
    pub pgn_comments: bool,
    pub json: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub event: String,
    pub quiet: bool,
    pub shard: Option<Shard>,
    pub stop_file: Option<PathBuf>,
}

/// `--resign score=<cp> moves=<n>` (absent: no resign adjudication).
pub fn parse_resign(words: Option<&[String]>) -> Result<Option<ResignRule>, String> {
    let Some(words) = words else {
        return Ok(None);
    };
    let kv = key_values(words, "--resign", &["score", "moves"])?;
    let mut r = ResignRule { score: 0, moves: 0 };
    let mut got = (false, false);
    for (k, v) in kv {
        match k {
            "score" => (r.score, got.0) = (number("--resign", k, v)?, true),
            _ => (r.moves, got.1) = (number("--resign", k, v)?, true),
        }
    }
    if !(got.0 && got.1) || r.score <= 0 || r.moves == 0 {
        return Err("--resign needs score=<cp above 0> and moves=<n above 0>".into());
    }
    Ok(Some(r))
}

/// `--draw score=<cp> moves=<n> [after=<ply>]` (absent: no draw adjudication).
pub fn parse_draw(words: Option<&[String]>) -> Result<Option<DrawRule>, String> {
    let Some(words) = words else {
        return Ok(None);
    };
    let kv = key_values(words, "--draw", &["score", "moves", "after"])?;
    let mut d = DrawRule {
        score: -1,
        moves: 0,
        after: 0,
    };
    for (k, v) in kv {
        match k {
            "score" => d.score = number("--draw", k, v)?,
            "moves" => d.moves = number("--draw", k, v)?,
            _ => d.after = number("--draw", k, v)?,
        }
    }
    if d.score < 0 || d.moves == 0 {
        return Err(
            "--draw needs score=<cp, 0 or more> and moves=<n above 0> (after=<ply> is optional)"
                .into(),
        );
    }
    Ok(Some(d))
}

fn key_values<'a>(
    words: &'a [String],
    what: &str,
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out = Vec::new();
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("{what}: '{w}' is not KEY=VALUE"))?;
        if !keys.contains(&k) {
            return Err(format!(
                "{what}: unknown key '{k}' (known: {})",
                keys.join(", ")
            ));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn number<T: std::str::FromStr>(what: &str, key: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{what}: {key}='{v}' is not a valid number"))
}

/// A readable default name: the program's file name, or for an interpreter (`sh x.sh`) the
/// script's.
fn default_name(program: &str, args: &[String]) -> String {
    let base = |p: &str| {
        std::path::Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.to_string())
    };
    let prog = base(program);
    let interpreters = ["sh", "bash", "dash", "env", "python", "python3", "wine"];
    if interpreters.contains(&prog.as_str())
        && let Some(script) = args.iter().find(|a| !a.starts_with('-'))
    {
        return base(script);
    }
    prog
}

/// One `--engine` from its words (after `each`'s), numbered `index` in messages.
pub fn engine_spec(
    words: &[String],
    each: &[String],
    index: usize,
    global_tc: Option<&TimeControl>,
    global_margin: Duration,
) -> Result<EngineSpec, String> {
    let what = format!("--engine {}", index + 1);
    let mut cmd = None;
    let mut name = None;
    let mut proto = ProtoChoice::Auto;
    let mut dir = None;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut each_only: Vec<String> = Vec::new();
    let mut tc = global_tc.cloned();
    let mut margin = global_margin;
    let tagged = each.iter().map(|w| (w, true));
    for (w, from_each) in tagged.chain(words.iter().map(|w| (w, false))) {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("{what}: '{w}' is not KEY=VALUE (e.g. cmd=./chariot)"))?;
        match k {
            "cmd" => cmd = Some(v.to_string()),
            "name" => {
                if v.trim().is_empty() {
                    return Err(format!("{what}: empty name"));
                }
                name = Some(v.trim().to_string());
            }
            "proto" => {
                proto = match v.to_ascii_lowercase().as_str() {
                    "auto" => ProtoChoice::Auto,
                    "ucci" => ProtoChoice::Ucci,
                    "uci" => ProtoChoice::Uci,
                    _ => return Err(format!("{what}: proto '{v}' is not auto, ucci or uci")),
                }
            }
            "dir" => {
                let d = PathBuf::from(v);
                if !d.is_dir() {
                    return Err(format!("{what}: dir '{v}' is not a directory"));
                }
                dir = Some(d);
            }
            "tc" => tc = Some(TimeControl::parse(v).map_err(|e| format!("{what}: {e}"))?),
            "margin" => margin = Duration::from_millis(number(&what, k, v)?),
            _ => match k.strip_prefix("option.") {
                Some(opt) if !opt.trim().is_empty() => {
                    options.retain(|(n, _)| n != opt);
                    options.push((opt.to_string(), v.to_string()));
                    each_only.retain(|n| n != opt);
                    if from_each {
                        each_only.push(opt.to_string());
                    }
                }
                _ => {
                    return Err(format!(
                        "{what}: unknown key '{k}' (cmd, name, proto, dir, option.<Name>, tc, margin)"
                    ));
                }
            },
        }
    }
    let cmd = cmd.ok_or_else(|| format!("{what}: cmd=<path or command> is missing"))?;
    // a path with spaces that names a file is one word; otherwise split like a shell
    let words = if std::path::Path::new(&cmd).is_file() {
        vec![cmd.clone()]
    } else {
        split_command(&cmd).map_err(|e| format!("{what}: {e}"))?
    };
    let tc = tc.ok_or_else(|| {
        format!("{what}: no time control (give --tc, or tc=... for every engine)")
    })?;
    let program = words[0].clone();
    let args = words[1..].to_vec();
    Ok(EngineSpec {
        name: name.unwrap_or_else(|| default_name(&program, &args)),
        program,
        args,
        dir,
        proto,
        options,
        each_only,
        tc,
        margin,
        detected: AtomicU8::new(0),
    })
}

impl MatchConfig {
    pub fn from_args(args: MatchArgs) -> Result<MatchConfig, String> {
        let groups = args.engine_groups;
        let a = args.raw;
        if groups.len() < 2 {
            return Err(format!(
                "give --engine at least twice (got {})",
                groups.len()
            ));
        }
        let tc = a.tc.as_deref().map(TimeControl::parse).transpose()?;
        let margin = Duration::from_millis(a.margin);
        let mut engines = Vec::new();
        for (i, words) in groups.iter().enumerate() {
            engines.push(engine_spec(words, &a.each, i, tc.as_ref(), margin)?);
        }
        // names must tell the engines apart
        for i in 0..engines.len() {
            let clash = (0..i).any(|j| engines[j].name == engines[i].name);
            if clash {
                let base = engines[i].name.clone();
                let mut k = 2;
                while engines.iter().any(|e| e.name == format!("{base}-{k}")) {
                    k += 1;
                }
                engines[i].name = format!("{base}-{k}");
            }
        }
        if a.games == 0 || !a.games.is_multiple_of(2) {
            return Err(format!(
                "--games {} must be even and above 0: each opening is played twice, colours swapped",
                a.games
            ));
        }
        if a.rounds == 0 {
            return Err("--rounds must be at least 1".into());
        }
        if a.concurrency == 0 || a.concurrency > 256 {
            return Err(format!(
                "--concurrency {} is not from 1 to 256",
                a.concurrency
            ));
        }
        if !a.timeout.is_finite() || !(0.01..=86_400.0).contains(&a.timeout) {
            return Err(format!(
                "--timeout {} is not from 0.01 to 86400 seconds",
                a.timeout
            ));
        }
        let openings = match (a.openings, a.book) {
            (Some(_), Some(_)) => return Err("give either --openings or --book, not both".into()),
            (Some(f), None) => OpeningSource::File(f),
            (None, Some(f)) => OpeningSource::BookExport(f),
            (None, None) => OpeningSource::StartPosition,
        };
        let order = match a.order.to_ascii_lowercase().as_str() {
            "sequential" | "seq" => Order::Sequential,
            "random" => Order::Random,
            o => return Err(format!("--order '{o}' is not sequential or random")),
        };
        let seed_given = a.seed.is_some();
        let seed = a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        });
        let rules: RuleSet = a.rules.parse()?;
        let resign = parse_resign(a.resign.as_deref())?;
        let draw = parse_draw(a.draw.as_deref())?;
        let sprt = match a.sprt {
            None => None,
            Some(words) => {
                if engines.len() != 2 {
                    return Err("--sprt needs exactly two engines".into());
                }
                Some(parse_sprt(&words)?)
            }
        };
        let shard = a.shard.as_deref().map(Shard::parse).transpose()?;
        if shard.is_some() {
            if sprt.is_some() {
                return Err("--shard cannot be used with --sprt: a shard plays its games to the end and the SPRT judges the merged result".into());
            }
            if order == Order::Random && !seed_given {
                return Err("--shard with --order random needs --seed N: every shard must shuffle the openings the same way".into());
            }
        }
        let notation = Notation::parse(&a.notation)?;
        Ok(MatchConfig {
            engines,
            games: a.games,
            rounds: a.rounds,
            concurrency: a.concurrency,
            timeout: Duration::from_secs_f64(a.timeout),
            openings,
            order,
            seed,
            seed_given,
            rules,
            resign,
            draw,
            sprt,
            pgn: a.pgn,
            notation,
            pgn_comments: a.pgn_comments,
            json: a.json,
            log: a.log,
            event: a.event,
            quiet: a.quiet,
            shard,
            stop_file: a.stop_file,
        })
    }

    /// Everything that shapes the games beside the engines' names, commands and time
    /// controls, the openings, the seed and the shard (which the result files give apart):
    /// two shards can be merged only when this text is the same.
    pub fn settings_text(&self) -> String {
        let mut s = format!(
            "games {} rounds {} timeout {}s",
            self.games,
            self.rounds,
            self.timeout.as_secs_f64()
        );
        if let Some(r) = self.resign {
            s.push_str(&format!(" resign {r}"));
        }
        if let Some(d) = self.draw {
            s.push_str(&format!(" draw {d}"));
        }
        s.push_str(&format!(
            " notation {:?} event {:?}",
            self.notation, self.event
        ));
        for e in &self.engines {
            s.push_str(&format!(
                "; {}: proto {:?} margin {}ms",
                e.name,
                e.proto,
                e.margin.as_millis()
            ));
            if let Some(d) = &e.dir {
                s.push_str(&format!(" dir {:?}", d.display().to_string()));
            }
            for (k, v) in &e.options {
                s.push_str(&format!(" option.{k}={v}"));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(words: &[&str]) -> Result<EngineSpec, String> {
        let w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        engine_spec(
            &w,
            &[],
            0,
            Some(&TimeControl::Nodes(100)),
            Duration::from_millis(50),
        )
    }

    #[test]
    fn shards_split_the_pairs() {
        let s = Shard::parse("1/3").unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        let mine: Vec<usize> = (1..=8).filter(|&p| s.has_pair(p)).collect();
        assert_eq!(mine, [2, 5, 8]);
        // every pair in exactly one shard
        for p in 1..=20 {
            let owners = (0..3)
                .filter(|&k| Shard { index: k, count: 3 }.has_pair(p))
                .count();
            assert_eq!(owners, 1);
        }
        assert!(Shard::parse("0/1").is_ok());
        for bad in ["3/3", "0/0", "1", "-1/2", "a/b", "1/2/3", ""] {
            assert!(Shard::parse(bad).unwrap_err().contains("K/N"), "{bad}");
        }
    }

    #[test]
    fn engine_keys() {
        let e = spec(&[
            "cmd=sh engine-tests/faulty-engine.sh crash",
            "proto=ucci",
            "option.Hash=16",
            "option.Hash=32",
            "tc=depth=3",
            "margin=10",
        ])
        .unwrap();
        assert_eq!(e.program, "sh");
        assert_eq!(e.args, ["engine-tests/faulty-engine.sh", "crash"]);
        assert_eq!(e.name, "faulty-engine");
        assert_eq!(e.proto, ProtoChoice::Ucci);
        assert_eq!(e.options, [("Hash".to_string(), "32".to_string())]);
        assert_eq!(e.tc, TimeControl::Depth(3));
        assert_eq!(e.margin, Duration::from_millis(10));
        assert!(spec(&["name=x"]).unwrap_err().contains("cmd="));
        assert!(
            spec(&["cmd=x", "speed=9"])
                .unwrap_err()
                .contains("unknown key")
        );
        assert!(spec(&["cmd=x", "proto=xboard"]).is_err());
        assert!(spec(&["cmd=x", "tc=fast"]).is_err());
        assert!(spec(&["cmd=x", "dir=/no/such/dir"]).is_err());
        assert!(spec(&["cmd"]).is_err());
    }

    #[test]
    fn sprt_words_take_a_prior_whole_or_not_at_all() {
        let w = |text: &str| -> Vec<String> { text.split(' ').map(String::from).collect() };
        let s = parse_sprt(&w(
            "elo0=0 elo1=10 prior-wdl=29-92-29 prior-penta=1-17-41-13-3",
        ))
        .unwrap();
        let p = s.prior.unwrap();
        assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (29, 92, 29));
        assert_eq!(p.penta.0, [1, 17, 41, 13, 3]);
        assert!(parse_sprt(&w("elo0=0 elo1=10")).unwrap().prior.is_none());
        let half = parse_sprt(&w("elo0=0 elo1=10 prior-wdl=29-92-29")).unwrap_err();
        assert!(half.contains("together"), "{half}");
        let odd = parse_sprt(&w(
            "elo0=0 elo1=10 prior-wdl=29-92-30 prior-penta=1-17-41-13-3",
        ))
        .unwrap_err();
        assert!(odd.contains("same games"), "{odd}");
    }
}
