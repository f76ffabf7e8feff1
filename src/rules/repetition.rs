//! Repetition (循环反复, 24–26): finding a repeated position cheaply, and, only when one is
//! found, judging the cycle under a rule set.

use super::classify::{ChaseGrade, Classified, MoveKind, classify_under, grade_chase, piece_name};
use super::{GameResult, RuleSet};
use crate::core::{Color, Move, Position, Square};
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
    /// Clause numbers of the CXA 2010 rules that decide it.
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
        RuleSet::Axf => {
            !mine.is_empty()
                && mine[0]
                    .victim_ids
                    .iter()
                    .any(|id| mine.iter().all(|m| m.victim_ids.contains(id)))
        }
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
    s
}
