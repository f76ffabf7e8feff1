//! The command examples of the README and `docs/` run here, so they cannot rot.
//!
//! Every fenced block marked `console` in `README.md` and `docs/*.md` is a transcript:
//! a line `$ COMMAND` (continued onto the next line by a trailing `\`) runs COMMAND with `sh`
//! in the repository root, `chariot` on the `PATH` being the binary under test; the lines
//! after it, up to the next `$ ` line or the end of the block, are its output (stdout and
//! stderr together). In the expected output `[..]` stands for any text within a line (times,
//! nodes per second), a line `...` for any number of lines, and a last line `[exit N]` for an
//! exit status other than 0. Blocks marked otherwise (`text`, indented code) are not run:
//! use them for commands that need another engine, a network or minutes. Examples that
//! write files write them under `target/doc-examples/`, which the test empties and makes
//! before the first example.
//!
//! `CHARIOT_DOC_EXAMPLES=word` runs only the examples whose command contains `word`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One example: where it stands, what it runs, what it must print.
#[derive(Debug)]
struct Example {
    file: String,
    line: usize,
    command: String,
    expected: Vec<String>,
    status: i32,
}

/// The examples of one Markdown text, in order.
fn examples(file: &str, text: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    let mut in_console = false;
    let mut fence = String::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if !in_console {
            if let Some(rest) = trimmed.strip_prefix("```") {
                if rest.trim() == "console" {
                    in_console = true;
                    fence = line[..line.len() - trimmed.len()].to_string();
                } else {
                    // skip a block of another kind whole, so its lines are never read as fences
                    for (_, l) in lines.by_ref() {
                        if l.trim_start().starts_with("```") {
                            break;
                        }
                    }
                }
            }
            continue;
        }
        let body = line.strip_prefix(fence.as_str()).unwrap_or(line);
        if body.trim_start().starts_with("```") {
            in_console = false;
            continue;
        }
        let Some(first) = body.strip_prefix("$ ") else {
            return Err(format!(
                "{file}:{}: output outside a command in a console block: {body:?}",
                i + 1
            ));
        };
        let mut command = first.to_string();
        while command.ends_with('\\') {
            command.pop();
            let Some((_, next)) = lines.next() else {
                return Err(format!("{file}:{}: the block ends inside a command", i + 1));
            };
            command.push(' ');
            command.push_str(next.strip_prefix(fence.as_str()).unwrap_or(next).trim());
        }
        let mut expected = Vec::new();
        while let Some((_, next)) = lines.peek() {
            let next = next.strip_prefix(fence.as_str()).unwrap_or(next);
            if next.starts_with("$ ") || next.trim_start().starts_with("```") {
                break;
            }
            expected.push(next.to_string());
            lines.next();
        }
        let mut status = 0;
        if let Some(last) = expected.last()
            && let Some(code) = last
                .strip_prefix("[exit ")
                .and_then(|r| r.strip_suffix(']'))
        {
            status = code
                .parse()
                .map_err(|_| format!("{file}:{}: bad exit line {last:?}", i + 1))?;
            expected.pop();
        }
        out.push(Example {
            file: file.to_string(),
            line: i + 1,
            command,
            expected,
            status,
        });
    }
    if in_console {
        return Err(format!("{file}: a console block is not closed"));
    }
    Ok(out)
}

/// Does one output line match one expected line, `[..]` matching any text?
fn line_matches(expected: &str, actual: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Does the output match the expected lines, a line `...` matching any number of lines?
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => match actual.split_first() {
            Some((a, more)) => line_matches(e, a) && output_matches(rest, more),
            None => false,
        },
    }
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn documents() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Runs one command as the documents describe it; returns (status, output).
fn run(command: &str, bin_dir: &Path) -> Result<(i32, String), String> {
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(repo_root())
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start sh: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err("did not finish within 120 s".to_string());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let text = reader.join().map_err(|_| "output reader panicked")?;
    Ok((status.code().unwrap_or(-1), text))
}

#[test]
fn documented_examples_print_what_the_documents_say() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_chariot"));
    let bin_dir = bin.parent().expect("binary has a folder").to_path_buf();
    // the examples write their files under target/doc-examples: a fresh folder each run
    let scratch = repo_root().join("target").join("doc-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("target/doc-examples can be made");
    let only = std::env::var("CHARIOT_DOC_EXAMPLES").ok();
    let mut all = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("readable document");
        let name = file
            .strip_prefix(repo_root())
            .unwrap_or(&file)
            .display()
            .to_string();
        all.extend(examples(&name, &text).unwrap_or_else(|e| panic!("{e}")));
    }
    assert!(
        all.len() >= 10,
        "only {} console examples found in README.md and docs/",
        all.len()
    );
    let mut failures = Vec::new();
    let mut ran = 0;
    for ex in &all {
        if only.as_deref().is_some_and(|w| !ex.command.contains(w)) {
            continue;
        }
        ran += 1;
        match run(&ex.command, &bin_dir) {
            Err(e) => failures.push(format!("{}:{}: `{}`: {e}", ex.file, ex.line, ex.command)),
            Ok((status, text)) => {
                let actual: Vec<&str> = text.lines().collect();
                if status != ex.status || !output_matches(&ex.expected, &actual) {
                    failures.push(format!(
                        "{}:{}: `{}`\n  exit status {status} (documented {})\n  documented output:\n{}\n  actual output:\n{}",
                        ex.file,
                        ex.line,
                        ex.command,
                        ex.status,
                        indent(&ex.expected.join("\n")),
                        indent(&text),
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} documented examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn blocks_are_read_as_commands_outputs_and_statuses() {
    let md = "text\n\n```console\n$ chariot perft 1 \\\n  --fen X\ntotal 44 time_ms [..]\n...\n[exit 2]\n$ echo hi\nhi\n```\n\n```text\n$ not run\n```\n";
    let ex = examples("t.md", md).expect("parses");
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].command, "chariot perft 1  --fen X");
    assert_eq!(ex[0].expected, vec!["total 44 time_ms [..]", "..."]);
    assert_eq!(ex[0].status, 2);
    assert_eq!(ex[0].line, 4);
    assert_eq!(ex[1].command, "echo hi");
    assert_eq!(ex[1].status, 0);
    assert!(examples("t.md", "```console\nstray\n```\n").is_err());
    assert!(examples("t.md", "```console\n$ echo\n").is_err());
}

#[test]
fn a_changed_output_does_not_match() {
    let exp = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(output_matches(
        &exp(&["total 44 time_ms [..] nps [..]"]),
        &["total 44 time_ms 3 nps 100"]
    ));
    assert!(!output_matches(
        &exp(&["total 44 time_ms [..] nps [..]"]),
        &["total 45 time_ms 3 nps 100"]
    ));
    assert!(!output_matches(&exp(&["a"]), &["a", "b"]));
    assert!(!output_matches(&exp(&["a", "b"]), &["a"]));
    assert!(output_matches(
        &exp(&["a", "...", "z"]),
        &["a", "b", "c", "z"]
    ));
    assert!(output_matches(&exp(&["a", "...", "z"]), &["a", "z"]));
    assert!(!output_matches(&exp(&["a", "...", "z"]), &["a", "b"]));
    assert!(line_matches("x[..]y[..]x", "xyx"));
    assert!(!line_matches("x[..]y[..]x", "xy"));
    assert!(line_matches("x[..]y[..]x", "x1y2x"));
    assert!(!line_matches("ab[..]ba", "aba"));
}
