//! Replays `engine-tests/pyffish-disagreements.txt`: the representative cycles on which
//! `chariot judge --rules axf` and Fairy-Stockfish (pyffish, `scripts/pyffish-diff.sh`)
//! disagree, each with the clause that decides it. The game is played from the FEN under the
//! Asian rules, judged after every move; nothing may be decided before the last move, and
//! after it Chariot's verdict must be the `chariot=` column. The `pyffish=` column is what
//! pyffish said; it must differ from Chariot's, or the line documents nothing.

mod common;

use chariot::rules::{GameResult, RuleSet};
use common::{field_lines, parse_result, play_case};

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    chariot: GameResult,
    line: usize,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (n, f) in field_lines("pyffish-disagreements.txt") {
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
            id: f[0].clone(),
            fen: f[1].clone(),
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
        let who = format!("{} (line {})", case.id, case.line);
        match play_case(&who, &case.fen, &case.moves, RuleSet::Axf) {
            Err(e) => failures.push(format!("{who} {e}")),
            Ok(v) if v.result != case.chariot => failures.push(format!(
                "{who}: expected {}, got {}: {}",
                case.chariot, v.result, v.description
            )),
            Ok(_) => {}
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
