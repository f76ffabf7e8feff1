//! Opening book tests: the shipped book (legal moves only, mirrored probes agree, content,
//! variety of the engine's choices), round trips of the builder (move lines and Chinese
//! PGN give the weights counted independently), refusal of damaged files, and the
//! exported balanced openings.

use chariot::book::build::{BuildOptions, Builder};
use chariot::book::choose::book_move;
use chariot::book::mirror::{mirror_fen, mirror_key, mirror_move, mirror_position};
use chariot::book::{Book, BookSet, Randomness, Rng};
use chariot::core::notation::to_chinese;
use chariot::core::{Move, Position};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn shipped() -> Book {
    let path = repo("book/chariot.book");
    Book::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every position the book reaches from the start (mirror images once).
fn reachable(book: &Book) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut level = vec![Position::startpos()];
    while !level.is_empty() {
        let mut next = Vec::new();
        for pos in level {
            let key = pos.key().min(mirror_key(&pos));
            if !seen.insert(key) {
                continue;
            }
            for b in book.probe(&pos) {
                let mut c = pos.clone();
                c.make_move(b.mv);
                next.push(c);
            }
            out.push(pos);
        }
        level = next;
    }
    out
}

#[test]
fn every_record_of_the_shipped_book_is_a_legal_move_of_a_reachable_position() {
    let book = shipped();
    let positions = reachable(&book);
    let mut checked = HashSet::new();
    for pos in &positions {
        let mkey = mirror_key(pos);
        for (key, mirrored) in [(pos.key(), false), (mkey, true)] {
            for r in book.lookup(key) {
                let m = if mirrored { mirror_move(r.mv) } else { r.mv };
                assert!(pos.is_legal(m), "{m} stored for {} is illegal", pos.fen());
                checked.insert((r.key, r.mv.bits()));
            }
        }
    }
    // nothing in the file escapes the walk: every record was checked above
    assert_eq!(
        checked.len(),
        book.len(),
        "records not reachable from the start"
    );
}

#[test]
fn shipped_book_size_and_systems() {
    let book = shipped();
    let bytes = std::fs::metadata(repo("book/chariot.book")).unwrap().len();
    assert!(bytes <= 5 * 1024 * 1024, "{bytes} bytes");
    assert!(book.len() >= 10_000, "only {} records", book.len());
    let names: Vec<&str> = book.names().iter().map(|n| n.1.as_str()).collect();
    for system in [
        "屏风马",
        "反宫马",
        "顺炮",
        "列炮",
        "半途列炮",
        "单提马",
        "仙人指路",
        "飞相",
        "起马",
        "过宫炮",
        "士角炮",
        "边炮",
    ] {
        assert!(
            names.iter().any(|n| n.contains(system)),
            "no opening named {system}"
        );
    }
    // the names sit on positions the book reaches
    let positions = reachable(&book);
    let named = positions.iter().filter(|p| book.name(p).is_some()).count();
    assert_eq!(named, book.names().len());
}

#[test]
fn mirrored_probes_agree() {
    let book = shipped();
    let mut compared = 0;
    for pos in reachable(&book).iter().step_by(3) {
        let mirrored = mirror_position(pos);
        let a: HashSet<(u16, u16)> = book
            .probe(pos)
            .iter()
            .map(|b| (mirror_move(b.mv).bits(), b.weight))
            .collect();
        let b: HashSet<(u16, u16)> = book
            .probe(&mirrored)
            .iter()
            .map(|b| (b.mv.bits(), b.weight))
            .collect();
        assert_eq!(a, b, "{}", pos.fen());
        compared += usize::from(!a.is_empty());
    }
    assert!(
        compared > 1000,
        "{compared} positions with book moves compared"
    );
}

/// Random legal lines from the start (seeded), as ICCS text.
fn random_lines(n: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::startpos();
            let len = 1 + (rng.next_u64() % 14) as usize;
            let mut line = Vec::new();
            for _ in 0..len {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // few choices near the start, so lines share positions
                let k = moves
                    .len()
                    .min(if line.len() < 4 { 3 } else { moves.len() });
                let m = moves.as_slice()[(rng.next_u64() % k as u64) as usize];
                line.push(m);
                pos.make_move(m);
            }
            line
        })
        .collect()
}

/// Placement and side to move: a position's identity without Zobrist keys.
fn ident(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn built_book_round_trips_the_counted_weights() {
    let lines = random_lines(300, 11);
    // expected weights, counted by FEN text: a line plays m in p; its mirror image plays
    // mirror(m) in mirror(p), which the book counts as the same choice
    let mut expected: HashMap<(String, u16), u16> = HashMap::new();
    for line in &lines {
        let mut pos = Position::startpos();
        let mut seen = HashSet::new();
        for &m in line {
            let f = ident(&pos.fen());
            let mf = ident(&mirror_fen(&pos.fen()));
            let mut pairs = vec![(f.clone(), m.bits()), (mf.clone(), mirror_move(m).bits())];
            if f == mf {
                // symmetric: m and its mirror image are one choice, shown both ways
                pairs.push((f.clone(), mirror_move(m).bits()));
                pairs.push((f, m.bits()));
            }
            pairs.sort();
            pairs.dedup();
            for p in pairs {
                if seen.insert(p.clone()) {
                    *expected.entry(p).or_insert(0) += 1;
                }
            }
            pos.make_move(m);
        }
    }
    let text: String = lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let mut b = Builder::new(BuildOptions::default());
    b.add_text(&text, "lines").unwrap();
    let book = b.finish();
    // probe every position of every line: each (position, move) shows the counted weight
    let mut probed = 0;
    for line in &lines {
        let mut pos = Position::startpos();
        for &m in line {
            let got: HashMap<u16, u16> = book
                .probe(&pos)
                .iter()
                .map(|b| (b.mv.bits(), b.weight))
                .collect();
            let f = ident(&pos.fen());
            for (bits, w) in &got {
                assert_eq!(
                    expected.get(&(f.clone(), *bits)),
                    Some(w),
                    "{} move {:?}",
                    pos.fen(),
                    Move::from_bits(*bits)
                );
            }
            assert!(got.contains_key(&m.bits()));
            probed += 1;
            pos.make_move(m);
        }
    }
    assert!(probed > 1000);
    // bytes round trip
    let again = Book::from_bytes(&book.to_bytes()).unwrap();
    assert_eq!(again.records(), book.records());

    // the same games as a PGN in Chinese notation give the same book
    let mut pgn = String::new();
    for (i, line) in lines.iter().enumerate() {
        pgn.push_str(&format!("[Game \"{i}\"]\n\n"));
        let mut pos = Position::startpos();
        for (ply, &m) in line.iter().enumerate() {
            if ply % 2 == 0 {
                pgn.push_str(&format!("{}. ", ply / 2 + 1));
            }
            pgn.push_str(&to_chinese(&pos, m));
            pgn.push(' ');
            pos.make_move(m);
        }
        pgn.push_str("*\n\n");
    }
    let mut b = Builder::new(BuildOptions::default());
    b.add_text(&pgn, "pgn").unwrap();
    assert!(b.warnings.is_empty(), "{:?}", b.warnings);
    assert_eq!(b.finish().to_bytes(), book.to_bytes());
}

#[test]
fn max_ply_and_min_games_filter() {
    let text = "h2e2 h9g7 h0g2\nh2e2 h9g7 b0c2\nh2e2 b9c7\n";
    let mut b = Builder::new(BuildOptions {
        max_ply: 2,
        min_games: 2,
    });
    b.add_text(text, "t").unwrap();
    let book = b.finish();
    let mut pos = Position::startpos();
    assert_eq!(book.probe(&pos).len(), 2, "h2e2 and its mirror b2e2");
    pos.make_move(Move::parse_iccs("h2e2").unwrap());
    let replies: Vec<(String, u16)> = book
        .probe(&pos)
        .iter()
        .map(|b| (b.mv.to_string(), b.weight))
        .collect();
    assert_eq!(replies, [("h9g7".to_string(), 2)], "b9c7 has one game only");
    pos.make_move(Move::parse_iccs("h9g7").unwrap());
    assert!(book.probe(&pos).is_empty(), "ply 3 is past --max-ply 2");
}

#[test]
fn damaged_and_foreign_files_are_refused_with_a_reason() {
    let book = shipped();
    let bytes = book.to_bytes();
    assert_eq!(
        bytes,
        std::fs::read(repo("book/chariot.book")).unwrap(),
        "the file is what encoding it again gives"
    );
    let check = |data: &[u8], want: &str| {
        let e = Book::from_bytes(data).expect_err("a damaged book must be refused");
        let msg = e.to_string();
        assert!(msg.starts_with("book: "), "{msg}");
        assert!(msg.contains(want), "'{msg}' should say '{want}'");
    };
    // truncated anywhere: in the header, mid-record, mid-names
    check(&bytes[..0], "too short");
    check(&bytes[..8], "too short");
    check(&bytes[..31], "too short");
    for cut in [32, 33, 100, bytes.len() / 2, bytes.len() - 1] {
        check(&bytes[..cut], "truncated");
    }
    // one flipped bit anywhere after the header
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let mut d = bytes.clone();
        let i = 32 + (rng.next_u64() as usize % (d.len() - 32));
        d[i] ^= 1 << (rng.next_u64() % 8);
        check(&d, "checksum");
    }
    // a padded file
    let mut d = bytes.clone();
    d.push(0);
    check(&d, "truncated or padded");
    // random files, and foreign ones of the same size
    for n in [1usize, 16, 32, 4096, 100_000] {
        let d: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
        check(&d, if n < 32 { "" } else { "not a Chariot book" });
    }
    let mut d = bytes.clone();
    d[8] = 2;
    check(&d, "version 2");
    let text = std::fs::read(repo("Cargo.toml")).unwrap();
    check(&text, "not a Chariot book");
    let e = Book::load(&repo("book/no-such.book")).unwrap_err();
    assert!(e.to_string().contains("cannot read"), "{e}");
    // a valid file whose records are out of order (checksum recomputed)
    let recs = book.records();
    let mut d = chariot::book::format::encode(recs, book.names());
    let a = 32;
    let b = 32 + 16 * (recs.len() - 1);
    let (x, y) = (d[a..a + 16].to_vec(), d[b..b + 16].to_vec());
    d[a..a + 16].copy_from_slice(&y);
    d[b..b + 16].copy_from_slice(&x);
    let sum = chariot::book::format::fnv1a(
        chariot::book::format::fnv1a(0xcbf2_9ce4_8422_2325, &d[..24]),
        &d[32..],
    );
    d[24..32].copy_from_slice(&sum.to_le_bytes());
    check(&d, "out of order");
}

#[test]
fn engine_choices_vary_from_the_start_position() {
    let set = BookSet {
        books: vec![("chariot.book".into(), shipped())],
    };
    // 100 games of book moves from the start, each with its own seed
    let walk = |randomness: Randomness, seed: u64| {
        let mut rng = Rng::new(seed);
        let mut pos = Position::startpos();
        for _ in 0..6 {
            let choice = book_move(&set, &pos, randomness, &mut rng, &[])
                .expect("the book covers 6 plies of its own choices");
            assert!(pos.is_legal(choice.mv));
            pos.make_move(choice.mv);
        }
        pos.key()
    };
    let distinct = |r: Randomness| {
        (0..100u64)
            .map(|seed| walk(r, seed * 7919 + 1))
            .collect::<HashSet<u64>>()
            .len()
    };
    let none = distinct(Randomness::None);
    let small = distinct(Randomness::Small);
    let medium = distinct(Randomness::Medium);
    let huge = distinct(Randomness::Huge);
    println!(
        "distinct positions after 6 plies in 100 walks: none {none}, small {small}, medium {medium}, huge {huge}"
    );
    assert_eq!(none, 1, "randomness none always plays the heaviest move");
    assert!(medium >= 10, "medium: only {medium} positions");
    assert!(huge >= medium / 2 && huge >= 10, "huge: {huge}");
    assert!(small >= 2, "small: {small}");
}

#[test]
fn a_book_move_never_repeats_a_position_or_plays_a_banned_move() {
    let set = BookSet {
        books: vec![("chariot.book".into(), shipped())],
    };
    let start = Position::startpos();
    let mut rng = Rng::new(3);
    let offered: Vec<Move> = set.books[0].1.probe(&start).iter().map(|b| b.mv).collect();
    // ban all but one offered move: that one is played, whatever the randomness
    for keep in &offered {
        let banned: Vec<Move> = offered.iter().copied().filter(|m| m != keep).collect();
        for r in [Randomness::None, Randomness::Huge] {
            let c = book_move(&set, &start, r, &mut rng, &banned).unwrap();
            assert_eq!(c.mv, *keep);
        }
    }
    assert!(book_move(&set, &start, Randomness::Huge, &mut rng, &offered).is_none());
    // a position in the book reached by a detour that makes its book moves repetitions
    let mut pos = Position::startpos();
    for t in ["h2e2", "h9g7", "h0g2", "g7h9", "g2h0", "h9g7"] {
        pos.make_move(Move::parse_iccs(t).unwrap());
    }
    // Red to move; h0g2 would bring back the position after ply 3
    for seed in 0..20 {
        let mut rng = Rng::new(seed);
        if let Some(c) = book_move(&set, &pos, Randomness::Huge, &mut rng, &[]) {
            assert_ne!(c.mv.to_string(), "h0g2");
        }
    }
}

#[test]
fn exported_openings_are_balanced_varied_and_replay() {
    let text = std::fs::read_to_string(repo("engine-tests/openings.epd")).unwrap();
    let mut keys = HashSet::new();
    let mut firsts = HashSet::new();
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(';').map(str::trim);
        let fen = parts.next().unwrap();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
        let ops: HashMap<&str, &str> = parts.filter_map(|p| p.split_once(' ')).collect();
        let ce: i32 = ops["ce"].parse().unwrap();
        assert!(ce.abs() <= 40, "{line}");
        let acd: i32 = ops["acd"].parse().unwrap();
        assert!(acd >= 8, "{line}");
        let moves: Vec<&str> = ops["c1"].trim_matches('"').split_whitespace().collect();
        assert!((6..=12).contains(&moves.len()), "{line}");
        let mut replay = Position::startpos();
        for m in &moves {
            let mv = Move::parse_iccs(m).unwrap();
            assert!(replay.is_legal(mv), "{line}");
            replay.make_move(mv);
        }
        assert_eq!(ident(&replay.fen()), ident(fen), "{line}");
        assert!(keys.insert(pos.key()), "duplicate {line}");
        firsts.insert(moves[..2].join(" "));
        count += 1;
    }
    assert!(count >= 100, "only {count} openings");
    assert!(firsts.len() >= 5, "openings start only {firsts:?}");
}

#[test]
fn balanced_export_does_not_depend_on_threads() {
    use chariot::tools::book::export::{ExportOptions, balanced};
    let text = std::fs::read_to_string(repo("book/openings.txt")).unwrap();
    let mut b = Builder::new(BuildOptions::default());
    b.add_text(&text, "book/openings.txt").unwrap();
    let book = b.finish();
    // more candidates than one batch of either run, so engines are reused across batches
    let opts = |threads| ExportOptions {
        depth: 5,
        count: 24,
        max_score: 60,
        seed: 7,
        threads,
        hash_mib: 1,
        ..ExportOptions::default()
    };
    let lines = |threads| -> Vec<String> {
        balanced(&book, &opts(threads), |_| {})
            .unwrap()
            .iter()
            .map(|o| o.epd())
            .collect()
    };
    let one = lines(1);
    assert_eq!(one.len(), 24);
    assert_eq!(one, lines(2), "threads changed the export");
}

#[test]
fn openings_text_is_legal_and_named() {
    let text = std::fs::read_to_string(repo("book/openings.txt")).unwrap();
    let mut b = Builder::new(BuildOptions::default());
    b.add_text(&text, "book/openings.txt").unwrap();
    assert!(b.games >= 100, "{} lines", b.games);
    let book = b.finish();
    assert!(book.names().len() >= 80);
}

#[test]
fn grow_drops_blunders_extends_lines_and_does_not_depend_on_threads() {
    use chariot::tools::book::grow::{GrowOptions, grow};
    // the last move of the second line leaves the rook to 炮八进七
    let text =
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 ; 中炮对屏风马\nh2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9\n";
    let mut b = Builder::new(BuildOptions::default());
    b.add_text(text, "t").unwrap();
    let source = b.finish();
    let opts = |threads| GrowOptions {
        depth: 4,
        margin: 60,
        add_margin: 30,
        width: 2,
        extend: 2,
        threads,
        ..GrowOptions::default()
    };
    let (one, report) = grow(&source, &opts(1), |_| {}).unwrap();
    let (two, _) = grow(&source, &opts(2), |_| {}).unwrap();
    assert_eq!(one.to_bytes(), two.to_bytes(), "threads changed the book");
    assert_eq!(report.dropped.len(), 1, "{:?}", report.dropped);
    assert!(report.dropped[0].contains("a9b9"), "{:?}", report.dropped);
    assert!(report.added > 0);
    let mut pos = Position::startpos();
    for t in "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2".split_whitespace() {
        pos.make_move(Move::parse_iccs(t).unwrap());
    }
    let replies = one.probe(&pos);
    assert!(
        !replies.is_empty(),
        "the line is extended past the dropped move"
    );
    assert!(replies.iter().all(|b| b.mv.to_string() != "a9b9"));
    assert!(replies.iter().all(|b| b.score.is_some() && b.depth == 4));
    // every record is vetted, and the name stays
    assert!(one.records().iter().all(|r| r.depth == 4));
    assert_eq!(one.names().len(), 1);
}
