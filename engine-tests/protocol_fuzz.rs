//! Robustness of the protocol loop: feeds the built binary 100,000 random and mutated command
//! lines (a deterministic PRNG: valid commands of UCCI and UCI, the same with bytes flipped,
//! inserted, deleted, numbers made huge or negative, tokens swapped, FENs truncated, invalid
//! UTF-8, NUL bytes, CR, tabs, long lines) in batches. After each batch it sends `stop`,
//! `isready` and an unknown command `zzfuzzsync<N>`, and requires the `info string` naming
//! that command, a `readyok` since the last batch, nothing `panicked` on stderr, and the
//! process still alive. At the end `quit` must end it with status 0.
//!
//! What would only make the run slow is kept out: no `quit`/`exit`/`bench` lines, `perft`
//! depths up to 3, `setoption` numbers up to 64 (threads up to 4). Searches are cut short
//! by the next command or the batch's `stop`.
//!
//! On a failure (other than a hang) the batch is shrunk to the shortest failing prefix (replayed in a fresh
//! process after the stateful lines that came before it) and written to
//! `$CARGO_TARGET_TMPDIR/protocol-fuzz-failure-<dialect>-<k>.txt`; the run then goes on with a new
//! process, and the test fails at the end listing every distinct failure (at most 5; the
//! same panic site and message, or another hang, is only counted).
//!
//! The CECP dialect (XBoard) is fuzzed the same way in a second test, `protocol_fuzz_cecp`:
//! every process starts with `xboard`, the lines are CECP commands (and their damaged
//! copies), and the sync after each batch is `?` (move now), `ping N` and the unknown
//! command, answered by `pong N` and `Error (unknown command): zzfuzzsync<N>`. It runs 100,000
//! lines by default; `exit` (leave analyze mode) is allowed there, `memory`/`cores` are capped
//! like the hash and thread options.
//!
//! `CHARIOT_FUZZ_SEED` and `CHARIOT_FUZZ_LINES` change the seed and the number of lines;
//! `CHARIOT_FUZZ_SKIP=word,word` leaves out every line containing one of the words (case
//! insensitive), to look past a known failure.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const BATCH: usize = 500;
const SYNC_TIMEOUT: Duration = Duration::from_secs(30);
const MAX_FAILURES: usize = 5;

// ---------------------------------------------------------------------------------------
// PRNG (splitmix64)

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------
// material

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1R2 w - - 0 1",
    "3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1",
    "4k4/R8/9/9/9/9/p8/9/9/3K4R b - - 0 1",
    "R2k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
    "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
    "2bakab1r/9/1c2c1n2/p3p1p1p/2p6/6P2/P1P1P3P/2N1C1N2/9/R1BAKAB2 b - - 0 1",
];

const OPENING: &[&str] = &[
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "b7b3", "h0h4",
];

const SHUFFLES: &[[&str; 4]] = &[
    ["b0c2", "b9c7", "c2b0", "c7b9"],
    ["h0g2", "h9g7", "g2h0", "g7h9"],
    ["a0a1", "a9a8", "a1a0", "a8a9"],
    ["e0e1", "e9e8", "e1e0", "e8e9"],
];

const WEIRD_NUMBERS: &[&str] = &[
    "-1",
    "0",
    "-0",
    "+5",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999",
    "-9223372036854775808",
    "2147483647",
    "2147483648",
    "4294967296",
    "1e9",
    "0x10",
    "NaN",
    "inf",
    "3.5",
    "١٢",
    "",
];

const OPTIONS_UCCI: &[&str] = &[
    "hashsize",
    "threads",
    "usemillisec",
    "multipv",
    "newgame",
    "rules",
    "debug",
    "ponder",
    "usebook",
    "bookfiles",
    "batch",
    "idle",
    "randomness",
    "style",
    "useegtb",
    "egtbpaths",
    "drawacceptscore",
    "resign",
    "promotion",
    "showwdl",
    "moveoverhead",
    "frobozz",
];

const OPTIONS_UCI: &[&str] = &[
    "Hash",
    "Threads",
    "MultiPV",
    "UCI_ShowWDL",
    "Clear Hash",
    "Ponder",
    "Move Overhead",
    "Rules",
    "Frob Nicate",
];

const VALUES: &[&str] = &[
    "true",
    "false",
    "on",
    "off",
    "1",
    "2",
    "3",
    "4",
    "16",
    "32",
    "64",
    "0",
    "-5",
    "cxa",
    "axf",
    "none",
    "small",
    "normal",
    "risky",
    "a.obk;b.obk",
    "",
    "<empty>",
    "x y z",
];

fn random_move(rng: &mut Rng) -> String {
    let f = |rng: &mut Rng| char::from(b'a' + rng.below(9) as u8);
    let r = |rng: &mut Rng| char::from(b'0' + rng.below(10) as u8);
    format!("{}{}{}{}", f(rng), r(rng), f(rng), r(rng))
}

fn moves(rng: &mut Rng) -> String {
    let mut out: Vec<String> = Vec::new();
    match rng.below(5) {
        0 => {
            let n = rng.below(OPENING.len() + 1);
            out.extend(OPENING[..n].iter().map(|s| s.to_string()));
        }
        1 => {
            for _ in 0..rng.below(8) {
                out.push(random_move(rng));
            }
        }
        2 => {
            // a long legal shuffle, up to 1,024 plies
            let plies = rng.below(1025);
            let mut i = 0;
            while out.len() < plies {
                out.extend(SHUFFLES[i % SHUFFLES.len()].iter().map(|s| s.to_string()));
                i += 1;
            }
            out.truncate(plies);
        }
        3 => {
            let n = rng.below(OPENING.len() + 1);
            out.extend(OPENING[..n].iter().map(|s| s.to_string()));
            out.push(random_move(rng));
            out.extend(OPENING.iter().map(|s| s.to_string()));
        }
        _ => {}
    }
    if out.is_empty() && rng.chance(50) {
        String::new()
    } else {
        format!(" moves {}", out.join(" "))
    }
}

fn fen(rng: &mut Rng) -> String {
    let f = rng.pick(FENS).to_string();
    match rng.below(6) {
        0 => f[..rng.below(f.len() + 1)].to_string(),
        1 => {
            // a corrupted character
            let mut b = f.into_bytes();
            let i = rng.below(b.len());
            b[i] = *rng.pick(b"0123456789/kKaAbBnNrRcCpPhHeExX ");
            String::from_utf8_lossy(&b).into_owned()
        }
        2 => f.split(' ').take(2).collect::<Vec<_>>().join(" "),
        _ => f,
    }
}

fn number(rng: &mut Rng, max: u64) -> String {
    if rng.chance(5) {
        rng.pick(WEIRD_NUMBERS).to_string()
    } else {
        (rng.next() % (max + 1)).to_string()
    }
}

fn go(rng: &mut Rng) -> String {
    let mut parts = vec!["go".to_string()];
    if rng.chance(10) {
        parts.push("ponder".into());
    }
    if rng.chance(10) {
        parts.push("draw".into());
    }
    let mut limited = false;
    for _ in 0..rng.below(4) {
        let (word, max) = *rng.pick(&[
            ("depth", 6),
            ("nodes", 20_000),
            ("movetime", 20),
            ("time", 50),
            ("increment", 10),
            ("movestogo", 40),
            ("opptime", 1000),
            ("oppmovestogo", 40),
            ("oppincrement", 10),
            ("wtime", 50),
            ("btime", 50),
            ("winc", 10),
            ("binc", 10),
            ("mate", 2),
        ]);
        parts.push(word.into());
        parts.push(number(rng, max));
        limited = true;
    }
    if !limited {
        match rng.below(4) {
            0 => parts.push("infinite".into()),
            1 => parts.push("depth infinite".into()),
            2 => {}
            _ => parts.push(format!("depth {}", rng.below(4))),
        }
    }
    parts.join(" ")
}

/// One well-formed (or nearly) command.
fn command(rng: &mut Rng) -> String {
    match rng.below(26) {
        0 => "ucci".into(),
        1 => "uci".into(),
        2 | 3 => "isready".into(),
        4 => "ucinewgame".into(),
        5 => "stop".into(),
        6 => rng.pick(&["ponderhit", "ponderhit draw"]).to_string(),
        7 => rng.pick(&["d", "eval", "help"]).to_string(),
        8 => format!(
            "{}perft {}",
            if rng.chance(50) { "go " } else { "" },
            rng.below(4)
        ),
        9 => {
            let name = rng.pick(OPTIONS_UCCI);
            let value = rng.pick(VALUES);
            format!("setoption {name} {value}")
        }
        10 => {
            let name = rng.pick(OPTIONS_UCI);
            if rng.chance(20) {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {}", rng.pick(VALUES))
            }
        }
        11..=13 => {
            let head = if rng.chance(70) { "position " } else { "" };
            if rng.chance(40) {
                format!("{head}startpos{}", moves(rng))
            } else {
                format!("{head}fen {}{}", fen(rng), moves(rng))
            }
        }
        14 => {
            let n = rng.below(5);
            let list: Vec<String> = (0..n).map(|_| random_move(rng)).collect();
            format!("banmoves {}", list.join(" "))
        }
        15 => {
            if rng.chance(50) {
                format!("probe startpos{}", moves(rng))
            } else {
                format!("probe fen {}{}", fen(rng), moves(rng))
            }
        }
        16 => format!(
            "setoption usemillisec {}",
            rng.pick(&["true", "false", "false"])
        ),
        17 => {
            // clock extremes: huge clocks and increments, the last move of a period
            let huge = ["18446744073709551615", "9223372036854775807", "4294967295"];
            let mut parts = vec!["go".to_string()];
            if rng.chance(20) {
                parts.push("ponder".into());
            }
            for word in ["time", "wtime", "btime", "increment", "winc", "binc"] {
                if rng.chance(40) {
                    parts.push(format!("{word} {}", rng.pick(&huge)));
                }
            }
            if rng.chance(60) {
                parts.push(format!("movestogo {}", rng.below(3)));
            }
            parts.join(" ")
        }
        _ => go(rng),
    }
}

const OPTIONS_CECP: &[&str] = &[
    "MultiPV",
    "Move Overhead",
    "Rules",
    "Clear Hash",
    "UCI_ShowWDL",
    "DrawAcceptScore",
    "Resign",
    "OwnBook",
    "Randomness",
    "UseNNUE",
    "Frob Nicate",
];

/// One well-formed (or nearly) CECP command.
fn cecp_command(rng: &mut Rng) -> String {
    match rng.below(34) {
        0 => "xboard".into(),
        1 => "protover 2".into(),
        2 | 3 => "new".into(),
        4 => format!(
            "variant {}",
            rng.pick(&["xiangqi", "xiangqi", "normal", "shogi", ""])
        ),
        5 | 6 => format!("setboard {}", fen(rng)),
        7..=11 => {
            let m = if rng.chance(60) {
                rng.pick(OPENING).to_string()
            } else {
                random_move(rng)
            };
            if rng.chance(80) {
                format!("usermove {m}")
            } else {
                m
            }
        }
        12 => "go".into(),
        13 | 14 => "force".into(),
        15 => "playother".into(),
        16 => format!(
            "level {} {}{} {}",
            number(rng, 60),
            number(rng, 5),
            if rng.chance(30) { ":30" } else { "" },
            number(rng, 3)
        ),
        17 => format!("st {}", number(rng, 1)),
        18 => format!("sd {}", number(rng, 4)),
        19 => format!("{} {}", rng.pick(&["time", "otim"]), number(rng, 500)),
        20 => format!("ping {}", number(rng, 1000)),
        21 => "?".into(),
        22 => rng.pick(&["analyze", "exit", "."]).to_string(),
        23 => rng.pick(&["undo", "remove"]).to_string(),
        24 => rng
            .pick(&[
                "result 1-0 {Red wins}",
                "result 1/2-1/2 {agreed}",
                "result *",
            ])
            .to_string(),
        25 => "draw".into(),
        26 => rng.pick(&["hard", "easy", "post", "nopost"]).to_string(),
        27 => format!("{} {}", rng.pick(&["memory", "cores"]), number(rng, 4)),
        28 | 29 => {
            let name = rng.pick(OPTIONS_CECP);
            if rng.chance(20) {
                format!("option {name}")
            } else {
                format!("option {name}={}", rng.pick(VALUES))
            }
        }
        30 => rng
            .pick(&[
                "accepted usermove",
                "rejected san",
                "random",
                "computer",
                "hint",
                "help",
            ])
            .to_string(),
        31 => rng.pick(&["uci", "ucci", "isready", "stop"]).to_string(),
        _ => format!("usermove {}", rng.pick(OPENING)),
    }
}

/// The dialect a fuzz run speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    /// UCCI and UCI lines mixed (the first `ucci`/`uci` fixes the session's dialect).
    UcciUci,
    Cecp,
}

impl Dialect {
    fn command(self, rng: &mut Rng) -> String {
        match self {
            Dialect::UcciUci => command(rng),
            Dialect::Cecp => cecp_command(rng),
        }
    }

    /// The lines that end a batch: stop thinking, a readiness check, an unknown command.
    fn sync_lines(self, token: &str, n: usize) -> Vec<Vec<u8>> {
        match self {
            Dialect::UcciUci => vec![
                b"stop".to_vec(),
                b"isready".to_vec(),
                token.as_bytes().to_vec(),
            ],
            Dialect::Cecp => vec![
                b"?".to_vec(),
                format!("ping {n}").into_bytes(),
                token.as_bytes().to_vec(),
            ],
        }
    }

    /// Is `line` the readiness answer to the batch's `isready` / `ping n`?
    fn is_ready(self, line: &str, n: usize) -> bool {
        match self {
            Dialect::UcciUci => line == "readyok",
            Dialect::Cecp => line == format!("pong {n}"),
        }
    }

    /// Is `line` the answer naming the unknown command `token`?
    fn names(self, line: &str, token: &str) -> bool {
        let head = match self {
            Dialect::UcciUci => "info",
            Dialect::Cecp => "Error (unknown command): ",
        };
        line.starts_with(head) && line.contains(token)
    }

    /// The lines every process starts with.
    fn start(self) -> Vec<Vec<u8>> {
        match self {
            Dialect::UcciUci => Vec::new(),
            Dialect::Cecp => vec![b"xboard".to_vec(), b"protover 2".to_vec()],
        }
    }
}

/// Byte-level and token-level damage.
fn mutate(rng: &mut Rng, line: String, dialect: Dialect) -> Vec<u8> {
    let mut b = line.into_bytes();
    for _ in 0..=rng.below(3) {
        match rng.below(12) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(b.len() + 1);
                let c = *rng.pick(&[0u8, 0xff, 0x80, 0xc3, b'\r', b'\t', b' ', b'\x0b', b'\x7f']);
                b.insert(i, c);
            }
            2 if !b.is_empty() => {
                let i = rng.below(b.len());
                let n = rng.below(b.len() - i) + 1;
                b.drain(i..i + n.min(8));
            }
            3 => b.truncate(rng.below(b.len() + 1)),
            4 | 5 => {
                // a number becomes something odd
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
                let nums: Vec<usize> = (0..words.len())
                    .filter(|&i| {
                        words[i].chars().all(|c| c.is_ascii_digit()) && !words[i].is_empty()
                    })
                    .collect();
                if !nums.is_empty() {
                    let i = *rng.pick(&nums);
                    words[i] = rng.pick(WEIRD_NUMBERS).to_string();
                } else {
                    words.push(rng.pick(WEIRD_NUMBERS).to_string());
                }
                b = words.join(" ").into_bytes();
            }
            6 => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
                if words.len() >= 2 {
                    let i = rng.below(words.len());
                    let j = rng.below(words.len());
                    words.swap(i, j);
                }
                if rng.chance(50) && !words.is_empty() {
                    let i = rng.below(words.len());
                    let w = words[i].clone();
                    words.insert(i, w);
                }
                b = words.join(" ").into_bytes();
            }
            7 => {
                let text = String::from_utf8_lossy(&b);
                b = if rng.chance(50) {
                    text.to_uppercase().into_bytes()
                } else {
                    text.replace(' ', "   ").into_bytes()
                };
            }
            8 => b.extend_from_slice(b"\r"),
            9 => {
                let extra = rng.pick(&["炮二平五", "🐴", "\u{a0}", "\u{2028}", "\u{feff}", "é"]);
                let i = rng.below(b.len() + 1);
                let mut s = b[..i].to_vec();
                s.extend_from_slice(extra.as_bytes());
                s.extend_from_slice(&b[i..]);
                b = s;
            }
            10 => {
                b.push(b' ');
                b.extend_from_slice(dialect.command(rng).as_bytes());
            }
            _ => {}
        }
    }
    b
}

fn garbage(rng: &mut Rng) -> Vec<u8> {
    let n = rng.below(200);
    (0..n).map(|_| rng.next() as u8).collect()
}

fn long_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(3) {
        0 => {
            let mut s = String::from("position startpos moves");
            for _ in 0..20_000 {
                s.push(' ');
                s.push_str(&random_move(rng));
            }
            s.into_bytes()
        }
        1 => vec![b'a'; 100_000],
        _ => {
            let mut s = String::from("go");
            for _ in 0..5_000 {
                s.push_str(" depth 1");
            }
            s.into_bytes()
        }
    }
}

fn digit_runs(text: &str) -> Vec<u128> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.len() > 30 {
                u128::MAX
            } else {
                t.parse().unwrap_or(u128::MAX)
            }
        })
        .collect()
}

/// Keeps out what would end the run or only make it slow (see the module comment).
fn harmless(line: &[u8], dialect: Dialect) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    if words
        .iter()
        .any(|w| matches!(*w, "quit" | "bench") || (*w == "exit" && dialect != Dialect::Cecp))
    {
        return false;
    }
    let runs = digit_runs(&text);
    if words.contains(&"perft") && runs.iter().any(|&n| n > 3) {
        return false;
    }
    if words.contains(&"memory") && runs.iter().any(|&n| n > 64) {
        return false;
    }
    if words.contains(&"cores") && runs.iter().any(|&n| n > 4) {
        return false;
    }
    if words.first() == Some(&"setoption") || words.contains(&"setoption") {
        let cap = if words.contains(&"threads") { 4 } else { 64 };
        if runs.iter().any(|&n| n > cap) {
            return false;
        }
    }
    true
}

fn skipped_words() -> Vec<String> {
    std::env::var("CHARIOT_FUZZ_SKIP")
        .unwrap_or_default()
        .split(',')
        .map(|w| w.trim().to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn random_line(rng: &mut Rng, skip: &[String], dialect: Dialect) -> Vec<u8> {
    loop {
        let mut line = match rng.below(100) {
            0..=39 => dialect.command(rng).into_bytes(),
            40..=84 => {
                let c = dialect.command(rng);
                mutate(rng, c, dialect)
            }
            85..=98 => garbage(rng),
            _ if rng.chance(10) => long_line(rng),
            _ => garbage(rng),
        };
        for c in &mut line {
            if *c == b'\n' {
                *c = b' ';
            }
        }
        let lower = String::from_utf8_lossy(&line).to_ascii_lowercase();
        if harmless(&line, dialect) && !skip.iter().any(|w| lower.contains(w.as_str())) {
            return line;
        }
    }
}

// ---------------------------------------------------------------------------------------
// the engine process

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    recent: Vec<String>,
    /// Engine moves (`bestmove …`, CECP `move …`) seen: the run must have made the engine play.
    moves: usize,
}

fn spawn() -> Engine {
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
                    if tx.send(line.trim_end().to_string()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut pipe = child.stderr.take().expect("stderr");
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&stderr);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    Engine {
        stdin: child.stdin.take(),
        child,
        out: rx,
        stderr,
        recent: Vec::new(),
        moves: 0,
    }
}

impl Engine {
    fn send(&mut self, lines: &[Vec<u8>]) -> Result<(), String> {
        let mut data = Vec::new();
        for l in lines {
            data.extend_from_slice(l);
            data.push(b'\n');
        }
        let stdin = self.stdin.as_mut().ok_or("input closed")?;
        stdin
            .write_all(&data)
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the engine (it exited?): {e}"))
    }

    /// Reads up to the line naming `token`; `Ok(count of readiness answers to ping n)`.
    fn sync(&mut self, token: &str, n: usize, dialect: Dialect) -> Result<usize, String> {
        let deadline = Instant::now() + SYNC_TIMEOUT;
        let mut ready = 0;
        let mut named_seen = false;
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(wait) {
                Ok(line) => {
                    if line.starts_with("bestmove ") || line.starts_with("move ") {
                        self.moves += 1;
                    }
                    if dialect.is_ready(&line, n) {
                        ready += 1;
                    }
                    // CECP holds a pong that arrives while the engine thinks until its
                    // move is out, so it may follow the unknown command's line
                    let named = dialect.names(&line, token);
                    if named {
                        named_seen = true;
                    }
                    let done = named_seen && (dialect == Dialect::UcciUci || ready > 0);
                    if self.recent.len() >= 40 {
                        self.recent.remove(0);
                    }
                    self.recent.push(line);
                    if done {
                        return Ok(ready);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no answer to '{token}' within {SYNC_TIMEOUT:?} (hang?)"
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                    return Err(format!(
                        "the engine's output ended ({status}) before '{token}'"
                    ));
                }
            }
        }
    }

    fn panic_text(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        text.contains("panicked").then_some(text)
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What makes two failures the same: the panic site and message (thread ids dropped), or
/// the kind of failure.
fn signature(why: &str, stderr: Option<&str>) -> String {
    if let Some(text) = stderr {
        let lines: Vec<&str> = text.lines().collect();
        if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
            let site = lines[i].split("panicked at").nth(1).unwrap_or("");
            return format!("panic {site} {}", lines.get(i + 1).unwrap_or(&""));
        }
    }
    if why.contains("(hang?)") {
        "hang".to_string()
    } else if why.contains("no readyok") {
        "no readyok".to_string()
    } else {
        why.split(": ")
            .nth(1)
            .unwrap_or(why)
            .chars()
            .take(60)
            .collect()
    }
}

/// Runs `lines` then the sync in a fresh process: `Some(why)` when that fails.
fn replay(lines: &[Vec<u8>], dialect: Dialect) -> Option<String> {
    let mut e = spawn();
    let mut all = dialect.start();
    all.extend_from_slice(lines);
    all.extend(dialect.sync_lines("zzfuzzreplay", 999_999_999));
    let result = e
        .send(&all)
        .and_then(|()| e.sync("zzfuzzreplay", 999_999_999, dialect));
    std::thread::sleep(Duration::from_millis(20));
    let why = match result {
        Err(why) => Some(why),
        Ok(0) => Some("no readyok".to_string()),
        Ok(_) => None,
    };
    let why = why.or_else(|| e.panic_text().map(|_| "panicked".to_string()));
    let stderr = e.panic_text();
    e.kill();
    why.map(|w| match stderr {
        Some(s) => format!(
            "{w}; stderr: {}",
            s.lines().take(3).collect::<Vec<_>>().join(" | ")
        ),
        None => w,
    })
}

fn shown(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    let s: String = s.chars().take(300).collect();
    format!("{s:?}")
}

/// Shrinks a failing batch to its shortest failing prefix and writes it out.
fn report(
    k: usize,
    why: &str,
    preamble: &[Vec<u8>],
    batch: &[Vec<u8>],
    dialect: Dialect,
) -> String {
    let mut lines = preamble.to_vec();
    lines.extend_from_slice(batch);
    let hang = why.contains("(hang?)");
    let summary = if hang {
        "a hang: not shrunk".to_string()
    } else if replay(&lines, dialect).is_some() {
        // shortest failing prefix of the batch (the preamble always goes first)
        let (mut lo, mut hi) = (0, batch.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let mut l = preamble.to_vec();
            l.extend_from_slice(&batch[..mid]);
            if replay(&l, dialect).is_some() {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lines = preamble.to_vec();
        lines.extend_from_slice(&batch[..lo]);
        let again = replay(&lines, dialect).unwrap_or_default();
        format!(
            "reproduced in a fresh process; last line of the shortest failing input: {} ({again})",
            batch
                .get(lo.saturating_sub(1))
                .map_or("-".into(), |l| shown(l))
        )
    } else {
        "not reproduced in a fresh process (depends on timing or on earlier state)".to_string()
    };
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("protocol-fuzz-failure-{dialect:?}-{k}.txt"));
    let mut data = Vec::new();
    for l in dialect.start() {
        data.extend_from_slice(&l);
        data.push(b'\n');
    }
    for l in &lines {
        data.extend_from_slice(l);
        data.push(b'\n');
    }
    let _ = std::fs::write(&path, data);
    format!("{why}\n  {summary}\n  input: {}", path.display())
}

#[test]
fn protocol_fuzz() {
    fuzz(Dialect::UcciUci, 0xC4A4_107E, 100_000);
}

#[test]
fn protocol_fuzz_cecp() {
    fuzz(Dialect::Cecp, 0xCEC9_0002, 100_000);
}

fn fuzz(dialect: Dialect, default_seed: u64, default_lines: usize) {
    let seed = std::env::var("CHARIOT_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_seed);
    let total: usize = std::env::var("CHARIOT_FUZZ_LINES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_lines);
    let skip = skipped_words();
    let mut rng = Rng(seed);
    let mut engine = spawn();
    if let Err(e) = engine.send(&dialect.start()) {
        panic!("cannot start the {dialect:?} session: {e}");
    }
    let mut failures: Vec<String> = Vec::new();
    // stateful lines sent so far (dialect, options, position), replayed before a failing batch
    let mut preamble: Vec<Vec<u8>> = Vec::new();
    let start = Instant::now();
    let mut sent = 0;
    let mut n = 0;
    let mut moves = 0;
    // one report per distinct failure (panic site and message, or kind of failure)
    let mut signatures: Vec<String> = Vec::new();
    let mut repeats: Vec<usize> = Vec::new();
    while sent < total && failures.len() < MAX_FAILURES && repeats.iter().sum::<usize>() < 500 {
        n += 1;
        let batch: Vec<Vec<u8>> = (0..BATCH.min(total - sent))
            .map(|_| random_line(&mut rng, &skip, dialect))
            .collect();
        sent += batch.len();
        let token = format!("zzfuzzsync{n}");
        let mut lines = batch.clone();
        lines.extend(dialect.sync_lines(&token, n));
        let result = engine
            .send(&lines)
            .and_then(|()| engine.sync(&token, n, dialect));
        moves += std::mem::take(&mut engine.moves);
        let why = match result {
            Err(why) => Some(why),
            Ok(0) => Some(format!("no readyok in batch {n}")),
            Ok(_) => engine.panic_text().map(|t| {
                format!(
                    "panicked: {}",
                    t.lines().take(3).collect::<Vec<_>>().join(" | ")
                )
            }),
        };
        if let Some(why) = why {
            let why = format!(
                "batch {n} (lines {}..{}): {why}\n  last output: {:?}",
                sent - batch.len() + 1,
                sent,
                &engine.recent[engine.recent.len().saturating_sub(5)..]
            );
            let sig = signature(&why, engine.panic_text().as_deref());
            engine.kill();
            if let Some(k) = signatures.iter().position(|s| *s == sig) {
                repeats[k] += 1;
            } else {
                signatures.push(sig);
                repeats.push(0);
                failures.push(report(failures.len() + 1, &why, &preamble, &batch, dialect));
            }
            engine = spawn();
            if let Err(e) = engine.send(&dialect.start()) {
                failures.push(format!("cannot restart the {dialect:?} session: {e}"));
                break;
            }
            preamble.clear();
            continue;
        }
        for l in batch {
            let t = String::from_utf8_lossy(&l)
                .trim_start()
                .to_ascii_lowercase();
            // CECP keeps every line: its state (modes, game, clocks) comes from most commands
            let stateful = dialect == Dialect::Cecp
                || ["ucci", "uci", "setoption", "position", "startpos", "fen"]
                    .iter()
                    .any(|w| t.starts_with(w));
            if stateful && l.len() < 10_000 {
                preamble.push(l);
            }
        }
        if preamble.len() > 200 {
            preamble.drain(..preamble.len() - 200);
        }
    }
    // the end: quit must end the process cleanly
    if engine.send(&[b"quit".to_vec()]).is_ok() {
        engine.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match engine.child.try_wait() {
                Ok(Some(s)) if s.success() => break,
                Ok(Some(s)) => {
                    failures.push(format!("quit: the engine exited with {s}"));
                    break;
                }
                Ok(None) if Instant::now() > deadline => {
                    failures.push("quit: the engine did not exit within 10 s".into());
                    let _ = engine.child.kill();
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => {
                    failures.push(format!("quit: {e}"));
                    break;
                }
            }
        }
    }
    for (f, r) in failures.iter_mut().zip(&repeats) {
        if *r > 0 {
            f.push_str(&format!("\n  (the same failure again {r} more time(s))"));
        }
    }
    println!(
        "{sent} lines in {n} batches, {moves} engine moves, {:.1} s, seed {seed}",
        start.elapsed().as_secs_f64()
    );
    if sent >= 5_000 {
        assert!(moves > 0, "{sent} lines and the engine never played a move");
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn generator_is_deterministic_and_harmless() {
    for dialect in [Dialect::UcciUci, Dialect::Cecp] {
        let mut a = Rng(7);
        let mut b = Rng(7);
        for _ in 0..2_000 {
            let line = random_line(&mut a, &[], dialect);
            assert_eq!(line, random_line(&mut b, &[], dialect));
            assert!(harmless(&line, dialect));
            assert!(!line.contains(&b'\n'));
        }
    }
    let u = Dialect::UcciUci;
    assert!(!harmless(b"\0quit", u));
    assert!(!harmless(b"go perft 5", u));
    assert!(!harmless(b"setoption hashsize 65536", u));
    assert!(!harmless(b"setoption threads 64", u));
    assert!(harmless(b"setoption hashsize 64", u));
    assert!(harmless(b"perft 3", u));
    assert!(!harmless(b"exit", u));
    let c = Dialect::Cecp;
    assert!(harmless(b"exit", c));
    assert!(!harmless(b"quit", c));
    assert!(!harmless(b"memory 4096", c));
    assert!(!harmless(b"cores 16", c));
    assert!(harmless(b"cores 2", c));
    // the CECP generator reaches its commands
    let mut r = Rng(11);
    let words: Vec<String> = (0..3_000)
        .map(|_| cecp_command(&mut r))
        .map(|l| l.split(' ').next().unwrap_or("").to_string())
        .collect();
    for w in [
        "usermove", "setboard", "ping", "analyze", "level", "option", "?", "undo",
    ] {
        assert!(words.iter().any(|x| x == w), "{w} never generated");
    }
}
