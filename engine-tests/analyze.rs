//! `chariot analyze`: a known decisive blunder is named a blunder, the JSON and the PGN carry
//! the same evaluations, the SVG is well-formed XML, fixed nodes give byte-identical output,
//! the end verdict sits at its ply, and bad input gives one line.

use chariot::records;
use chariot::rules::RuleSet;
use chariot::tools::analyze::{self, Budget, Class, Notation, Settings};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The moves 炮二平五 马８进７ 炮五进四?? 马７进５: the central cannon takes the centre pawn
/// and is taken by the horse — a cannon for a pawn, the game's deciding blunder.
const BLUNDER: &str = "[Event \"blunder\"]\n[Red \"A & B\"]\n[Black \"<C>\"]\n\n\
                       1. h2e2 h9g7 2. e2e6 g7e6 3. h0g2 i9h9 0-1\n";

/// Red mates at once: 1. 车九进九 (a0a9).
const MATE: &str = "[FEN \"3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n\n1. a0a9 1-0\n";

const NODES: u64 = 20_000;

fn settings() -> Settings {
    Settings {
        budget: Budget::Nodes(NODES),
        rules: RuleSet::Cxa,
        hash_mib: 16,
        notation: Notation::Chinese,
    }
}

fn review(text: &str) -> analyze::GameReview {
    let game = records::read_text(text, "t.pgn")
        .into_iter()
        .next()
        .unwrap()
        .unwrap_or_else(|b| panic!("{}", b.error));
    analyze::analyze_game(&game, "t.pgn", &settings()).unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn chariot(args: &[&str]) -> Output {
    chariot_env(&[], args)
}

fn chariot_env(env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("runs chariot")
}

/// Runs `analyze` on `pgn` into `out` (json, pgn, svg); returns the stdout.
fn run_analyze(pgn: &Path, out: &Path) -> String {
    run_analyze_with(pgn, out, &[])
}

fn run_analyze_with(pgn: &Path, out: &Path, env: &[(&str, &str)]) -> String {
    let nodes = NODES.to_string();
    let o = chariot_env(
        env,
        &[
            "analyze",
            pgn.to_str().unwrap(),
            "--nodes",
            &nodes,
            "--json",
            out.join("r.json").to_str().unwrap(),
            "--pgn",
            out.join("r.pgn").to_str().unwrap(),
            "--svg",
            out.join("svg").to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn the_deciding_blunder_is_named_a_blunder() {
    let g = review(BLUNDER);
    let m = &g.moves[2];
    assert_eq!((m.iccs.as_str(), m.san.as_str()), ("e2e6", "炮五进四"));
    assert_eq!(m.class, Class::Blunder, "{m:?}");
    assert!(m.drop >= analyze::BLUNDER);
    assert_ne!(m.best_iccs, "e2e6");
    // the only blunder of the game, and the refutation is the best move
    assert_eq!(g.red.blunders, 1);
    assert_eq!(g.black.blunders, 0);
    assert!(matches!(g.moves[3].class, Class::Best | Class::OnlyMove));
    assert!(g.red.accuracy < g.black.accuracy);
    let pgn = analyze::pgn(&g, "nodes 20000");
    assert!(pgn.contains("2. 炮五进四 $4 {[%eval -"), "{pgn}");
}

#[test]
fn the_end_verdict_sits_at_its_ply() {
    let g = review(MATE);
    assert_eq!(g.result, "red-wins");
    assert_eq!(g.moves.len(), 1);
    let m = &g.moves[0];
    assert_eq!(m.after.expected, 1.0);
    assert!(m.events.iter().any(|e| e.kind == "check"), "{:?}", m.events);
    let end = m
        .events
        .iter()
        .find(|e| e.kind == "end")
        .expect("end event");
    assert_eq!(end.chinese, "red-wins");
    assert!(analyze::pgn(&g, "x").contains("[%eval 99.99]"));
}

/// `[%eval X]` values of a PGN, in order.
fn pgn_evals(pgn: &str) -> Vec<String> {
    pgn.split("[%eval ")
        .skip(1)
        .map(|s| s.split(']').next().unwrap().to_string())
        .collect()
}

/// The JSON's evaluation from Red's view written as PGN writes it.
fn json_eval(e: &serde_json::Value) -> String {
    if let Some(cp) = e["cp"].as_i64() {
        format!("{:.2}", cp as f64 / 100.0)
    } else if let Some(m) = e["mate"].as_i64() {
        if m > 0 {
            format!("#{m}")
        } else {
            format!("#-{}", -m)
        }
    } else if e["decided"].as_bool() == Some(true) {
        "99.99".into()
    } else {
        "-99.99".into()
    }
}

/// A small well-formedness check: one root, every tag closed in order, attributes quoted,
/// entities known, no stray `<` or `&`.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut rest = xml.trim_start();
    if let Some(r) = rest.strip_prefix("<?xml") {
        rest = &r[r.find("?>").ok_or("open declaration")? + 2..];
    }
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let check_text = |t: &str| -> Result<(), String> {
        let mut s = t;
        while let Some(i) = s.find('&') {
            let end = s[i..].find(';').ok_or("bare &")?;
            let name = &s[i + 1..i + end];
            if !["amp", "lt", "gt", "quot", "apos"].contains(&name) && !name.starts_with('#') {
                return Err(format!("unknown entity &{name};"));
            }
            s = &s[i + end + 1..];
        }
        Ok(())
    };
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        if stack.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text}"));
        }
        check_text(text)?;
        let end = rest[i..].find('>').ok_or("open tag")? + i;
        let tag = &rest[i + 1..end];
        if tag.contains('<') {
            return Err(format!("'<' in a tag: {tag}"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else {
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name = body.split_whitespace().next().ok_or("empty tag")?;
            if !body.matches('"').count().is_multiple_of(2) {
                return Err(format!("unbalanced quotes in <{body}>"));
            }
            check_text(body)?;
            if stack.is_empty() {
                roots += 1;
            }
            if !self_closing {
                stack.push(name.to_string());
            }
        }
        rest = &rest[end + 1..];
    }
    if !rest.trim().is_empty() || !stack.is_empty() || roots != 1 {
        return Err(format!("unclosed {stack:?} or {roots} roots"));
    }
    Ok(())
}

#[test]
fn json_and_pgn_agree_svg_is_xml_and_fixed_nodes_repeat_byte_for_byte() {
    let d = dir("analyze-outputs");
    let pgn = d.join("game.pgn");
    std::fs::write(&pgn, format!("{BLUNDER}\n{MATE}")).unwrap();
    let (a, b) = (d.join("a"), d.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let table = run_analyze(&pgn, &a);
    assert!(
        table.contains("炮五进四") && table.contains("blunder"),
        "{table}"
    );
    // the same evaluations in both files
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("r.json")).unwrap()).unwrap();
    let from_json: Vec<String> = json["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["moves"].as_array().unwrap().clone())
        .map(|m| json_eval(&m["red_after"]))
        .collect();
    let annotated = std::fs::read_to_string(a.join("r.pgn")).unwrap();
    assert_eq!(from_json.len(), 7);
    assert_eq!(pgn_evals(&annotated), from_json);
    // the annotated PGN reads back as the same games
    let back = records::read_text(&annotated, "r.pgn");
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].as_ref().unwrap().moves.len(), 6);
    // every SVG is well-formed XML (and python's parser agrees, where there is one)
    for n in 1..=2 {
        let path = a.join(format!("svg/game-{n}.svg"));
        let svg = std::fs::read_to_string(&path).unwrap();
        well_formed(&svg).unwrap_or_else(|e| panic!("game-{n}.svg: {e}"));
        assert!(svg.contains("<polyline"));
        if n == 1 {
            // the players' names "A & B" and "<C>" come escaped
            assert!(
                svg.contains("A &amp; B") && svg.contains("&lt;C&gt;"),
                "{svg}"
            );
        }
        if let Ok(o) = Command::new("python3")
            .args([
                "-c",
                "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
            ])
            .arg(&path)
            .output()
        {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
    }
    assert!(well_formed("<a><b></a></b>").is_err());
    assert!(well_formed("<a>x & y</a>").is_err());
    // a second run, its games on one thread instead of all cores, gives the same bytes
    assert_eq!(
        run_analyze_with(&pgn, &b, &[("RAYON_NUM_THREADS", "1")]),
        table
    );
    for f in ["r.json", "r.pgn", "svg/game-1.svg", "svg/game-2.svg"] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs between runs"
        );
    }
}

#[test]
fn bad_input_gives_one_line() {
    let d = dir("analyze-bad");
    let missing = d.join("missing.pgn");
    let o = chariot(&["analyze", missing.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("cannot read"), "{err}");
    let bad = d.join("bad.pgn");
    std::fs::write(&bad, "1. h2e2 zz *\n\n[Event \"2\"]\n\n1. h2e2 *\n").unwrap();
    let o = chariot(&["analyze", bad.to_str().unwrap(), "--nodes", "2000"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("game 1, ply 2"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let o = chariot(&[
        "analyze",
        bad.to_str().unwrap(),
        "--nodes",
        "2000",
        "--skip-bad",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("炮二平五"));
    let o = chariot(&["analyze", bad.to_str().unwrap(), "--notation", "xyz"]);
    assert!(!o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stderr).trim().lines().count(), 1);
}

#[test]
fn a_real_games_repetition_verdict_sits_at_its_ply_with_clauses_and_chases() {
    // 吕钦 – 邬正伟 (1986): Black's perpetual chase of the red advisor loses under CXA rules
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/records/v13-game.xqf");
    let game = records::read_file(&path).unwrap().remove(0).unwrap();
    let s = Settings {
        budget: Budget::Nodes(5_000),
        ..settings()
    };
    let g = analyze::analyze_game(&game, "v13", &s).unwrap();
    assert_eq!((g.result.as_str(), g.moves.len()), ("red-wins", 73));
    let last = g.moves.last().unwrap();
    let end = last.events.iter().find(|e| e.kind == "end").unwrap();
    assert!(end.clauses.contains(&"26.4".to_string()), "{end:?}");
    assert!(
        end.why
            .iter()
            .any(|w| w.contains("chases the red advisor on d0"))
    );
    // the chases of the cycle are marked at their moves, and the last one is the blunder
    let m72 = &g.moves[71];
    assert!(
        m72.events
            .iter()
            .any(|e| e.kind == "chase" && e.victims == ["d0"])
    );
    assert_eq!(m72.class, Class::Blunder);
    assert_eq!(g.black.blunders, 1);
    // the record says draw: the PGN keeps it, and adds the rules' verdict
    let pgn = analyze::pgn(&g, "nodes 5000");
    assert!(
        pgn.contains("[Result \"1/2-1/2\"]\n[RulesResult \"1-0\"]\n"),
        "{pgn}"
    );
    assert!(pgn.trim_end().ends_with("1/2-1/2"));
    assert!(analyze::table(&g).contains("; recorded 1/2-1/2"));
}

/// 吕钦 – 邬正伟 after 20 moves (Red to move, about level): 炮六退一 (d2d1) takes the cannon
/// off the d file and lets 炮３进７ (c7c0) mate at once (the d0 advisor is the screen, the
/// king is boxed in by its own pieces).
const NEAR_MATE: &str = "4kab2/4a4/2c1b4/4p3p/3r1np2/5R3/P3P1P1P/3CB1N2/4A4/3AK1B2 w - - 6 21";

fn from_fen(fen: &str, moves: &str) -> analyze::GameReview {
    review(&format!("[FEN \"{fen}\"]\n\n{moves} *\n"))
}

#[test]
fn a_move_into_mate_and_a_move_that_lets_the_mate_slip_are_flagged() {
    let g = from_fen(NEAR_MATE, "21. d2d1 c7a7");
    let (red, black) = (&g.moves[0], &g.moves[1]);
    // before the blunder nobody is mating; after it Black mates in one
    assert!(
        red.before.mate.is_none() && red.before.cp.is_some(),
        "{red:?}"
    );
    assert_eq!(red.after.mate, Some(-1), "{red:?}");
    assert_eq!(red.mate_flag, Some(analyze::MateFlag::Allowed));
    assert_eq!(red.class, Class::Blunder);
    // Black had the mate and played a quiet cannon move instead: no mate after it
    assert_eq!(black.before.mate, Some(1), "{black:?}");
    assert_eq!(black.best_iccs, "c7c0");
    assert!(black.after.mate.is_none(), "{black:?}");
    assert_eq!(black.mate_flag, Some(analyze::MateFlag::Lost));
    assert_eq!(black.class, Class::Blunder);
    assert_eq!((g.red.mates_allowed, g.red.mates_lost), (1, 0));
    assert_eq!((g.black.mates_allowed, g.black.mates_lost), (0, 1));
    // the words in the table, the PGN comment and the JSON
    let table = analyze::table(&g);
    assert!(table.contains("mate allowed (#-1)"), "{table}");
    assert!(table.contains("mate lost (#1)"), "{table}");
    assert!(table.contains("1 mates lost, 0 mates allowed"), "{table}");
    let pgn = analyze::pgn(&g, "x");
    assert!(pgn.contains("blunder, mate allowed (#-1)"), "{pgn}");
    assert!(pgn.contains("blunder, mate lost (#1); best"), "{pgn}");
    // the tooltips name the flags, and the graph stays well-formed
    let svg = analyze::svg(&g);
    assert!(svg.contains("mate lost (#1)"), "{svg}");
    well_formed(&svg).unwrap();
    let json = analyze::to_json(&analyze::report(vec![g], &settings()));
    assert!(json.contains("\"mate_flag\": \"allowed\""), "{json}");
    assert!(json.contains("\"mate_flag\": \"lost\""), "{json}");
}

#[test]
fn a_lost_mate_is_at_least_an_inaccuracy_and_a_kept_mate_is_not_flagged() {
    // Black mates, as it should: the mating move is not flagged
    let g = from_fen(NEAR_MATE, "21. d2d1 c7c0");
    assert_eq!(g.moves[1].mate_flag, None, "{:?}", g.moves[1]);
    assert_eq!(g.result, "black-wins");
    // Black's rook to d4 lets the mate go but stays far ahead: the drop alone says less
    // than an inaccuracy, the lost mate makes it one
    let g = from_fen(NEAR_MATE, "21. d2d1 d5d4");
    let m = &g.moves[1];
    assert_eq!(m.mate_flag, Some(analyze::MateFlag::Lost), "{m:?}");
    assert!(m.drop < analyze::INACCURACY, "{m:?}");
    assert_eq!(m.class, Class::Inaccuracy);
    // a mate in 2 with two first moves (the tactics suite's sp1-2-74-m2): the engine picks
    // 马三进五 (g6e7); the other, 马三进四 (g6f8), keeps the mate, is not the engine's best,
    // and is not flagged; a quiet pawn move only makes it longer (Red still mates in 4): the
    // review flags it exactly when its search does not see the longer mate at this budget
    // (generation 4b saw it, generations 3 and 5a do not)
    let mate2 = "1Rbk2b2/9/3ar4/3RC1N1p/9/P4pp2/4P3P/4B4/9/3AKAB2 w - - 0 1";
    let g = from_fen(mate2, "1. g6f8");
    let m = &g.moves[0];
    assert_eq!(m.best_iccs, "g6e7");
    assert_eq!(m.after.mate, Some(1), "{m:?}");
    assert_eq!(m.mate_flag, None);
    assert!(!analyze::table(&g).contains("mate lost"));
    let g = from_fen(mate2, "1. a4a5");
    let m = &g.moves[0];
    match m.after.mate {
        Some(n) => {
            assert!(n > 2, "{m:?}");
            assert_eq!(m.mate_flag, None, "{m:?}");
        }
        None => {
            assert_eq!(m.mate_flag, Some(analyze::MateFlag::Lost), "{m:?}");
            assert!(m.class >= Class::Inaccuracy, "{m:?}");
        }
    }
}

#[test]
fn no_progress_bar_off_a_terminal_and_json_to_stdout_replaces_the_table() {
    let d = dir("analyze-stdout");
    let pgn = d.join("game.pgn");
    std::fs::write(&pgn, format!("{BLUNDER}\n{MATE}")).unwrap();
    let json = d.join("r.json");
    let o = chariot(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--nodes",
        "2000",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    // stderr is a pipe here: not one byte of a progress bar
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("炮五进四"));
    let o = chariot(&[
        "analyze",
        pgn.to_str().unwrap(),
        "--nodes",
        "2000",
        "--json",
        "-",
    ]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // the JSON alone on stdout, the same as the file's
    assert_eq!(o.stdout, std::fs::read(&json).unwrap());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
}
