//! The rules of the game beyond move legality: how a game ends and why. Repetition
//! verdicts (长将, 长捉, …) under the CXA or Asian rule sets, the natural move limit,
//! insufficient material, checkmate and stalemate. The same code serves search, the match
//! runner and `chariot judge`.

pub mod asian;
pub mod classify;
pub mod repetition;

use crate::core::{Color, PieceType, Position};
use repetition::{CycleVerdict, earlier_occurrences, judge_cycle};
use std::fmt;
use std::str::FromStr;

/// Which book of rules judges repetitions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// Chinese Xiangqi Association rules (2010): one check + one chase, chasing several
    /// pieces in turn and perpetual mate threats are forbidden.
    #[default]
    Cxa,
    /// Asian (AXF/WXF) rules: those are allowed; only perpetual check and chasing the same
    /// piece with every move are forbidden.
    Axf,
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Cxa => "cxa",
            RuleSet::Axf => "axf",
        })
    }
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<RuleSet, String> {
        match s.to_ascii_lowercase().as_str() {
            "cxa" | "chinese" | "cn" => Ok(RuleSet::Cxa),
            "axf" | "asian" | "wxf" => Ok(RuleSet::Axf),
            _ => Err(format!("unknown rule set '{s}' (cxa or axf)")),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    Ongoing,
}

impl GameResult {
    /// The side that wins, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    pub fn win_for(side: Color) -> GameResult {
        match side {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// `red-wins`, `black-wins`, `draw`, `ongoing`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "red-wins",
            GameResult::BlackWins => "black-wins",
            GameResult::Draw => "draw",
            GameResult::Ongoing => "ongoing",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game ended (or that it goes on).
#[derive(Clone, Debug)]
pub enum EndKind {
    Checkmate,
    Stalemate,
    Repetition(Box<CycleVerdict>),
    MoveLimit,
    InsufficientMaterial,
    Ongoing,
}

/// A verdict on a position with its history.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub result: GameResult,
    pub kind: EndKind,
    /// The rules that decide it. Under [`RuleSet::Cxa`] clause numbers of the CXA 2010
    /// rules, or of the 1999 book where marked (`1999 3.1`); under [`RuleSet::Axf`] numbers
    /// of the numbered Asian rules (`AXF 1`), and the CXA move limit marked as such
    /// (`CXA 23.2`, the Asian rules having no number Chariot could cite for it). See
    /// [`CycleVerdict::clauses`] for repetitions; docs/rules.md has the table and the source.
    pub clauses: Vec<&'static str>,
    /// Plain words, Chinese terms in brackets.
    pub description: String,
}

impl Verdict {
    fn ongoing() -> Verdict {
        Verdict {
            result: GameResult::Ongoing,
            kind: EndKind::Ongoing,
            clauses: Vec::new(),
            description: "the game goes on".into(),
        }
    }

    pub fn is_over(&self) -> bool {
        self.result != GameResult::Ongoing
    }
}

/// Plies without a capture that end the game in a draw (60 rounds, 2010 23.2).
pub const MOVE_LIMIT_PLIES: usize = 120;
/// Checks per side that count towards the move limit (2010 23.2).
pub const COUNTED_CHECKS: usize = 10;

/// Plies towards the natural move limit: plies since the last capture, less each side's
/// checks beyond its first [`COUNTED_CHECKS`] in that window. Plies from before the start of
/// the known history (a FEN's halfmove clock) count as non-checks.
pub fn move_limit_plies(pos: &Position) -> usize {
    let window = pos.halfmove_clock() as usize;
    let mut checks = [0usize; 2];
    let known = window.min(pos.history().len());
    for back in 0..known {
        if pos.was_check(back) == Some(true) {
            // the position `back` plies ago was reached by a move of the side not to move then
            let to_move = if back % 2 == 0 {
                pos.side_to_move()
            } else {
                !pos.side_to_move()
            };
            checks[(!to_move).index()] += 1;
        }
    }
    let excess: usize = checks
        .iter()
        .map(|&c| c.saturating_sub(COUNTED_CHECKS))
        .sum();
    window - excess.min(window)
}

/// Neither side has a piece that can attack across the river (rook, horse, cannon, pawn):
/// no one can ever win (4.2.1).
pub fn insufficient_material(pos: &Position) -> bool {
    Color::ALL.iter().all(|&c| {
        [
            PieceType::Rook,
            PieceType::Horse,
            PieceType::Cannon,
            PieceType::Pawn,
        ]
        .iter()
        .all(|&t| pos.pieces(c, t).is_empty())
    })
}

/// Judges the game as it stands: the side to move without a legal move loses (mate or
/// stalemate); a position on the board for the third time is judged by the repetition
/// rules; then the natural move limit and insufficient material.
pub fn adjudicate(pos: &Position, rules: RuleSet) -> Verdict {
    let us = pos.side_to_move();
    if pos.legal_moves().is_empty() {
        let mated = pos.in_check();
        return Verdict {
            result: GameResult::win_for(!us),
            kind: if mated {
                EndKind::Checkmate
            } else {
                EndKind::Stalemate
            },
            // Asian rules 1 (the side that takes the other's king first wins) and 2 (the side
            // that leaves the other no legal move wins)
            clauses: match (rules, mated) {
                (RuleSet::Cxa, true) => vec!["1999 3.1", "1999 4.1.1"],
                (RuleSet::Cxa, false) => vec!["1999 3.2", "1999 4.1.3"],
                (RuleSet::Axf, true) => vec!["AXF 1"],
                (RuleSet::Axf, false) => vec!["AXF 2"],
            },
            description: if mated {
                format!("{us} is checkmated (将死) and loses")
            } else {
                format!("{us} has no legal move (困毙) and loses")
            },
        };
    }
    if earlier_occurrences(pos).0 >= 2
        && let Some(cycle) = judge_cycle(pos, rules)
    {
        return Verdict {
            result: cycle.result,
            clauses: cycle.clauses.clone(),
            description: cycle.description.clone(),
            kind: EndKind::Repetition(Box::new(cycle)),
        };
    }
    if move_limit_plies(pos) >= MOVE_LIMIT_PLIES {
        let description = "60 moves by each side without a capture (自然限着): draw";
        return Verdict {
            result: GameResult::Draw,
            kind: EndKind::MoveLimit,
            // the move limit is the CXA's, applied under both rule sets
            clauses: match rules {
                RuleSet::Cxa => vec!["23.2", "1999 4.2.4"],
                RuleSet::Axf => vec!["CXA 23.2", "CXA 1999 4.2.4"],
            },
            description: match rules {
                RuleSet::Cxa => description.into(),
                RuleSet::Axf => format!(
                    "{description} (the CXA natural move limit, which Chariot applies under \
                     both rule sets)"
                ),
            },
        };
    }
    if insufficient_material(pos) {
        return Verdict {
            result: GameResult::Draw,
            kind: EndKind::InsufficientMaterial,
            // Asian rule 4: a draw when neither side can win
            clauses: match rules {
                RuleSet::Cxa => vec!["1999 4.2.1"],
                RuleSet::Axf => vec!["AXF 4"],
            },
            description: "neither side has a piece that can win (双方均无可能取胜的简单局势): draw"
                .into(),
        };
    }
    Verdict::ongoing()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;

    /// The position after `moves` (ICCS, each legal) from `fen`.
    pub(super) fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for t in moves.split_whitespace() {
            let m = Move::parse_iccs(t)
                .filter(|&m| pos.is_legal(m))
                .unwrap_or_else(|| panic!("{t} illegal"));
            pos.make_move(m);
        }
        pos
    }

    #[test]
    fn move_limit_counts_plies_since_capture() {
        // 110 plies from the FEN, then 10 more without a capture or check
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 110 1";
        let nine = "a0a1 d9d8 a1a2 d8d7 a2a3 d7d8 a3a4 d8d9 a4a5";
        let pos = play(fen, nine);
        assert_eq!(move_limit_plies(&pos), 119);
        assert_eq!(adjudicate(&pos, RuleSet::Cxa).result, GameResult::Ongoing);
        let pos = play(fen, &format!("{nine} d9d8"));
        assert_eq!(move_limit_plies(&pos), 120);
        let v = adjudicate(&pos, RuleSet::Cxa);
        assert_eq!(v.result, GameResult::Draw);
        assert!(matches!(v.kind, EndKind::MoveLimit));
        assert_eq!(v.clauses, ["23.2", "1999 4.2.4"]);
        assert_eq!(
            v.description,
            "60 moves by each side without a capture (自然限着): draw"
        );
        // the same CXA limit under the Asian rules, cited as the CXA's
        let v = adjudicate(&pos, RuleSet::Axf);
        assert_eq!(v.result, GameResult::Draw);
        assert_eq!(v.clauses, ["CXA 23.2", "CXA 1999 4.2.4"]);
        assert!(v.description.contains("the CXA natural move limit"));
    }

    #[test]
    fn mate_stalemate_and_bare_material_cite_each_rule_set() {
        // checkmate (verdicts.txt G01's shape): the rook a9 checks, the rook i8 covers rank 8
        let mate = play("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a9");
        let cxa = adjudicate(&mate, RuleSet::Cxa);
        let axf = adjudicate(&mate, RuleSet::Axf);
        assert!(matches!(cxa.kind, EndKind::Checkmate));
        assert_eq!(
            (cxa.result, axf.result),
            (GameResult::RedWins, GameResult::RedWins)
        );
        assert_eq!(cxa.clauses, ["1999 3.1", "1999 4.1.1"]);
        assert_eq!(axf.clauses, ["AXF 1"]);
        // stalemate (G03): the black king on d9 has no move and is not in check
        let stale = play("3k5/9/1N7/9/9/9/9/9/9/5K3 w - - 0 1", "f0e0");
        let cxa = adjudicate(&stale, RuleSet::Cxa);
        let axf = adjudicate(&stale, RuleSet::Axf);
        assert!(matches!(cxa.kind, EndKind::Stalemate));
        assert_eq!(cxa.clauses, ["1999 3.2", "1999 4.1.3"]);
        assert_eq!(axf.clauses, ["AXF 2"]);
        // no piece that can cross the river on either side
        let bare = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        assert_eq!(adjudicate(&bare, RuleSet::Cxa).clauses, ["1999 4.2.1"]);
        assert_eq!(adjudicate(&bare, RuleSet::Axf).clauses, ["AXF 4"]);
    }

    #[test]
    fn checks_beyond_ten_do_not_count() {
        // the red rook checks with every move along ranks 9 and 8; the king steps away
        let mut line = vec!["a0a9", "d9d8"];
        for _ in 0..11 {
            line.extend(["a9a8", "d8d9", "a8a9", "d9d8"]);
        }
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let mut red_checks = 0;
        for (i, t) in line.iter().enumerate() {
            let m = Move::parse_iccs(t)
                .filter(|&m| pos.is_legal(m))
                .unwrap_or_else(|| panic!("{t} illegal"));
            pos.make_move(m);
            red_checks += usize::from(pos.in_check());
            let plies = i + 1;
            assert_eq!(
                move_limit_plies(&pos),
                plies - red_checks.saturating_sub(COUNTED_CHECKS),
                "after {plies} plies"
            );
        }
        assert_eq!(red_checks, 23);
        assert_eq!(move_limit_plies(&pos), 46 - 13);
    }

    #[test]
    fn bare_kings_and_advisors_are_a_draw() {
        let pos = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
        assert!(insufficient_material(&pos));
        assert_eq!(adjudicate(&pos, RuleSet::Axf).result, GameResult::Draw);
        let pos = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/4A4/3AKC3 w").unwrap();
        assert!(!insufficient_material(&pos));
    }
}
