//! Files written by an older build (commit 27375b3, engine-tests/json-compat/README.md) still
//! read: its match results merge to the report and JSON it printed and wrote itself, its SPSA
//! states resume, and `chariot judge --json` gives the fields it gave. JSON is compared as
//! values (member order and spacing aside), reports as text.

use chariot::tools::spsa::{Gains, deltas, parse_params, update};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chariot() -> &'static str {
    env!("CARGO_BIN_EXE_chariot")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("engine-tests").join("json-compat").join(name)
}

/// A scratch file path unique to this test process and `name` (removed first).
fn scratch(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("chariot-json-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// This build as `chariot`, run from the repository root with its own folder first on PATH:
/// the files name the engine `chariot` and their openings by paths from the root.
fn run(args: &[&str]) -> Run {
    let bin = Path::new(chariot()).parent().unwrap().to_path_buf();
    let mut path = vec![bin];
    path.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let out = Command::new(chariot())
        .args(args)
        .current_dir(root())
        .env("PATH", std::env::join_paths(path).unwrap())
        .output()
        .expect("chariot runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn old_match_results_merge_to_the_old_report_and_json() {
    let shards = [
        s(&fixture("match-shard-0.json")),
        s(&fixture("match-shard-1.json")),
    ];
    let rr = s(&fixture("match-round-robin.json"));
    let cases: [(&[String], &[&str], &str, &str); 3] = [
        (&shards, &[], "merged-shards.txt", "merged-shards.json"),
        (
            &shards,
            &["--sprt", "elo0=-5", "elo1=5"],
            "merged-shards-sprt.txt",
            "merged-shards-sprt.json",
        ),
        // one whole run merged alone writes itself again
        (
            std::slice::from_ref(&rr),
            &[],
            "merged-round-robin.txt",
            "match-round-robin.json",
        ),
    ];
    for (files, extra, text, want) in cases {
        let out = scratch("merged.json");
        let mut args = vec!["match", "merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend_from_slice(extra);
        let o = s(&out);
        args.extend(["--json", &o]);
        let r = run(&args);
        assert_eq!(r.code, Some(0), "{text}: {}", r.stderr);
        assert_eq!(r.stdout, read(&fixture(text)), "{text}");
        assert_eq!(
            json(&read(&out), "merged"),
            json(&read(&fixture(want)), want),
            "{want}"
        );
        let _ = std::fs::remove_file(out);
    }
    // members this build does not know (a later build's) are passed over, as before
    let later = scratch("later.json");
    let text = read(&fixture("match-shard-0.json"))
        .replacen('{', "{\"later\": {\"x\": [1, null]},", 1)
        .replacen("{\"id\": ", "{\"later\": true, \"id\": ", 1);
    std::fs::write(&later, text).unwrap();
    let r = run(&["match", "merge", &s(&later), &shards[1]]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, read(&fixture("merged-shards.txt")));
    let _ = std::fs::remove_file(later);
}

/// A merge told the counts of earlier games whose files are gone (`--prior-wdl`,
/// `--prior-penta`) reports the games at hand as before and adds one line with all of them;
/// the JSON keeps the games' own counts and records the prior apart; a prior that does not
/// add up, or one given twice, is refused with one line.
#[test]
fn a_merge_adds_the_recorded_counts_of_lost_shards() {
    let shards = [
        s(&fixture("match-shard-0.json")),
        s(&fixture("match-shard-1.json")),
    ];
    let out = scratch("merged-prior.json");
    let o = s(&out);
    let mut args = vec!["match", "merge", &shards[0], &shards[1], "--json", &o];
    args.extend(["--prior-wdl", "1-2-3", "--prior-penta", "1-0-2-0-0"]);
    let r = run(&args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // the fixture's games: W-D-L 6-2-0, pentanomial 0-0-0-2-2; with the prior 7-4-3
    let plain = read(&fixture("merged-shards.txt"));
    let extra = r
        .stdout
        .strip_prefix(plain.as_str())
        .expect("the report as before, then more");
    assert!(
        extra.starts_with(
            "  with 6 earlier games of this run (files gone; recorded W-D-L 1-2-3, pentanomial 1-0-2-0-0): all 14 games 7-4-3 (64.3%), Elo per game pair "
        ) && extra.trim_end().ends_with(", pentanomial 1-0-2-2-2")
            && extra.lines().count() == 1,
        "{extra}"
    );
    let v = json(&read(&out), "merged with a prior");
    let want = json(&read(&fixture("merged-shards.json")), "merged-shards.json");
    assert_eq!(v["pairs"], want["pairs"]);
    assert_eq!(v["prior"]["wins"], 1);
    assert_eq!(
        v["prior"]["pentanomial"],
        serde_json::json!([1, 0, 2, 0, 0])
    );
    assert!(want.get("prior").is_none());
    let _ = std::fs::remove_file(out);
    // with --sprt the SPRT counts the prior, in its own line
    let mut sprt = vec![
        "match", "merge", &shards[0], &shards[1], "--sprt", "elo0=-5",
    ];
    sprt.extend([
        "elo1=5",
        "--prior-wdl",
        "1-2-3",
        "--prior-penta",
        "1-0-2-0-0",
    ]);
    let r = run(&sprt);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout
            .contains("  the LLR counts 6 earlier games of this test"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("  with 6 earlier games"), "{}", r.stdout);
    let refused: [&[&str]; 3] = [
        &["--prior-wdl", "1-2-4", "--prior-penta", "1-0-2-0-0"],
        &["--prior-wdl", "1-2-3"],
        &[
            "--prior-wdl",
            "1-2-3",
            "--prior-penta",
            "1-0-2-0-0",
            "--sprt",
            "elo0=-5",
            "elo1=5",
            "prior-wdl=1-2-3",
            "prior-penta=1-0-2-0-0",
        ],
    ];
    for extra in refused {
        let mut args = vec!["match", "merge", &shards[0], &shards[1]];
        args.extend_from_slice(extra);
        let r = run(&args);
        // an error's exit code, not success and not a panic's 101
        assert!(
            matches!(r.code, Some(c) if c != 0 && c != 101),
            "{extra:?}: {:?} {}",
            r.code,
            r.stdout
        );
        assert!(
            r.stdout.is_empty() && r.stderr.trim().lines().count() == 1,
            "{}",
            r.stderr
        );
    }
}

/// The words of the runs of spsa-paused.json and spsa-start.json (make-fixtures.sh).
fn spsa_args<'a>(state: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "tune",
        "spsa",
        "--engine",
        "cmd=chariot --tunables",
        "--params",
        "RfpMargin",
        "LmrBase",
        "NmpBase",
        "--iterations",
        "3",
        "--pairs",
        "2",
        "--tc",
        "nodes=300",
        "--seed",
        "4",
        "--openings",
        "engine-tests/openings.epd",
        "--state",
        state,
    ];
    v.extend_from_slice(extra);
    v
}

/// θ of a state file's `theta` object, in the order of the tuned parameters.
fn theta_of(v: &Value) -> Vec<f64> {
    ["RfpMargin", "LmrBase", "NmpBase"]
        .iter()
        .map(|n| v[n].as_f64().unwrap_or_else(|| panic!("{n} in {v}")))
        .collect()
}

/// What a paused run prints above the table's lines (those name today's defaults).
fn paused_text(s: &str) -> &str {
    &s[..s.find("# new defaults").expect("the table's lines")]
}

#[test]
fn old_spsa_states_resume() {
    let old_text = read(&fixture("spsa-paused.json"));
    let old = json(&old_text, "spsa-paused.json");
    let st = scratch("paused.json");
    std::fs::write(&st, &old_text).unwrap();
    let path = s(&st);

    // at its own --stop-after it plays nothing, prints what the old build printed and
    // leaves the file as it is
    let r = run(&spsa_args(&path, &["--stop-after", "2"]));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(!r.stderr.contains("spsa iter"), "{}", r.stderr);
    assert_eq!(
        paused_text(&r.stdout),
        paused_text(&read(&fixture("spsa-paused.txt")))
    );
    assert_eq!(read(&st), old_text);
    // a top-level member this build does not know is passed over, as before
    std::fs::write(&st, old_text.replacen('{', "{\"later\": [1],", 1)).unwrap();
    let r = run(&spsa_args(&path, &["--stop-after", "2"]));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    std::fs::write(&st, &old_text).unwrap();

    // resumed to the end: one more iteration, the old history kept, θ moved from the old θ
    // by the formulas
    let r = run(&spsa_args(&path, &[]));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("resumes") && r.stderr.contains("spsa iter 3/3"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("spsa iter").count(), 1, "{}", r.stderr);
    let new = json(&read(&st), "resumed state");
    for key in ["format", "version", "settings"] {
        assert_eq!(new[key], old[key], "{key}");
    }
    assert_eq!(new["iteration"], 3);
    let (oh, nh) = (
        old["history"].as_array().unwrap(),
        new["history"].as_array().unwrap(),
    );
    assert_eq!((oh.len(), nh.len()), (2, 3));
    assert_eq!(nh[..2], oh[..], "the old iterations are kept as they were");
    let last = &nh[2];
    let count = |v: &Value, k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
    assert_eq!(count(last, "k"), 3);
    assert_eq!(
        count(last, "wins") + count(last, "draws") + count(last, "losses"),
        4
    );
    let r3 = count(last, "wins") as i64 - count(last, "losses") as i64;
    assert_eq!(last["r"].as_i64(), Some(r3));
    for k in ["wins", "draws", "losses"] {
        assert_eq!(count(&new, k), count(&old, k) + count(last, k), "{k}");
    }
    let params = parse_params(&["RfpMargin".into(), "LmrBase".into(), "NmpBase".into()]).unwrap();
    let gains = Gains {
        iterations: 3,
        r_end: 0.002,
        alpha: 0.602,
        gamma: 0.101,
        a_ratio: 0.1,
    };
    let mut theta = theta_of(&old["theta"]);
    let (c, a): (Vec<f64>, Vec<f64>) = params.iter().map(|t| gains.at(t.step, 3)).unzip();
    update(&params, &mut theta, &a, &c, r3, &deltas(4, 3, 3));
    assert_eq!(theta_of(&last["theta"]), theta);
    assert_eq!(theta_of(&new["theta"]), theta);
    let _ = std::fs::remove_file(&st);

    // a run with --start: resumed with the same start, refused without it
    let old_text = read(&fixture("spsa-start.json"));
    std::fs::write(&st, &old_text).unwrap();
    let start = ["--start", "RfpMargin=120", "NmpBase=2"];
    let r = run(&spsa_args(
        &path,
        &[&start[..], &["--stop-after", "1"]].concat(),
    ));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        paused_text(&r.stdout),
        paused_text(&read(&fixture("spsa-start.txt")))
    );
    let r = run(&spsa_args(&path, &["--stop-after", "1"]));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("other settings"), "{}", r.stderr);
    let r = run(&spsa_args(
        &path,
        &[&start[..], &["--stop-after", "2"]].concat(),
    ));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("spsa iter 2/3"), "{}", r.stderr);
    let new = json(&read(&st), "resumed state");
    let old = json(&old_text, "spsa-start.json");
    assert_eq!(new["settings"], old["settings"]);
    assert_eq!(new["history"][0], old["history"][0]);
    assert_eq!(new["iteration"], 2);
    let _ = std::fs::remove_file(&st);
}

#[test]
fn judge_json_has_the_old_fields() {
    let cases = read(&fixture("judge.jsonl"));
    let mut n = 0;
    for line in cases.lines() {
        let case = json(line, "judge.jsonl");
        let mut args = vec!["judge", "--json"];
        args.extend(
            case["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap()),
        );
        let r = run(&args);
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        let mut got = json(&r.stdout, "judge");
        let mut want = json(case["out"].as_str().unwrap(), "old judge");
        // the old build cited CXA clause numbers under the Asian rules too; they are the Asian
        // rules' own numbers now (`AXF 3`, …, docs/rules.md): only their form is kept
        if want["rule_set"] == "axf" && want["kind"] == "repetition" {
            let clauses = got["clauses"].as_array().expect("clauses is an array");
            assert!(
                !clauses.is_empty()
                    && clauses
                        .iter()
                        .all(|c| c.as_str().is_some_and(|c| c.starts_with("AXF "))),
                "{args:?}: {clauses:?}"
            );
            got["clauses"] = Value::Null;
            want["clauses"] = Value::Null;
        }
        assert_eq!(got, want, "{args:?}");
        n += 1;
    }
    assert_eq!(n, 10);
}
