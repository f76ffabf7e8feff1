//! Runs every protocol transcript in `engine-tests/protocol/*.txt` against the built binary.
//!
//! A transcript is a script of what a GUI sends and what it must see come back. One engine
//! process per transcript; stdout is read by a thread, so a hang fails the expectation after
//! its timeout instead of blocking the test. The format (also at the top of each file):
//!
//! ```text
//! # comment                 (blank lines are ignored too)
//! > text                    send `text` and a newline; escapes: \r \t \n \0 \\ \xHH (raw byte)
//! < PATTERN                 a later output line must match; lines before it are skipped
//! = PATTERN                 the very next output line must match (nothing skipped)
//! ~ PATTERN                 some line up to and including the next `<`/`=` match matches
//!                           (any order among several `~`)
//! ! PATTERN                 no line up to and including the next `<`/`=` match may match
//! ^ PREFIX => PATTERN       every line starting with PREFIX (whole words), up to and
//!                           including the next `<`/`=` match, must match PATTERN
//! @sleep MS                 pause before going on
//! @timeout S                seconds each later expectation may wait (default 10)
//! @within MS                the next `<`/`=` must match within MS ms of the last `>`
//! @after MS                 the next `<`/`=` must not match sooner than MS ms after the last `>`
//! @eof                      close the engine's stdin (end of input)
//! @exit                     the engine must exit by itself now (after `quit`), status 0
//! @multipv K                in the output read so far (since the last `@multipv`), every
//!                           depth that has `multipv 1..K` lines has K distinct first moves;
//!                           at least one such depth
//! ```
//!
//! A PATTERN matches the whole line. `*` matches any text (also none), `#` an integer
//! (`-` allowed), `%` an ICCS move (`[a-i][0-9][a-i][0-9]`), `\` makes the next character
//! literal; everything else matches itself. ` || ` separates alternatives.
//!
//! At the end of a transcript stdin is closed (if `@eof`/`@exit` did not already), the
//! remaining output is checked against pending `!`, `~`, `^` rules, and the engine must exit
//! with status 0 within the timeout. Anything containing `panicked` on stderr fails the
//! transcript. `CHARIOT_TRANSCRIPT=word` runs only the transcripts whose file name contains
//! `word`.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------
// patterns

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Lit(char),
    Star,
    Int,
    Move,
}

#[derive(Clone, Debug)]
struct Pattern {
    text: String,
    alts: Vec<Vec<Tok>>,
}

impl Pattern {
    fn new(text: &str) -> Pattern {
        let alts = text
            .split(" || ")
            .map(|alt| {
                let mut toks = Vec::new();
                let mut chars = alt.chars();
                while let Some(c) = chars.next() {
                    toks.push(match c {
                        '*' => Tok::Star,
                        '#' => Tok::Int,
                        '%' => Tok::Move,
                        '\\' => Tok::Lit(chars.next().unwrap_or('\\')),
                        c => Tok::Lit(c),
                    });
                }
                toks
            })
            .collect();
        Pattern {
            text: text.to_string(),
            alts,
        }
    }

    fn matches(&self, line: &str) -> bool {
        let chars: Vec<char> = line.chars().collect();
        self.alts.iter().any(|alt| match_here(alt, &chars))
    }
}

fn match_here(toks: &[Tok], s: &[char]) -> bool {
    let Some((first, rest)) = toks.split_first() else {
        return s.is_empty();
    };
    match first {
        Tok::Lit(c) => s.first() == Some(c) && match_here(rest, &s[1..]),
        Tok::Star => (0..=s.len()).any(|i| match_here(rest, &s[i..])),
        Tok::Int => {
            let sign = usize::from(s.first() == Some(&'-'));
            let digits = s[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
            (1..=digits).rev().any(|n| match_here(rest, &s[sign + n..]))
        }
        Tok::Move => {
            s.len() >= 4
                && ('a'..='i').contains(&s[0])
                && s[1].is_ascii_digit()
                && ('a'..='i').contains(&s[2])
                && s[3].is_ascii_digit()
                && match_here(rest, &s[4..])
        }
    }
}

// ---------------------------------------------------------------------------------------
// transcripts

#[derive(Clone, Debug)]
enum Step {
    Send(Vec<u8>),
    Expect { pat: Pattern, next_only: bool },
    Somewhere(Pattern),
    Forbid(Pattern),
    Each { word: String, pat: Pattern },
    Sleep(u64),
    Timeout(u64),
    Within(u64),
    After(u64),
    Eof,
    Exit,
    MultiPv(usize),
}

fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let next = b[i + 1];
            let simple = match next {
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'n' => Some(b'\n'),
                b'0' => Some(0),
                b'\\' => Some(b'\\'),
                _ => None,
            };
            if let Some(c) = simple {
                out.push(c);
                i += 2;
                continue;
            }
            let hex = b
                .get(i + 2..i + 4)
                .and_then(|h| std::str::from_utf8(h).ok());
            if let (b'x', Some(Ok(v))) = (next, hex.map(|h| u8::from_str_radix(h, 16))) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

fn number(arg: &str, line: usize) -> Result<u64, String> {
    arg.trim()
        .parse()
        .map_err(|_| format!("line {line}: '{arg}' is not a number"))
}

fn parse_transcript(text: &str) -> Result<Vec<(usize, Step)>, String> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, arg) = match line.split_once(' ') {
            Some((h, a)) => (h, a),
            None => (line, ""),
        };
        let step = match head {
            ">" => Step::Send(unescape(arg)),
            "<" => Step::Expect {
                pat: Pattern::new(arg),
                next_only: false,
            },
            "=" => Step::Expect {
                pat: Pattern::new(arg),
                next_only: true,
            },
            "~" => Step::Somewhere(Pattern::new(arg)),
            "!" => Step::Forbid(Pattern::new(arg)),
            "^" => {
                let (word, pat) = arg
                    .split_once(" => ")
                    .ok_or_else(|| format!("line {n}: '^' needs 'PREFIX => PATTERN'"))?;
                Step::Each {
                    word: word.trim().to_string(),
                    pat: Pattern::new(pat),
                }
            }
            "@sleep" => Step::Sleep(number(arg, n)?),
            "@timeout" => Step::Timeout(number(arg, n)?),
            "@within" => Step::Within(number(arg, n)?),
            "@after" => Step::After(number(arg, n)?),
            "@eof" => Step::Eof,
            "@exit" => Step::Exit,
            "@multipv" => Step::MultiPv(number(arg, n)? as usize),
            _ => return Err(format!("line {n}: cannot read '{line}'")),
        };
        steps.push((n, step));
    }
    Ok(steps)
}

// ---------------------------------------------------------------------------------------
// the engine process

struct Run {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Output lines, stamped when they arrived.
    out: Receiver<(Instant, String)>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Every output line read so far.
    log: Vec<String>,
    /// Lines sent so far (for failure reports).
    sent: Vec<String>,
    last_send: Instant,
    timeout: Duration,
    /// Pending rules, cleared at each `<`/`=` match: (transcript line, rule).
    forbid: Vec<(usize, Pattern)>,
    somewhere: Vec<(usize, Pattern, bool)>,
    each: Vec<(usize, String, Pattern)>,
    within: Option<(usize, u64)>,
    after: Option<(usize, u64)>,
    multipv_from: usize,
    eof_seen: bool,
}

fn spawn() -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut stderr_pipe = child.stderr.take().expect("stderr");
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr_pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    Run {
        stdin: child.stdin.take(),
        child,
        out: rx,
        stderr,
        log: Vec::new(),
        sent: Vec::new(),
        last_send: Instant::now(),
        timeout: Duration::from_secs(10),
        forbid: Vec::new(),
        somewhere: Vec::new(),
        each: Vec::new(),
        within: None,
        after: None,
        multipv_from: 0,
        eof_seen: false,
    }
}

impl Run {
    fn send(&mut self, bytes: &[u8], n: usize) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("line {n}: input already closed"))?;
        let mut data = bytes.to_vec();
        data.push(b'\n');
        stdin
            .write_all(&data)
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("line {n}: cannot send (has the engine exited?): {e}"))?;
        let shown = String::from_utf8_lossy(bytes);
        self.sent.push(if shown.chars().count() > 200 {
            let head: String = shown.chars().take(200).collect();
            format!("{head}… ({} bytes)", bytes.len())
        } else {
            shown.into_owned()
        });
        self.last_send = Instant::now();
        Ok(())
    }

    /// The next output line, `None` at end of output; `Err` on timeout.
    fn next_line(
        &mut self,
        deadline: Instant,
        n: usize,
        what: &str,
    ) -> Result<Option<(Instant, String)>, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.out.recv_timeout(wait) {
            Ok((at, line)) => {
                self.log.push(line.clone());
                Ok(Some((at, line)))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.eof_seen = true;
                Ok(None)
            }
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "line {n}: timed out after {:?} waiting for {what}",
                self.timeout
            )),
        }
    }

    /// Applies the pending `!`, `~`, `^` rules to one output line.
    fn check_rules(&mut self, line: &str) -> Result<(), String> {
        for (n, pat) in &self.forbid {
            if pat.matches(line) {
                return Err(format!(
                    "line {n}: forbidden '{}' matched '{line}'",
                    pat.text
                ));
            }
        }
        for (n, word, pat) in &self.each {
            let starts = line
                .strip_prefix(word.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '));
            if starts && !pat.matches(line) {
                return Err(format!(
                    "line {n}: '{line}' starts with '{word}' but does not match '{}'",
                    pat.text
                ));
            }
        }
        for (_, pat, seen) in &mut self.somewhere {
            if !*seen && pat.matches(line) {
                *seen = true;
            }
        }
        Ok(())
    }

    /// Called when an ordered expectation matched (or the output ended): settles the rules.
    fn settle(&mut self, at: &str) -> Result<(), String> {
        if let Some((n, pat, _)) = self.somewhere.iter().find(|s| !s.2) {
            return Err(format!(
                "line {n}: no line matched '{}' before {at}",
                pat.text
            ));
        }
        self.somewhere.clear();
        self.forbid.clear();
        self.each.clear();
        Ok(())
    }

    fn expect(&mut self, pat: &Pattern, next_only: bool, n: usize) -> Result<(), String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let what = format!("'{}'", pat.text);
            let Some((at, line)) = self.next_line(deadline, n, &what)? else {
                return Err(format!("line {n}: output ended while waiting for {what}"));
            };
            self.check_rules(&line)?;
            if pat.matches(&line) {
                let elapsed = at.saturating_duration_since(self.last_send);
                let ms = |d: Duration| d.as_millis();
                if let Some((wn, limit)) = self.within.take()
                    && elapsed > Duration::from_millis(limit)
                {
                    return Err(format!(
                        "line {wn}: '{line}' came {} ms after the last input, more than {limit} ms",
                        ms(elapsed)
                    ));
                }
                if let Some((an, limit)) = self.after.take()
                    && elapsed < Duration::from_millis(limit)
                {
                    return Err(format!(
                        "line {an}: '{line}' came {} ms after the last input, sooner than {limit} ms",
                        ms(elapsed)
                    ));
                }
                return self.settle(&format!("line {n}"));
            }
            if next_only {
                return Err(format!(
                    "line {n}: next line '{line}' does not match {what}"
                ));
            }
        }
    }

    /// Reads the rest of the output (to end of output) against the pending rules.
    fn drain(&mut self, n: usize) -> Result<(), String> {
        let deadline = Instant::now() + self.timeout;
        while let Some((_, line)) = self.next_line(deadline, n, "the end of output")? {
            self.check_rules(&line)?;
        }
        self.settle("the end of output")
    }

    fn wait_exit(&mut self, n: usize) -> Result<(), String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => {
                    return Err(format!("line {n}: the engine exited with {status}"));
                }
                Ok(None) if Instant::now() > deadline => {
                    return Err(format!(
                        "line {n}: the engine did not exit within {:?}",
                        self.timeout
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(format!("line {n}: wait: {e}")),
            }
        }
    }

    fn check_multipv(&mut self, k: usize, n: usize) -> Result<(), String> {
        // (depth, multipv index, first move) per search; a bestmove line ends a search
        let mut searches: Vec<Vec<(String, usize, String)>> = vec![Vec::new()];
        for line in &self.log[self.multipv_from..] {
            if line.starts_with("bestmove") || line == "nobestmove" {
                searches.push(Vec::new());
                continue;
            }
            let w: Vec<&str> = line.split(' ').collect();
            if w.first() != Some(&"info") {
                continue;
            }
            let after = |key: &str| w.iter().position(|t| *t == key).and_then(|i| w.get(i + 1));
            if let (Some(d), Some(m), Some(first)) = (after("depth"), after("multipv"), after("pv"))
            {
                let idx: usize = m
                    .parse()
                    .map_err(|_| format!("line {n}: bad multipv in '{line}'"))?;
                if idx == 0 || idx > k {
                    return Err(format!(
                        "line {n}: multipv {idx} out of 1..={k} in '{line}'"
                    ));
                }
                searches
                    .last_mut()
                    .unwrap()
                    .push((d.to_string(), idx, first.to_string()));
            }
        }
        let mut complete = 0;
        for s in &searches {
            let mut depths: Vec<&String> = s.iter().map(|e| &e.0).collect();
            depths.dedup();
            for d in depths {
                let mut firsts: Vec<Option<&String>> = vec![None; k + 1];
                for (dd, idx, first) in s {
                    if dd == d {
                        firsts[*idx] = Some(first);
                    }
                }
                if firsts[1..].iter().all(Option::is_some) {
                    let mut moves: Vec<&String> = firsts[1..].iter().map(|f| f.unwrap()).collect();
                    moves.sort();
                    moves.dedup();
                    if moves.len() != k {
                        return Err(format!(
                            "line {n}: depth {d}: the {k} lines do not have {k} distinct first moves"
                        ));
                    }
                    complete += 1;
                }
            }
        }
        self.multipv_from = self.log.len();
        if complete == 0 {
            return Err(format!(
                "line {n}: no depth with all of multipv 1..={k} in the output"
            ));
        }
        Ok(())
    }

    fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }
}

fn run_steps(run: &mut Run, steps: &[(usize, Step)]) -> Result<(), String> {
    let mut last_line = 0;
    for (n, step) in steps {
        let n = *n;
        last_line = n;
        match step {
            Step::Send(bytes) => run.send(bytes, n)?,
            Step::Expect { pat, next_only } => run.expect(pat, *next_only, n)?,
            Step::Somewhere(p) => run.somewhere.push((n, p.clone(), false)),
            Step::Forbid(p) => run.forbid.push((n, p.clone())),
            Step::Each { word, pat } => run.each.push((n, word.clone(), pat.clone())),
            Step::Sleep(ms) => std::thread::sleep(Duration::from_millis(*ms)),
            Step::Timeout(s) => run.timeout = Duration::from_secs(*s),
            Step::Within(ms) => run.within = Some((n, *ms)),
            Step::After(ms) => run.after = Some((n, *ms)),
            Step::Eof => run.stdin = None,
            Step::Exit => {
                run.drain(n)?;
                run.wait_exit(n)?;
            }
            Step::MultiPv(k) => run.check_multipv(*k, n)?,
        }
    }
    // the end: close the input, read what is left, the engine must exit cleanly
    run.stdin = None;
    if !run.eof_seen {
        run.drain(last_line)?;
    }
    run.wait_exit(last_line)
}

fn run_transcript(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let steps = parse_transcript(&text)?;
    let mut run = spawn();
    let result = run_steps(&mut run, &steps);
    if result.is_err() {
        let _ = run.child.kill();
    }
    let _ = run.child.wait();
    // whatever the engine wrote to stderr has arrived once it is gone
    std::thread::sleep(Duration::from_millis(20));
    let stderr = run.stderr_text();
    let result = match result {
        Ok(()) if stderr.contains("panicked") => Err("the engine panicked".to_string()),
        r => r,
    };
    result.map_err(|e| {
        let tail = |v: &[String], k: usize| v[v.len().saturating_sub(k)..].join("\n    ");
        format!(
            "{e}\n  last input:\n    {}\n  last output:\n    {}\n  stderr:\n    {}",
            tail(&run.sent, 8),
            tail(&run.log, 20),
            stderr.trim().replace('\n', "\n    ")
        )
    })
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/protocol");
    let filter = std::env::var("CHARIOT_TRANSCRIPT").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|f| f.to_string_lossy().contains(filter.as_str()))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn protocol_transcripts() {
    let files = transcripts();
    assert!(!files.is_empty(), "no transcripts found");
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let start = Instant::now();
        match run_transcript(path) {
            Ok(()) => println!("ok   {name} ({:.1} s)", start.elapsed().as_secs_f64()),
            Err(e) => {
                println!("FAIL {name}: {e}");
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn pattern_language() {
    let p = Pattern::new("info depth # score # * pv %*");
    assert!(p.matches("info depth 3 score -12 time 5 pv h2e2 h9g7"));
    assert!(!p.matches("info depth 3 score cp 12 time 5 pv h2e2"));
    assert!(!p.matches("info depth x score 1 pv h2e2"));
    let alt = Pattern::new("bestmove % || bestmove % ponder %");
    assert!(alt.matches("bestmove h2e2"));
    assert!(alt.matches("bestmove h2e2 ponder h9g7"));
    assert!(!alt.matches("bestmove h2e2 ponder"));
    assert!(!alt.matches("bestmove h2e2 "));
    assert!(Pattern::new(r"a\*b\#").matches("a*b#"));
    assert!(!Pattern::new(r"a\*b").matches("axb"));
    assert!(Pattern::new("*").matches(""));
    assert_eq!(unescape(r"a\r\x41\\\xff"), b"a\rA\\\xff".to_vec());
    let steps = parse_transcript("# c\n> go\n< bestmove %\n@sleep 5\n^ option => option *\n")
        .expect("parses");
    assert_eq!(steps.len(), 4);
}
