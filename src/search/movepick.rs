//! Staged move ordering. A node first tries its hash move without generating anything
//! (most cut nodes stop there), then the captures that do not lose material by static
//! exchange (most valuable victim first), the two killers, the countermove, the quiet moves
//! by history, and last the captures that lose material. In check all evasions are
//! generated at once and ordered the same way.
//!
//! Every move handed out is legal; none is handed out twice.

use super::history::{Context, History};
use super::params::CAPTURE_HISTORY_DIVISOR;
use super::see::{SEE_VALUE, see_ge};
use crate::core::{Move, MoveList, Position, gen_type};

#[derive(Copy, Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    GenerateEvasions,
    Evasions,
    Done,
}

/// What kind of search the picker serves.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PickMode {
    /// Every move (main search).
    All,
    /// Captures only (quiescence), or every evasion in check.
    Captures,
    /// Captures that do not lose material by static exchange (quiescence), or every
    /// evasion in check.
    GoodCaptures,
}

/// A list of moves with their ordering scores.
struct Scored {
    moves: MoveList,
    scores: [i32; 128],
    next: usize,
}

impl Scored {
    fn new() -> Scored {
        Scored {
            moves: MoveList::new(),
            scores: [0; 128],
            next: 0,
        }
    }

    /// Removes and returns the best-scored remaining move (selection, as most nodes use
    /// only a few moves).
    fn pick_best(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for j in self.next + 1..n {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        let i = self.next;
        self.moves.as_mut_slice().swap(i, best);
        self.scores.swap(i, best);
        self.next += 1;
        Some((self.moves.as_slice()[i], self.scores[i]))
    }
}

pub struct MovePicker {
    stage: Stage,
    mode: PickMode,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    context: Context,
    list: Scored,
    bad: MoveList,
    bad_next: usize,
    /// The caller prunes every remaining quiet move it would not search anyway (checks
    /// aside): hand them out as generated, without sorting.
    quiets_unsorted: bool,
}

/// Most valuable victim first, then least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .piece_on(m.to())
        .map_or(0, |p| SEE_VALUE[p.kind().index()]);
    let attacker = pos
        .piece_on(m.from())
        .map_or(0, |p| SEE_VALUE[p.kind().index()]);
    victim * 8 - attacker / 64
}

impl MovePicker {
    /// A picker for `pos`. `tt_move`, the killers and the countermove are tried only when
    /// legal here.
    pub fn new(
        pos: &Position,
        mode: PickMode,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        context: Context,
    ) -> MovePicker {
        let in_check = pos.in_check();
        let tt_move = tt_move.filter(|&m| {
            pos.is_legal(m) && (mode == PickMode::All || in_check || pos.piece_on(m.to()).is_some())
        });
        let stage = if in_check {
            Stage::GenerateEvasions
        } else if tt_move.is_some() {
            Stage::TtMove
        } else {
            Stage::GenerateCaptures
        };
        MovePicker {
            stage,
            mode,
            tt_move,
            killers,
            counter,
            context,
            list: Scored::new(),
            bad: MoveList::new(),
            bad_next: 0,
            quiets_unsorted: false,
        }
    }

    /// From now on the remaining quiet moves come in generation order: the search prunes
    /// them all but the checks (late-move and futility pruning), so ordering them is waste.
    pub fn skip_quiet_ordering(&mut self) {
        self.quiets_unsorted = true;
    }

    /// Was `m` handed out as a killer or the countermove (a quiet refutation elsewhere)?
    pub fn is_refutation(&self, m: Move) -> bool {
        Some(m) == self.killers[0] || Some(m) == self.killers[1] || Some(m) == self.counter
    }

    /// Is `m` one of the moves already handed out by an earlier stage?
    #[inline]
    fn special(&self, m: Move) -> bool {
        Some(m) == self.tt_move
            || Some(m) == self.killers[0]
            || Some(m) == self.killers[1]
            || Some(m) == self.counter
    }

    /// A quiet refutation (killer, countermove) usable here.
    fn quiet_candidate(&self, pos: &Position, m: Option<Move>) -> Option<Move> {
        m.filter(|&m| Some(m) != self.tt_move && pos.piece_on(m.to()).is_none() && pos.is_legal(m))
    }

    /// The next move, or `None` when all have been given.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    if let Some(m) = self.tt_move {
                        return Some(m);
                    }
                }
                Stage::GenerateCaptures => {
                    pos.generate::<{ gen_type::CAPTURES }>(&mut self.list.moves);
                    for i in 0..self.list.moves.len() {
                        let m = self.list.moves.as_slice()[i];
                        self.list.scores[i] = mvv_lva(pos, m)
                            + history.capture_score(pos, m) / CAPTURE_HISTORY_DIVISOR;
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while let Some((m, _)) = self.list.pick_best() {
                        if Some(m) == self.tt_move {
                            continue;
                        }
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    self.stage = match self.mode {
                        PickMode::All => Stage::Killer1,
                        PickMode::Captures => Stage::BadCaptures,
                        PickMode::GoodCaptures => Stage::Done,
                    };
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if let Some(m) = self.quiet_candidate(pos, self.killers[0]) {
                        return Some(m);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if self.killers[1] != self.killers[0]
                        && let Some(m) = self.quiet_candidate(pos, self.killers[1])
                    {
                        return Some(m);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenerateQuiets;
                    if self.counter != self.killers[0]
                        && self.counter != self.killers[1]
                        && let Some(m) = self.quiet_candidate(pos, self.counter)
                    {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    self.list.moves.clear();
                    self.list.next = 0;
                    pos.generate::<{ gen_type::QUIETS }>(&mut self.list.moves);
                    for i in 0..self.list.moves.len() {
                        let m = self.list.moves.as_slice()[i];
                        self.list.scores[i] = history.quiet_score(pos, m, &self.context);
                    }
                }
                Stage::Quiets => {
                    if self.quiets_unsorted {
                        while self.list.next < self.list.moves.len() {
                            let m = self.list.moves.as_slice()[self.list.next];
                            self.list.next += 1;
                            if !self.special(m) {
                                return Some(m);
                            }
                        }
                    }
                    while let Some((m, _)) = self.list.pick_best() {
                        if !self.special(m) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        let m = self.bad.as_slice()[self.bad_next];
                        self.bad_next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    pos.generate::<{ gen_type::ALL }>(&mut self.list.moves);
                    for i in 0..self.list.moves.len() {
                        let m = self.list.moves.as_slice()[i];
                        self.list.scores[i] = if Some(m) == self.tt_move {
                            i32::MAX
                        } else if pos.piece_on(m.to()).is_some() {
                            (1 << 28) + mvv_lva(pos, m)
                        } else {
                            history.quiet_score(pos, m, &self.context)
                        };
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if let Some((m, _)) = self.list.pick_best() {
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bench positions and positions a few random moves from them (some in check).
    fn positions() -> Vec<Position> {
        crate::core::samples::random_walks(11, 0x9e37_79b9_7f4a_7c15)
    }

    /// Everything a picker hands out, calling `skip_quiet_ordering` after `skip_after`
    /// moves (if given).
    fn drain(
        pos: &Position,
        mode: PickMode,
        hints: (Option<Move>, [Option<Move>; 2], Option<Move>),
        skip_after: Option<usize>,
    ) -> Vec<Move> {
        let history = History::new();
        let (tt, killers, counter) = hints;
        let mut picker = MovePicker::new(pos, mode, tt, killers, counter, Context::of(pos));
        let mut out = Vec::new();
        while let Some(m) = picker.next(pos, &history) {
            out.push(m);
            if skip_after == Some(out.len()) {
                picker.skip_quiet_ordering();
            }
        }
        out
    }

    #[test]
    fn every_legal_move_comes_once_sorted_or_not() {
        let mut checked = 0;
        for (n, pos) in positions().iter().enumerate() {
            let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            if legal.len() < 3 {
                continue;
            }
            legal.sort_by_key(|m| m.bits());
            // hints: legal moves, and a move from another position (illegal here)
            let other = Position::startpos().legal_moves().as_slice()[n % 40];
            let quiet: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_on(m.to()).is_none())
                .collect();
            let hints = (
                Some(legal[n % legal.len()]),
                [quiet.get(n % 3).copied(), Some(other)],
                quiet.last().copied(),
            );
            for skip in [None, Some(1), Some(3), Some(legal.len() / 2)] {
                let mut got = drain(pos, PickMode::All, hints, skip);
                got.sort_by_key(|m| m.bits());
                assert_eq!(got, legal, "{} (skip after {skip:?})", pos.fen());
            }
            // quiescence: the captures, or every evasion in check
            let mut captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.in_check() || pos.piece_on(m.to()).is_some())
                .collect();
            captures.sort_by_key(|m| m.bits());
            let mut got = drain(pos, PickMode::Captures, hints, None);
            got.sort_by_key(|m| m.bits());
            assert_eq!(got, captures, "{}", pos.fen());
            checked += 1;
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn quiet_moves_come_by_history_until_ordering_is_skipped() {
        let pos = Position::startpos();
        let mut history = History::new();
        let ctx = Context::of(&pos);
        // make one quiet move the clear favourite: it is the first quiet move handed out
        let favourite = Move::parse_iccs("h0g2").unwrap();
        history.update_all(&pos, favourite, &ctx, 400);
        let mut picker = MovePicker::new(&pos, PickMode::All, None, [None; 2], None, ctx);
        let mut seen = Vec::new();
        loop {
            let m = picker.next(&pos, &history).unwrap();
            seen.push(m);
            if m == favourite {
                break;
            }
            assert!(pos.piece_on(m.to()).is_some(), "{m} before the favourite");
        }
        // the rest, unsorted, still complete the legal moves
        picker.skip_quiet_ordering();
        seen.extend(std::iter::from_fn(|| picker.next(&pos, &history)));
        let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        legal.sort_by_key(|m| m.bits());
        seen.sort_by_key(|m| m.bits());
        assert_eq!(seen, legal);
    }
}
