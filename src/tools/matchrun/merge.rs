//! `chariot match merge`: the JSON results of shards of one run (`--shard K/N`) read back,
//! checked to belong together (same engines, time controls, openings, seed, settings and
//! shard count; no shard twice; an engine whose binary was copied elsewhere between shards
//! is the same engine if the bytes are) and to add up, then counted again game by game into the
//! report, JSON and PGN the whole run would have written.

use super::args::MergeArgs;
use super::game::Termination;
use super::report::{self, GameLine, MatchJson, ReportInfo, ShardSet, Tally};
use super::stats::Prior;
use crate::tools::json::{self, Header};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// One result file (a shard's, a whole run's or a merged one), read and checked on its
/// own; `chariot match compare` reads its runs through [`read_run`] too.
pub(super) struct ShardFile {
    pub path: String,
    /// (name, command, time control) by engine index, as the games' `red`/`black` count.
    pub engines: Vec<(String, String, String)>,
    pub rules: String,
    pub openings: String,
    pub openings_hash: String,
    pub settings: String,
    pub seed: Option<u64>,
    pub shards: ShardSet,
    pub scheduled: usize,
    pub games: Vec<GameLine>,
    pub overhead: BTreeMap<u64, u64>,
    /// Think time and depth by engine and move number; `None` in files written before
    /// they were recorded.
    pub search: Option<Vec<report::SearchBands>>,
}

/// The result files of one run (its shards, merged or not), each read and checked, then
/// checked to belong together: what `match merge` joins and `match compare` compares.
pub(super) fn read_run(paths: &[std::path::PathBuf]) -> Result<Vec<ShardFile>, String> {
    if paths.is_empty() {
        return Err("no result files given".into());
    }
    let files = paths
        .iter()
        .map(|f| read_shard(f))
        .collect::<Result<Vec<_>, _>>()?;
    check_same_run(&files)?;
    let mut ids = std::collections::HashSet::new();
    for f in &files {
        for g in &f.games {
            if !ids.insert(g.id) {
                return Err(format!("game {} is in more than one file", g.id));
            }
        }
    }
    Ok(files)
}

fn read_shard(file: &Path) -> Result<ShardFile, String> {
    let path = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {path}: {e}"))?;
    let head: Header = json::read(&text).map_err(|e| format!("{path}: {e}"))?;
    if head.format() != Some(report::JSON_FORMAT)
        || head.version() != Some(u64::from(report::JSON_VERSION))
    {
        return Err(format!(
            "{path}: not a `chariot match --json` result of format version {} (play it again with this build)",
            report::JSON_VERSION
        ));
    }
    let doc: MatchJson = json::read(&text).map_err(|e| format!("{path}: {e}"))?;
    if let Some(why) = &doc.stopped {
        return Err(format!(
            "{path}: that run was stopped early ({why}); only runs played to the end can be merged or compared"
        ));
    }
    let engines: Vec<(String, String, String)> = doc
        .engines
        .iter()
        .map(|e| (e.name.clone(), e.command.clone(), e.tc.clone()))
        .collect();
    if engines.len() < 2 {
        return Err(format!("{path}: fewer than two engines"));
    }
    let shards = doc.shards.clone();
    let mut sorted = shards.indices.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if shards.count == 0
        || sorted.len() != shards.indices.len()
        || sorted.iter().any(|&i| i >= shards.count)
    {
        return Err(format!(
            "{path}: its shard indices do not fit its shard count"
        ));
    }
    let name_index = |name: &str| -> Result<usize, String> {
        engines
            .iter()
            .position(|e| e.0 == name)
            .ok_or_else(|| format!("{path}: a game names engine '{name}', which is not listed"))
    };
    let mut games = Vec::new();
    for g in &doc.games {
        let id = g.id;
        let result = match g.result.as_str() {
            "1-0" => "1-0",
            "0-1" => "0-1",
            "1/2-1/2" => "1/2-1/2",
            r => return Err(format!("{path}: game {id} has result '{r}'")),
        };
        let termination = Termination::from_key(&g.termination).ok_or_else(|| {
            format!(
                "{path}: game {id} has an unknown termination '{}'",
                g.termination
            )
        })?;
        let fault = g.fault.as_deref().map(name_index).transpose()?;
        let (red, black) = (name_index(&g.red)?, name_index(&g.black)?);
        if id == 0 || id > shards.run_games || g.pair == 0 || red == black {
            return Err(format!("{path}: game {id} does not fit the run's schedule"));
        }
        if !shards.indices.contains(&((g.pair - 1) % shards.count)) {
            return Err(format!(
                "{path}: game {id} (pair {}) does not belong to its shards",
                g.pair
            ));
        }
        games.push(GameLine {
            id,
            round: g.round,
            pair: g.pair,
            red,
            black,
            result,
            termination,
            fault,
            reason: g.reason.clone(),
            plies: g.plies,
            opening: g.opening.clone(),
        });
    }
    let mut overhead = BTreeMap::new();
    for &(us, n) in &doc.overhead_hist_us {
        *overhead.entry(us).or_insert(0) += n;
    }
    let search = match &doc.search {
        None => None,
        Some(list) => {
            let names: Vec<String> = engines.iter().map(|e| e.0.clone()).collect();
            Some(report::SearchJson::read(list, &names).ok_or_else(|| {
                format!(
                    "{path}: its search summary does not fit its engines or this build's move bands"
                )
            })?)
        }
    };
    let file = ShardFile {
        engines,
        rules: doc.rules.clone(),
        openings: doc.openings.clone(),
        openings_hash: doc.openings_hash.clone(),
        settings: doc.settings.clone(),
        seed: doc.seed,
        shards,
        scheduled: doc.games_scheduled,
        games,
        overhead,
        search,
        path,
    };
    check_totals(&file, &doc)?;
    Ok(file)
}

/// The file's games counted again must give the totals it states (a cut or edited file
/// would not).
fn check_totals(f: &ShardFile, doc: &MatchJson) -> Result<(), String> {
    let path = &f.path;
    let names: Vec<String> = f.engines.iter().map(|e| e.0.clone()).collect();
    let mut t = Tally::new(names);
    let mut ids = std::collections::HashSet::new();
    for g in &f.games {
        if !ids.insert(g.id) {
            return Err(format!("{path}: game {} is listed twice", g.id));
        }
        t.add_line(g.clone());
    }
    let played = doc.games_played;
    let mut ok =
        played == f.games.len() && played <= f.scheduled && doc.pairs.len() == t.pairs.len();
    for (p, s) in t.pairs.iter().zip(&doc.pairs) {
        ok &= s.first == t.names[p.first]
            && s.second == t.names[p.second]
            && (s.wins, s.draws, s.losses) == (p.wdl.wins, p.wdl.draws, p.wdl.losses)
            && s.pentanomial == p.penta.0;
    }
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{path}: its games do not add up to its totals (W-D-L, pentanomial or games played): the file was changed or cut short"
        ))
    }
}

/// Refuses files that are not shards of one run, or that hold a shard twice.
fn check_same_run(files: &[ShardFile]) -> Result<(), String> {
    let a = &files[0];
    for b in &files[1..] {
        let differ = |what: &str, x: String, y: String| -> Result<(), String> {
            if x == y {
                Ok(())
            } else {
                Err(format!(
                    "{} and {} are from different runs: {what} differ ({x} vs {y})",
                    a.path, b.path
                ))
            }
        };
        let engines = |f: &ShardFile| {
            f.engines
                .iter()
                .map(|(n, c, _)| format!("{n}: {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let same_engines = a.engines.len() == b.engines.len()
            && a.engines
                .iter()
                .zip(&b.engines)
                .all(|(x, y)| x.0 == y.0 && same_command(&x.1, &y.1));
        let tcs = |f: &ShardFile| {
            f.engines
                .iter()
                .map(|(_, _, tc)| tc.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !same_engines {
            differ("the engines", engines(a), engines(b))?;
        }
        differ("the time controls", tcs(a), tcs(b))?;
        differ("the rules", a.rules.clone(), b.rules.clone())?;
        let seed = |f: &ShardFile| f.seed.map_or("none".into(), |s| s.to_string());
        differ("the seeds", seed(a), seed(b))?;
        differ(
            "the shard counts N",
            a.shards.count.to_string(),
            b.shards.count.to_string(),
        )?;
        differ(
            "the games in the run",
            a.shards.run_games.to_string(),
            b.shards.run_games.to_string(),
        )?;
        differ("the openings", a.openings.clone(), b.openings.clone())?;
        differ(
            "the openings' contents or order",
            a.openings_hash.clone(),
            b.openings_hash.clone(),
        )?;
        differ("the settings", a.settings.clone(), b.settings.clone())?;
    }
    let mut owner: HashMap<usize, &str> = HashMap::new();
    for f in files {
        for &i in &f.shards.indices {
            if let Some(other) = owner.insert(i, &f.path) {
                return Err(format!(
                    "{other} and {} both hold shard {i}/{}: give each shard once",
                    f.path, f.shards.count
                ));
            }
        }
    }
    Ok(())
}

/// Whether two engine commands run the same engine: the same words, or words that differ
/// only where both name files of the same bytes (one binary copied to another folder
/// between shards). A path that no longer exists counts as different.
fn same_command(x: &str, y: &str) -> bool {
    if x == y {
        return true;
    }
    // a folder or a missing path fails to read, so only two readable files of equal bytes pass
    let same_file =
        |p: &str, q: &str| matches!((std::fs::read(p), std::fs::read(q)), (Ok(a), Ok(b)) if a == b);
    if same_file(x, y) {
        return true;
    }
    let (xs, ys): (Vec<&str>, Vec<&str>) = (
        x.split_whitespace().collect(),
        y.split_whitespace().collect(),
    );
    xs.len() == ys.len() && xs.iter().zip(&ys).all(|(p, q)| p == q || same_file(p, q))
}

/// The games of a PGN file, each with its text.
fn split_pgn(text: &str) -> Vec<String> {
    let is_tag = |l: &str| {
        let l = l.trim();
        l.starts_with('[') && l.ends_with(']') && l.contains(" \"")
    };
    let mut games = Vec::new();
    let mut cur = String::new();
    let mut in_tags = false;
    for line in text.lines() {
        let tag = is_tag(line);
        if tag && !in_tags && !cur.trim().is_empty() {
            games.push(std::mem::take(&mut cur));
        }
        if !line.trim().is_empty() {
            in_tags = tag;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        games.push(cur);
    }
    games
}

fn pgn_tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let pat = format!("[{name} \"");
    game.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix(pat.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

/// The shards' PGN games, checked against the merged results and ordered by game number.
fn merge_pgn(inputs: &[std::path::PathBuf], t: &Tally) -> Result<String, String> {
    let by_id: HashMap<usize, &GameLine> = t.games.iter().map(|g| (g.id, g)).collect();
    let mut games: BTreeMap<usize, (String, String)> = BTreeMap::new();
    for p in inputs {
        let path = p.display().to_string();
        let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (n, game) in split_pgn(&text).into_iter().enumerate() {
            let id = pgn_tag(&game, "Round")
                .and_then(|r| r.split_once('.'))
                .and_then(|(_, id)| id.parse::<usize>().ok())
                .ok_or_else(|| {
                    format!(
                        "{path}: game {} has no Round tag \"<round>.<game number>\"",
                        n + 1
                    )
                })?;
            let Some(g) = by_id.get(&id) else {
                return Err(format!(
                    "{path}: game {id} is not in the merged JSON results (a PGN of another run or shard?)"
                ));
            };
            let agrees = pgn_tag(&game, "Red") == Some(t.names[g.red].as_str())
                && pgn_tag(&game, "Black") == Some(t.names[g.black].as_str())
                && pgn_tag(&game, "Result") == Some(g.result);
            if !agrees {
                return Err(format!(
                    "{path}: game {id} differs from the JSON results in Red, Black or Result (a PGN of another run?)"
                ));
            }
            if let Some((other, _)) = games.insert(id, (path.clone(), game)) {
                return Err(format!(
                    "game {id} is in {other} and in {path}: give each shard's PGN once"
                ));
            }
        }
    }
    if let Some(g) = t.games.iter().find(|g| !games.contains_key(&g.id)) {
        return Err(format!(
            "game {} of the JSON results is in none of the PGN files ({} of {} games found)",
            g.id,
            games.len(),
            t.games.len()
        ));
    }
    let mut out = String::new();
    for (_, game) in games.values() {
        let _ = write!(out, "{}\n\n", game.trim_end());
    }
    Ok(out)
}

/// Merges the shards' results: the report to stdout, `--json` and `--pgn` written.
pub fn run(args: MergeArgs) -> Result<(), String> {
    let files = read_run(&args.files)?;
    let first = &files[0];
    if (args.sprt.is_some() || args.prior_wdl.is_some()) && first.engines.len() != 2 {
        return Err("--sprt and --prior-wdl need a match of exactly two engines".into());
    }
    // clap requires the two flags together
    let mut prior = args
        .prior_wdl
        .as_deref()
        .zip(args.prior_penta.as_deref())
        .map(|(w, p)| Prior::parse(w, p).map_err(|e| format!("--{e}")))
        .transpose()?;
    let sprt = match &args.sprt {
        None => None,
        Some(words) => {
            let mut s = super::args::parse_sprt(words)?;
            if prior.is_some() {
                if s.prior.is_some() {
                    return Err(
                        "the prior is given twice: by --prior-wdl/--prior-penta and in --sprt"
                            .into(),
                    );
                }
                // the SPRT's report line shows it: the test counts these games
                s.prior = prior.take();
            }
            Some(s)
        }
    };
    let names: Vec<String> = first.engines.iter().map(|e| e.0.clone()).collect();
    let mut tally = Tally::new(names);
    let mut games: Vec<&GameLine> = files.iter().flat_map(|f| &f.games).collect();
    games.sort_by_key(|g| g.id);
    for g in games {
        tally.add_line(g.clone());
    }
    for f in &files {
        for (&us, &n) in &f.overhead {
            *tally.overhead.entry(us).or_insert(0) += n;
        }
        tally.add_search(f.search.as_deref());
    }
    let mut indices: Vec<usize> = files
        .iter()
        .flat_map(|f| f.shards.indices.iter().copied())
        .collect();
    indices.sort_unstable();
    let info = ReportInfo {
        engines: first.engines.clone(),
        rules: &first.rules,
        scheduled: files.iter().map(|f| f.scheduled).sum(),
        stopped: None,
        sprt,
        seed: first.seed,
        openings: first.openings.clone(),
        openings_hash: first.openings_hash.clone(),
        settings: first.settings.clone(),
        shards: ShardSet {
            count: first.shards.count,
            indices,
            run_games: first.shards.run_games,
        },
        prior,
    };
    let pgn = match &args.pgn {
        Some(_) => Some(merge_pgn(&args.pgn_in, &tally)?),
        None => None,
    };
    if let Some(p) = &args.json {
        std::fs::write(p, report::json_report(&tally, &info))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let (Some(p), Some(text)) = (&args.pgn, pgn) {
        std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(report::text_report(&tally, &info).as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_games_split_at_their_tags() {
        let text = "[Game \"Chinese Chess\"]\n[Round \"1.2\"]\n\n1. H2-E2 {a [b] c}\n[not a tag]\n1-0\n\n\
                    [Game \"Chinese Chess\"]\n[Round \"1.1\"]\n\n1. H2-E2 0-1\n";
        let games = split_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(pgn_tag(&games[0], "Round"), Some("1.2"));
        assert!(games[0].contains("[not a tag]"));
        assert_eq!(pgn_tag(&games[1], "Round"), Some("1.1"));
        assert_eq!(pgn_tag(&games[1], "Red"), None);
        assert!(split_pgn("\n\n").is_empty());
    }
}
