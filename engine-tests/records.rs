//! Game records: the committed fixtures in `engine-tests/records/` (XQF files of each
//! version, encrypted and not, and the same games as PGN in UTF-8 and in GBK with CRLF,
//! comments, a variation and trailing text) read to the same moves; bad and damaged input
//! gives one line (file, game, ply, reason), never a panic.

use chariot::core::notation::to_wxf;
use chariot::records::{self, Entry, Game, text};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/records")
        .join(name)
}

/// Every game of a file; a bad one fails the test with its line.
fn games(name: &str) -> Vec<Game> {
    records::read_file(&fixture(name))
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|e| e.unwrap_or_else(|b| panic!("{}", b.error)))
        .collect()
}

fn xqf_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".xqf"))
        .collect();
    names.sort();
    names
}

/// Comments after moves (the PGN adds its own before the first move).
fn move_comments(g: &Game) -> Vec<(usize, String)> {
    g.comments.iter().filter(|c| c.0 > 0).cloned().collect()
}

#[test]
fn xqf_of_every_version_reads_to_the_moves_of_its_pgn() {
    let pgn = games("games.pgn");
    let names = xqf_names();
    assert_eq!(pgn.len(), names.len());
    let mut versions = Vec::new();
    let mut total = 0;
    for (name, p) in names.iter().zip(&pgn) {
        let bytes = std::fs::read(fixture(name)).unwrap();
        versions.push(bytes[2]);
        let x = &games(name)[0];
        assert_eq!(x.iccs(), p.iccs(), "{name}");
        assert_eq!(x.start.fen(), p.start.fen(), "{name}");
        for tag in ["Red", "Black", "Result"] {
            assert_eq!(x.tag(tag), p.tag(tag), "{name}: {tag}");
        }
        assert_eq!(x.tag("Event"), p.tag("Event"), "{name}");
        assert_eq!(move_comments(x), move_comments(p), "{name}");
        // the PGN's opening comment names the file and carries the XQF's own
        let intro = &p.comments[0];
        assert_eq!(intro.0, 0);
        assert!(intro.1.contains(name.as_str()), "{name}: {intro:?}");
        if let Some((0, c)) = x.comments.first() {
            assert!(intro.1.ends_with(c.as_str()), "{name}: {c}");
        }
        total += x.moves.len();
    }
    // the files' versions: unencrypted (10) and every encrypted kind (11; 12 on, the piece
    // slots rotated too)
    assert_eq!(versions, [10, 10, 11, 12, 13, 15, 16, 18]);
    assert_eq!(total, 382, "moves in the eight games");
    // a game from a set-up position with Black to move, and comments in an encrypted file
    let endgame = &games("v10-endgame.xqf")[0];
    assert_eq!(
        endgame.fen().as_deref(),
        Some("3ak4/4a4/9/4R4/6r2/4p4/9/4K4/9/3A5 b - - 0 1")
    );
    assert_eq!(endgame.iccs()[0], "e4d4");
    assert_eq!(games("v13-game.xqf")[0].comments.len(), 4);
    assert_eq!(games("v12-game.xqf")[0].tag("Red"), Some("吉林 陶汉明"));
}

#[test]
fn a_gbk_crlf_copy_reads_the_same_as_its_utf8_original() {
    let raw = std::fs::read(fixture("games-gbk.pgn")).unwrap();
    assert!(std::str::from_utf8(&raw).is_err(), "the copy must be GBK");
    assert!(
        raw.windows(2).any(|w| w == b"\r\n"),
        "the copy must have CRLF"
    );
    assert_eq!(text::decode(&raw).1, text::TextEncoding::Gbk);
    let (utf8, gbk) = (games("games.pgn"), games("games-gbk.pgn"));
    assert_eq!(utf8.len(), 8);
    assert_eq!(utf8.len(), gbk.len());
    for (a, b) in utf8.iter().zip(&gbk) {
        assert_eq!(a.iccs(), b.iccs());
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.comments, b.comments);
        assert_eq!(a.start.fen(), b.start.fen());
        assert!(!a.moves.is_empty());
    }
    // the text after each result and the variations are not read as moves
    assert_eq!(utf8.iter().map(|g| g.moves.len()).sum::<usize>(), 382);
}

#[test]
fn every_notation_reads_to_the_same_moves() {
    for g in games("games.pgn") {
        for style in ["iccs", "ICCS-dash", "wxf"] {
            let mut text = String::new();
            if let Some(f) = g.fen() {
                text.push_str(&format!("[FEN \"{f}\"]\n"));
            }
            let mut pos = g.start.clone();
            for (i, &m) in g.moves.iter().enumerate() {
                if i % 2 == 0 {
                    text.push_str(&format!("{}. ", i / 2 + 1));
                }
                let s = m.to_string();
                text.push_str(&match style {
                    "iccs" => s,
                    "ICCS-dash" => format!("{}-{}", &s[..2], &s[2..]).to_uppercase(),
                    _ => to_wxf(&pos, m),
                });
                text.push(' ');
                pos.make_move(m);
            }
            text.push_str("*\n");
            let again = records::read_text(&text, style);
            let again = again[0].as_ref().unwrap_or_else(|b| panic!("{}", b.error));
            assert_eq!(again.moves, g.moves, "{style}");
        }
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Each error is one line naming the source and the game.
fn check_errors(entries: &[records::Entry], source: &str) -> usize {
    let mut bad = 0;
    for e in entries {
        if let Err(b) = e {
            let line = b.error.to_string();
            assert!(!line.contains('\n'), "{line}");
            assert!(line.starts_with(&format!("{source}: game ")), "{line}");
            bad += 1;
        }
    }
    bad
}

#[test]
fn damaged_files_give_one_line_never_a_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut files: Vec<(String, Vec<u8>)> = xqf_names()
        .into_iter()
        .map(|n| (n.clone(), std::fs::read(fixture(&n)).unwrap()))
        .collect();
    for n in ["games.pgn", "games-gbk.pgn"] {
        files.push((n.to_string(), std::fs::read(fixture(n)).unwrap()));
    }
    let mut bad = 0;
    for (name, bytes) in &files {
        for round in 0..300 {
            let mut b = bytes.clone();
            match round % 3 {
                0 => b.truncate(rng.below(b.len() + 1)),
                1 => {
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(b.len());
                        b[i] = rng.below(256) as u8;
                    }
                }
                _ => {
                    // damage after the XQF header, where the moves are
                    let i = 1024.min(b.len() - 1) + rng.below(b.len() - 1024.min(b.len() - 1));
                    b[i] ^= 1 << rng.below(8);
                }
            }
            bad += check_errors(&records::read_bytes(&b, name), name);
        }
    }
    assert!(bad > 500, "only {bad} damaged games were refused");
    // a truncated XQF names the ply it stops at, wherever it is cut in the main line
    let v11 = std::fs::read(fixture("v11-game.xqf")).unwrap();
    for cut in 1030..1100 {
        let e = records::read_bytes(&v11[..cut], "v11.xqf");
        let line = e[0].as_ref().unwrap_err().error.to_string();
        assert!(line.starts_with("v11.xqf: game 1, ply "), "{line}");
    }
    // a bad move in the third game of a PGN
    let pgn = "[Event \"1\"]\n1. h2e2 *\n[Event \"2\"]\n1. h2e2 *\n[Event \"3\"]\n1. h2e2 h9g7 2. h0h9 *\n";
    let e = records::read_text(pgn, "t.pgn");
    assert_eq!(
        e[2].as_ref().unwrap_err().error.to_string(),
        "t.pgn: game 3, ply 3: notation: 'h0h9' is illegal here"
    );
    assert!(e[0].is_ok() && e[1].is_ok());
}

fn json(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The differential check against another reader: `XQF_DUMP_DIR=<dir> XQF_DUMP_OUT=<file>
/// cargo test --release --test records -- --ignored dump` writes one JSON line per file
/// (start FEN, main line in ICCS, comments, tags, or the error line).
#[test]
#[ignore]
fn dump() {
    let dir = std::env::var("XQF_DUMP_DIR").expect("XQF_DUMP_DIR");
    let out = std::env::var("XQF_DUMP_OUT").expect("XQF_DUMP_OUT");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut lines = String::new();
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let entries: Vec<Entry> = records::read_bytes(&bytes, &file);
        let (game, error) = match entries.into_iter().next() {
            Some(Ok(g)) => (Some(g), None),
            Some(Err(b)) => (b.partial, Some(b.error.to_string())),
            None => (None, Some("no game".into())),
        };
        let mut rec = format!("{{\"file\":{}", json(&file));
        if let Some(e) = error {
            rec.push_str(&format!(",\"error\":{}", json(&e)));
        }
        if let Some(g) = game {
            let moves: Vec<String> = g.iccs().iter().map(|m| json(m)).collect();
            let comments: Vec<String> = g
                .comments
                .iter()
                .map(|(p, c)| format!("[{p},{}]", json(c)))
                .collect();
            let tags: Vec<String> = g
                .tags
                .iter()
                .map(|(k, v)| format!("{}:{}", json(k), json(v)))
                .collect();
            rec.push_str(&format!(
                ",\"fen\":{},\"moves\":[{}],\"comments\":[{}],\"tags\":{{{}}}",
                json(&g.start.fen()),
                moves.join(","),
                comments.join(","),
                tags.join(",")
            ));
        }
        rec.push_str("}\n");
        lines.push_str(&rec);
    }
    std::fs::write(out, lines).unwrap();
}

fn chariot(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_commands_read_records_through_the_reader() {
    // judge: an XQF and the same game in the GBK PGN give the same verdict (a perpetual
    // chase in v13-game, the fifth game of the PGN)
    let (ok, xqf, _) = chariot(&["judge", "engine-tests/records/v13-game.xqf"]);
    assert!(ok);
    assert!(xqf.starts_with("result: red-wins\n"), "{xqf}");
    let (ok, gbk, _) = chariot(&[
        "judge",
        "--pgn",
        "engine-tests/records/games-gbk.pgn",
        "--game",
        "5",
    ]);
    assert!(ok);
    assert_eq!(xqf, gbk);
    // book build: a bad game stops the build in one line, or is skipped with --skip-bad
    let dir = std::env::temp_dir().join(format!("chariot-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"1\"]\n1. h2e2 h9g7 *\n[Event \"2\"]\n1. h2e2 h2h9 *\n",
    )
    .unwrap();
    let book = dir.join("b.book");
    let (b, o) = (bad.to_str().unwrap(), book.to_str().unwrap());
    let xqf = "engine-tests/records/v18-game.xqf";
    let (ok, _, err) = chariot(&["book", "build", "--from", b, xqf, "-o", o]);
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.pgn: game 2, ply 2: notation: 'h2h9' is illegal here"),
        "{err}"
    );
    let (ok, out, err) = chariot(&["book", "build", "--from", b, xqf, "--skip-bad", "-o", o]);
    assert!(ok, "{err}");
    assert!(
        err.starts_with("skipped: ") && err.contains("game 2, ply 2"),
        "{err}"
    );
    assert!(
        out.contains("from 2 games/lines (1 with problems)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
