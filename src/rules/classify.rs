//! Classification of one move in a repetition cycle (棋例 28–29): check (将), mate threat
//! (杀), chase (捉) with the chased pieces, or idle (闲).
//!
//! The threats of the side that moved are measured as if it could move again (a null move
//! for the opponent), and compared with its threats before the move: only new threats count
//! (29.3.1), which takes care of discovered attacks, undermined defenders and net captures
//! of pieces already attacked (29.5). A capture threatens to win material when the best
//! exchange on the target square, with legal moves only (pins and the flying general
//! respected), gains value for the capturer, and the capture does not let the opponent mate
//! at once (29.3.3); a recapture that would allow an immediate mate is not a true root
//! (28.16). Material values (25.3–25.4): rook 4, horse and cannon 2, advisor, elephant and
//! crossed pawn 1, an uncrossed pawn 0 (never a victim, 25.2). So an unprotected piece, or a
//! piece attacked by a lower-valued one (29.2.1), is chased, and an exchange offer is not.
//! Two victims that share one single true root both count as unprotected (少根, 28.15).
//! Threats of winning material by a check first (抽吃, 29.2.2) are found by trying each
//! checking move against every reply. The king alone (27.1) and a pawn alone (27.2) never
//! chase; they may still take part in the exchanges that decide whether a victim is won.
//!
//! Approximations, documented in docs/rules.md: 27.3 (key defensive point) is read as "a
//! side behind in attacking material by at most a horse or cannon does not chase with a
//! piece on its own side of the river when all it attacks are advisors and elephants"; 27.6's first half is not modelled; 27.4 (自毙) is read as "an answer to a
//! check is 杀 only if it would threaten mate also in the position before that check" (see
//! `self_inflicted`); 29.4 (a root or a tied piece capturing) is read as "a capture that
//! lets the opponent win more elsewhere than the capture wins is no chase". 29.7 is applied
//! to a whole cycle ([`grade_chase`], used by `repetition`).
//!
//! Under the Asian rules ([`classify_under`] with `RuleSet::Axf`) a capture wins a piece by
//! protection alone, with no exchange played out and no shared roots, and pieces frozen on
//! the leg of a checking horse are treated as the Asian rules' rule 19 says (see [`asian`]).
//!
//! A mate threat (28.2) is a checkmate (将死) the mover could give with its very next move,
//! or within [`MATE_THREAT_MOVES`] moves all of them checks; the longer kind counts only
//! when this move created it, since a side with overwhelming material always has one and
//! its idle moves are not 杀. A threat to leave the opponent without a legal move while not
//! in check (困毙) wins too but is no 将死, so it is not 杀 (while a capture that would allow
//! either at once wins nothing, 29.3.3).

use super::RuleSet;
use super::asian;
use crate::core::{Color, Move, MoveList, Piece, PieceType, Position, Square, gen_type};
use std::fmt::Write;

/// How far the mate-threat test looks: checkmates in this many moves of the mover, every
/// one a check.
pub const MATE_THREAT_MOVES: u32 = 3;

/// 27.3: how far behind in attacking material (rook 4, horse and cannon 2, crossed pawn 1) a
/// side may be for its defensive point to make an obvious draw.
pub const DEFENSIVE_DRAW_MARGIN: i32 = 2;

/// What a move does, most severe first (27.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveKind {
    /// 将: attacks the enemy king.
    Check,
    /// 杀: threatens mate next move or by continuous checks.
    MateThreat,
    /// 捉: threatens to win material.
    Chase,
    /// 闲: anything else.
    Idle,
}

impl MoveKind {
    pub fn chinese(self) -> &'static str {
        match self {
            MoveKind::Check => "将",
            MoveKind::MateThreat => "杀",
            MoveKind::Chase => "捉",
            MoveKind::Idle => "闲",
        }
    }

    pub fn english(self) -> &'static str {
        match self {
            MoveKind::Check => "check",
            MoveKind::MateThreat => "mate threat",
            MoveKind::Chase => "chase",
            MoveKind::Idle => "idle",
        }
    }
}

/// The classification of one move: its kind and, for a chase, the squares of the chased
/// pieces in the position after the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    pub kind: MoveKind,
    pub victims: Vec<Square>,
}

/// Material value for the chase rules (25.3).
pub fn value(piece: Piece, sq: Square) -> i32 {
    match piece.kind() {
        PieceType::Rook => 4,
        PieceType::Horse | PieceType::Cannon => 2,
        PieceType::Advisor | PieceType::Elephant => 1,
        PieceType::Pawn => i32::from(crossed(piece.color(), sq)),
        PieceType::King => 1000,
    }
}

/// Has a pawn of `color` on `sq` crossed the river?
pub fn crossed(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() >= 5,
        Color::Black => sq.rank() <= 4,
    }
}

fn no_moves(pos: &Position) -> bool {
    pos.legal_moves().is_empty()
}

/// Can the side to move end the game at once (leave the opponent without a legal move)?
pub fn has_mate_in_one(pos: &mut Position) -> bool {
    let moves = pos.legal_moves();
    moves.iter().any(|&m| {
        pos.make_move(m);
        let mated = no_moves(pos);
        pos.unmake_move();
        mated
    })
}

/// Can the side to move checkmate (将死) in at most `n` of its moves, every one a check
/// (连续照将)? This is the mate of 28.2 (杀): a move that would leave the opponent without a
/// legal move while not in check (困毙, a stalemate) wins the game too, but is no 将死, so it
/// is not searched (only checking moves are). `n = 1`: a checkmate next move.
pub fn mate_by_checks(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        if !pos.gives_check(m) {
            continue;
        }
        pos.make_move(m);
        let replies = pos.legal_moves();
        let won = replies.is_empty()
            || (n > 1
                && replies.iter().all(|&r| {
                    pos.make_move(r);
                    let w = mate_by_checks(pos, n - 1);
                    pos.unmake_move();
                    w
                }));
        pos.unmake_move();
        if won {
            return true;
        }
    }
    false
}

/// Net gain, for the side to move, of capturing on `to` with the piece on `from` and then
/// exchanging on that square as well as both sides can (each may stop). `None` when the
/// capture lets the opponent mate at once (29.3.3): then it wins nothing.
fn capture_gain(pos: &mut Position, from: Square, to: Square) -> Option<i32> {
    let victim = pos.piece_on(to)?;
    let gained = value(victim, to);
    let m = Move::new(from, to)?;
    pos.make_move(m);
    let result = if has_mate_in_one(pos) {
        None
    } else {
        Some(gained - best_recapture(pos, to))
    };
    pos.unmake_move();
    result
}

/// The best the side to move can get by recapturing on `to` (0 if it should not).
fn best_recapture(pos: &mut Position, to: Square) -> i32 {
    let mut best = 0;
    for from in recapturers(pos, to) {
        if let Some(g) = capture_gain(pos, from, to) {
            best = best.max(g);
        }
    }
    best
}

/// Pieces of the side to move that can legally capture on `to`.
fn recapturers(pos: &Position, to: Square) -> Vec<Square> {
    let mut list = MoveList::new();
    pos.generate::<{ gen_type::CAPTURES }>(&mut list);
    list.iter()
        .filter(|m| m.to() == to)
        .map(|m| m.from())
        .collect()
}

/// True roots of the piece on `to` (the opponent of the side to move owns it) against a
/// capture from `from`: the opponent's pieces that could recapture legally without being
/// mated at once (28.16).
pub(super) fn true_roots(pos: &mut Position, from: Square, to: Square) -> Vec<Square> {
    let Some(m) = Move::new(from, to) else {
        return Vec::new();
    };
    pos.make_move(m);
    let mut roots = Vec::new();
    for r in recapturers(pos, to) {
        let Some(rm) = Move::new(r, to) else { continue };
        pos.make_move(rm);
        let mated = has_mate_in_one(pos);
        pos.unmake_move();
        if !mated {
            roots.push(r);
        }
    }
    pos.unmake_move();
    roots
}

/// Could the opponent of the side to move legally capture from `from` to `to` if it were
/// its turn? (Geometry only when the side to move is in check and cannot pass.)
fn can_take_back(pos: &mut Position, from: Square, to: Square) -> bool {
    let Some(m) = Move::new(from, to) else {
        return false;
    };
    if pos.in_check() {
        return pos
            .piece_on(from)
            .is_some_and(|p| pos.piece_attacks(p, from, pos.occupancy()).contains(to));
    }
    pos.make_null();
    let legal = pos.is_legal(m);
    pos.unmake_null();
    legal
}

/// The most the side to move can win by one capture, per target square (the best exchange
/// on that square, 0 where it wins nothing).
fn capture_gains(pos: &mut Position) -> Vec<(Square, i32)> {
    let mut gains: Vec<(Square, i32)> = Vec::new();
    for &m in pos.legal_captures().iter() {
        let g = capture_gain(pos, m.from(), m.to()).unwrap_or(0).max(0);
        match gains.iter_mut().find(|(sq, _)| *sq == m.to()) {
            Some(entry) => entry.1 = entry.1.max(g),
            None => gains.push((m.to(), g)),
        }
    }
    gains
}

/// 29.4: a piece that is the root of another piece, or is tied to its post (被牵), that
/// captures an unprotected piece chases only if the exchange comes out even or better:
/// the capture `m` (worth `gained`) abandons more when the opponent could then win, by a
/// capture elsewhere, more than `gained` on a square where it could win less before.
/// The side to move must not be in check. `before` keeps the opponent's gains before any
/// capture (the same for every `m` of one position) once worked out.
fn abandons_more(
    pos: &mut Position,
    m: Move,
    gained: i32,
    before: &mut Option<Vec<(Square, i32)>>,
) -> bool {
    if pos.in_check() {
        return false;
    }
    // a capture wins at most its victim's value, so only captures of pieces worth more than
    // `gained` can decide; the opponent's gains before are worked out only if one does
    pos.make_move(m);
    let mut after: Vec<(Square, i32)> = Vec::new();
    for &c in pos.legal_captures().iter() {
        let to = c.to();
        let worth = pos.piece_on(to).map_or(0, |v| value(v, to));
        if to == m.to() || worth <= gained {
            continue;
        }
        let g = capture_gain(pos, c.from(), to).unwrap_or(0).max(0);
        if g > gained {
            match after.iter_mut().find(|(sq, _)| *sq == to) {
                Some(entry) => entry.1 = entry.1.max(g),
                None => after.push((to, g)),
            }
        }
    }
    pos.unmake_move();
    if after.is_empty() {
        return false;
    }
    let before = before.get_or_insert_with(|| {
        pos.make_null();
        let gains = capture_gains(pos);
        pos.unmake_null();
        gains
    });
    after
        .iter()
        .any(|&(sq, g)| g > before.iter().find(|(s, _)| *s == sq).map_or(0, |&(_, b)| b))
}

/// A piece in words: `red horse`, `black cannon`.
pub fn piece_name(p: Piece) -> String {
    format!("{} {}", p.color(), format!("{:?}", p.kind()).to_lowercase())
}

/// Plain words on one chased piece (issue: `judge` explains the hard cases): `pos` is the
/// position after the chasing move, the victim's side to move. Names each enemy piece that
/// attacks it and through what (a cannon's screen, a rook's or a discovered line), then its
/// roots, each true or false (28.16): a root is false when taking back would be illegal
/// (pinned against its king, or the kings would face each other) or would let the chaser
/// mate at once.
pub fn explain_chase(pos: &mut Position, victim: Square) -> String {
    let Some(vp) = pos.piece_on(victim) else {
        return String::new();
    };
    let chaser = !vp.color();
    let mut attackers: Vec<Square> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for sq in Square::ALL {
        let Some(p) = pos.piece_on(sq) else { continue };
        if p.color() != chaser
            || p.kind() == PieceType::King
            || !pos.piece_attacks(p, sq, pos.occupancy()).contains(victim)
        {
            continue;
        }
        attackers.push(sq);
        let line = crate::core::attacks::between(sq, victim);
        let how = match p.kind() {
            PieceType::Cannon => {
                let occ = pos.occupancy().bitboard();
                Square::ALL
                    .iter()
                    .find(|&&s| line.contains(s) && occ.contains(s))
                    .and_then(|&s| pos.piece_on(s).map(|q| (s, q)))
                    .map(|(s, q)| format!(" over the {} on {s}", piece_name(q)))
                    .unwrap_or_default()
            }
            PieceType::Rook if sq.file() == victim.file() => " along the file".to_string(),
            PieceType::Rook => " along the rank".to_string(),
            _ => String::new(),
        };
        said.push(format!("the {} on {sq}{how}", piece_name(p)));
    }
    let mut text = format!("the {} on {victim}", piece_name(vp));
    if said.is_empty() {
        text.push_str(": no piece attacks it now");
        return text;
    }
    let _ = write!(text, ": attacked by {}", said.join(" and "));
    // roots, seen after the first attacker that can legally take it does so
    if pos.in_check() {
        return text;
    }
    pos.make_null();
    let capture = attackers
        .iter()
        .filter_map(|&a| Move::new(a, victim))
        .find(|&m| pos.is_legal(m));
    let mut roots: Vec<String> = Vec::new();
    if let Some(m) = capture {
        pos.make_move(m);
        for sq in Square::ALL {
            let Some(q) = pos.piece_on(sq) else { continue };
            if q.color() != vp.color()
                || !pos.piece_attacks(q, sq, pos.occupancy()).contains(victim)
            {
                continue;
            }
            let Some(back) = Move::new(sq, victim) else {
                continue;
            };
            let verdict = if !pos.is_legal(back) {
                "false: taking back would leave its own king in check or facing the other king"
            } else {
                pos.make_move(back);
                let mated = has_mate_in_one(pos);
                pos.unmake_move();
                if mated {
                    "false: taking back would allow mate at once"
                } else {
                    "true"
                }
            };
            roots.push(format!("the {} on {sq} ({verdict})", piece_name(q)));
        }
        pos.unmake_move();
    }
    pos.unmake_null();
    if capture.is_none() {
        text.push_str("; no attacker can take it legally now");
    } else if roots.is_empty() {
        text.push_str("; it has no root");
    } else {
        let _ = write!(text, "; roots: {}", roots.join(", "));
    }
    text
}

/// What the capture `from` → `to` (`attacker` takes `victim`) by the side to move threatens
/// under `rules`, before 29.4 and shared roots are weighed: `None` when it is no threat at
/// all (a victim worth nothing or a king, 25.2; a king or a pawn capturing by itself, 27.1,
/// 27.2; a victim of the attacker's type that could take it back, an exchange offer or a
/// sacrifice, 28.4, 28.5; under the Asian rules a frozen piece taking its horse, rule 19; a
/// capture that lets the opponent mate at once, 29.3.3); otherwise what it gains (it wins
/// material when positive: the exchange's net under CXA, 1 or 0 under the Asian rules).
fn capture_threat(
    pos: &mut Position,
    from: Square,
    to: Square,
    attacker: Piece,
    victim: Piece,
    rules: RuleSet,
) -> Option<i32> {
    if value(victim, to) == 0 || victim.kind() == PieceType::King {
        return None;
    }
    // 27.1 and 27.2: the king or a pawn by itself does not chase
    if matches!(attacker.kind(), PieceType::King | PieceType::Pawn) {
        return None;
    }
    // a piece of the same type that can take the attacker back is offered an exchange
    // (兑) or a sacrifice (献), both idle (28.4, 28.5)
    if victim.kind() == attacker.kind() && can_take_back(pos, to, from) {
        return None;
    }
    match rules {
        RuleSet::Cxa => capture_gain(pos, from, to),
        // AXF rule 19: a frozen piece's standing attack on its horse is no chase
        RuleSet::Axf if asian::takes_own_pinner(pos, from, to) => None,
        RuleSet::Axf => asian::capture_wins(pos, from, to).map(i32::from),
    }
}

/// The pieces of the side to move whose capture of the enemy piece on `victim` would win it
/// under `rules`, as [`threats`] counts a direct capture (a capture that abandons more than
/// it wins, 29.4, included: that capturer does not chase); empty when the square holds no
/// enemy piece. For `judge` to say which rule a chase falls under.
pub fn winning_capturers(pos: &mut Position, victim: Square, rules: RuleSet) -> Vec<Square> {
    let Some(vp) = pos.piece_on(victim) else {
        return Vec::new();
    };
    if vp.color() == pos.side_to_move() {
        return Vec::new();
    }
    let captures = pos.legal_captures();
    let mut opponent_gains = None;
    let mut out = Vec::new();
    for &m in captures.iter() {
        if m.to() != victim {
            continue;
        }
        let Some(attacker) = pos.piece_on(m.from()) else {
            continue;
        };
        if capture_threat(pos, m.from(), victim, attacker, vp, rules).is_some_and(|g| g > 0)
            && !abandons_more(pos, m, value(vp, victim), &mut opponent_gains)
        {
            out.push(m.from());
        }
    }
    out
}

/// Enemy pieces the side to move threatens to win by a direct capture next move: (won
/// outright by the exchange, unprotected only because they share their single root with
/// another attacked piece). Under the Asian rules a piece is won when it is unprotected,
/// frozen or worth more than its capturer ([`asian::capture_wins`]), a frozen piece's
/// capture of the horse that freezes it is no threat, and there are no shared roots.
fn direct_threats(pos: &mut Position, rules: RuleSet) -> (Vec<Square>, Vec<Square>) {
    let us = pos.side_to_move();
    let captures = pos.legal_captures();
    let mut victims: Vec<Square> = Vec::new();
    // protected victims with their single true root, for the insufficient-root rule
    let mut single_rooted: Vec<(Square, Square)> = Vec::new();
    let mut opponent_gains = None;
    for &m in captures.iter() {
        let (from, to) = (m.from(), m.to());
        let (Some(attacker), Some(victim)) = (pos.piece_on(from), pos.piece_on(to)) else {
            continue;
        };
        debug_assert!(victim.color() != us);
        if victims.contains(&to) {
            continue;
        }
        match capture_threat(pos, from, to, attacker, victim, rules) {
            // 29.4: not when the capture abandons more than it wins
            Some(g) if g > 0 && abandons_more(pos, m, value(victim, to), &mut opponent_gains) => {}
            Some(g) if g > 0 => victims.push(to),
            Some(_) if rules == RuleSet::Cxa => {
                let roots = true_roots(pos, from, to);
                if let [root] = roots[..] {
                    single_rooted.push((to, root));
                }
            }
            Some(_) | None => {}
        }
    }
    // 28.15 少根: two attacked pieces with one shared root are both unprotected
    let mut shared_root = Vec::new();
    for (i, &(v, root)) in single_rooted.iter().enumerate() {
        let shared = single_rooted
            .iter()
            .enumerate()
            .any(|(j, &(w, r))| j != i && w != v && r == root);
        if shared && !victims.contains(&v) && !shared_root.contains(&v) {
            shared_root.push(v);
        }
    }
    (victims, shared_root)
}

/// What the side to move threatens to win next move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Enemy pieces it can win by capturing them.
    pub direct: Vec<Square>,
    /// Enemy pieces attacked together with another piece that has the same single root.
    pub shared_root: Vec<Square>,
    /// Enemy pieces it can win after a check that every reply must answer (抽吃), not
    /// counting those it can take directly anyway.
    pub by_check: Vec<Square>,
}

impl Threats {
    pub fn all(&self) -> impl Iterator<Item = Square> + '_ {
        self.direct
            .iter()
            .chain(&self.shared_root)
            .chain(&self.by_check)
            .copied()
    }

    /// Threats here that `before` did not have (29.3.1). A threat to win a piece outright
    /// is new unless the piece could be won outright before; a weaker form (a shared root,
    /// a win after a check) is new unless the piece was threatened in any form before. So a
    /// move that turns a roundabout threat into a plain one chases.
    pub fn new_since(&self, before: &Threats) -> Vec<Square> {
        let mut out: Vec<Square> = self
            .direct
            .iter()
            .copied()
            .filter(|v| !before.direct.contains(v))
            .collect();
        let before_any: Vec<Square> = before.all().collect();
        for v in self.shared_root.iter().chain(&self.by_check) {
            if !before_any.contains(v) && !out.contains(v) {
                out.push(*v);
            }
        }
        out
    }
}

/// Direct capture threats only (no 抽吃).
fn capture_threats(pos: &mut Position, rules: RuleSet) -> Threats {
    let (direct, shared_root) = direct_threats(pos, rules);
    Threats {
        direct,
        shared_root,
        by_check: Vec::new(),
    }
}

/// Enemy pieces the side to move threatens to win next move (see [`Threats`]). Enemy
/// kings are never victims; a check that captures is a direct capture, not 抽吃.
pub fn threats(pos: &mut Position, rules: RuleSet) -> Threats {
    let (direct, shared_root) = direct_threats(pos, rules);
    let mut by_check: Vec<Square> = Vec::new();
    let moves = pos.legal_moves();
    for &c in moves.iter() {
        if pos.piece_on(c.to()).is_some() || !pos.gives_check(c) {
            continue;
        }
        pos.make_move(c);
        let replies = pos.legal_moves();
        let mut common: Option<Vec<Square>> = None;
        for &r in replies.iter() {
            pos.make_move(r);
            // only pieces that neither the check nor the reply moved keep their identity
            let (won, shared) = direct_threats(pos, rules);
            let won: Vec<Square> = won
                .into_iter()
                .chain(shared)
                .filter(|&v| v != c.to() && v != r.from() && v != r.to())
                .collect();
            pos.unmake_move();
            common = Some(match common {
                None => won,
                Some(prev) => prev.into_iter().filter(|v| won.contains(v)).collect(),
            });
            if common.as_ref().is_some_and(Vec::is_empty) {
                break;
            }
        }
        pos.unmake_move();
        for v in common.unwrap_or_default() {
            if !direct.contains(&v) && !shared_root.contains(&v) && !by_check.contains(&v) {
                by_check.push(v);
            }
        }
    }
    Threats {
        direct,
        shared_root,
        by_check,
    }
}

/// How the side that just moved threatens mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum MateThreat {
    None,
    /// It could checkmate with its very next move.
    NextMove,
    /// It could force checkmate by continuous checks.
    ByChecks,
}

/// Threats of the side that just moved in `pos` (the opponent is to move and not in
/// check): measured after a null move. Returns (mate threat, victims).
fn threats_of_mover(pos: &mut Position, rules: RuleSet) -> (MateThreat, Threats) {
    pos.make_null();
    let mate = if mate_by_checks(pos, 1) {
        MateThreat::NextMove
    } else if mate_by_checks(pos, MATE_THREAT_MOVES) {
        MateThreat::ByChecks
    } else {
        MateThreat::None
    };
    let victims = threats(pos, rules);
    pos.unmake_null();
    (mate, victims)
}

/// How a chasing move chases, for 29.7 (a side that chases an unprotected piece or a rook
/// with its moving piece every move must change; the other side's chases of protected
/// pieces and of pieces sharing one root count as idle).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ChaseGrade {
    /// The moved piece itself threatens to win a chased piece that has no true root, or a
    /// rook (长捉无根子或长捉车 by the 动子).
    pub firm: bool,
    /// Every chased piece has a true root against each attacker (won only because a lower
    /// piece attacks it, 29.2.1) or shares its single root with another attacked piece (少根).
    pub weak: bool,
}

/// Grades the chase `m` (played in `pos`, which is left as it was) of `victims`, the squares
/// of the chased pieces after the move as [`classify`] gives them. A check grades as
/// neither firm nor weak, and so does a piece won by a check first (抽吃).
pub fn grade_chase(pos: &mut Position, m: Move, victims: &[Square]) -> ChaseGrade {
    let mut grade = ChaseGrade::default();
    if victims.is_empty() {
        return grade;
    }
    pos.make_move(m);
    if !pos.in_check() {
        pos.make_null();
        let (direct, shared_root) = direct_threats(pos, RuleSet::Cxa);
        let captures = pos.legal_captures();
        let mut weak = true;
        for &v in victims {
            let Some(piece) = pos.piece_on(v) else {
                weak = false;
                continue;
            };
            if shared_root.contains(&v) {
                continue;
            }
            if !direct.contains(&v) {
                weak = false;
                continue;
            }
            let attackers: Vec<Square> = captures
                .iter()
                .filter(|c| c.to() == v)
                .map(|c| c.from())
                .collect();
            let mut rooted_against_all = true;
            for &from in &attackers {
                let rooted = !true_roots(pos, from, v).is_empty();
                rooted_against_all &= rooted;
                if from == m.to() && (piece.kind() == PieceType::Rook || !rooted) {
                    grade.firm = true;
                }
            }
            weak &= rooted_against_all;
        }
        grade.weak = weak;
        pos.unmake_null();
    }
    pos.unmake_move();
    grade
}

/// Attacking material (rooks, horses, cannons, crossed pawns) of `color`.
fn attacking_material(pos: &Position, color: Color) -> i32 {
    let mut total = 0;
    for kind in [
        PieceType::Rook,
        PieceType::Horse,
        PieceType::Cannon,
        PieceType::Pawn,
    ] {
        for sq in pos.pieces(color, kind) {
            total += value(Piece::new(color, kind), sq);
        }
    }
    total
}

/// 27.3, approximated: a move of the weaker side that occupies a defensive point and holds
/// an obvious draw is not chasing when all it attacks are advisors and elephants (an
/// incidental attack of the defender, idle). Read as: the mover has less attacking material
/// than the opponent but by at most [`DEFENSIVE_DRAW_MARGIN`] (a horse's or cannon's worth:
/// further behind, holding a point makes no obvious draw), and the moved piece stands on
/// its own side of the river (a defensive point). `pos` is the position before the move `m`;
/// `victims` are squares in the position after it.
fn incidental_defensive_chase(pos: &mut Position, m: Move, victims: &[Square]) -> bool {
    if victims.is_empty() {
        return false;
    }
    let us = pos.side_to_move();
    let behind = attacking_material(pos, !us) - attacking_material(pos, us);
    if !(1..=DEFENSIVE_DRAW_MARGIN).contains(&behind) || crossed(us, m.to()) {
        return false;
    }
    pos.make_move(m);
    let only_weak = victims.iter().all(|&v| {
        pos.piece_on(v)
            .is_some_and(|p| matches!(p.kind(), PieceType::Advisor | PieceType::Elephant))
    });
    pos.unmake_move();
    only_weak
}

/// Runs `f` on the position before the opponent's last move (a check the side to move must
/// answer), with the opponent passing instead, so the side to move is to move there too;
/// `None` when there is no such move or that position was itself a check.
fn before_check<T>(pos: &mut Position, f: impl FnOnce(&mut Position) -> T) -> Option<T> {
    let check = pos.history().last().and_then(|u| u.mv)?;
    pos.unmake_move();
    let mut out = None;
    if !pos.in_check() {
        pos.make_null();
        out = Some(f(pos));
        pos.unmake_null();
    }
    pos.make_move(check);
    out
}

/// 27.4 / 28.18 (自毙): `pos` is in check and `m` answers it. Was the check itself what
/// exposed the checker to the mate the mover threatens after `m`? Tested by playing `m` in
/// the position before the checking move, the checker passing instead: if the mover would
/// threaten no mate there, the threat comes from the check, and the answer is not 杀. An
/// answer that cannot be played there (it takes the checking piece, say) or a check with
/// no known previous move is not treated as self-inflicted.
fn self_inflicted(pos: &mut Position, m: Move) -> bool {
    before_check(pos, |p| {
        if !p.is_legal(m) {
            return false;
        }
        p.make_move(m);
        let mut inflicted = false;
        if !p.in_check() {
            p.make_null();
            inflicted = !mate_by_checks(p, MATE_THREAT_MOVES);
            p.unmake_null();
        }
        p.unmake_move();
        inflicted
    })
    .unwrap_or(false)
}

/// Classifies the legal move `m` in `pos` (the position before it) under the CXA rules.
/// `pos` is left as it was found.
pub fn classify(pos: &mut Position, m: Move) -> Classified {
    classify_under(pos, m, RuleSet::Cxa)
}

/// Classifies the legal move `m` in `pos` under `rules`: the Asian rules measure what a
/// capture wins by protection alone and freeze pieces on a checking horse's leg (see
/// [`asian`]). `pos` is left as it was found.
pub fn classify_under(pos: &mut Position, m: Move, rules: RuleSet) -> Classified {
    // what the mover threatened before the move (it is the side to move now)
    let in_check_before = pos.in_check();
    pos.make_move(m);
    if pos.in_check() {
        // a check is a check (27.5: the most severe); what it also attacks matters to the
        // Asian rules, which count a checking move that attacks the chased piece as a
        // chase of it. Those attacks are measured as if the check were answered by a pass,
        // direct captures only (a second check in a row would be a fiction).
        pos.make_null_in_check();
        let after = capture_threats(pos, rules);
        pos.unmake_null();
        pos.unmake_move();
        // in check before the move, the captures it could legally make then (those that
        // answer the check: taking the checking piece) were threats already
        let before = if after.all().next().is_none() {
            Threats::default()
        } else {
            capture_threats(pos, rules)
        };
        return Classified {
            kind: MoveKind::Check,
            victims: after.new_since(&before),
        };
    }
    let (mate_after, victims_after) = threats_of_mover(pos, rules);
    pos.unmake_move();

    // 28.2: a threat to mate on the very next move is a mate threat whatever came before;
    // a longer mating attack by continuous checks counts when this move created it (a side
    // with overwhelming material always has one, and its idle moves are not 杀).
    // 27.4 / 28.18: an answer to a check that only profits from the checker's own exposure
    // (自毙) is not 杀; one that brings a new way to mate still is.
    let mate_threat = match mate_after {
        MateThreat::None => false,
        MateThreat::NextMove => !(in_check_before && self_inflicted(pos, m)),
        MateThreat::ByChecks => {
            if in_check_before {
                !self_inflicted(pos, m)
            } else {
                !mate_by_checks(pos, MATE_THREAT_MOVES)
            }
        }
    };
    // 29.3.1: what the mover threatened before this move. A side in check cannot carry out
    // its threats, so they are measured in the position before the check (the checker
    // passing), keeping only pieces it still attacks now: an answer to a check does not
    // chase a piece it attacked all along, but does chase one it attacks afresh. The
    // captures it could legally make while in check (taking the checking piece) count as
    // threats it had too.
    // `new_since` compares plain threats after the move with plain threats before it only:
    // the roundabout forms before (shared roots, 抽吃) matter only when the move has
    // roundabout threats itself, so they are worked out only then (the same answer, a
    // fraction of the work: this runs for every move of every cycle the search judges)
    let roundabout = !victims_after.shared_root.is_empty() || !victims_after.by_check.is_empty();
    let before = |p: &mut Position| {
        if roundabout {
            threats(p, rules)
        } else {
            Threats {
                direct: direct_threats(p, rules).0,
                ..Threats::default()
            }
        }
    };
    let victims_before = if victims_after.all().next().is_none() {
        Threats::default()
    } else if in_check_before {
        let mut t = before_check(pos, before).unwrap_or_default();
        let us = pos.side_to_move();
        let occ = pos.occupancy().bitboard();
        let still = |v: &Square| {
            pos.piece_on(*v).is_some_and(|p| p.color() != us)
                && !pos.attackers_to(*v, us, occ).is_empty()
        };
        t.direct.retain(still);
        t.shared_root.retain(still);
        t.by_check.retain(still);
        let in_check = capture_threats(pos, rules);
        for v in in_check.direct {
            if !t.direct.contains(&v) {
                t.direct.push(v);
            }
        }
        for v in in_check.shared_root {
            if !t.shared_root.contains(&v) {
                t.shared_root.push(v);
            }
        }
        t
    } else {
        before(pos)
    };
    let mut new = victims_after.new_since(&victims_before);
    if incidental_defensive_chase(pos, m, &new) {
        new.clear();
    }
    // 27.5: the most severe function names the move; the chased pieces are kept either way
    // (the Asian rules judge a perpetual chase of one piece even where it is also a threat
    // of mate)
    let kind = if mate_threat {
        MoveKind::MateThreat
    } else if new.is_empty() {
        MoveKind::Idle
    } else {
        MoveKind::Chase
    };
    Classified { kind, victims: new }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explain_chase_names_the_attacker_and_a_false_root() {
        // black horse d5, its only root the rook e5, pinned by the red rook e1 against the
        // black king e9
        let fen = "4k4/9/9/9/3nr4/9/9/9/3RR4/3K5 b - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let text = explain_chase(&mut pos, Square::parse("d5").unwrap());
        assert!(
            text.contains("attacked by the red rook on d1 along the file"),
            "{text}"
        );
        assert!(
            text.contains("the black rook on e5 (false: taking back would leave its own king"),
            "{text}"
        );
        assert_eq!(
            pos.fen(),
            Position::from_fen(fen).unwrap().fen(),
            "position unchanged"
        );
        // the same piece with a true root: the king off the e-file, nothing pinned
        let mut pos = Position::from_fen("3k5/9/9/9/3nr4/9/9/9/3RR4/3K5 b - - 0 1").unwrap();
        let text = explain_chase(&mut pos, Square::parse("d5").unwrap());
        assert!(text.contains("the black rook on e5 (true)"), "{text}");
    }

    fn classify_iccs(fen: &str, mv: &str) -> Classified {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs(mv)
            .filter(|&m| pos.is_legal(m))
            .expect("legal test move");
        let before = pos.fen();
        let c = classify(&mut pos, m);
        assert_eq!(pos.fen(), before, "classify leaves the position as it was");
        c
    }

    #[test]
    fn chase_check_mate_threat_and_idle() {
        // the red rook attacks the unprotected black horse: a chase
        let c = classify_iccs("3k5/9/9/9/9/2n6/9/9/9/R3K4 w - - 0 1", "a0a4");
        assert_eq!((c.kind, c.victims.len()), (MoveKind::Chase, 1));
        // a rook move that attacks nothing new: idle
        assert_eq!(
            classify_iccs("3k5/9/9/9/9/2n6/9/9/9/R3K4 w - - 0 1", "a0a1").kind,
            MoveKind::Idle
        );
        // a check
        assert_eq!(
            classify_iccs("3k5/9/9/9/9/2n6/9/9/9/R3K4 w - - 0 1", "a0a9").kind,
            MoveKind::Check
        );
    }

    #[test]
    fn a_capturer_that_abandons_more_is_no_winning_capturer() {
        // the red rook a2 and the red horse b5 both attack the unprotected black cannon a7;
        // the rook is also the only root of the red rook e2, which the black rook e5
        // (protected by the horse g6) attacks: Rxa7 lets ...Rxe2 win a rook for a cannon
        // (29.4), Nxa7 abandons nothing
        let fen = "5k3/9/c8/6n2/1N2r4/9/9/R3R4/9/3K5 w - - 0 1";
        let a7 = Square::parse("a7").unwrap();
        for rules in [RuleSet::Cxa, RuleSet::Axf] {
            let mut pos = Position::from_fen(fen).unwrap();
            let capturers = winning_capturers(&mut pos, a7, rules);
            assert_eq!(capturers, vec![Square::parse("b5").unwrap()], "{rules:?}");
            assert_eq!(pos.fen(), Position::from_fen(fen).unwrap().fen());
            // the threat itself stands, by the horse
            assert!(capture_threats(&mut pos, rules).direct.contains(&a7));
        }
        // without the horse the cannon is attacked by the rook alone, which abandons more
        let alone = "5k3/9/c8/6n2/4r4/9/9/R3R4/9/3K5 w - - 0 1";
        let mut pos = Position::from_fen(alone).unwrap();
        assert!(winning_capturers(&mut pos, a7, RuleSet::Axf).is_empty());
        assert!(!capture_threats(&mut pos, RuleSet::Axf).direct.contains(&a7));
        // and without the rook on e2 to abandon, the rook's capture wins the cannon
        let free = "5k3/9/c8/6n2/4r4/9/9/R8/9/3K5 w - - 0 1";
        let mut pos = Position::from_fen(free).unwrap();
        assert_eq!(
            winning_capturers(&mut pos, a7, RuleSet::Axf),
            vec![Square::parse("a2").unwrap()]
        );
    }

    #[test]
    fn defender_attacking_an_elephant_is_idle() {
        // red (rook, 4) against black (rook and horse, 6): the red rook steps to c4, on its
        // own side of the river, and attacks the unprotected elephant c5 (27.3)
        let fen = "1r2k3n/9/9/9/2b6/R8/9/9/9/3K5 w - - 0 1";
        assert_eq!(classify_iccs(fen, "a4c4").kind, MoveKind::Idle);
        // the same rook crossing the river to attack it along rank 5 is no defensive point
        assert_eq!(classify_iccs(fen, "a4a5").kind, MoveKind::Chase);
        // further behind (black also has a cannon) holding a point makes no obvious draw
        let far = "1r2k3n/8c/9/9/2b6/R8/9/9/9/3K5 w - - 0 1";
        assert_eq!(classify_iccs(far, "a4c4").kind, MoveKind::Chase);
        // and the stronger side attacking it chases
        let strong = "4k4/9/9/9/2b6/R8/9/9/9/3K5 w - - 0 1";
        assert_eq!(classify_iccs(strong, "a4c4").kind, MoveKind::Chase);
    }
}
