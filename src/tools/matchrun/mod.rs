//! `chariot match`: engine-vs-engine matches with Xiangqi's own rules. Engines are child
//! processes spoken to in UCCI or UCI; every game is judged move by move with `rules`
//! (mate, stalemate, perpetual check and chase verdicts, the move limit, bare material).
//! Openings are played in pairs with colours swapped; results give Elo with error bars,
//! LOS, pentanomial counts and an SPRT that can stop the match early.
//!
//! A run can be split into shards (`--shard K/N`: every N-th game pair of the same
//! schedule) played on different machines; `merge` joins their results into the report the
//! whole run would have given, and `compare` pairs two runs of the same openings game pair
//! by game pair (the change of one engine's Elo with the time control, the build or the
//! peer).
//!
//! Files: `args` (command line), `engine` (process and protocol), `tc` (time controls and
//! clocks), `openings`, `game` (the game loop and adjudication), `pgn`, `stats` (Elo, LOS,
//! SPRT), `report` (progress line, text report, JSON), `merge` (shards into one result),
//! `compare` (two runs paired by opening).

pub mod args;
pub mod compare;
pub mod engine;
pub mod game;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod report;
pub mod stats;
pub mod tc;

use args::{MatchArgs, MatchConfig, OpeningSource};
use engine::{EngineProcess, EngineSpec, Log};
use game::{Fatal, GameConfig, GameRecord, GameSetup};
use openings::Opening;
use report::{ReportInfo, ShardSet, Tally};
use stats::SprtState;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use tc::TimeControl;

/// The games of the match in the order they are handed out: for each round, each pair of
/// engines, each opening: the two games of the pair (colours swapped) one after the other.
/// Every pairing of a round uses the same openings.
pub fn schedule(
    engines: usize,
    games: usize,
    rounds: usize,
    openings: &[Arc<Opening>],
) -> Vec<GameSetup> {
    let mut out = Vec::new();
    let per_pair = games / 2;
    let mut pair_id = 0;
    for round in 0..rounds {
        for a in 0..engines {
            for b in a + 1..engines {
                for g in 0..per_pair {
                    let opening = &openings[(round * per_pair + g) % openings.len()];
                    pair_id += 1;
                    for engines in [[a, b], [b, a]] {
                        out.push(GameSetup {
                            id: out.len() + 1,
                            round: round + 1,
                            pair: pair_id,
                            opening: Arc::clone(opening),
                            engines,
                        });
                    }
                }
            }
        }
    }
    out
}

/// A shard's game pairs and the distinct openings among them, when the shard plays an
/// opening again although the schedule has openings it never reaches (`--shard K/N` takes
/// every N-th pair, so N sharing a factor with the number of openings narrows each shard to a
/// few openings; one opening for the whole shard when N equals it).
fn shard_repeats(jobs: &[GameSetup], openings: usize) -> Option<(usize, usize)> {
    let pairs: std::collections::HashSet<usize> = jobs.iter().map(|g| g.pair).collect();
    let distinct: std::collections::HashSet<*const Opening> =
        jobs.iter().map(|g| Arc::as_ptr(&g.opening)).collect();
    (distinct.len() < pairs.len() && distinct.len() < openings)
        .then_some((pairs.len(), distinct.len()))
}

enum Msg {
    Done(Box<GameRecord>),
    Fatal(String),
}

/// Plays `jobs` on `concurrency` worker threads, each with its own engine processes (one
/// per spec, started when first needed, restarted after a crash, quit at the end), and hands
/// every finished game to `on_game` on the calling thread in the order the games end.
/// `on_game` returns Ok(true) to go on, Ok(false) to hand out no more games (games under
/// way still end and are reported), or Err to stop at once: later games are dropped and the
/// error is returned. A worker's fatal error (an engine that cannot be run) is returned the
/// same way.
pub fn play_games(
    jobs: Vec<GameSetup>,
    specs: &[EngineSpec],
    game_cfg: &GameConfig,
    concurrency: usize,
    mut on_game: impl FnMut(GameRecord) -> Result<bool, String>,
) -> Result<(), String> {
    let total = jobs.len();
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<_>>());
    let abort = AtomicBool::new(false);
    let (tx, rx) = channel::<Msg>();
    let mut fatal: Option<String> = None;
    std::thread::scope(|scope| {
        for w in 0..concurrency.min(total.max(1)) {
            let tx = tx.clone();
            let (queue, abort, specs, game_cfg) = (&queue, &abort, specs, game_cfg);
            std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || {
                    let mut slots: Vec<Option<EngineProcess>> =
                        (0..specs.len()).map(|_| None).collect();
                    loop {
                        if abort.load(Ordering::Relaxed) {
                            break;
                        }
                        let job = match queue.lock() {
                            Ok(mut q) => q.pop_front(),
                            Err(_) => None,
                        };
                        let Some(job) = job else { break };
                        match game::play(&job, specs, &mut slots, game_cfg, abort) {
                            Ok(Some(rec)) => {
                                if tx.send(Msg::Done(Box::new(rec))).is_err() {
                                    break;
                                }
                            }
                            Ok(None) => break,
                            Err(Fatal(msg)) => {
                                let _ = tx.send(Msg::Fatal(msg));
                                break;
                            }
                        }
                    }
                    for e in slots.into_iter().flatten() {
                        e.quit();
                    }
                })
                .expect("a worker thread starts");
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Fatal(m) => {
                    fatal.get_or_insert(m);
                    abort.store(true, Ordering::Relaxed);
                }
                Msg::Done(rec) => {
                    if abort.load(Ordering::Relaxed) && fatal.is_some() {
                        continue;
                    }
                    match on_game(*rec) {
                        Ok(true) => {}
                        Ok(false) => abort.store(true, Ordering::Relaxed),
                        Err(m) => {
                            fatal.get_or_insert(m);
                            abort.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
    });
    match fatal {
        Some(m) => Err(m),
        None => Ok(()),
    }
}

/// Runs the match the command line describes; the report goes to stdout, the progress
/// lines to stderr.
pub fn run(args: MatchArgs) -> Result<(), String> {
    let cfg = MatchConfig::from_args(args)?;
    let openings: Vec<Opening> = match &cfg.openings {
        OpeningSource::StartPosition => vec![Opening::startpos()],
        OpeningSource::File(p) => openings::read_file(p, cfg.rules)?,
        OpeningSource::BookExport(p) => openings::from_book_export(p, cfg.rules)?,
    };
    let opening_text = match &cfg.openings {
        OpeningSource::StartPosition => "the start position".to_string(),
        OpeningSource::File(p) => format!("{} ({} lines", p.display(), openings.len()),
        OpeningSource::BookExport(p) => format!("book {} ({} lines", p.display(), openings.len()),
    };
    let opening_text = if matches!(cfg.openings, OpeningSource::StartPosition) {
        opening_text
    } else {
        format!(
            "{opening_text}, {})",
            match cfg.order {
                openings::Order::Sequential => "in order",
                openings::Order::Random => "shuffled",
            }
        )
    };
    let openings: Vec<Arc<Opening>> = openings::arrange(openings, cfg.order, cfg.seed)
        .into_iter()
        .map(Arc::new)
        .collect();
    let pairs_per_pairing = cfg.games / 2 * cfg.rounds;
    if pairs_per_pairing > openings.len()
        && cfg
            .engines
            .iter()
            .all(|e| matches!(e.tc, TimeControl::Nodes(_) | TimeControl::Depth(_)))
    {
        // a fixed-node or fixed-depth search plays the same game again from the same
        // opening: the repeats add games but no information
        eprintln!(
            "warning: {} game pairs a pairing from {} openings at fixed nodes or depth: openings repeat and so do their games; give at least {} openings",
            pairs_per_pairing,
            openings.len(),
            pairs_per_pairing
        );
    }
    let mut jobs = schedule(cfg.engines.len(), cfg.games, cfg.rounds, &openings);
    let run_games = jobs.len();
    // a shard keeps the full schedule's numbering, so shards never overlap
    if let Some(shard) = cfg.shard {
        jobs.retain(|g| shard.has_pair(g.pair));
        if let Some((pairs, distinct)) = shard_repeats(&jobs, openings.len()) {
            eprintln!(
                "warning: shard {}/{} plays {pairs} game pairs from only {distinct} of the {} openings (the shard count and the opening count share a factor): a shard count prime to {} spreads them",
                shard.index,
                shard.count,
                openings.len(),
                openings.len()
            );
        }
    }
    let total = jobs.len();

    let mut pgn_out = match &cfg.pgn {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        )),
        None => None,
    };
    if let Some(p) = &cfg.json {
        // fail now rather than after the match
        std::fs::write(p, "").map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let log = match &cfg.log {
        Some(p) => Some(Arc::new(Log::new(Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        ))))),
        None => None,
    };
    let game_cfg = GameConfig {
        rules: cfg.rules,
        timeout: cfg.timeout,
        resign: cfg.resign,
        draw: cfg.draw,
        log: log.clone(),
    };
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names.clone());
    let date = pgn::today();
    let mut stopped: Option<String> = None;
    let rules_text = cfg.rules.to_string();

    let result = play_games(jobs, &cfg.engines, &game_cfg, cfg.concurrency, |rec| {
        let mut failed = None;
        let pi = tally.add(&rec);
        if let Some(out) = pgn_out.as_mut() {
            let [r, b] = rec.setup.engines;
            let ctx = pgn::PgnContext {
                event: &cfg.event,
                date: &date,
                red: &names[r],
                black: &names[b],
                time_control: if cfg.engines[r].tc == cfg.engines[b].tc {
                    cfg.engines[r].tc.to_string()
                } else {
                    format!("{} / {}", cfg.engines[r].tc, cfg.engines[b].tc)
                },
                rules: &rules_text,
                comments: cfg.pgn_comments,
            };
            let text = pgn::game_pgn(&rec, &ctx, cfg.notation);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                failed = Some(format!("cannot write the PGN: {e}"));
            }
        }
        if !cfg.quiet {
            // a closed stderr must not stop the match
            let line = report::progress_line(&tally, &rec, pi, total, cfg.sprt.as_ref());
            let _ = writeln!(std::io::stderr(), "{line}");
        }
        let mut go_on = true;
        if let Some(sprt) = &cfg.sprt
            && stopped.is_none()
        {
            let (llr, state) = report::sprt_status(sprt, &tally.pairs[0]);
            if state != SprtState::Continue {
                stopped = Some(format!(
                    "SPRT {} with LLR {llr:.3}",
                    if state == SprtState::AcceptH1 {
                        "accepted H1"
                    } else {
                        "accepted H0"
                    }
                ));
                go_on = false;
            }
        }
        if let Some(file) = &cfg.stop_file
            && stopped.is_none()
            && file.exists()
        {
            stopped = Some(format!("stop file {} found", file.display()));
            go_on = false;
        }
        match failed {
            Some(m) => Err(m),
            None => Ok(go_on),
        }
    });
    if let Some(log) = &log {
        log.flush();
    }
    result?;
    let info = ReportInfo {
        engines: cfg
            .engines
            .iter()
            .map(|e| (e.name.clone(), e.command_line(), e.tc.to_string()))
            .collect(),
        rules: &rules_text,
        scheduled: total,
        stopped,
        sprt: cfg.sprt,
        seed: (cfg.order == openings::Order::Random).then_some(cfg.seed),
        openings: opening_text,
        openings_hash: report::openings_hash(&openings),
        settings: cfg.settings_text(),
        shards: ShardSet {
            count: cfg.shard.map_or(1, |s| s.count),
            indices: vec![cfg.shard.map_or(0, |s| s.index)],
            run_games,
        },
        prior: None,
    };
    let mut text = report::text_report(&tally, &info);
    if cfg.order == openings::Order::Random && !cfg.seed_given {
        text.push_str(&format!("(repeat this order with --seed {})\n", cfg.seed));
    }
    // written before the report so that a closed stdout cannot lose it
    if let Some(p) = &cfg.json {
        std::fs::write(p, report::json_report(&tally, &info))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `n` start positions named o0, o1, … (a schedule's openings told apart by name).
    pub(crate) fn numbered_openings(n: usize) -> Vec<Arc<Opening>> {
        (0..n)
            .map(|i| {
                let mut o = Opening::startpos();
                o.source = format!("o{i}");
                Arc::new(o)
            })
            .collect()
    }

    #[test]
    fn a_shard_count_sharing_a_factor_with_the_openings_is_caught() {
        let openings = numbered_openings(4);
        let shard_of = |k: usize, n: usize| -> Vec<GameSetup> {
            let shard = args::Shard { index: k, count: n };
            schedule(2, 16, 1, &openings)
                .into_iter()
                .filter(|g| shard.has_pair(g.pair))
                .collect()
        };
        // 8 pairs over 4 openings: every 4th pair is the same opening
        assert_eq!(shard_repeats(&shard_of(1, 4), 4), Some((2, 1)));
        assert_eq!(shard_repeats(&shard_of(0, 2), 4), Some((4, 2)));
        // 3 is prime to 4: each shard's pairs take different openings
        assert_eq!(shard_repeats(&shard_of(0, 3), 4), None);
        // more pairs than openings in the whole run: repeats are unavoidable, no warning
        let all: Vec<GameSetup> = schedule(2, 16, 1, &openings);
        assert_eq!(shard_repeats(&all, 4), None);
    }

    #[test]
    fn schedule_pairs_swap_colours_and_share_openings() {
        let openings = numbered_openings(3);
        let s = schedule(3, 4, 2, &openings);
        // 3 pairings x 4 games x 2 rounds
        assert_eq!(s.len(), 24);
        for pair in s.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].engines, [pair[1].engines[1], pair[1].engines[0]]);
            assert!(Arc::ptr_eq(&pair[0].opening, &pair[1].opening));
        }
        let ids: Vec<usize> = s.iter().map(|g| g.id).collect();
        assert_eq!(ids, (1..=24).collect::<Vec<_>>());
        // round 1: every pairing plays openings o0, o1; round 2: o2, o0
        let src = |i: usize| s[i].opening.source.clone();
        assert_eq!(
            (src(0), src(2), src(4)),
            ("o0".into(), "o1".into(), "o0".into())
        );
        assert_eq!((src(12), src(14)), ("o2".into(), "o0".into()));
    }
}
