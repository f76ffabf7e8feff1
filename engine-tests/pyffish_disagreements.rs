//! Replays `engine-tests/pyffish-disagreements.txt`: the representative cycles on which
//! `chariot judge --rules axf` and Fairy-Stockfish (pyffish, `scripts/pyffish-diff.sh`)
//! disagree, each with the clause that decides it. The game is played from the FEN under the
//! Asian rules, judged after every move; nothing may be decided before the last move, and
//! after it Chariot's verdict must be the `chariot=` column. The `pyffish=` column is what
//! pyffish said; it must differ from Chariot's, or the line documents nothing.

use chariot::core::{Move, Position};
use chariot::rules::{GameResult, RuleSet, adjudicate};

fn parse_result(s: &str) -> Option<GameResult> {
    Some(match s {
        "red" => GameResult::RedWins,
        "black" => GameResult::BlackWins,
        "draw" => GameResult::Draw,
        "ongoing" => GameResult::Ongoing,
        _ => return None,
    })
}

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    chariot: GameResult,
    line: usize,
}

fn cases() -> Vec<Case> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/pyffish-disagreements.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let n = i + 1;
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert!(f.len() >= 7, "line {n}: needs 7 fields, has {}", f.len());
        let mut chariot = None;
        let mut pyffish = None;
        for item in f[3].split_whitespace() {
            let (k, v) = item
                .split_once('=')
                .unwrap_or_else(|| panic!("line {n}: bad verdict '{item}'"));
            let r = parse_result(v).unwrap_or_else(|| panic!("line {n}: bad result '{v}'"));
            match k {
                "chariot" => chariot = Some(r),
                "pyffish" => pyffish = Some(r),
                _ => panic!("line {n}: unknown column '{k}'"),
            }
        }
        let chariot = chariot.unwrap_or_else(|| panic!("line {n}: no chariot="));
        let pyffish = pyffish.unwrap_or_else(|| panic!("line {n}: no pyffish="));
        assert_ne!(chariot, pyffish, "line {n}: the two verdicts agree");
        assert!(!f[5].is_empty(), "line {n}: no clause");
        out.push(Case {
            id: f[0].to_string(),
            fen: f[1].to_string(),
            moves: f[2].split_whitespace().map(String::from).collect(),
            chariot,
            line: n,
        });
    }
    out
}

#[test]
fn chariot_side_of_every_pyffish_disagreement() {
    let all = cases();
    assert!(all.len() >= 10, "only {} cases", all.len());
    let mut failures = Vec::new();
    for case in &all {
        let mut pos = Position::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{} (line {}): {e}", case.id, case.line));
        let mut early = None;
        for (ply, text) in case.moves.iter().enumerate() {
            let m = Move::parse_iccs(text)
                .filter(|&m| pos.is_legal(m))
                .unwrap_or_else(|| {
                    panic!(
                        "{} (line {}): ply {} '{text}' is illegal",
                        case.id,
                        case.line,
                        ply + 1
                    )
                });
            pos.make_move(m);
            if ply + 1 < case.moves.len() && early.is_none() {
                let v = adjudicate(&pos, RuleSet::Axf);
                if v.is_over() {
                    early = Some(format!("ended at ply {}: {}", ply + 1, v.description));
                }
            }
        }
        let v = adjudicate(&pos, RuleSet::Axf);
        if let Some(e) = early {
            failures.push(format!("{} (line {}) {e}", case.id, case.line));
        } else if v.result != case.chariot {
            failures.push(format!(
                "{} (line {}): expected {}, got {}: {}",
                case.id, case.line, case.chariot, v.result, v.description
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
