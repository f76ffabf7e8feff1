//! `chariot match` end to end: Chariot against itself at fixed nodes (legal moves, results
//! the rules confirm, well-formed PGN), a faulty engine that loses every game for the right
//! reason while the match goes on, the repetition cases of `verdicts.txt` replayed through
//! the runner by a scripted engine, draw offers, SPRT stops, bad command lines, and a run
//! played in shards and merged (`--shard K/N`, `chariot match merge`, and
//! `scripts/shards.sh`, which plays them in turn and stops when the SPRT decides), and two runs
//! compared pair by pair (`chariot match compare`, on results made up game by game).
//! The scripted engines are `engine-tests/faulty-engine.sh` (POSIX sh).

use chariot::rules::{GameResult, RuleSet};
use chariot::tools::judge;
use chariot::tools::matchrun::game::Termination;
use chariot::tools::matchrun::report::{self, GameLine, ReportInfo, ShardSet, Tally};
use std::path::PathBuf;
use std::process::Command;

fn chariot() -> &'static str {
    env!("CARGO_BIN_EXE_chariot")
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join(name)
}

fn faulty(args: &str) -> String {
    format!("cmd=sh {} {args}", data("faulty-engine.sh").display())
}

/// A scratch file path unique to this test process and `name`.
fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chariot-match-{}-{name}", std::process::id()))
}

struct Run {
    ok: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_match(args: &[String]) -> Run {
    let out = Command::new(chariot())
        .arg("match")
        .args(args)
        .output()
        .expect("chariot runs");
    Run {
        ok: out.status.success(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn words(s: &[&str]) -> Vec<String> {
    s.iter().map(|w| w.to_string()).collect()
}

/// One game line of the JSON report.
#[derive(Debug)]
struct Row {
    red: String,
    black: String,
    result: String,
    termination: String,
    /// The engine that lost by a fault ("" for none).
    fault: String,
    reason: String,
    plies: usize,
}

/// A JSON report read as a value.
fn doc(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn rows(json: &str) -> Vec<Row> {
    doc(json)["games"]
        .as_array()
        .expect("a list of games")
        .iter()
        .map(|g| {
            let text = |k: &str| g[k].as_str().unwrap_or_else(|| panic!("{k} in {g}")).into();
            Row {
                red: text("red"),
                black: text("black"),
                result: text("result"),
                termination: text("termination"),
                fault: g["fault"].as_str().unwrap_or("").into(),
                reason: text("reason"),
                plies: g["plies"].as_u64().expect("plies is a number") as usize,
            }
        })
        .collect()
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const OVER_THE_BOARD: [&str; 7] = [
    "checkmate",
    "stalemate",
    "repetition",
    "move-limit",
    "insufficient-material",
    "resignation",
    "draw-agreed",
];

fn pgn_result(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Ongoing => "*",
    }
}

fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let pat = format!("[{name} \"");
    let at = game.find(&pat)? + pat.len();
    game[at..].split("\"]").next()
}

#[test]
fn chariot_against_chariot_at_fixed_nodes() {
    let openings = scratch("self.epd");
    std::fs::write(
        &openings,
        "# two openings: moves from the start, and a FEN (black to move) with a move\n\
         h2e2 h9g7\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1 moves h9g7\n",
    )
    .unwrap();
    let (pgn, json) = (scratch("self.pgn"), scratch("self.json"));
    let r = run_match(&[
        "--engine".into(),
        format!("cmd={}", chariot()),
        "name=Red-ucci".into(),
        "proto=ucci".into(),
        "option.Hash=8".into(),
        "--engine".into(),
        format!("cmd={}", chariot()),
        "name=Blue-uci".into(),
        "proto=uci".into(),
        "option.Hash=8".into(),
        "--tc".into(),
        "nodes=2000".into(),
        "--games".into(),
        "4".into(),
        "--concurrency".into(),
        "2".into(),
        "--openings".into(),
        openings.display().to_string(),
        "--pgn".into(),
        pgn.display().to_string(),
        "--pgn-comments".into(),
        "--json".into(),
        json.display().to_string(),
    ]);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("4 of 4 games played"), "{}", r.stdout);
    let json = read(&json);
    let games = rows(&json);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(
            OVER_THE_BOARD.contains(&g.termination.as_str()),
            "a fault in Chariot vs Chariot: {g:?}"
        );
        assert!(g.plies > 1, "{g:?}");
    }
    // pairs swap colours
    assert_eq!(
        (games[0].red.as_str(), games[1].red.as_str()),
        ("Red-ucci", "Blue-uci")
    );
    assert_eq!(games[0].red, games[1].black);
    assert_eq!(
        doc(&json)["faults"],
        serde_json::json!({"Red-ucci": {}, "Blue-uci": {}}),
        "{json}"
    );

    // the PGN: four games, each with the tags and moves the rules confirm
    let text = read(&pgn);
    let chunks: Vec<&str> = text
        .split("[Game \"Chinese Chess\"]")
        .filter(|c| !c.trim().is_empty())
        .collect();
    assert_eq!(chunks.len(), 4);
    for (i, game) in chunks.iter().enumerate() {
        for t in [
            "Event",
            "Date",
            "Round",
            "Red",
            "Black",
            "Result",
            "Opening",
            "Termination",
        ] {
            assert!(tag(game, t).is_some(), "game {}: no {t} tag", i + 1);
        }
        assert_eq!(tag(game, "Format"), Some("ICCS"));
        assert_eq!(tag(game, "TimeControl"), Some("nodes=2000"));
        assert_eq!(tag(game, "Rules"), Some("cxa"));
        // games are written as they finish; Round is "<round>.<game number>"
        let id: usize = tag(game, "Round")
            .and_then(|r| r.split('.').nth(1))
            .and_then(|n| n.parse().ok())
            .expect("Round tag 1.<game>");
        let row = &games[id - 1];
        assert_eq!(tag(game, "Red"), Some(row.red.as_str()));
        assert_eq!(tag(game, "Result"), Some(row.result.as_str()));
        assert_eq!(tag(game, "PlyCount"), Some(row.plies.to_string().as_str()));
        // the second opening (games 3 and 4) starts from a FEN
        assert_eq!(tag(game, "FEN").is_some(), id >= 3, "game {id}");
        let parsed = judge::parse_pgn(game).expect("the PGN reads back");
        assert_eq!(parsed.moves.len(), row.plies, "game {id}");
        // --pgn-comments: every engine move (not the opening's 2 or 1) has its score,
        // depth and think time, `{+0.35/14 0.012s}`
        let movetext = game.replace('\n', " ");
        let comments: Vec<&str> = movetext
            .split('{')
            .skip(1)
            .filter_map(|c| c.split('}').next())
            .filter(|c| {
                let Some((score, rest)) = c.split_once('/') else {
                    return false;
                };
                let Some((depth, time)) = rest.split_once(' ') else {
                    return false;
                };
                (score.starts_with('+') || score.starts_with('-'))
                    && (score[1..].parse::<f64>().is_ok() || score[1..].starts_with('M'))
                    && depth.parse::<u32>().is_ok_and(|d| d >= 1)
                    && time
                        .strip_suffix('s')
                        .is_some_and(|t| t.parse::<f64>().is_ok())
            })
            .collect();
        let opening_plies = if id >= 3 { 1 } else { 2 };
        assert_eq!(
            comments.len(),
            row.plies - opening_plies,
            "game {id}: {game}"
        );
        // every move legal (judge refuses an illegal one), and the verdict of the rules
        // is the game's result where the rules ended it
        let j = judge::judge(&parsed, RuleSet::Cxa).unwrap_or_else(|e| panic!("game {id}: {e}"));
        assert_eq!(j.ignored, 0, "game {id} went on after it had ended");
        if row.termination == "resignation" || row.termination == "draw-agreed" {
            assert_eq!(j.verdict.result, GameResult::Ongoing, "game {id}");
        } else {
            assert_eq!(pgn_result(j.verdict.result), row.result, "game {id}");
            assert_eq!(j.ply, row.plies, "game {id}");
        }
    }
    for p in [openings, pgn] {
        let _ = std::fs::remove_file(p);
    }
}

/// Chariot against a faulty engine in one mode: both games (one per colour) must go to
/// Chariot with `termination`, and each reason must contain `why`.
fn faulty_match(mode: &str, faulty_tc: &str, termination: &str, why: &str) {
    let json = scratch(&format!("faulty-{mode}.json"));
    let r = run_match(&[
        "--engine".into(),
        format!("cmd={}", chariot()),
        "name=Chariot".into(),
        "--engine".into(),
        faulty(mode),
        "name=Faulty".into(),
        format!("tc={faulty_tc}"),
        "--tc".into(),
        "nodes=2000".into(),
        "--games".into(),
        "2".into(),
        "--timeout".into(),
        "1".into(),
        "--json".into(),
        json.display().to_string(),
    ]);
    assert!(r.ok, "{mode}: {}\n{}", r.stdout, r.stderr);
    let games = rows(&read(&json));
    assert_eq!(
        games.len(),
        2,
        "{mode}: the match must go on after the first fault"
    );
    for g in &games {
        let chariot_won = (g.red == "Chariot" && g.result == "1-0")
            || (g.black == "Chariot" && g.result == "0-1");
        assert!(chariot_won, "{mode}: {g:?}");
        assert_eq!(g.termination, termination, "{mode}: {g:?}");
        assert!(g.reason.contains(why), "{mode}: {g:?}");
        assert!(g.reason.contains("(Faulty)"), "{mode}: {g:?}");
        let want = if termination == "resignation" {
            ""
        } else {
            "Faulty"
        };
        assert_eq!(g.fault, want, "{mode}: {g:?}");
    }
    let stdout = &r.stdout;
    assert!(
        stdout.contains("Losses by fault, Chariot: none"),
        "{stdout}"
    );
    let _ = std::fs::remove_file(json);
}

#[test]
fn illegal_move_loses() {
    faulty_match("illegal", "nodes=1", "illegal-move", "illegal move 'i9i0'");
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    // the second game needs a new process: it too gets as far as a move before crashing
    faulty_match("crash", "nodes=1", "crash", "exited with status 3");
}

#[test]
fn hang_loses_and_is_killed() {
    faulty_match("hang", "nodes=1", "no-answer", "did not answer at ply");
}

#[test]
fn silence_loses_at_start_up() {
    faulty_match("silent", "nodes=1", "no-answer", "at start-up");
}

#[test]
fn no_move_loses() {
    faulty_match("nomove", "nodes=1", "illegal-move", "gave no move");
}

#[test]
fn slow_engine_loses_on_time() {
    // 0.3 s for the game against a 2 s sleep: a forfeit by any measure
    faulty_match("slow", "0.3", "time-forfeit", "lost on time");
}

#[test]
fn resignation_is_honoured() {
    faulty_match("resign", "nodes=1", "resignation", "resigns");
}

/// Plays `moves` from `fen` with the scripted engine on both sides; returns the two games.
fn replay(fen: &str, moves: &str, rules: &str, tag: &str) -> Vec<Row> {
    replay_with(fen, moves, rules, tag, &[])
}

fn replay_with(fen: &str, moves: &str, rules: &str, tag: &str, extra: &[&str]) -> Vec<Row> {
    let openings = scratch(&format!("{tag}.epd"));
    let json = scratch(&format!("{tag}.json"));
    std::fs::write(&openings, format!("{fen}\n")).unwrap();
    let engine = faulty(&format!("replay {moves}"));
    let r = run_match(
        &[
            "--engine".into(),
            engine.clone(),
            "name=First".into(),
            "proto=ucci".into(),
            "--engine".into(),
            engine,
            "name=Second".into(),
            "proto=ucci".into(),
            "--tc".into(),
            "depth=1".into(),
            "--games".into(),
            "2".into(),
            "--rules".into(),
            rules.into(),
            "--openings".into(),
            openings.display().to_string(),
            "--json".into(),
            json.display().to_string(),
            "--quiet".into(),
        ]
        .into_iter()
        .chain(words(extra))
        .collect::<Vec<_>>(),
    );
    assert!(r.ok, "{tag}: {}\n{}", r.stdout, r.stderr);
    let games = rows(&read(&json));
    let _ = std::fs::remove_file(openings);
    let _ = std::fs::remove_file(json);
    games
}

#[test]
fn verdict_cases_end_the_same_way_through_the_runner() {
    let text = read(&data("verdicts.txt"));
    let mut cases = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = l.split('|').map(str::trim).collect();
        for item in f[3].split_whitespace() {
            let (rules, want) = item.split_once('=').expect("rules=result");
            cases.push((
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                rules.to_string(),
                want.to_string(),
            ));
        }
    }
    assert!(cases.len() >= 90, "only {} cases", cases.len());
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((id, fen, moves, rules, want)) = cases.get(i) else {
                        break;
                    };
                    let n = moves.split_whitespace().count();
                    let games = replay(fen, moves, rules, &format!("{id}-{rules}"));
                    for g in &games {
                        let ok = if want == "ongoing" {
                            // not over after the last move: the side to move then has no
                            // move to give and loses by that fault, one ply later
                            g.termination == "illegal-move" && g.plies == n
                        } else {
                            let result = match want.as_str() {
                                "red" => "1-0",
                                "black" => "0-1",
                                _ => "1/2-1/2",
                            };
                            g.result == result
                                && OVER_THE_BOARD.contains(&g.termination.as_str())
                                && g.plies == n
                        };
                        if !ok {
                            failures.lock().unwrap().push(format!(
                                "{id} {rules}: want {want} after {n} plies, got {g:?}"
                            ));
                        }
                    }
                    if games.len() != 2 {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{id} {rules}: {} games", games.len()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn draw_offers_stand_for_one_move() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    // red offers with its move, black accepts with its answer: drawn, black's move unplayed
    let games = replay(start, "h2e2+draw h9g7+draw", "cxa", "draw-accepted");
    for g in &games {
        assert_eq!(
            (g.result.as_str(), g.termination.as_str(), g.plies),
            ("1/2-1/2", "draw-agreed", 1),
            "{g:?}"
        );
    }
    // declined: the game goes on, and a later draw word is only an offer
    let games = replay(start, "h2e2+draw h9g7 h0g2+draw", "cxa", "draw-declined");
    for g in &games {
        // black has no fourth move: it loses by that fault at ply 4
        assert_eq!(
            (g.result.as_str(), g.termination.as_str(), g.plies),
            ("1-0", "illegal-move", 3),
            "{g:?}"
        );
    }
}

#[test]
fn score_adjudication_needs_both_engines() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    // red reports +600 and +700, black -600 and -700: after black's second such score both
    // agree for two moves each, and black loses at ply 4
    let line = "h2e2@600 h9g7@-600 h0g2@700 i9h9@-700 b0c2@800";
    let resign = ["--resign", "score=500", "moves=2"];
    for g in replay_with(start, line, "cxa", "adj-resign", &resign) {
        assert_eq!(
            (g.result.as_str(), g.termination.as_str(), g.plies),
            ("1-0", "adjudicated-loss", 4),
            "{g:?}"
        );
    }
    // one side alone is not enough: black only ever says -100
    let line = "h2e2@600 h9g7@-100 h0g2@700 i9h9@-100";
    for g in replay_with(start, line, "cxa", "adj-one-sided", &resign) {
        assert_eq!(
            (g.termination.as_str(), g.plies),
            ("illegal-move", 4),
            "{g:?}"
        );
    }
    // quiet scores: a draw once both sides have two within ±10 and ply 3 is reached
    let line = "h2e2@0 h9g7@5 h0g2@-5 i9h9@0 b0c2@0";
    let draw = ["--draw", "score=10", "moves=2", "after=3"];
    for g in replay_with(start, line, "cxa", "adj-draw", &draw) {
        assert_eq!(
            (g.result.as_str(), g.termination.as_str(), g.plies),
            ("1/2-1/2", "adjudicated-draw", 4),
            "{g:?}"
        );
    }
}

#[test]
fn sprt_stops_a_one_sided_match() {
    let json = scratch("sprt.json");
    let r = run_match(&[
        "--engine".into(),
        format!("cmd={}", chariot()),
        "name=Chariot".into(),
        "--engine".into(),
        faulty("illegal"),
        "--tc".into(),
        "nodes=500".into(),
        "--games".into(),
        "400".into(),
        "--sprt".into(),
        "elo0=0".into(),
        "elo1=10".into(),
        "alpha=0.05".into(),
        "beta=0.05".into(),
        "--json".into(),
        json.display().to_string(),
    ]);
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let json = read(&json);
    let played = doc(&json)["games_played"].as_u64().unwrap();
    // every pair won: the LLR grows by ln(s1 / s0) = 0.0284 a pair, H1 after 104 pairs
    assert!(played < 400, "{played}");
    assert_eq!(doc(&json)["sprt"]["state"], "H1", "{json}");
    // what scripts/sprt.sh looks for
    assert!(json.contains("\"state\": \"H1\""), "{json}");
    assert!(
        r.stdout.contains("stopped: SPRT accepted H1"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_file(scratch("sprt.json"));
}

#[test]
fn a_stop_file_ends_the_match_with_its_report() {
    let (json, pgn, stop) = (
        scratch("stop.json"),
        scratch("stop.pgn"),
        scratch("stop.now"),
    );
    let args = |stop: &PathBuf| {
        vec![
            "--engine".to_string(),
            format!("cmd={}", chariot()),
            "name=A".into(),
            "--engine".into(),
            format!("cmd={}", chariot()),
            "name=B".into(),
            "--tc".into(),
            "nodes=300".into(),
            "--games".into(),
            "6".into(),
            "--concurrency".into(),
            "1".into(),
            "--stop-file".into(),
            stop.display().to_string(),
            "--json".into(),
            json.display().to_string(),
            "--pgn".into(),
            pgn.display().to_string(),
        ]
    };
    let played = |json: &str| doc(json)["games_played"].as_u64().unwrap();
    // no stop file: all six games
    let _ = std::fs::remove_file(&stop);
    let r = run_match(&args(&stop));
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(played(&read(&json)), 6);
    assert!(!r.stdout.contains("stopped"), "{}", r.stdout);
    // the file is there: one game (one worker, looked for after each game), then the report
    std::fs::write(&stop, "").unwrap();
    let r = run_match(&args(&stop));
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    let text = read(&json);
    assert_eq!(played(&text), 1, "{text}");
    assert!(text.contains("stop file"), "{text}");
    assert!(r.stdout.contains("stopped: stop file"), "{}", r.stdout);
    assert_eq!(pgn_games(&read(&pgn)).len(), 1);
    for f in [json, pgn, stop] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn options_go_to_engines_that_offer_them() {
    // Chariot's tunables are offered with --tunables; `--each` options go to every engine
    // whether it offers them or not (a peer may not), an engine's own must be offered
    let tunable = format!("cmd={} --tunables", chariot());
    let r = run_match(&words(&[
        "--engine",
        &tunable,
        "name=a",
        "option.RfpMargin=90",
        "option.Skill Level=20",
        "--engine",
        &tunable,
        "name=b",
        "--each",
        "option.Hash=8",
        "option.NoSuchOption=1",
        "--tc",
        "nodes=200",
        "--games",
        "2",
        "--quiet",
    ]));
    assert!(r.ok, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("2 of 2 games played"), "{}", r.stdout);
    let r = run_match(&words(&[
        "--engine",
        &format!("cmd={}", chariot()),
        "name=a",
        "option.RfpMargin=90",
        "--engine",
        &tunable,
        "--tc",
        "nodes=200",
        "--games",
        "2",
    ]));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("engine a:") && r.stderr.contains("started with --tunables"),
        "{}",
        r.stderr
    );
}

#[test]
fn bad_command_lines_get_one_line_errors() {
    let chariot_engine = format!("cmd={}", chariot());
    let two = |rest: &[&str]| -> Vec<String> {
        let mut v = words(&["--engine", &chariot_engine, "--engine", &chariot_engine]);
        v.extend(words(rest));
        v
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            words(&["--engine", &chariot_engine, "--tc", "nodes=10"]),
            "at least twice",
        ),
        (two(&["--tc", "fast"]), "time control"),
        (two(&[]), "no time control"),
        (two(&["--tc", "nodes=10", "--games", "3"]), "even"),
        (
            words(&[
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                "cmd=/no/such/engine",
                "--tc",
                "nodes=10",
            ]),
            "cannot run",
        ),
        (
            two(&["--tc", "nodes=10", "--openings", "/no/such/file"]),
            "cannot read openings",
        ),
        (
            two(&["--tc", "nodes=10", "--sprt", "elo0=5", "elo1=0"]),
            "elo0",
        ),
        (two(&["--tc", "nodes=10", "--rules", "fide"]), "rule set"),
        (
            two(&["--tc", "nodes=10", "--resign", "score=0"]),
            "--resign",
        ),
        (
            two(&["--engine", "cmd=x", "speed=3", "--tc", "nodes=10"]),
            "unknown key",
        ),
        // an option the engine does not announce would be ignored: the match must not start
        (
            words(&[
                "--engine",
                &chariot_engine,
                "option.RfpMargin=90",
                "--engine",
                &chariot_engine,
                "--tc",
                "nodes=10",
            ]),
            "does not offer the option RfpMargin (it announced",
        ),
        (two(&["--tc", "nodes=10", "--shard", "3/3"]), "K/N"),
        (two(&["--tc", "nodes=10", "--shard", "1"]), "K/N"),
        (
            two(&[
                "--tc", "nodes=10", "--shard", "0/2", "--sprt", "elo0=0", "elo1=5",
            ]),
            "--shard cannot be used with --sprt",
        ),
        (
            two(&[
                "--tc",
                "nodes=10",
                "--shard",
                "0/2",
                "--order",
                "random",
                "--openings",
                &data("match-openings.epd").display().to_string(),
            ]),
            "needs --seed",
        ),
    ];
    for (args, want) in cases {
        let r = run_match(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", r.stderr);
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(want),
            "{args:?}: {}",
            r.stderr
        );
    }
}

fn run_merge(args: &[String]) -> Run {
    let mut all = words(&["merge"]);
    all.extend_from_slice(args);
    run_match(&all)
}

fn path(p: &std::path::Path) -> String {
    p.display().to_string()
}

/// The games of a PGN file by game number (the `<game>` of `Round "<round>.<game>"`), each
/// without its Date tag (a run may straddle midnight).
fn pgn_games(text: &str) -> Vec<(usize, String)> {
    let mut games: Vec<(usize, String)> = text
        .split("[Game \"Chinese Chess\"]")
        .filter(|c| !c.trim().is_empty())
        .map(|g| {
            let id = tag(g, "Round")
                .and_then(|r| r.split('.').nth(1))
                .and_then(|n| n.parse().ok())
                .expect("Round tag <round>.<game>");
            let body: Vec<&str> = g.lines().filter(|l| !l.starts_with("[Date ")).collect();
            (id, body.join("\n").trim().to_string())
        })
        .collect();
    games.sort_by_key(|g| g.0);
    games
}

/// What the JSON report says of the results: the engine pairs (W-D-L, pentanomial), the
/// terminations, the faults, the SPRT and every game.
fn results(json: &str) -> serde_json::Value {
    let d = doc(json);
    let keys = [
        "pairs",
        "terminations",
        "faults",
        "games_played",
        "red_wins",
        "black_wins",
        "draws",
        "sprt",
        "games",
    ];
    keys.iter().map(|k| (k.to_string(), d[k].clone())).collect()
}

/// The game numbers of a JSON report.
fn game_ids(json: &str) -> Vec<usize> {
    doc(json)["games"]
        .as_array()
        .expect("a list of games")
        .iter()
        .map(|g| g["id"].as_u64().expect("id is a number") as usize)
        .collect()
}

#[test]
fn shards_merged_give_the_whole_run() {
    // 8 openings, 16 games, engines of different strength (so that results are not
    // symmetric); the whole run on one worker, the shards on two, so that each engine
    // process plays other games before these than in the whole run: the same games come
    // out only if play at fixed nodes is deterministic and `newgame` clears the engine
    let lines: Vec<String> = read(&data("match-openings.epd"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .take(8)
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 8);
    let openings = scratch("shard-openings.epd");
    std::fs::write(&openings, lines.join("\n") + "\n").unwrap();
    let common = |concurrency: &str| -> Vec<String> {
        let me = format!("cmd={}", chariot());
        words(&[
            "--engine",
            &me,
            "name=Strong",
            "tc=nodes=1200",
            "--engine",
            &me,
            "name=Weak",
            "tc=nodes=500",
            "--each",
            "option.Hash=8",
            "--games",
            "16",
            "--concurrency",
            concurrency,
            "--openings",
            &path(&openings),
            "--quiet",
        ])
    };
    let (whole_pgn, whole_json) = (scratch("whole.pgn"), scratch("whole.json"));
    // an SPRT too wide to stop 16 games: the whole run reports its LLR, and the merge of
    // the shards (played without one) must report the same
    let sprt = ["--sprt", "elo0=-5", "elo1=5", "alpha=0.001", "beta=0.001"];
    let mut args = common("1");
    args.extend(words(&[
        "--pgn",
        &path(&whole_pgn),
        "--json",
        &path(&whole_json),
    ]));
    args.extend(words(&sprt));
    let whole = run_match(&args);
    assert!(whole.ok, "{}\n{}", whole.stdout, whole.stderr);
    assert!(
        whole.stdout.contains("16 of 16 games played"),
        "{}",
        whole.stdout
    );

    let mut shard_files = Vec::new();
    let mut all_ids = Vec::new();
    for k in 0..3 {
        let (pgn, json) = (
            scratch(&format!("shard{k}.pgn")),
            scratch(&format!("shard{k}.json")),
        );
        let mut args = common("2");
        args.extend(words(&[
            "--shard",
            &format!("{k}/3"),
            "--pgn",
            &path(&pgn),
            "--json",
            &path(&json),
        ]));
        let r = run_match(&args);
        assert!(r.ok, "shard {k}: {}\n{}", r.stdout, r.stderr);
        assert!(
            r.stdout
                .contains(&format!("shard {k}/3 (game pairs i with i % 3 == {k})")),
            "{}",
            r.stdout
        );
        // the full schedule's numbers: pair i (from 0) holds games 2i + 1 and 2i + 2
        let ids = game_ids(&read(&json));
        let want: Vec<usize> = (1..=16).filter(|g| ((g - 1) / 2) % 3 == k).collect();
        assert_eq!(ids, want, "shard {k}");
        all_ids.extend(ids);
        shard_files.push((pgn, json));
    }
    all_ids.sort_unstable();
    assert_eq!(all_ids, (1..=16).collect::<Vec<_>>());

    let (merged_pgn, merged_json) = (scratch("merged.pgn"), scratch("merged.json"));
    // files in any order
    let mut args: Vec<String> = [2, 0, 1].iter().map(|&k| path(&shard_files[k].1)).collect();
    args.extend(words(&[
        "--json",
        &path(&merged_json),
        "--pgn",
        &path(&merged_pgn),
        "--pgn-in",
    ]));
    args.extend([1, 2, 0].iter().map(|&k| path(&shard_files[k].0)));
    args.extend(words(&sprt));
    let merged = run_merge(&args);
    assert!(merged.ok, "{}\n{}", merged.stdout, merged.stderr);
    assert!(
        merged
            .stdout
            .contains("shards 0, 1, 2 of 3 merged: 16 of the run's 16 games"),
        "{}",
        merged.stdout
    );
    // the report: line for line the whole run's, but for what was timed (the runner's
    // overhead, the engines' think time) and the shards line
    let report = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| {
                !l.starts_with("Runner overhead")
                    && !l.contains(" merged: ")
                    && !l.contains(" ms")
                    && !l.starts_with("Search per move")
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(report(&merged.stdout), report(&whole.stdout));
    assert!(whole.stdout.contains("pentanomial"), "{}", whole.stdout);
    assert!(
        merged.stdout.contains("SPRT: elo0 -5 elo1 5") && merged.stdout.contains("continue"),
        "{}",
        merged.stdout
    );
    // W-D-L, pentanomial, terminations, faults and every game record the same
    let (wj, mj) = (read(&whole_json), read(&merged_json));
    let wr = results(&wj);
    assert_eq!(wr["games"].as_array().map(Vec::len), Some(16), "{wj}");
    assert_eq!(wr["pairs"].as_array().map(Vec::len), Some(1), "{wj}");
    assert!(wr["sprt"]["llr"].is_number(), "{wj}");
    assert_eq!(results(&mj), wr);
    assert_eq!(doc(&mj)["version"], 2, "{mj}");
    // each engine's moves and depths by move number add up over the shards to the whole
    // run's (fixed nodes: the same games, the same depths); the times were measured again
    let counts = |json: &str| -> Vec<(String, Vec<[u64; 3]>)> {
        doc(json)["search"]
            .as_array()
            .expect("a search summary")
            .iter()
            .map(|e| {
                let bands = e["bands"].as_array().unwrap().iter();
                let n = |b: &serde_json::Value, k: &str| b[k].as_u64().unwrap();
                (
                    e["engine"].as_str().unwrap().to_string(),
                    bands
                        .map(|b| [n(b, "moves"), n(b, "depth_sum"), n(b, "depth_moves")])
                        .collect(),
                )
            })
            .collect()
    };
    let wc = counts(&wj);
    assert_eq!(counts(&mj), wc);
    let moves: u64 = wc.iter().flat_map(|e| &e.1).map(|b| b[0]).sum();
    assert!(moves > 16 * 10, "{wj}");
    // Chariot reports a depth with every move, and the stronger engine searches deeper
    assert!(wc.iter().flat_map(|e| &e.1).all(|b| b[2] == b[0]), "{wj}");
    let mean = |e: &(String, Vec<[u64; 3]>)| {
        let (d, m) = e.1.iter().fold((0, 0), |a, b| (a.0 + b[1], a.1 + b[2]));
        d as f64 / m as f64
    };
    assert_eq!((wc[0].0.as_str(), wc[1].0.as_str()), ("Strong", "Weak"));
    assert!(mean(&wc[0]) > mean(&wc[1]), "{wj}");
    assert!(
        merged.stdout.contains("Search per move") && merged.stdout.contains("  Strong: "),
        "{}",
        merged.stdout
    );
    // and the games themselves
    let (wg, mg) = (pgn_games(&read(&whole_pgn)), pgn_games(&read(&merged_pgn)));
    assert_eq!(mg.len(), 16);
    assert_eq!(mg, wg);
    // the merged file orders games by number
    let order: Vec<usize> = read(&merged_pgn)
        .split("[Game \"Chinese Chess\"]")
        .filter_map(|g| tag(g, "Round"))
        .map(|r| r.split('.').nth(1).unwrap().parse::<usize>().unwrap())
        .collect();
    assert_eq!(order, (1..=16).collect::<Vec<_>>());

    // a merged result merges again like a shard (two shards, then the third)
    let two = scratch("merged-two.json");
    let r = run_merge(&[
        path(&shard_files[0].1),
        path(&shard_files[2].1),
        "--json".into(),
        path(&two),
    ]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout.contains("shards 0, 2 of 3 merged (missing: 1)"),
        "{}",
        r.stdout
    );
    let mut args = vec![path(&two), path(&shard_files[1].1)];
    args.extend(words(&sprt));
    let r = run_merge(&args);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(report(&r.stdout), report(&whole.stdout));
    // a bad SPRT is refused with one line
    let r = run_merge(&words(&[&path(&two), "--sprt", "elo0=5", "elo1=0"]));
    assert!(
        !r.ok && r.stderr.contains("elo0=<a> elo1=<b> with a < b"),
        "{}",
        r.stderr
    );

    for p in [
        openings,
        whole_pgn,
        whole_json,
        merged_pgn,
        merged_json,
        two,
    ] {
        let _ = std::fs::remove_file(p);
    }
    for (p, j) in shard_files {
        let _ = std::fs::remove_file(p);
        let _ = std::fs::remove_file(j);
    }
}

/// A quick shard: Chariot against the engine that plays an illegal move at once.
fn quick_shard(name: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let (pgn, json) = (
        scratch(&format!("{name}.pgn")),
        scratch(&format!("{name}.json")),
    );
    let mut args = vec![
        "--engine".into(),
        format!("cmd={}", chariot()),
        "name=Chariot".into(),
        "--engine".into(),
        faulty("illegal"),
        "name=Faulty".into(),
        "--tc".into(),
        "nodes=300".into(),
        "--games".into(),
        "8".into(),
        "--quiet".into(),
        "--pgn".into(),
        path(&pgn),
        "--json".into(),
        path(&json),
    ];
    args.extend(words(extra));
    let r = run_match(&args);
    assert!(r.ok, "{name}: {}\n{}", r.stdout, r.stderr);
    (pgn, json)
}

#[test]
fn merge_refuses_what_is_not_one_run() {
    let (p0, s0) = quick_shard("q0", &["--shard", "0/2"]);
    let (p1, s1) = quick_shard("q1", &["--shard", "1/2"]);
    // the two halves merge, faults and all
    let r = run_merge(&[path(&s0), path(&s1)]);
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("8 of 8 games played"), "{}", r.stdout);
    assert!(
        r.stdout.contains("Losses by fault, Faulty: illegal-move 8"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("W-D-L 8-0-0"), "{}", r.stdout);
    // a shard whose engine was run from a copy of the same file merges; a copy that differs
    // by one byte, or a path that is gone, is another engine
    let script = data("faulty-engine.sh");
    let moved = |name: &str, extra: Option<&str>| {
        let copy = scratch(name);
        let mut bytes = std::fs::read(&script).unwrap();
        if let Some(e) = extra {
            bytes.extend_from_slice(e.as_bytes());
        }
        std::fs::write(&copy, bytes).unwrap();
        let shard = scratch(&format!("{name}.json"));
        let text = read(&s1);
        assert!(text.contains(&path(&script)), "{text}");
        std::fs::write(&shard, text.replace(&path(&script), &path(&copy))).unwrap();
        (copy, shard)
    };
    let (_, copied) = moved("q-copy.sh", None);
    let r = run_merge(&[path(&s0), path(&copied)]);
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("W-D-L 8-0-0"), "{}", r.stdout);
    let (_, changed) = moved("q-changed.sh", Some("\n"));
    let (gone_script, gone) = moved("q-gone.sh", None);
    std::fs::remove_file(&gone_script).unwrap();

    let (_, other_tc) = quick_shard("q-tc", &["--shard", "1/2", "--each", "tc=nodes=200"]);
    let (_, other_n) = quick_shard("q-n", &["--shard", "1/3"]);
    let (_, other_games) = quick_shard("q-games", &["--shard", "1/2", "--rounds", "2"]);
    let (_, other_settings) = quick_shard("q-settings", &["--shard", "1/2", "--timeout", "5"]);
    let (_, other_rules) = quick_shard("q-rules", &["--shard", "1/2", "--rules", "axf"]);
    let openings = path(&data("match-openings.epd"));
    let random = |seed: &str, k: &str| {
        quick_shard(
            &format!("q-seed{seed}-{}", k.replace('/', "-")),
            &[
                "--shard",
                k,
                "--openings",
                &openings,
                "--order",
                "random",
                "--seed",
                seed,
            ],
        )
        .1
    };
    let (seed1, seed2) = (random("1", "0/2"), random("2", "1/2"));
    let renamed = scratch("q-renamed.json");
    std::fs::write(&renamed, read(&s1).replace("\"Faulty\"", "\"Other\"")).unwrap();
    let edited = scratch("q-edited.json");
    // one game's result changed: the file's totals no longer agree with its games
    let text = read(&s1);
    let at = text.find("\"result\": \"1-0\"").expect("a red win");
    std::fs::write(
        &edited,
        format!("{}\"result\": \"0-1\"{}", &text[..at], &text[at + 15..]),
    )
    .unwrap();
    let cut = scratch("q-cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();

    let out = scratch("q-out.json");
    let _ = std::fs::remove_file(&out);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![path(&s0), path(&s0)], "both hold shard 0/2"),
        (vec![path(&s0), path(&other_tc)], "the time controls differ"),
        (vec![path(&s0), path(&other_n)], "the shard counts N differ"),
        (
            vec![path(&s0), path(&other_games)],
            "the games in the run differ",
        ),
        (
            vec![path(&s0), path(&other_settings)],
            "the settings differ",
        ),
        (vec![path(&s0), path(&other_rules)], "the rules differ"),
        (vec![path(&seed1), path(&seed2)], "the seeds differ"),
        (vec![path(&s0), path(&renamed)], "the engines differ"),
        (vec![path(&s0), path(&changed)], "the engines differ"),
        (vec![path(&s0), path(&gone)], "the engines differ"),
        (vec![path(&s0), path(&edited)], "do not add up"),
        (vec![path(&s0), path(&cut)], "not valid JSON: EOF"),
        (
            vec![path(&s0), path(&p0)],
            "not valid JSON: expected value at line 1",
        ),
        (vec![path(&s0), "/no/such/file.json".into()], "cannot read"),
        (
            vec![
                path(&s0),
                path(&s1),
                "--pgn".into(),
                path(&scratch("q-out.pgn")),
                "--pgn-in".into(),
                path(&p0),
            ],
            "in none of the PGN files",
        ),
        (
            vec![
                path(&s0),
                path(&s1),
                "--pgn".into(),
                path(&scratch("q-out.pgn")),
                "--pgn-in".into(),
                path(&p0),
                path(&p1),
                path(&p0),
            ],
            "give each shard's PGN once",
        ),
        (
            vec![
                path(&s0),
                "--pgn".into(),
                path(&scratch("q-out.pgn")),
                "--pgn-in".into(),
                path(&p1),
            ],
            "not in the merged JSON results",
        ),
    ];
    for (mut args, want) in cases {
        args.extend(words(&["--json", &path(&out)]));
        let r = run_merge(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", r.stderr);
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(want),
            "{args:?}: want '{want}': {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert!(!out.exists(), "{args:?}: wrote {}", out.display());
        assert!(!scratch("q-out.pgn").exists(), "{args:?}");
    }
    for p in [
        p0,
        p1,
        s0,
        s1,
        other_tc,
        other_n,
        other_games,
        other_settings,
        other_rules,
        seed1,
        seed2,
        renamed,
        edited,
        cut,
    ] {
        let _ = std::fs::remove_file(p);
    }
    for name in ["q-tc", "q-n", "q-games", "q-settings", "q-rules"] {
        let _ = std::fs::remove_file(scratch(&format!("{name}.pgn")));
    }
    for name in ["q-seed1-0-2", "q-seed2-1-2"] {
        let _ = std::fs::remove_file(scratch(&format!("{name}.pgn")));
    }
}

#[test]
fn fixed_node_games_that_repeat_their_openings_are_warned_of() {
    let openings = scratch("two-openings.epd");
    std::fs::write(
        &openings,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\n",
    )
    .unwrap();
    let me = format!("cmd={}", chariot());
    let args = |tc: &str, rounds: &str| {
        let mut a = words(&["--engine", &me, "name=a", "--engine", &me, "name=b"]);
        a.extend(words(&[
            "--tc", tc, "--games", "2", "--rounds", rounds, "--quiet",
        ]));
        a.extend(words(&["--openings", &openings.display().to_string()]));
        a
    };
    let warned = |r: &Run| r.stderr.contains("openings repeat and so do their games");
    let r = run_match(&args("nodes=60", "3"));
    assert!(r.ok && warned(&r), "{}", r.stderr);
    let r = run_match(&args("nodes=60", "2"));
    assert!(r.ok && !warned(&r), "{}", r.stderr);
    // a clock makes every game its own
    let r = run_match(&args("st=0.01", "3"));
    assert!(r.ok && !warned(&r), "{}", r.stderr);
    let _ = std::fs::remove_file(&openings);
}

/// `scripts/shards.sh DIR ARGS...` through `sh`: (exit status, stdout and stderr).
fn shards_script(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/shards.sh");
    let out = Command::new("sh")
        .arg(&script)
        .args(["--dir", &path(dir), "--bin", chariot()])
        .args(args)
        .output()
        .expect("sh runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

#[test]
fn the_shard_script_goes_on_where_it_stopped_and_ends_when_the_sprt_decides() {
    let dir = scratch("shards-dir");
    let _ = std::fs::remove_dir_all(&dir);
    let me = format!("cmd={}", chariot());
    let faulty = faulty("illegal");
    // every game won: H1 once 104 pairs are in (see sprt_stops_a_one_sided_match), that is in
    // shard 10 of 20 shards of 10 pairs
    let mut args = vec![
        "--shards",
        "20",
        "--sprt",
        "elo0=0 elo1=10 alpha=0.05 beta=0.05",
    ];
    let tail = [
        "--",
        "--engine",
        &me,
        "name=Chariot",
        "--engine",
        &faulty,
        "name=Faulty",
        "--tc",
        "nodes=300",
        "--games",
        "400",
        "--quiet",
    ];
    let shard = |k: usize, ext: &str| dir.join(format!("shard-{k}.{ext}"));
    // a first call that stops after two shards
    let first: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--to", "2"])
        .chain(tail)
        .collect();
    let (code, text) = shards_script(&dir, &first);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        shard(0, "json").exists() && shard(1, "pgn").exists(),
        "{text}"
    );
    assert!(!shard(2, "json").exists(), "{text}");
    assert!(
        text.contains("LLR 0.567") && text.contains("continue"),
        "{text}"
    );
    let kept = read(&shard(0, "json"));
    // the second call plays on from shard 2 and stops when the merged games decide
    args.extend(tail);
    let (code, text) = shards_script(&dir, &args);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("shard 0/20 start"), "{text}");
    assert!(text.contains("shard 2/20 start"), "{text}");
    assert!(text.contains("the SPRT accepted H1"), "{text}");
    assert_eq!(
        read(&shard(0, "json")),
        kept,
        "a played shard is never played again"
    );
    assert!(
        shard(10, "json").exists() && !shard(11, "json").exists(),
        "{text}"
    );
    let merged = read(&dir.join("merged.json"));
    assert_eq!(doc(&merged)["sprt"]["state"], "H1", "{merged}");
    assert_eq!(doc(&merged)["games_played"], 220, "{merged}");
    assert_eq!(pgn_games(&read(&dir.join("merged.pgn"))).len(), 220);
    // a decided run plays nothing more
    let (code, text) = shards_script(&dir, &args);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("start"), "{text}");
    assert!(!shard(11, "json").exists(), "{text}");
    // a stop file ends a run before its next shard
    let stopped = scratch("shards-stopped");
    let _ = std::fs::remove_dir_all(&stopped);
    std::fs::create_dir_all(&stopped).unwrap();
    std::fs::write(stopped.join("stop"), "").unwrap();
    let (code, text) = shards_script(&stopped, &args);
    assert_eq!(code, Some(3), "{text}");
    assert!(!stopped.join("shard-0.json").exists(), "{text}");
    // bad arguments: one line, status 2
    for bad in [
        vec!["--shards", "0", "--", "--games", "2"],
        vec!["--shards", "4", "--to", "5", "--", "--games", "2"],
        vec!["--shards", "4"],
    ] {
        let (code, text) = shards_script(&stopped, &bad);
        assert_eq!(code, Some(2), "{bad:?}: {text}");
        assert_eq!(text.lines().count(), 1, "{bad:?}: {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&stopped);
}
/// A run's results made up for `chariot match compare`, written as `chariot match --json`
/// writes them: openings `o.epd:<pair>`, one round.
struct MadeRun<'a> {
    names: &'a [&'a str],
    tc: &'a str,
    /// Games per pairing (`--games`).
    games: usize,
    openings_hash: &'a str,
    /// The shard count and the shards held.
    shards: (usize, &'a [usize]),
    stopped: Option<&'a str>,
}

/// One game: (pair, red, black, result), engines by index.
type MadeGame = (usize, usize, usize, &'static str);

fn write_made_run(file: &std::path::Path, run: &MadeRun, games: &[MadeGame]) {
    let n = run.names.len();
    let run_games = run.games * n * (n - 1) / 2;
    let (count, held) = run.shards;
    let mut t = Tally::new(run.names.iter().map(|s| s.to_string()).collect());
    for &(pair, red, black, result) in games {
        t.add_line(GameLine {
            // the schedule plays the lower engine index as red first
            id: 2 * pair - usize::from(red < black),
            round: 1,
            pair,
            red,
            black,
            result,
            termination: if result == "1/2-1/2" {
                Termination::Repetition
            } else {
                Termination::Checkmate
            },
            fault: None,
            reason: "made up".into(),
            plies: 40,
            opening: format!("o.epd:{pair}"),
        });
    }
    let info = ReportInfo {
        engines: run
            .names
            .iter()
            .map(|e| (e.to_string(), format!("./{e}"), run.tc.to_string()))
            .collect(),
        rules: "cxa",
        scheduled: 2
            * (1..=run_games / 2)
                .filter(|p| held.contains(&((p - 1) % count)))
                .count(),
        stopped: run.stopped.map(str::to_string),
        sprt: None,
        seed: Some(7),
        openings: "o.epd (10 lines, shuffled)".into(),
        openings_hash: run.openings_hash.into(),
        settings: format!("games {} rounds 1 timeout 30s", run.games),
        shards: ShardSet {
            count,
            indices: held.to_vec(),
            run_games,
        },
        prior: None,
    };
    std::fs::write(file, report::json_report(&t, &info)).unwrap();
}

/// The two games of pair `p` in which engine `s` took `halves` half points from `o`
/// (playing red first).
fn made_pair(p: usize, s: usize, o: usize, halves: usize) -> [MadeGame; 2] {
    let (first, second) = match halves {
        4 => ("1-0", "0-1"),
        3 => ("1-0", "1/2-1/2"),
        2 => ("1-0", "1-0"),
        1 => ("1/2-1/2", "1-0"),
        _ => ("0-1", "1-0"),
    };
    [(p, s, o, first), (p, o, s, second)]
}

fn made_pairs(halves: &[(usize, usize)], s: usize, o: usize) -> Vec<MadeGame> {
    halves
        .iter()
        .flat_map(|&(p, h)| made_pair(p, s, o, h))
        .collect()
}

fn run_compare(args: &[String]) -> Run {
    let mut all = words(&["compare"]);
    all.extend_from_slice(args);
    run_match(&all)
}

/// Chariot's half points in game pairs 1 to 8 of run A and run B (the numbers the unit
/// test of the statistics checks against the ad-hoc Python script's formulas).
const HALVES_A: [usize; 8] = [4, 2, 2, 1, 3, 0, 2, 4];
const HALVES_B: [usize; 8] = [3, 2, 4, 1, 4, 1, 2, 2];

#[test]
fn compare_pairs_two_runs_by_opening() {
    let numbered = |h: &[usize]| -> Vec<(usize, usize)> {
        h.iter().enumerate().map(|(i, &x)| (i + 1, x)).collect()
    };
    // run A: pairs 1-8 and one game of pair 9, as two shards of 2 and as one file
    let mut a_games = made_pairs(&numbered(&HALVES_A), 0, 1);
    a_games.push((9, 0, 1, "1-0"));
    let run = |names, tc, shards, stopped| MadeRun {
        names,
        tc,
        games: 20,
        openings_hash: "00000000000000aa",
        shards,
        stopped,
    };
    let two = ["Chariot", "Peer"];
    let (a0, a1, a_whole) = (
        scratch("cmp-a0.json"),
        scratch("cmp-a1.json"),
        scratch("cmp-a.json"),
    );
    let odd = |g: &&MadeGame| g.0 % 2 == 1;
    let shard = |k: usize| -> Vec<MadeGame> {
        a_games
            .iter()
            .filter(|g| odd(g) == (k == 0))
            .copied()
            .collect()
    };
    write_made_run(&a0, &run(&two, "10+0.1", (2, &[0]), None), &shard(0));
    write_made_run(&a1, &run(&two, "10+0.1", (2, &[1]), None), &shard(1));
    write_made_run(&a_whole, &run(&two, "10+0.1", (1, &[0]), None), &a_games);
    // run B: pairs 1-8 and 10, at another control
    let mut b_halves = numbered(&HALVES_B);
    b_halves.push((10, 2));
    let b = scratch("cmp-b.json");
    write_made_run(
        &b,
        &run(&two, "30+0.3", (1, &[0]), None),
        &made_pairs(&b_halves, 0, 1),
    );
    let json = scratch("cmp-out.json");
    let r = run_compare(&[
        path(&a0),
        path(&a1),
        "--vs".into(),
        path(&b),
        "--json".into(),
        path(&json),
    ]);
    assert!(r.ok, "{}", r.stderr);
    for want in [
        "Chariot in run B against run A, game pair by game pair",
        "  A: Chariot (tc 10+0.1) vs Peer (tc 10+0.1); shards 0, 1 of 2 (2 files)",
        "  B: Chariot (tc 30+0.3) vs Peer (tc 30+0.3); the whole run (1 file)",
        "  A: 8 pairs, score 56.2%, Elo +43.7 ± [..]; pairs with one game 1 (left out)",
        "  B: 9 pairs, score 58.3%, Elo +58.5 ± [..]; pairs with one game 0 (left out)",
        "Common game pairs: 8 (only in A 0, only in B 1)",
        "  B: score 59.4%, Elo +65.9 ± [..]",
        "  B - A: score +3.1% ± 21.6% (95%), LOS 61.2%",
        "  B - A: Elo +22.3 ± 153.5 (95%, delta method); [-130.3, +207.9] (the 95% score interval through the Elo curve)",
        "  pairs scored better in B 3, worse 2, the same 3",
        "      2     0    0    1    1    0",
    ] {
        let (head, tail) = want.split_once("[..]").unwrap_or((want, ""));
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with(head) && l.contains(tail)),
            "want '{want}':\n{}",
            r.stdout
        );
    }
    let d = doc(&read(&json));
    assert_eq!(d["format"], "chariot-match-compare");
    assert_eq!(
        (d["common"].clone(), d["only_b"].clone()),
        (8.into(), 1.into())
    );
    assert_eq!(d["a"]["incomplete"], 1);
    assert_eq!(d["same"], 3);
    assert_eq!(d["diff"]["score"], 0.0313);
    assert_eq!(d["diff"]["elo_error"], 153.4769);
    assert_eq!(d["by_opponent"], false);
    let pairs = d["pairs"].as_array().expect("a list of pairs");
    assert_eq!(pairs.len(), 8);
    assert_eq!(pairs[2]["opening"], "o.epd:3");
    assert_eq!(
        (pairs[2]["a"].clone(), pairs[2]["b"].clone()),
        (1.into(), 2.into())
    );
    let summary = |r: &Run| -> Vec<String> {
        r.stdout
            .lines()
            .skip_while(|l| !l.starts_with("Common game pairs"))
            .map(str::to_string)
            .collect()
    };
    let base = summary(&r);

    // run A as one file: the same comparison
    let r = run_compare(&[path(&a_whole), "--vs".into(), path(&b)]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(summary(&r), base);
    // the other engine: the difference turns round
    let r = run_compare(&words(&[
        &path(&a_whole),
        "--vs",
        &path(&b),
        "--engine",
        "Peer",
    ]));
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("Peer in run B against run A,")
            && r.stdout
                .contains("B - A: score -3.1% ± 21.6% (95%), LOS 38.8%")
            && r.stdout
                .contains("pairs scored better in B 2, worse 3, the same 3"),
        "{}",
        r.stdout
    );
    // B listing its engines the other way round: still Chariot, the first of A's
    let b_swapped = scratch("cmp-b-swapped.json");
    let swapped: Vec<MadeGame> = made_pairs(&b_halves, 0, 1)
        .iter()
        .map(|&(p, red, black, res)| (p, 1 - red, 1 - black, res))
        .collect();
    write_made_run(
        &b_swapped,
        &run(&["Peer", "Chariot"], "30+0.3", (1, &[0]), None),
        &swapped,
    );
    let r = run_compare(&[path(&a_whole), "--vs".into(), path(&b_swapped)]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("Chariot in run B against run A,"),
        "{}",
        r.stdout
    );
    assert_eq!(summary(&r), base);
    // another build under another name: Peer is the only engine in both, unless named
    let b_new = scratch("cmp-b-new.json");
    write_made_run(
        &b_new,
        &run(&["Chariot-new", "Peer"], "10+0.1", (1, &[0]), None),
        &made_pairs(&b_halves, 0, 1),
    );
    let r = run_compare(&[path(&a_whole), "--vs".into(), path(&b_new)]);
    assert!(
        r.ok && r.stdout.starts_with("Peer in run B against run A,"),
        "{}",
        r.stdout
    );
    let r = run_compare(&words(&[
        &path(&a_whole),
        "--vs",
        &path(&b_new),
        "--engine",
        "Chariot",
        "--engine-b",
        "Chariot-new",
    ]));
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout
            .starts_with("Chariot-new in run B against Chariot in run A,"),
        "{}",
        r.stdout
    );
    assert_eq!(summary(&r)[1..], base[1..]);

    // a round robin against a match: pairs are matched by opponent too (Chariot took every
    // point against Peer in pair 1 and none in pair 2, the other way round against Other)
    let three = ["Chariot", "Peer", "Other"];
    let mut rr = made_pairs(&[(1, 4), (2, 0)], 0, 1);
    rr.extend(made_pairs(&[(3, 0), (4, 4)], 0, 2));
    rr.extend(made_pairs(&[(5, 2), (6, 2)], 1, 2));
    let (a_rr, b_two) = (scratch("cmp-rr.json"), scratch("cmp-two.json"));
    let small = |names, tc| MadeRun {
        games: 4,
        ..run(names, tc, (1, &[0]), None)
    };
    write_made_run(&a_rr, &small(&three, "10+0.1"), &rr);
    write_made_run(
        &b_two,
        &small(&two, "30+0.3"),
        &made_pairs(&[(1, 4), (2, 0)], 0, 1),
    );
    let r = run_compare(&[
        path(&a_rr),
        "--vs".into(),
        path(&b_two),
        "--json".into(),
        path(&json),
    ]);
    assert!(r.ok, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("Common game pairs: 2 (only in A 2, only in B 0)")
            && r.stdout
                .contains("pairs scored better in B 0, worse 0, the same 2"),
        "{}",
        r.stdout
    );
    let d = doc(&read(&json));
    assert_eq!(d["by_opponent"], true);
    // against a stranger: nothing to match, and the refusal says why
    let b_stranger = scratch("cmp-stranger.json");
    write_made_run(
        &b_stranger,
        &small(&["Chariot", "Stranger"], "30+0.3"),
        &made_pairs(&[(1, 4), (2, 0)], 0, 1),
    );
    let r = run_compare(&[path(&a_rr), "--vs".into(), path(&b_stranger)]);
    assert!(
        r.code == Some(2)
            && r.stderr
                .contains("matched against the same opponent by name"),
        "{}",
        r.stderr
    );
    assert_eq!(d["pairs"][1]["opponent"], "Peer");
    assert_eq!(d["pairs"][1]["pair_a"], 2);

    for p in [
        a0, a1, a_whole, b, b_swapped, b_new, a_rr, b_two, b_stranger, json,
    ] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn compare_refuses_with_one_line() {
    let two = ["Chariot", "Peer"];
    let run = |names, hash, shards, stopped| MadeRun {
        names,
        tc: "10+0.1",
        games: 8,
        openings_hash: hash,
        shards,
        stopped,
    };
    let h = "00000000000000aa";
    let all = made_pairs(&[(1, 4), (2, 2), (3, 1), (4, 0)], 0, 1);
    let made = |name: &str, r: MadeRun, games: &[MadeGame]| {
        let p = scratch(name);
        write_made_run(&p, &r, games);
        path(&p)
    };
    let odd: Vec<MadeGame> = all.iter().filter(|g| g.0 % 2 == 1).copied().collect();
    let even: Vec<MadeGame> = all.iter().filter(|g| g.0 % 2 == 0).copied().collect();
    let a = made("r-a.json", run(&two, h, (1, &[0]), None), &all);
    let other_hash = made(
        "r-hash.json",
        run(&two, "00000000000000bb", (1, &[0]), None),
        &all,
    );
    let shard0 = made("r-s0.json", run(&two, h, (2, &[0]), None), &odd);
    let shard1 = made("r-s1.json", run(&two, h, (2, &[1]), None), &even);
    let stopped = made(
        "r-stopped.json",
        run(&two, h, (1, &[0]), Some("stop file x found")),
        &all,
    );
    let renamed = made("r-renamed.json", run(&["A", "B"], h, (1, &[0]), None), &all);
    let other_tc = made(
        "r-tc.json",
        MadeRun {
            tc: "30+0.3",
            ..run(&two, h, (2, &[1]), None)
        },
        &even,
    );
    let written = |name: &str, text: &str| {
        let p = scratch(name);
        std::fs::write(&p, text).unwrap();
        path(&p)
    };
    let not_match = written(
        "r-other.json",
        "{\"format\": \"chariot-spsa\", \"version\": 1}\n",
    );
    let not_json = written("r-text.json", "[Game \"Chinese Chess\"]\n");
    let out = scratch("r-out.json");
    let _ = std::fs::remove_file(&out);

    // the good case runs
    let r = run_compare(&words(&[&a, "--vs", &shard0, &shard1]));
    assert!(r.ok, "{}", r.stderr);
    assert!(r.stdout.contains("the same 4"), "{}", r.stdout);

    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![&a, "--vs", &other_hash],
            "the runs played different openings",
        ),
        (
            vec![&a, "--vs", &a, "--engine", "Nobody"],
            "run A has no engine 'Nobody'",
        ),
        (
            vec![
                &a,
                "--vs",
                &a,
                "--engine",
                "Chariot",
                "--engine-b",
                "Nobody",
            ],
            "run B has no engine 'Nobody'",
        ),
        (vec![&a, "--vs", &renamed], "no engine is in both runs"),
        (
            vec![&shard0, "--vs", &shard1],
            "no game pair of Chariot is complete in both runs",
        ),
        (vec![&a, "--vs", &stopped], "stopped early"),
        (vec![&a, "--vs", "/no/such/file.json"], "run B: cannot read"),
        (
            vec![&not_match, "--vs", &a],
            "not a `chariot match --json` result",
        ),
        (vec![&a, "--vs", &not_json], "not valid JSON"),
        (
            vec![&shard0, &other_tc, "--vs", &a],
            "run A: [..] are from different runs: the time controls differ",
        ),
        (vec![&shard0, &shard0, "--vs", &a], "both hold shard 0/2"),
        (vec![&a], "--vs"),
        (vec![&a, "--vs", &a, "--engine-b", "Peer"], "--engine"),
    ];
    for (args, want) in cases {
        let mut args = words(&args);
        args.extend(words(&["--json", &path(&out)]));
        let r = run_compare(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: {}", r.stderr);
        let (head, tail) = want.split_once("[..]").unwrap_or((want, ""));
        assert!(
            lines[0].starts_with("error: ") && lines[0].contains(head) && lines[0].contains(tail),
            "{args:?}: want '{want}': {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert!(!out.exists(), "{args:?}: wrote {}", out.display());
    }
    for p in [
        a, other_hash, shard0, shard1, stopped, renamed, other_tc, not_match, not_json,
    ] {
        let _ = std::fs::remove_file(p);
    }
}
