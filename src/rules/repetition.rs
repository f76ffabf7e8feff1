//! Repetition (循环反复, 24–26): finding a repeated position cheaply, and, only when one is
//! found, judging the cycle under a rule set.

use super::asian;
use super::classify::{
    ChaseGrade, Classified, MoveKind, classify_under, grade_chase, piece_name, winning_capturers,
};
use super::{GameResult, RuleSet};
use crate::core::{Color, Move, PieceType, Position, Square};
use std::fmt::Write;

/// How many earlier occurrences of the current position the reversible part of the history
/// holds (same placement, same side to move; captures and null moves end the search).
/// Returns the count and the plies back to the earliest one.
pub fn earlier_occurrences(pos: &Position) -> (usize, usize) {
    let key = pos.key();
    let hist = pos.history();
    let window = (pos.halfmove_clock() as usize).min(hist.len());
    let mut count = 0;
    let mut first = 0;
    let mut back = 2;
    while back <= window {
        // the two moves that lead back to that position must be real moves
        let i = hist.len() - back;
        if hist[i].mv.is_none() || hist[i + 1].mv.is_none() {
            break;
        }
        if hist[i].key == key {
            count += 1;
            first = back;
        }
        back += 2;
    }
    (count, first)
}

/// The cheap path for search: does the current position repeat one in the reversible
/// history (at least once)?
#[inline]
pub fn is_repetition(pos: &Position) -> bool {
    let key = pos.key();
    let hist = pos.history();
    let window = (pos.halfmove_clock() as usize).min(hist.len());
    let mut back = 2;
    while back <= window {
        let i = hist.len() - back;
        if hist[i].mv.is_none() || hist[i + 1].mv.is_none() {
            return false;
        }
        if hist[i].key == key {
            return true;
        }
        back += 2;
    }
    false
}

/// One move of a judged cycle.
#[derive(Clone, Debug)]
pub struct CycleMove {
    pub mv: Move,
    pub side: Color,
    pub class: Classified,
    /// Identities of the chased pieces: the square each stood on when the cycle began.
    pub victim_ids: Vec<Square>,
    /// A chase counted as idle by 29.7 (its kind is then `Idle`, its victims kept).
    pub excused: bool,
}

/// What one side did over the cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Every move a check: 长将.
    PerpetualCheck,
    /// Every move an attack, and the rule set forbids this mix (长杀, 长捉, 一将一捉, …).
    Forbidden(Vec<MoveKind>),
    /// At least one idle move, or a mix the rule set allows.
    Allowed(Vec<MoveKind>),
}

/// The judgement of a repetition cycle.
#[derive(Clone, Debug)]
pub struct CycleVerdict {
    pub result: GameResult,
    pub rules: RuleSet,
    /// FEN of the position where the cycle starts (its first occurrence).
    pub start_fen: String,
    pub moves: Vec<CycleMove>,
    pub red: Conduct,
    pub black: Conduct,
    /// The rules that decide it. Under [`RuleSet::Cxa`] clause numbers of the CXA 2010 rules
    /// (`24.5.3`, `26.4`, `29.7` …); under [`RuleSet::Axf`] numbers of the numbered Asian
    /// rules, written `AXF 6` (docs/rules.md lists those cited and their source): the rule
    /// broken and the specific rule of a forbidden chase where Chariot knows it (a frozen
    /// piece, a cannon on a rook, a rook on an unprotected cannon, a piece of the same type),
    /// or the rules that allow what both sides did. Empty where no numbered rule says it
    /// (both sides forbidden under the Asian rules: a draw, said in the description).
    pub clauses: Vec<&'static str>,
    /// Plain words, Chinese terms in brackets.
    pub description: String,
}

impl CycleVerdict {
    pub fn conduct(&self, side: Color) -> &Conduct {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

/// Judges the cycle that ends in the current position, which must repeat an earlier one
/// (see [`earlier_occurrences`]); `None` otherwise. The cycle runs from the earliest
/// occurrence in the reversible history to now.
pub fn judge_cycle(pos: &Position, rules: RuleSet) -> Option<CycleVerdict> {
    match judge(pos, rules, false)? {
        Judged::Verdict(v) => Some(v),
        Judged::Draw => None,
    }
}

/// The result alone of [`judge_cycle`] (what the search needs), by the same classification,
/// stopping as soon as each side has made an idle move: such a side is neither checking
/// perpetually nor forbidden under either rule set (an idle move attacks nothing), so the
/// cycle is a draw whatever its other moves are.
pub fn cycle_result(pos: &Position, rules: RuleSet) -> Option<GameResult> {
    match judge(pos, rules, true)? {
        Judged::Verdict(v) => Some(v.result),
        Judged::Draw => Some(GameResult::Draw),
    }
}

enum Judged {
    Verdict(CycleVerdict),
    /// Both sides made an idle move (only when asked to stop there).
    Draw,
}

fn judge(pos: &Position, rules: RuleSet, stop_when_both_idle: bool) -> Option<Judged> {
    let (count, back) = earlier_occurrences(pos);
    if count == 0 {
        return None;
    }
    let hist = pos.history();
    let moves: Vec<Move> = hist[hist.len() - back..]
        .iter()
        .filter_map(|u| u.mv)
        .collect();
    let mut p = pos.clone();
    for _ in 0..back {
        p.unmake_move();
    }
    let start_fen = p.fen();
    // identity of each piece: its square at the start of the cycle
    let mut ids: [Option<Square>; 90] = [None; 90];
    for sq in Square::ALL {
        if p.piece_on(sq).is_some() {
            ids[sq.index()] = Some(sq);
        }
    }
    let mut judged = Vec::with_capacity(moves.len());
    // the first move is classified in the final position (the same placement), whose last
    // move is the cycle's own: a verdict depends on the cycle alone (the move that answers
    // a check is judged against the position before that check, 27.4, 29.3.1)
    let mut end = pos.clone();
    let mut idle = [false; 2];
    for (i, &m) in moves.iter().enumerate() {
        let side = p.side_to_move();
        let class = if i == 0 {
            classify_under(&mut end, m, rules)
        } else {
            classify_under(&mut p, m, rules)
        };
        if stop_when_both_idle && class.kind == MoveKind::Idle {
            idle[side as usize] = true;
            if idle[0] && idle[1] {
                return Some(Judged::Draw);
            }
        }
        p.make_move(m);
        ids[m.to().index()] = ids[m.from().index()].take();
        let victim_ids = class
            .victims
            .iter()
            .filter_map(|v| ids[v.index()])
            .collect();
        judged.push(CycleMove {
            mv: m,
            side,
            class,
            victim_ids,
            excused: false,
        });
    }
    let mut red = conduct(&judged, Color::Red, rules);
    let mut black = conduct(&judged, Color::Black, rules);
    // 29.7 can only turn a draw between two forbidden sides into a loss for one of them, so
    // the chases are graded only then (the final position has the start's placement)
    let excused = rules == RuleSet::Cxa
        && matches!(
            (&red, &black),
            (Conduct::Forbidden(_), Conduct::Forbidden(_))
        )
        && excuse_weak_chases(&mut p.clone(), &mut judged);
    if excused {
        red = conduct(&judged, Color::Red, rules);
        black = conduct(&judged, Color::Black, rules);
    }
    let (result, mut clauses) = verdict(&red, &black);
    if excused {
        clauses.insert(0, "29.7");
    }
    if rules == RuleSet::Axf {
        // the search reads the result alone: the rule each forbidden chase falls under, which
        // replays the cycle, is worked out for `judge` only
        let chase_rules = |side: Color| {
            if stop_when_both_idle {
                Vec::new()
            } else {
                axf_chase_rules(&p, &judged, side)
            }
        };
        clauses = axf_clauses(&red, &black, chase_rules);
    }
    let description = describe(&p, &ids, &judged, &red, &black, result, rules);
    Some(Judged::Verdict(CycleVerdict {
        result,
        rules,
        start_fen,
        moves: judged,
        red,
        black,
        clauses,
        description,
    }))
}

/// 29.7: when one side chases, with the piece it moves, an unprotected piece or a rook with
/// every move of the cycle, and the other side does not, the other side's chases of
/// protected pieces or of pieces sharing one root (少根) count as idle (`excused`), so the
/// first side must change. `pos` has the placement where the cycle starts (it is left
/// there); returns whether a move was excused.
fn excuse_weak_chases(pos: &mut Position, moves: &mut [CycleMove]) -> bool {
    let mut grades: Vec<ChaseGrade> = Vec::with_capacity(moves.len());
    for cm in moves.iter() {
        grades.push(if cm.class.kind == MoveKind::Chase {
            grade_chase(pos, cm.mv, &cm.class.victims)
        } else {
            ChaseGrade::default()
        });
        pos.make_move(cm.mv);
    }
    let firm = |side: Color| {
        moves
            .iter()
            .zip(&grades)
            .filter(|(m, _)| m.side == side)
            .all(|(m, g)| m.class.kind == MoveKind::Chase && g.firm)
    };
    let Some(chaser) = [Color::Red, Color::Black]
        .into_iter()
        .find(|&side| firm(side) && !firm(!side))
    else {
        return false;
    };
    let mut any = false;
    for (m, g) in moves.iter_mut().zip(&grades) {
        if m.side != chaser && m.class.kind == MoveKind::Chase && g.weak {
            m.class.kind = MoveKind::Idle;
            m.excused = true;
            any = true;
        }
    }
    any
}

fn conduct(moves: &[CycleMove], side: Color, rules: RuleSet) -> Conduct {
    let mine: Vec<&CycleMove> = moves.iter().filter(|m| m.side == side).collect();
    let kinds: Vec<MoveKind> = mine.iter().map(|m| m.class.kind).collect();
    if !kinds.is_empty() && kinds.iter().all(|&k| k == MoveKind::Check) {
        return Conduct::PerpetualCheck;
    }
    let forbidden = match rules {
        // 28.13: every move an attack of any kind, chasing one piece or several
        RuleSet::Cxa => !kinds.is_empty() && kinds.iter().all(|&k| k != MoveKind::Idle),
        // Asian rules: only chasing the same piece with every move is forbidden
        // a check that also attacks that piece counts as a chase of it
        RuleSet::Axf => chased_throughout(&mine).next().is_some(),
    };
    let mut distinct = kinds.clone();
    distinct.sort();
    distinct.dedup();
    if forbidden {
        Conduct::Forbidden(distinct)
    } else {
        Conduct::Allowed(distinct)
    }
}

/// The pieces (by identity) that `mine`, one side's moves, chase with every move.
fn chased_throughout<'a>(mine: &'a [&CycleMove]) -> impl Iterator<Item = Square> + 'a {
    mine.first()
        .into_iter()
        .flat_map(|first| first.victim_ids.iter().copied())
        .filter(move |id| mine.iter().all(|m| m.victim_ids.contains(id)))
}

/// The numbered Asian rules Chariot cites, as written in a verdict's clauses.
fn axf(rule: u8) -> &'static str {
    match rule {
        3 => "AXF 3",
        5 => "AXF 5",
        6 => "AXF 6",
        7 => "AXF 7",
        8 => "AXF 8",
        9 => "AXF 9",
        12 => "AXF 12",
        15 => "AXF 15",
        18 => "AXF 18",
        19 => "AXF 19",
        24 => "AXF 24",
        32 => "AXF 32",
        _ => unreachable!("AXF rule {rule} is not cited"),
    }
}

/// The rule that allows a side's conduct where one says exactly that: a perpetual mate
/// threat (9), one check and one chase or several checks and one chase (12), chasing two or
/// more pieces in turn (32, every move a chase but of no one piece throughout).
fn axf_allowed_rule(c: &Conduct) -> Option<u8> {
    match c {
        Conduct::Allowed(kinds) => match kinds.as_slice() {
            [MoveKind::MateThreat] => Some(9),
            [MoveKind::Check, MoveKind::Chase] => Some(12),
            [MoveKind::Chase] => Some(32),
            _ => None,
        },
        _ => None,
    }
}

/// The clauses of a cycle's verdict under the Asian rules, from the two sides' conduct;
/// `chase_rules(side)` gives the specific rules of a forbidden side's chase (see
/// [`axf_chase_rules`]). Perpetual check loses (6, with 3: a side that breaks a rule and does
/// not change loses), also against a side that checks back now and then (8); both sides
/// checking perpetually draw (7); a forbidden side against an allowed one loses (3 and what
/// its chase breaks, with the rule that allows the other side's conduct); both allowed draw
/// (5, with what allows each). Both forbidden draw too, but no numbered rule says so: only
/// the rules each chase breaks are given.
fn axf_clauses(
    red: &Conduct,
    black: &Conduct,
    chase_rules: impl Fn(Color) -> Vec<u8>,
) -> Vec<&'static str> {
    use Conduct::*;
    let checks_back =
        |c: &Conduct| matches!(c, Forbidden(k) | Allowed(k) if k.contains(&MoveKind::Check));
    let mut rules: Vec<u8> = match (red, black) {
        (PerpetualCheck, PerpetualCheck) => vec![7],
        (PerpetualCheck, other) | (other, PerpetualCheck) => {
            let mut r = vec![3, 6];
            if checks_back(other) {
                r.push(8);
            }
            r
        }
        (Forbidden(_), Forbidden(_)) => {
            let mut r = chase_rules(Color::Red);
            r.extend(chase_rules(Color::Black));
            r
        }
        (Forbidden(_), allowed @ Allowed(_)) | (allowed @ Allowed(_), Forbidden(_)) => {
            let forbidden = if matches!(red, Forbidden(_)) {
                Color::Red
            } else {
                Color::Black
            };
            let mut r = vec![3];
            r.extend(chase_rules(forbidden));
            r.extend(axf_allowed_rule(allowed));
            r
        }
        (Allowed(_), Allowed(_)) => {
            let mut r = vec![5];
            r.extend(axf_allowed_rule(red));
            r.extend(axf_allowed_rule(black));
            r
        }
    };
    rules.sort_unstable();
    rules.dedup();
    rules.into_iter().map(axf).collect()
}

/// The specific Asian rules that `side`'s chase of one piece with every move breaks, where
/// Chariot knows them: a frozen piece (19), a cannon on a rook (15, protected or not), a
/// rook on an unprotected cannon (18), a piece of the same type that cannot take back (24).
/// Worked out from each capture that wins a piece chased throughout, after each of `side`'s
/// moves (a horse on a rook or a chase of any other unprotected piece has no rule of its own
/// here). `end` is the cycle's last position; it is replayed on a copy.
fn axf_chase_rules(end: &Position, moves: &[CycleMove], side: Color) -> Vec<u8> {
    let mine: Vec<&CycleMove> = moves.iter().filter(|m| m.side == side).collect();
    let chased: Vec<Square> = chased_throughout(&mine).collect();
    let mut rules = Vec::new();
    if chased.is_empty() {
        return rules;
    }
    let mut pos = end.clone();
    for _ in moves {
        pos.unmake_move();
    }
    for cm in moves {
        pos.make_move(cm.mv);
        if cm.side != side {
            continue;
        }
        // the chaser to move again, as `classify` measures a threat (a check answered by a
        // pass)
        if pos.in_check() {
            pos.make_null_in_check();
        } else {
            pos.make_null();
        }
        for (&v, id) in cm.class.victims.iter().zip(&cm.victim_ids) {
            if !chased.contains(id) {
                continue;
            }
            let Some(victim) = pos.piece_on(v) else {
                continue;
            };
            let frozen = asian::frozen_by(&pos, v).is_some();
            if frozen {
                rules.push(19);
            }
            for from in winning_capturers(&mut pos, v, RuleSet::Axf) {
                let Some(attacker) = pos.piece_on(from) else {
                    continue;
                };
                match (attacker.kind(), victim.kind()) {
                    (PieceType::Cannon, PieceType::Rook) => rules.push(15),
                    (PieceType::Rook, PieceType::Cannon) if !frozen => rules.push(18),
                    (a, b) if a == b => rules.push(24),
                    _ => {}
                }
            }
        }
        pos.unmake_null();
    }
    rules
}

fn verdict(red: &Conduct, black: &Conduct) -> (GameResult, Vec<&'static str>) {
    use Conduct::*;
    match (red, black) {
        (PerpetualCheck, PerpetualCheck) => (GameResult::Draw, vec!["24.5.2", "26.3"]),
        (PerpetualCheck, _) => (GameResult::BlackWins, vec!["24.5.1", "26.1", "28.9"]),
        (_, PerpetualCheck) => (GameResult::RedWins, vec!["24.5.1", "26.1", "28.9"]),
        (Forbidden(_), Forbidden(_)) => (GameResult::Draw, vec!["24.5.2", "26.3", "28.13"]),
        (Forbidden(_), Allowed(_)) => (GameResult::BlackWins, vec!["24.5.3", "26.4", "28.13"]),
        (Allowed(_), Forbidden(_)) => (GameResult::RedWins, vec!["24.5.3", "26.4", "28.13"]),
        (Allowed(_), Allowed(_)) => (GameResult::Draw, vec!["24.5.2", "26.2", "28.14"]),
    }
}

/// The name of a side's conduct, English with the Chinese term.
fn conduct_name(c: &Conduct) -> String {
    match c {
        Conduct::PerpetualCheck => "perpetual check (长将)".into(),
        Conduct::Forbidden(kinds) | Conduct::Allowed(kinds) => {
            let has = |k| kinds.contains(&k);
            let attacks: Vec<MoveKind> = kinds
                .iter()
                .copied()
                .filter(|&k| k != MoveKind::Idle)
                .collect();
            match (attacks.as_slice(), has(MoveKind::Idle)) {
                ([], _) => "idle moves only (闲)".into(),
                ([MoveKind::MateThreat], false) => "perpetual mate threat (长杀)".into(),
                ([MoveKind::Chase], false) => "perpetual chase (长捉)".into(),
                ([MoveKind::Check, MoveKind::MateThreat], false) => {
                    "check and mate threat in turn (一将一杀)".into()
                }
                ([MoveKind::Check, MoveKind::Chase], false) => {
                    "check and chase in turn (一将一捉)".into()
                }
                ([MoveKind::MateThreat, MoveKind::Chase], false) => {
                    "mate threat and chase in turn (一杀一捉)".into()
                }
                (_, false) => "attacks with every move (将、杀、捉)".into(),
                (a, true) => {
                    let names: Vec<&str> = a.iter().map(|k| k.chinese()).collect();
                    format!("attacks ({}) mixed with idle moves (闲)", names.join("、"))
                }
            }
        }
    }
}

fn describe(
    end: &Position,
    ids: &[Option<Square>; 90],
    moves: &[CycleMove],
    red: &Conduct,
    black: &Conduct,
    result: GameResult,
    rules: RuleSet,
) -> String {
    let mut s = String::new();
    let side_text = |side: Color, c: &Conduct| {
        let mut t = format!("{side}: {}", conduct_name(c));
        // name the chased pieces by where they stand now
        let mut victims: Vec<Square> = Vec::new();
        for m in moves.iter().filter(|m| m.side == side) {
            for id in &m.victim_ids {
                let now = Square::ALL
                    .iter()
                    .copied()
                    .find(|sq| ids[sq.index()] == Some(*id));
                if let Some(sq) = now
                    && !victims.contains(&sq)
                {
                    victims.push(sq);
                }
            }
        }
        let named: Vec<String> = victims
            .iter()
            .filter_map(|&v| end.piece_on(v).map(|p| format!("{} on {v}", piece_name(p))))
            .collect();
        if !named.is_empty()
            && matches!(c, Conduct::Forbidden(k) | Conduct::Allowed(k) if k.contains(&MoveKind::Chase))
        {
            let _ = write!(t, ", chasing the {}", named.join(", the "));
        }
        if moves.iter().any(|m| m.side == side && m.excused) {
            t.push_str(
                "; its chases of protected pieces or of pieces sharing one root (有根子、少根子) \
                 count as idle, since the other side chases an unprotected piece or a rook \
                 with its moving piece every move (29.7)",
            );
        }
        t
    };
    let red_text = side_text(Color::Red, red);
    let black_text = side_text(Color::Black, black);
    let verdict = match result {
        GameResult::RedWins => "black loses",
        GameResult::BlackWins => "red loses",
        _ => "draw",
    };
    let _ = write!(
        s,
        "repetition under {rules} rules, {verdict}: {red_text}; {black_text}"
    );
    // no numbered Asian rule says it, so the clauses cannot: the words do
    if rules == RuleSet::Axf
        && matches!((red, black), (Conduct::Forbidden(_), Conduct::Forbidden(_)))
    {
        s.push_str("; both sides break the rules, so neither is ruled to lose");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict on the cycle the moves end (engine-tests/verdicts.txt's cases).
    fn cycle(fen: &str, moves: &str, rules: RuleSet) -> CycleVerdict {
        let pos = crate::rules::tests::play(fen, moves);
        judge_cycle(&pos, rules).expect("the last move repeats a position")
    }

    fn verdict_of(fen: &str, moves: &str, rules: RuleSet) -> (GameResult, Vec<&'static str>) {
        let v = cycle(fen, moves, rules);
        (v.result, v.clauses)
    }

    /// F03: Red's pawn uncovers a cannon on the black rook with every move, the rook attacks
    /// one red cannon after the other.
    const F03: (&str, &str) = (
        "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
        "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
    );
    /// F07: Black's pawn checks with every move, Red checks every other move.
    const F07: (&str, &str) = (
        "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6 d4e4",
    );
    /// F06: the red rook chases the unprotected black horse, the horse chases the rook.
    const F06: (&str, &str) = (
        "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
        "f6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6",
    );
    /// C16: the red rook checks, then chases an unprotected cannon, in turn.
    const C16: (&str, &str) = (
        "9/3k5/9/1c7/9/9/7R1/9/9/5K3 w - - 0 1",
        "h3d3 d8e8 d3b3 b6h6 b3e3 e8d8 e3h3 h6b6 h3d3 d8e8 d3b3 b6h6 b3e3 e8d8 e3h3 h6b6",
    );

    #[test]
    fn cxa_verdicts_cite_cxa_clauses() {
        let (fen, moves) = F03;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Cxa),
            (GameResult::Draw, vec!["24.5.2", "26.3", "28.13"])
        );
        let (fen, moves) = F07;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Cxa),
            (GameResult::RedWins, vec!["24.5.1", "26.1", "28.9"])
        );
        let (fen, moves) = C16;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Cxa),
            (GameResult::BlackWins, vec!["24.5.3", "26.4", "28.13"])
        );
        let (fen, moves) = F06;
        let v = cycle(fen, moves, RuleSet::Cxa);
        assert_eq!(v.clauses, ["24.5.2", "26.3", "28.13"]);
        assert!(
            !v.description.contains("both sides break"),
            "{}",
            v.description
        );
    }

    #[test]
    fn axf_perpetual_check_loses_and_mutual_check_draws() {
        // F08: Black's pawn checks with every move; Red never checks back
        let v = verdict_of(
            "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
            "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2",
            RuleSet::Axf,
        );
        assert_eq!(v, (GameResult::RedWins, vec!["AXF 3", "AXF 6"]));
        // F07: Red checks back every other move ("two checks one check back", rule 8)
        let (fen, moves) = F07;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Axf),
            (GameResult::RedWins, vec!["AXF 3", "AXF 6", "AXF 8"])
        );
        // F15: both sides check with every move
        let v = verdict_of(
            "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
            "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6",
            RuleSet::Axf,
        );
        assert_eq!(v, (GameResult::Draw, vec!["AXF 7"]));
    }

    #[test]
    fn axf_forbidden_chase_cites_the_rule_it_breaks() {
        // F03: the cannons chase the rook (15); Black chases two cannons in turn (32)
        let (fen, moves) = F03;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Axf),
            (GameResult::BlackWins, vec!["AXF 3", "AXF 15", "AXF 32"])
        );
        // A01: the frozen rook f8 (19) is chased by a cannon (15) and by the rook b8, which
        // it cannot take back (24)
        assert_eq!(
            verdict_of(
                "4k4/1R2arN2/9/9/3C5/9/9/9/9/3K5 w - - 0 1",
                "d5d8 e8d9 d8d5 d9e8 d5d8 e8d9 d8d5 d9e8",
                RuleSet::Axf
            ),
            (
                GameResult::BlackWins,
                vec!["AXF 3", "AXF 15", "AXF 19", "AXF 24"]
            )
        );
        // F10: Black's rook chases the unprotected red cannon, with a check in turn (18)
        assert_eq!(
            verdict_of(
                "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
                "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1",
                RuleSet::Axf
            ),
            (GameResult::RedWins, vec!["AXF 3", "AXF 18"])
        );
        // F13: Black's rook chases a red rook pinned so that it cannot take back (24)
        assert_eq!(
            verdict_of(
                "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
                "e4e3 c4c3 e3e4 c3c4 e4e3 c4c3 e3e4 c3c4",
                RuleSet::Axf
            ),
            (GameResult::RedWins, vec!["AXF 3", "AXF 24"])
        );
        // C13: a horse chasing a protected rook has no rule number of its own: rule 3 alone
        assert_eq!(
            verdict_of(
                "2r6/3k5/2r6/9/9/3N5/9/9/9/3AKA3 w - - 0 1",
                "d4b5 c7c6 b5d4 c6c7 d4b5 c7c6 b5d4 c6c7",
                RuleSet::Axf
            ),
            (GameResult::BlackWins, vec!["AXF 3"])
        );
    }

    #[test]
    fn axf_both_forbidden_draw_is_said_in_words() {
        // F06: a rook on an unprotected horse against a horse on a rook: no numbered rule
        // for either chase, and none for the draw
        let (fen, moves) = F06;
        let v = cycle(fen, moves, RuleSet::Axf);
        assert_eq!((v.result, v.clauses.len()), (GameResult::Draw, 0));
        assert!(
            v.description
                .ends_with("; both sides break the rules, so neither is ruled to lose"),
            "{}",
            v.description
        );
        // F32: a rook on an unprotected cannon (18) against cannons on a rook (15)
        assert_eq!(
            verdict_of(
                "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1",
                "f8f6 f9e8 f6f8 e8f9 f8f6 f9e8 f6f8 e8f9",
                RuleSet::Axf
            ),
            (GameResult::Draw, vec!["AXF 15", "AXF 18"])
        );
    }

    #[test]
    fn axf_allowed_conduct_draws_with_the_rule_that_allows_it() {
        // F04: chases mixed with idle moves on both sides
        assert_eq!(
            verdict_of(
                "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
                "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
                RuleSet::Axf
            ),
            (GameResult::Draw, vec!["AXF 5"])
        );
        // C16: one check one chase (12)
        let (fen, moves) = C16;
        assert_eq!(
            verdict_of(fen, moves, RuleSet::Axf),
            (GameResult::Draw, vec!["AXF 5", "AXF 12"])
        );
        // C17: two rooks chase two cannons in turn (32)
        assert_eq!(
            verdict_of(
                "4k4/9/c6c1/9/9/9/9/1R6R/9/3K5 w - - 0 1",
                "i2h2 h7i7 b2a2 a7b7 h2i2 i7h7 a2b2 b7a7 i2h2 h7i7 b2a2 a7b7 h2i2 i7h7 a2b2 b7a7",
                RuleSet::Axf
            ),
            (GameResult::Draw, vec!["AXF 5", "AXF 32"])
        );
        // C19: a perpetual threat of mate (9)
        assert_eq!(
            verdict_of(
                "3c5/4k4/9/9/n3N4/5R3/9/9/5K3/9 w - - 0 1",
                "f4e4 e8d8 e4f4 d8e8 f4e4 e8d8 e4f4 d8e8",
                RuleSet::Axf
            ),
            (GameResult::Draw, vec!["AXF 5", "AXF 9"])
        );
    }
}
