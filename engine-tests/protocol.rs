//! Protocol transcripts run against the built binary: handshakes of both dialects, a
//! search to a fixed depth, bad input answered with one `info string` line and the loop
//! carrying on, `stop` while idle, end of input as `quit`.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
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
