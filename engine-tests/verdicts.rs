//! Every case of `engine-tests/verdicts.txt` under both rule sets: the game is played from
//! the FEN, judged after each move (the first decisive event ends it), and the result after
//! the last move must be the expected one for `cxa` and for `axf`. A decisive event before
//! the last move fails the case: each case ends on its deciding move.

mod common;

use chariot::core::{Move, Position};
use chariot::rules::repetition::{cycle_result, judge_cycle};
use chariot::rules::{GameResult, RuleSet};
use common::{field_lines, parse_result, play_case};

struct Case {
    id: String,
    clauses: Vec<String>,
    fen: String,
    moves: Vec<String>,
    expected: Vec<(RuleSet, GameResult)>,
    line: usize,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (n, f) in field_lines("verdicts.txt") {
        assert!(f.len() >= 4, "verdicts.txt line {n}: too few fields");
        let mut expected = Vec::new();
        for item in f[3].split_whitespace() {
            let (k, v) = item
                .split_once('=')
                .unwrap_or_else(|| panic!("line {n}: bad result '{item}'"));
            let rules: RuleSet = k.parse().unwrap_or_else(|e| panic!("line {n}: {e}"));
            let r = parse_result(v).unwrap_or_else(|| panic!("line {n}: bad result '{v}'"));
            expected.push((rules, r));
        }
        assert_eq!(expected.len(), 2, "line {n}: needs cxa= and axf=");
        assert!(f.len() >= 7, "line {n}: needs category, clauses and source");
        out.push(Case {
            id: f[0].clone(),
            clauses: f[5].split_whitespace().map(String::from).collect(),
            fen: f[1].clone(),
            moves: f[2].split_whitespace().map(String::from).collect(),
            expected,
            line: n,
        });
    }
    out
}

#[test]
fn verdict_cases_under_both_rule_sets() {
    let all = cases();
    assert!(all.len() >= 120, "only {} cases", all.len());
    let mut failures = Vec::new();
    for case in &all {
        let who = format!("{} (line {})", case.id, case.line);
        for &(rules, want) in &case.expected {
            match play_case(&who, &case.fen, &case.moves, rules) {
                Err(e) => failures.push(format!("{} [{rules}] {e}", case.id)),
                Ok(v) if v.result != want => failures.push(format!(
                    "{} [{rules}] expected {want}, got {}: {}",
                    case.id, v.result, v.description
                )),
                Ok(_) => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} verdicts differ:\n{}",
        failures.len(),
        all.len() * 2,
        failures.join("\n")
    );
}

/// Every clause and numbered sub-clause of CXA 2010 chapters 24-29 (24.5, 29.1, 29.2 and 29.3
/// through their sub-clauses); engine-tests/verdicts-coverage.md has the table.
const CLAUSES_24_TO_29: &[&str] = &[
    "24.1", "24.2", "24.3", "24.4", "24.5.1", "24.5.2", "24.5.3", "25.1", "25.2", "25.3", "25.4",
    "25.5", "25.6", "26.1", "26.2", "26.3", "26.4", "27.1", "27.2", "27.3", "27.4", "27.5", "27.6",
    "28.1", "28.2", "28.3", "28.4", "28.5", "28.6", "28.7", "28.8", "28.9", "28.10", "28.11",
    "28.12", "28.13", "28.14", "28.15", "28.16", "28.17", "28.18", "29.1.1", "29.1.2", "29.1.3",
    "29.2.1", "29.2.2", "29.2.3", "29.3.1", "29.3.2", "29.3.3", "29.4", "29.5", "29.6", "29.7",
];

/// Clauses with no case yet (none now), each to be explained in
/// engine-tests/verdicts-coverage.md.
const KNOWN_GAPS: &[&str] = &[];

#[test]
fn every_clause_of_chapters_24_to_29_has_a_case() {
    let all = cases();
    let cited = |c: &str| all.iter().any(|case| case.clauses.iter().any(|k| k == c));
    let missing: Vec<&str> = CLAUSES_24_TO_29
        .iter()
        .copied()
        .filter(|c| !cited(c) && !KNOWN_GAPS.contains(c))
        .collect();
    assert!(missing.is_empty(), "clauses without a case: {missing:?}");
    let closed: Vec<&str> = KNOWN_GAPS.iter().copied().filter(|c| cited(c)).collect();
    assert!(
        closed.is_empty(),
        "known gaps that now have a case (remove them from KNOWN_GAPS and the coverage file): {closed:?}"
    );
}

/// The search takes a cycle's result from `cycle_result`, which stops classifying once both
/// sides have made an idle move: on every repetition of every casebook line (twofold ones
/// too, as the search meets them) it must equal `judge`'s full verdict.
#[test]
fn the_search_result_of_every_cycle_equals_judge() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for case in &cases() {
        for rules in [RuleSet::Cxa, RuleSet::Axf] {
            let Ok(mut pos) = Position::from_fen(&case.fen) else {
                continue;
            };
            for text in &case.moves {
                let Some(m) = Move::parse_iccs(text).filter(|&m| pos.is_legal(m)) else {
                    break;
                };
                pos.make_move(m);
                if let Some(v) = judge_cycle(&pos, rules) {
                    compared += 1;
                    let fast = cycle_result(&pos, rules);
                    if fast != Some(v.result) {
                        failures.push(format!(
                            "{} [{rules}] after {text}: judge {}, search {fast:?}",
                            case.id, v.result
                        ));
                    }
                }
            }
        }
    }
    assert!(compared > 500, "only {compared} cycles compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
