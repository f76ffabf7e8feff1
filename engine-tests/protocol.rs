//! Protocol transcripts run against the built binary: handshakes of both dialects, a
//! search to a fixed depth, bad input answered with one `info string` line and the loop
//! carrying on, `stop` while idle, end of input as `quit`.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &str) -> Vec<String> {
    run_args(&[], input)
}

fn run_args(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("the engine exits");
    assert!(out.status.success(), "exit status {:?}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn index_of(lines: &[String], pred: impl Fn(&str) -> bool) -> Option<usize> {
    lines.iter().position(|l| pred(l))
}

#[test]
fn ucci_session() {
    let out = run("ucci\nisready\nposition startpos moves h2e2 h9g7\ngo depth 4\nisready\n");
    let ok = index_of(&out, |l| l == "ucciok").expect("ucciok");
    assert!(out[..ok].iter().any(|l| l.starts_with("id name Chariot")));
    assert!(
        out[..ok]
            .iter()
            .any(|l| l.starts_with("option usemillisec"))
    );
    assert!(out.iter().any(|l| l == "readyok"));
    let best = index_of(&out, |l| l.starts_with("bestmove ")).expect("a bestmove");
    let info = index_of(&out, |l| l.starts_with("info depth 4 ")).expect("depth 4 info");
    assert!(info < best);
    assert!(
        out[info].contains(" score ") && !out[info].contains(" score cp "),
        "{}",
        out[info]
    );
    let mv = out[best].split_whitespace().nth(1).expect("a move");
    assert_eq!(mv.len(), 4, "{}", out[best]);
}

#[test]
fn uci_session_and_mate_score() {
    let out = run("uci\nposition fen 3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1\ngo depth 3\n");
    assert!(out.iter().any(|l| l == "uciok"));
    assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l == "bestmove a0d0" || l == "bestmove a0a9"),
        "{out:?}"
    );
}

#[test]
fn bad_input_keeps_the_loop_alive() {
    let out = run(
        "ucci\nfrobnicate\nposition fen not/a/fen w\ngo depth x\nposition startpos moves h2e2 h2e2\nsetoption hashsize -5\nstop\nisready\nquit\n",
    );
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert!(errors.len() >= 5, "{out:?}");
    assert!(errors.iter().any(|l| l.contains("'frobnicate'")));
    assert!(errors.iter().any(|l| l.contains("move 2 'h2e2'")));
    assert!(
        out.iter().any(|l| l == "nobestmove"),
        "stop while idle: {out:?}"
    );
    assert!(out.iter().any(|l| l == "readyok"));
    assert_eq!(out.last().map(String::as_str), Some("bye"));
}

#[test]
fn banned_moves_are_not_played() {
    // two mates in one: ban one, the other is played
    let out =
        run("ucci\nposition fen 3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1\nbanmoves a0d0\ngo depth 3\n");
    assert!(out.iter().any(|l| l == "bestmove a0a9"), "{out:?}");
}

/// The nodes of the last `info depth` line before the bestmove.
fn nodes_of_search(out: &[String]) -> u64 {
    let best = index_of(out, |l| l.starts_with("bestmove ")).expect("a bestmove");
    let info = out[..best]
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth "))
        .expect("an info line");
    let w: Vec<&str> = info.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "nodes").expect("nodes");
    w[i + 1].parse().expect("a node count")
}

#[test]
fn tunables_are_options_only_when_started_for_tuning() {
    use chariot::engine::TUNABLES;
    // a GUI never sees them, and setting one does nothing
    let plain = run("uci\nisready\n");
    assert!(!plain.iter().any(|l| l.contains("RfpMargin")), "{plain:?}");
    // `--tunables`: the table round-trips through the option lines of both dialects
    let uci = run_args(&["--tunables"], "uci\nisready\n");
    let ucci = run_args(&["--tunables"], "ucci\nisready\n");
    for t in TUNABLES {
        let want = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.default, t.min, t.max
        );
        assert!(uci.contains(&want), "missing {want}");
        let want = format!(
            "option {} type spin min {} max {} default {}",
            t.name.to_ascii_lowercase(),
            t.min,
            t.max,
            t.default
        );
        assert!(ucci.contains(&want), "missing {want}");
    }
    let listed = uci.iter().filter(|l| l.starts_with("option name ")).count();
    let plain_listed = plain
        .iter()
        .filter(|l| l.starts_with("option name "))
        .count();
    assert_eq!(listed, plain_listed + TUNABLES.len());
    // a value out of range or not a number is refused with one line; the search goes on
    let out = run_args(
        &["--tunables"],
        "uci\nsetoption name RfpMargin value 100000\nsetoption name LmrBase value x\nisready\n",
    );
    let errors = out
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 2, "{out:?}");
}

#[test]
fn a_tunable_set_by_option_reaches_the_search() {
    let go = "position startpos moves h2e2 h9g7\ngo depth 7\n";
    let default = nodes_of_search(&run_args(&["--tunables"], &format!("uci\n{go}")));
    let again = nodes_of_search(&run_args(&["--tunables"], &format!("uci\n{go}")));
    assert_eq!(default, again, "a fixed-depth search is deterministic");
    let changed = nodes_of_search(&run_args(
        &["--tunables"],
        &format!("uci\nsetoption name LmrBase value 140\n{go}"),
    ));
    assert_ne!(changed, default, "LmrBase 140 must change the tree");
    // without --tunables the same setoption is ignored: the tree is the default one
    let ignored = nodes_of_search(&run(&format!(
        "uci\nsetoption name LmrBase value 140\n{go}"
    )));
    assert_eq!(ignored, default);
}
