//! Protocol transcripts run against the built binary: handshakes of both dialects, a
//! search to a fixed depth, bad input answered with one `info string` line and the loop
//! carrying on, `stop` while idle, end of input as `quit`; no greeting on a piped stdin,
//! the greeting first on a terminal (a pseudo-terminal, where python3 has one), `help` in
//! each dialect and its list of subcommands against `chariot --help`.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &str) -> Vec<String> {
    run_args(&[], input)
}

fn run_args(args: &[&str], input: &str) -> Vec<String> {
    String::from_utf8_lossy(&run_raw_args(args, input))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The raw bytes the engine, started with `args`, writes for `input` on a piped stdin.
fn run_raw_args(args: &[&str], input: &str) -> Vec<u8> {
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
    out.stdout
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

/// The raw bytes the engine writes for `input` on a piped stdin.
fn run_raw(input: &str) -> Vec<u8> {
    run_raw_args(&[], input)
}

#[test]
fn a_piped_stdin_gets_no_greeting() {
    // what GUIs and match runners see, byte for byte: the replies and nothing before them
    assert_eq!(run_raw(""), b"bye\n");
    assert_eq!(run_raw("isready\nquit\n"), b"readyok\nbye\n");
    assert_eq!(run_raw("xboard\nping 3\n"), b"pong 3\n");
    let ucci = run_raw("ucci\n");
    assert!(ucci.starts_with(b"id name Chariot "), "{ucci:?}");
    let uci = run_raw("uci\nquit\n");
    assert!(uci.starts_with(b"id name Chariot "), "{uci:?}");
    let greeting = chariot::protocol::greeting();
    for out in [ucci, uci] {
        assert!(!String::from_utf8_lossy(&out).contains(&greeting));
    }
}

/// The lines `help` prints in a session started by `handshake` (`""`: none), up to the
/// reply to `sync`, which must answer `synced`.
fn help_lines(handshake: &str, sync: &str, synced: &str) -> Vec<String> {
    let out = run(&format!("{handshake}help\n{sync}\n"));
    let start = match handshake {
        "" => 0,
        _ => index_of(&out, |l| l == "ucciok" || l == "uciok").map_or(0, |i| i + 1),
    };
    let end = index_of(&out, |l| l == synced).expect("the sync reply");
    out[start..end].to_vec()
}

#[test]
fn help_lines_are_safe_for_each_dialect() {
    // UCCI and UCI: every line an `info string`, never a bare command word a GUI could take
    // for a reply; CECP: every line a comment
    for (handshake, prefix, sync, synced) in [
        ("ucci\n", "info string ", "isready", "readyok"),
        ("uci\n", "info string ", "isready", "readyok"),
        ("xboard\n", "# ", "ping 9", "pong 9"),
    ] {
        let lines = help_lines(handshake, sync, synced);
        assert!(lines.len() >= 20, "{handshake}: {lines:?}");
        for l in &lines {
            assert!(
                l.starts_with(prefix) && l.len() > prefix.len(),
                "{handshake}: {l}"
            );
        }
        assert!(lines[0].contains("in this session"), "{:?}", lines[0]);
    }
    // before a handshake: plain text for the person who asked
    let lines = help_lines("", "isready", "readyok");
    assert!(lines[0].starts_with("Chariot "), "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("info") && !l.starts_with('#'))
    );
    for handshake in ["ucci", "uci", "xboard"] {
        let row = format!("  {handshake} ");
        assert!(lines.iter().any(|l| l.starts_with(&row)), "{handshake}");
    }
}

/// The first word of each indented line after the line starting with `header`, up to the
/// next line that is not indented.
fn listed_after(lines: &[String], header: &str) -> Vec<String> {
    let from = index_of(lines, |l| l.starts_with(header)).expect(header);
    lines[from + 1..]
        .iter()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn help_lists_the_subcommands_of_chariot_help() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("--help")
        .output()
        .expect("chariot --help");
    let text = String::from_utf8_lossy(&out.stdout);
    let usage: Vec<String> = text.lines().map(str::to_string).collect();
    let mut expected = listed_after(&usage, "Commands:");
    expected.retain(|c| c != "help");
    assert!(expected.len() >= 8, "{expected:?}");
    assert!(text.contains("type help there"), "{text}");
    let shown = listed_after(&help_lines("", "isready", "readyok"), "Command line:");
    assert_eq!(shown, expected);
    let ucci = help_lines("ucci\n", "isready", "readyok");
    let ucci: Vec<String> = ucci
        .iter()
        .map(|l| l.trim_start_matches("info string ").to_string())
        .collect();
    assert_eq!(listed_after(&ucci, "Command line:"), expected);
}

/// Runs the engine on a pseudo-terminal (python3's `pty`, where there is one) and returns
/// what it printed until `isready` was answered, or `None` when no pty can be had here.
fn on_a_terminal() -> Option<String> {
    const SCRIPT: &str = r#"
import os, select, sys, time
try:
    import pty
    pid, fd = pty.fork()
except Exception:
    sys.exit(77)
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]])
out = b""
def read_until(mark, sent):
    global out
    end = time.time() + 20
    while mark not in out and time.time() < end:
        if sent is not None and not sent[0] and out:
            os.write(fd, b"isready\n")
            sent[0] = True
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
# the greeting first, then a protocol command is answered as ever
read_until(b"readyok", [False])
os.write(fd, b"quit\n")
read_until(b"bye", None)
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
"#;
    let out = Command::new("python3")
        .args(["-c", SCRIPT, env!("CARGO_BIN_EXE_chariot")])
        .output()
        .ok()?;
    if out.status.code() == Some(77) || !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
}

#[test]
fn a_terminal_on_stdin_gets_the_greeting_first() {
    let Some(out) = on_a_terminal() else {
        eprintln!("no python3 pty here: the terminal case is not checked");
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&chariot::protocol::greeting().as_str()));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("a Xiangqi engine"))
            .count(),
        1
    );
    assert!(
        lines.contains(&"readyok") && lines.contains(&"bye"),
        "{out}"
    );
}

#[test]
fn uci_elo_limits_strength_only_with_uci_limitstrength_in_every_dialect() {
    use chariot::engine::skill;
    let go = "position startpos moves h2e2 h9g7\ngo depth 30\n";
    // the lowest rating is level 0: its node budget, whichever dialect names the options
    let budget = skill::plan(0.0).nodes;
    for input in [
        format!(
            "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {}\n{go}",
            skill::ELO_MIN
        ),
        format!(
            "uci\nsetoption name UCI_Elo value {}\nsetoption name UCI_LimitStrength value true\n{go}",
            skill::ELO_MIN
        ),
        format!(
            "ucci\nsetoption limitstrength true\nsetoption elo {}\n{go}",
            skill::ELO_MIN
        ),
    ] {
        let n = nodes_of_search(&run(&input));
        assert!(
            n <= budget + 4096,
            "{n} nodes for level 0's budget {budget}: {input}"
        );
    }
    // a rating in the middle: the level the table gives, between its neighbours' budgets
    let mid = nodes_of_search(&run(&format!(
        "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 2000\n{go}"
    )));
    let level = skill::level_for_elo(2000.0);
    assert!(level > 4.0 && level < 19.0, "level {level}");
    assert!(
        mid > budget + 4096 && mid <= skill::plan(level).nodes + 4096,
        "{mid}"
    );
    // UCI_Elo alone, or with the limit switched off again, leaves full strength
    let depth8 = "position startpos moves h2e2 h9g7\ngo depth 8\n";
    let full = nodes_of_search(&run(&format!("uci\n{depth8}")));
    for input in [
        format!(
            "uci\nsetoption name UCI_Elo value {}\n{depth8}",
            skill::ELO_MIN
        ),
        format!(
            "uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {}\nsetoption name UCI_LimitStrength value false\n{depth8}",
            skill::ELO_MIN
        ),
    ] {
        assert_eq!(nodes_of_search(&run(&input)), full, "{input}");
    }
    // the options are listed with the table's range; a rating outside it is refused
    let uci = run("uci\nsetoption name UCI_Elo value 99999\nisready\n");
    let want = format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        skill::ELO_MAX,
        skill::ELO_MIN,
        skill::ELO_MAX
    );
    assert!(uci.contains(&want), "missing {want}: {uci:?}");
    assert!(uci.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    assert!(
        uci.iter()
            .any(|l| l.starts_with("info string error: bad value '99999'")),
        "{uci:?}"
    );
}
