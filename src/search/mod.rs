//! Iterative deepening alpha-beta search (principal variation search) with quiescence, a
//! shared transposition table and the game rules applied at every node: repetitions are
//! judged by `rules` under the active rule set (a forbidden repetition loses like a distant
//! mate, an allowed one draws), the natural move limit and insufficient material draw.
//!
//! Scores that depend on the path (a repetition verdict) are not stored in the
//! transposition table as facts about the position: a node whose best line ends in such a
//! verdict skips its store.
//!
//! This file holds the searcher's state and the node search; `iterate.rs` the iterations and
//! the root, `qsearch.rs` the quiescence search.

pub mod correction;
pub mod history;
pub mod movepick;
pub mod params;
pub mod see;
pub mod stats;
pub mod threads;
pub mod time;
pub mod tt;
pub mod verdicts;

mod iterate;
mod qsearch;
#[cfg(test)]
mod tests;

use crate::core::{Move, PieceType, Position};
use crate::eval::nnue::NnueEval;
use crate::eval::nnue::format::Network;
use crate::eval::{MATERIAL_MG, evaluate};
use crate::rules::repetition::{cycle_result, earlier_occurrences, is_repetition};
use crate::rules::{
    GameResult, MOVE_LIMIT_PLIES, RuleSet, insufficient_material, move_limit_plies,
};
use correction::Correction;
use history::{Context, History};
use movepick::{MovePicker, PickMode};
use params::*;
use stats::{Iteration, SearchStats};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use threads::NodeCounters;
use tt::{Bound, TranspositionTable};
use verdicts::VerdictCache;

/// When to stop searching.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop starting new iterations after this long.
    pub soft_time: Option<Duration>,
    /// Stop at once after this long.
    pub hard_time: Option<Duration>,
    /// Root moves that may not be played (`banmoves`).
    pub banned: Vec<Move>,
    /// Best lines to report (MultiPV); 0 or 1 = one.
    pub multipv: usize,
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    /// Which of the MultiPV lines this is, from 1.
    pub multipv: usize,
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    /// The principal variation and selective depth of the iteration the result is from.
    pub pv: Vec<Move>,
    pub seldepth: i32,
    /// The shape of the tree (`chariot bench --tree`): this thread's counts, or all threads'
    /// once the engine has added the helpers' (the iterations stay the main thread's).
    pub stats: SearchStats,
}

/// Is `score` a mate (or rules win) score, and in how many plies?
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Late-move reduction table `[depth][move number]`.
fn lmr_table(p: &Tunables) -> Vec<[i32; 64]> {
    let (base, divisor) = (
        f64::from(p.lmr_base) / 100.0,
        f64::from(p.lmr_divisor) / 100.0,
    );
    (0..64)
        .map(|d| {
            let mut row = [0i32; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

/// What a node is expected to be: on the principal variation (open window), a cut node
/// (expected to fail high: a zero-window node whose parent expects a refutation) or an all
/// node (expected to fail low: every move gets searched).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The kind of the first child searched with the same window: the PV continues, cut and
    /// all nodes alternate.
    fn child(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            Node::Cut => Node::All,
            Node::All => Node::Cut,
        }
    }

    /// The same node searched with a zero window (a PV node becomes an all node).
    fn without_pv(self) -> Node {
        match self {
            Node::Pv => Node::All,
            other => other,
        }
    }
}

/// What every thread of one search shares, handed to each at the start of a search.
#[derive(Clone)]
pub struct SearchSetup {
    pub tt: Arc<TranspositionTable>,
    pub rules: RuleSet,
    /// The net to evaluate with; `None`: the hand-crafted evaluation.
    pub net: Option<Arc<Network>>,
    /// The search's tunable numbers ([`Tunables::DEFAULT`] unless tuning).
    pub params: Tunables,
}

/// One search thread's state: its own histories and killers; the table is shared.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    rules: RuleSet,
    limits: Limits,
    start: Instant,
    pub nodes: u64,
    seldepth: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: History,
    pv: Vec<Vec<Move>>,
    lmr: Vec<[i32; 64]>,
    /// The tunable numbers this search runs with (the LMR table is built from them).
    p: Tunables,
    /// Whether the score just returned by a child depends on the path (a repetition verdict).
    path_dependent: bool,
    /// Repetition verdicts, shared with the other threads of the search.
    verdicts: Arc<VerdictCache>,
    /// Null move played at this ply (no two in a row).
    null_at: Vec<bool>,
    /// The move left out at this ply by a singular-extension search.
    excluded: Vec<Option<Move>>,
    /// Double extensions on the current line up to this ply (bounded, so lines stay finite).
    double_ext: Vec<u8>,
    /// Work since the clock was last read (see `out_of_time`).
    ticks: u32,
    /// Static evaluation at each ply of the current line (-INFINITE when in check).
    evals: Vec<i32>,
    /// The evaluation behind `evals[ply]` as the hash table keeps it (before correction and
    /// damping).
    raw_evals: Vec<i32>,
    /// What searches found the evaluation to miss, by pawn structure and material.
    correction: Correction,
    main: bool,
    /// Helper threads search some iterations one ply deeper, so that the threads spread
    /// over depths and fill the shared table with different work (Lazy SMP).
    depth_skew: i32,
    /// Depth of the iteration being searched.
    root_depth: i32,
    /// Did the last root search complete a move that raised alpha (its `pv[0]` then holds
    /// that move's line, even if the search was stopped later)?
    root_raised: bool,
    /// Node counts of all the search's threads, and this thread's slot among them.
    counters: Arc<NodeCounters>,
    slot: usize,
    /// The net of this search (`None`: the hand-crafted evaluation).
    net: Option<Arc<Network>>,
    /// This thread's accumulators for the net.
    nnue: NnueEval,
    /// What this search did, for the tree report.
    stats: SearchStats,
}

impl Searcher {
    /// A main-thread searcher (slot 0 of `counters`; see [`Searcher::set_helper`]) sharing
    /// the table, the stop flag and the repetition verdicts with the search's other threads.
    pub fn new(
        tt: Arc<TranspositionTable>,
        stop: Arc<AtomicBool>,
        rules: RuleSet,
        verdicts: Arc<VerdictCache>,
        counters: Arc<NodeCounters>,
    ) -> Searcher {
        Searcher {
            tt,
            stop,
            rules,
            limits: Limits::default(),
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: History::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            lmr: lmr_table(&Tunables::DEFAULT),
            p: Tunables::DEFAULT,
            path_dependent: false,
            verdicts,
            null_at: vec![false; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            double_ext: vec![0; MAX_PLY + 1],
            ticks: 0,
            evals: vec![-INFINITE; MAX_PLY + 2],
            raw_evals: vec![-INFINITE; MAX_PLY + 2],
            correction: Correction::new(),
            main: true,
            depth_skew: 0,
            root_depth: 0,
            root_raised: false,
            counters,
            slot: 0,
            net: None,
            nnue: NnueEval::new(),
            stats: SearchStats::default(),
        }
    }

    /// Publishes this thread's node count in `counters` from now on (the number of
    /// threads changed), and reads the others' from there.
    pub fn set_counters(&mut self, counters: Arc<NodeCounters>) {
        self.counters = counters;
    }

    /// The nodes searched so far by all threads of this search.
    fn total_nodes(&self) -> u64 {
        self.counters.total_with(self.slot, self.nodes)
    }

    /// Uses another table from now on (the `Hash` option changed).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// The rule set for the next searches (the verdict cache keeps each set's apart).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// Takes the table, rule set and evaluation of the next search.
    pub fn configure(&mut self, setup: SearchSetup) {
        self.tt = setup.tt;
        self.rules = setup.rules;
        if setup.params != self.p {
            self.p = setup.params;
            self.lmr = lmr_table(&self.p);
        }
        let same = match (&self.net, &setup.net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            // the old net stays alive until here, so its address cannot be reused by the
            // new one while the accumulators are still keyed to it
            self.nnue.invalidate();
            self.net = setup.net;
        }
    }

    /// Static evaluation for the side to move: the net's, or the hand-crafted one. This is
    /// what the hash table keeps; the search reads it through [`Searcher::adjusted`].
    #[inline]
    fn static_eval(&mut self, pos: &Position) -> i32 {
        match &self.net {
            Some(net) => self.nnue.evaluate(net, pos),
            None => evaluate(pos),
        }
    }

    /// A static evaluation (as the hash table keeps it) as the search uses it: corrected by
    /// the correction history, then damped (see [`Searcher::damped`]).
    #[inline]
    fn adjusted(&self, raw: i32, pos: &Position) -> i32 {
        self.damped(raw + self.correction_of(pos), pos)
    }

    /// The correction history's correction for `pos` (0 when it is off).
    #[inline]
    fn correction_of(&self, pos: &Position) -> i32 {
        match self.p.correction_weight {
            0 => 0,
            percent => self.correction.get(Correction::slots(pos), percent),
        }
    }

    /// An evaluation shrunk toward a draw as the plies without a capture near the 60-move
    /// limit (`MoveLimitDamping` per cent less at the limit), so the side ahead prefers
    /// progress to shuffling. The hash table keeps the undamped value, since a position's
    /// key does not include its capture count.
    #[inline]
    fn damped(&self, eval: i32, pos: &Position) -> i32 {
        let percent = self.p.move_limit_damping;
        if percent == 0 {
            return eval;
        }
        let limit = MOVE_LIMIT_PLIES as i32;
        let plies = i32::from(pos.halfmove_clock()).min(limit);
        eval * (100 * limit - percent * plies) / (100 * limit)
    }

    /// Clears histories and killers (a new game; the shared verdict cache is its owner's
    /// to clear).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.clear();
        self.correction.clear();
    }

    /// Marks this searcher as a helper thread (no output, no time control of its own).
    /// Its node count goes to slot `id` of the counters.
    pub fn set_helper(&mut self, id: usize) {
        self.main = false;
        self.slot = id;
        self.depth_skew = (id % 2) as i32;
    }

    fn out_of_time(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        // the clock is read every 1024 nodes, or sooner when repetition verdicts (far
        // costlier than a node) were computed: a search full of cycles still stops in time
        self.ticks += 1;
        let node_check = self.nodes & 1023 == 0;
        if node_check || self.ticks >= TIME_CHECK_TICKS {
            self.ticks = 0;
            if node_check {
                self.counters.publish(self.slot, self.nodes);
            }
            // every thread checks the node budget (all threads' nodes together), so it holds
            // even while the main thread waits for a core
            let over_nodes =
                node_check && self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
            let over_time = self.main
                && self
                    .limits
                    .hard_time
                    .is_some_and(|t| self.start.elapsed() >= t);
            if over_nodes || over_time {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// Is move `m` (which gives check if `gives_check`) extended at the parent? Only with
    /// `CheckExtension 2`, for a check that does not lose material by static exchange (mode 1
    /// extends the node in check instead).
    #[inline]
    fn extends_check(&self, pos: &Position, m: Move, gives_check: bool) -> bool {
        self.p.check_extension == 2 && gives_check && see::see_ge(pos, m, 0)
    }

    /// The score the rules give this node, if they end the game here.
    fn rule_score(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        if is_repetition(pos) && repeats_in_tree_or_thrice(pos, ply) {
            self.stats.repetitions += 1;
            let (_, back) = earlier_occurrences(pos);
            let mut sig = back as u64;
            for b in 0..=back {
                sig = sig.rotate_left(7) ^ pos.key_at(b).unwrap_or(0);
            }
            let rules = self.rules;
            let result = match self.verdicts.get(sig, rules) {
                Some(r) => r,
                None => {
                    self.ticks += TICKS_PER_VERDICT;
                    let r = cycle_result(pos, rules).unwrap_or(GameResult::Draw);
                    self.verdicts.put(sig, rules, r);
                    r
                }
            };
            return Some(match result.winner() {
                None => DRAW,
                Some(w) => {
                    self.path_dependent = true;
                    if w == pos.side_to_move() {
                        REPETITION_WIN - ply as i32
                    } else {
                        -(REPETITION_WIN - ply as i32)
                    }
                }
            });
        }
        if pos.halfmove_clock() as usize >= MOVE_LIMIT_PLIES
            && move_limit_plies(pos) >= MOVE_LIMIT_PLIES
        {
            return Some(DRAW);
        }
        if insufficient_material(pos) {
            return Some(DRAW);
        }
        None
    }

    fn search(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        let pv_node = node == Node::Pv;
        self.path_dependent = false;
        self.pv[ply].clear();
        if ply >= MAX_PLY - 1 {
            let eval = self.static_eval(pos);
            return self.adjusted(eval, pos);
        }
        let in_check = pos.in_check();
        if in_check && self.p.check_extension == 1 {
            depth += 1;
            self.stats.ext_in_check += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        self.stats.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        if let Some(s) = self.rule_score(pos, ply) {
            return s;
        }
        // mate distance pruning
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = pos.key();
        let excluded = self.excluded[ply];
        // a search that leaves a move out learns nothing about the position as a whole
        let entry = if excluded.is_some() {
            None
        } else {
            self.stats.tt_probes += 1;
            self.tt.probe(key)
        };
        self.stats.tt_hits += u64::from(entry.is_some());
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| pos.is_legal(m));
        self.double_ext[ply] = if ply > 0 { self.double_ext[ply - 1] } else { 0 };
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            self.stats.tt_cutoffs += 1;
            return s;
        }
        // the raw evaluation (for the hash table) and the one the search uses
        let (raw_eval, static_eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else if excluded.is_some() {
            (self.raw_evals[ply], self.evals[ply])
        } else {
            let raw = match entry {
                Some(e) => e.eval,
                None => self.static_eval(pos),
            };
            (raw, self.adjusted(raw, pos))
        };
        self.evals[ply] = static_eval;
        self.raw_evals[ply] = raw_eval;
        // is the side to move better off than two plies ago? (then prune less)
        let improving = !in_check
            && (ply < 2 || self.evals[ply - 2] == -INFINITE || static_eval > self.evals[ply - 2]);
        // for pruning, the table's score is the better guess where its bound says which way
        // the evaluation errs (`TtEval 1`)
        let eval = match entry {
            Some(e) if self.p.tt_eval > 0 && !in_check => {
                let s = score_from_tt(e.score, ply);
                let sharper = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if sharper && s.abs() < REPETITION_WIN - MAX_PLY as i32 {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        if !pv_node && !in_check && excluded.is_none() {
            // razoring: far below alpha, only captures could save the node
            if self.p.razor_margin > 0
                && depth <= self.p.razor_max_depth
                && eval + self.p.razor_margin * depth * depth < alpha
                && alpha.abs() < MATE_BOUND
            {
                self.stats.razor_tries += 1;
                let v = self.qsearch(pos, alpha, alpha + 1, ply);
                if self.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                if v <= alpha {
                    self.stats.razor_cuts += 1;
                    return v;
                }
            }
            // reverse futility pruning
            if depth <= self.p.rfp_max_depth
                && eval - self.p.rfp_margin * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
            {
                self.stats.rfp_cuts += 1;
                return eval;
            }
            // null move: give the opponent a free move; if still above beta, cut
            // (never against a mate score: a pass cannot refute a mating line)
            if depth >= self.p.nmp_min_depth
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && !self.null_at[ply - 1]
                && has_attackers(pos)
            {
                let r = self.p.nmp_base
                    + depth / self.p.nmp_divisor
                    + ((eval - beta) / self.p.nmp_eval_divisor).min(self.p.nmp_eval_max);
                self.stats.nmp_tries += 1;
                pos.make_null();
                self.null_at[ply] = true;
                let mut s =
                    -self.search(pos, -beta, -beta + 1, depth - 1 - r, ply + 1, node.child());
                self.null_at[ply] = false;
                pos.unmake_null();
                if self.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                if s >= beta {
                    if s >= MATE_BOUND {
                        s = beta;
                    }
                    if depth < self.p.nmp_verify_depth {
                        self.stats.nmp_cuts += 1;
                        return s;
                    }
                    // verification against zugzwang: a reduced search without a null move
                    self.null_at[ply] = true;
                    let v = self.search(pos, beta - 1, beta, depth - 1 - r, ply, Node::All);
                    self.null_at[ply] = false;
                    if v >= beta {
                        self.stats.nmp_cuts += 1;
                        return s;
                    }
                    self.stats.nmp_verify_fails += 1;
                }
            }
        }
        if tt_move.is_none() && excluded.is_none() && depth >= self.p.iir_min_depth {
            depth -= 1;
            self.stats.iir += 1;
        }
        if let Some(s) = self.probcut(pos, beta, depth, ply, node, entry, eval, improving) {
            return s;
        }

        let killers = self.killers[ply];
        let counter = self.history.counter(pos);
        let context = Context::of(pos);
        let mut picker = MovePicker::new(pos, PickMode::All, tt_move, killers, counter, context);
        let lmp_limit = (self.p.lmp_base as usize + (depth * depth) as usize)
            * (1 + usize::from(improving))
            / 2;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut best_dependent = false;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut captures_tried: Vec<Move> = Vec::new();
        let original_alpha = alpha;
        let mut i = 0usize;
        let mut any_move = false;
        while let Some(m) = picker.next(pos, &self.history) {
            if Some(m) == excluded {
                continue;
            }
            any_move = true;
            let quiet = pos.piece_on(m.to()).is_none();
            let gives_check = pos.gives_check(m);
            let hist = if quiet {
                self.history.quiet_score(pos, m, &context)
            } else {
                0
            };
            // the depth a quiet move is judged at by futility, history and static-exchange
            // pruning (only off the PV and out of check): the node's, or (`PruneAtLmrDepth`
            // 1 and 2) what its reduction would leave
            let prune_depth = if quiet && !pv_node && !in_check && self.p.prune_at_lmr_depth > 0 {
                depth - self.quiet_reduction_guess(depth, i, improving, picker.is_refutation(m))
            } else {
                depth
            };
            if !pv_node && !in_check && quiet && !gives_check && best > -MATE_BOUND {
                // late-move pruning and futility pruning of quiet moves at low depth
                // (the rest of the quiet moves still come: checks among them are searched)
                if (depth <= self.p.lmp_max_depth && quiets_tried.len() >= lmp_limit)
                    || (prune_depth <= self.p.futility_max_depth
                        && eval + self.p.futility_margin * prune_depth <= alpha)
                {
                    // every later quiet move is pruned the same way (alpha only rises)
                    picker.skip_quiet_ordering();
                    self.stats.lmp_futility += 1;
                    continue;
                }
                // history pruning: a quiet move that has failed again and again here
                if self.p.history_prune_margin > 0
                    && prune_depth <= self.p.history_prune_depth
                    && hist < -self.p.history_prune_margin * prune_depth
                    && !picker.is_refutation(m)
                {
                    self.stats.history_pruned += 1;
                    continue;
                }
            }
            // at low depth, skip moves that lose material by static exchange
            let see_depth = if self.p.prune_at_lmr_depth == 1 {
                prune_depth
            } else {
                depth
            };
            if !pv_node
                && !in_check
                && best > -MATE_BOUND
                && see_depth <= self.p.see_prune_max_depth
                && i > 0
            {
                let margin = if quiet {
                    -self.p.see_prune_quiet * see_depth
                } else {
                    -self.p.see_prune_capture * depth * depth
                };
                if !gives_check && !see::see_ge(pos, m, margin) {
                    self.stats.see_pruned += 1;
                    continue;
                }
            }
            // singular extension: when the hash move is much better than every other move
            // (a reduced search without it fails low), search it one ply deeper; when even
            // the others beat beta, cut (multi-cut); when the hash move's bound alone beats
            // beta, search it shallower
            let mut extension = 0;
            if Some(m) == tt_move
                && excluded.is_none()
                && depth >= self.p.se_min_depth
                && ply > 0
                && (ply as i32) < SE_MAX_PLY_PER_ROOT_DEPTH * self.root_depth
                && let Some(e) = entry
                && e.bound != Bound::Upper
                && e.depth >= depth - self.p.se_tt_depth_slack
            {
                let tt_score = score_from_tt(e.score, ply);
                if tt_score.abs() < REPETITION_WIN - MAX_PLY as i32 {
                    let singular_beta = tt_score - self.p.se_margin * depth;
                    self.stats.se_tests += 1;
                    self.excluded[ply] = Some(m);
                    let s = self.search(
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        node.without_pv(),
                    );
                    self.excluded[ply] = None;
                    self.pv[ply].clear();
                    if self.stop.load(Ordering::Relaxed) {
                        return 0;
                    }
                    if s < singular_beta {
                        extension = 1;
                        if !pv_node
                            && s < singular_beta - self.p.se_double_margin
                            && i32::from(self.double_ext[ply]) < self.p.se_double_max
                        {
                            extension = 2;
                            self.double_ext[ply] += 1;
                            self.stats.se_double += 1;
                        } else {
                            self.stats.se_single += 1;
                        }
                    } else if singular_beta >= beta {
                        self.path_dependent = false;
                        self.stats.se_multicut += 1;
                        return singular_beta;
                    } else if tt_score >= beta {
                        extension = -1;
                        self.stats.se_negative += 1;
                    }
                }
            }
            if extension == 0 && self.extends_check(pos, m, gives_check) {
                extension = 1;
                self.stats.ext_check_move += 1;
            }
            self.tt.prefetch(pos.key_after(m));
            pos.make_move(m);
            self.stats.moves += 1;
            let new_depth = depth - 1 + extension;
            let s = if i == 0 {
                -self.search(pos, -beta, -alpha, new_depth, ply + 1, node.child())
            } else {
                let mut r = 0;
                let reducible = if quiet {
                    (!in_check || self.p.lmr_evasions > 0)
                        && (!gives_check || self.p.lmr_checks > 0)
                } else {
                    self.p.lmr_captures > 0 && !in_check && !gives_check
                };
                if reducible && let Some(base) = self.table_reduction(depth, i) {
                    r = base;
                    if gives_check || !quiet {
                        r -= 1;
                    }
                    if pv_node {
                        r -= 1;
                    }
                    if !pv_node && !improving {
                        r += 1;
                    }
                    if node == Node::Cut {
                        r += self.p.lmr_cut_node;
                    }
                    if picker.is_refutation(m) {
                        r -= 1;
                    }
                    r -= hist / self.p.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                    if r > 0 {
                        self.stats.reduced += 1;
                        self.stats.reduction_plies += r as u64;
                    }
                }
                let mut s =
                    -self.search(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, Node::Cut);
                if s > alpha && r > 0 {
                    self.stats.lmr_researches += 1;
                    s = -self.search(
                        pos,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        node.without_pv().child(),
                    );
                }
                if s > alpha && s < beta && pv_node {
                    self.stats.pvs_researches += 1;
                    s = -self.search(pos, -beta, -alpha, new_depth, ply + 1, Node::Pv);
                }
                s
            };
            let child_dependent = self.path_dependent;
            pos.unmake_move();
            if self.stop.load(Ordering::Relaxed) {
                return 0;
            }
            if s > best {
                best = s;
                best_dependent = child_dependent;
                if s > alpha {
                    best_move = Some(m);
                    alpha = s;
                    if pv_node {
                        let child = std::mem::take(&mut self.pv[ply + 1]);
                        self.pv[ply].clear();
                        self.pv[ply].push(m);
                        self.pv[ply].extend_from_slice(&child);
                        self.pv[ply + 1] = child;
                    }
                    if s >= beta {
                        self.stats.cut_nodes += 1;
                        self.stats.first_move_cuts += u64::from(i == 0);
                        let bonus = history::bonus(depth);
                        if quiet {
                            self.reward_quiet(pos, m, &quiets_tried, bonus, ply, &context);
                        } else {
                            self.history.update_capture(pos, m, bonus);
                        }
                        for &c in &captures_tried {
                            self.history.update_capture(pos, c, -bonus);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }
            i += 1;
        }
        if !any_move && excluded.is_some() {
            // only the left-out move: the others are no better than a loss
            return alpha;
        }
        if !any_move {
            // checkmate and stalemate both lose
            return -MATE + ply as i32;
        }
        // the correction history learns from a quiet result whose bound tells which way
        // the evaluation erred
        if self.p.correction_weight != 0
            && !in_check
            && excluded.is_none()
            && !best_dependent
            && best.abs() < REPETITION_WIN - MAX_PLY as i32
            && best_move.is_none_or(|m| pos.piece_on(m.to()).is_none())
            && !(best >= beta && best <= static_eval)
            && !(best <= original_alpha && best >= static_eval)
        {
            let slots = Correction::slots(pos);
            let corrected = raw_eval + self.correction.get(slots, self.p.correction_weight);
            self.correction.update(slots, best - corrected, depth);
        }
        if best <= original_alpha {
            self.stats.all_nodes += 1;
        } else if best < beta {
            self.stats.exact_nodes += 1;
        }
        if !best_dependent && excluded.is_none() {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let evicted = self.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                raw_eval,
                depth,
                bound,
            );
            self.stats.tt_stores += 1;
            self.stats.tt_overwrites += u64::from(evicted);
        }
        self.path_dependent = best_dependent;
        best
    }

    /// ProbCut: off the principal variation, a capture that wins by a margin above beta in
    /// a search four plies shallower (quiescence first, as a cheap filter) is taken to beat
    /// beta at full depth too. Returns the node's score when it cuts.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &mut Position,
        beta: i32,
        depth: i32,
        ply: usize,
        node: Node,
        entry: Option<tt::TtEntry>,
        eval: i32,
        improving: bool,
    ) -> Option<i32> {
        if self.p.probcut_margin == 0
            || node == Node::Pv
            || depth < self.p.probcut_min_depth
            || pos.in_check()
            || self.excluded[ply].is_some()
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let pc_beta =
            beta + self.p.probcut_margin - i32::from(improving) * self.p.probcut_margin / 3;
        if pc_beta >= MATE_BOUND {
            return None;
        }
        // the table already says a search this deep stays below the bar
        if let Some(e) = entry
            && e.depth >= depth - 3
            && e.bound != Bound::Lower
            && score_from_tt(e.score, ply) < pc_beta
        {
            return None;
        }
        self.stats.probcut_tries += 1;
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| pos.is_legal(m));
        let mut picker = MovePicker::new(
            pos,
            PickMode::GoodCaptures,
            tt_move,
            [None; 2],
            None,
            Context::default(),
        );
        while let Some(m) = picker.next(pos, &self.history) {
            if !see::see_ge(pos, m, pc_beta - eval) {
                continue;
            }
            self.tt.prefetch(pos.key_after(m));
            pos.make_move(m);
            let mut s = -self.qsearch(pos, -pc_beta, -pc_beta + 1, ply + 1);
            if s >= pc_beta && !self.stop.load(Ordering::Relaxed) {
                s = -self.search(
                    pos,
                    -pc_beta,
                    -pc_beta + 1,
                    depth - 4,
                    ply + 1,
                    node.child(),
                );
            }
            let dependent = self.path_dependent;
            pos.unmake_move();
            if self.stop.load(Ordering::Relaxed) {
                return Some(0);
            }
            if s >= pc_beta {
                self.stats.probcut_cuts += 1;
                if !dependent {
                    self.tt.store(
                        pos.key(),
                        Some(m),
                        score_to_tt(s, ply),
                        self.raw_evals[ply],
                        depth - 3,
                        Bound::Lower,
                    );
                    self.stats.tt_stores += 1;
                }
                self.path_dependent = dependent;
                // a plain score comes back to beta's side of the margin; mates and rule
                // verdicts stay as they are
                let plain = s.abs() < REPETITION_WIN - MAX_PLY as i32;
                return Some(if plain { s - (pc_beta - beta) } else { s });
            }
        }
        None
    }

    /// The plies a late quiet move is likely to lose to its reduction (the table's, one more
    /// when the node is not improving, one less for a killer or the countermove; at least a
    /// ply is left), known before the move is made: pruning judges it at that depth.
    #[inline]
    fn quiet_reduction_guess(
        &self,
        depth: i32,
        i: usize,
        improving: bool,
        refutation: bool,
    ) -> i32 {
        let Some(base) = self.table_reduction(depth, i) else {
            return 0;
        };
        (base + i32::from(!improving) - i32::from(refutation)).clamp(0, depth - 1)
    }

    /// The late-move reduction table's plies for move number `i` at `depth`, or `None` below
    /// `LmrMinDepth` or before `LmrMinMoves` (no move there is reduced).
    #[inline]
    fn table_reduction(&self, depth: i32, i: usize) -> Option<i32> {
        (depth >= self.p.lmr_min_depth && i >= self.p.lmr_min_moves as usize)
            .then(|| self.lmr[depth.min(63) as usize][i.min(63)])
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        m: Move,
        tried: &[Move],
        bonus: i32,
        ply: usize,
        ctx: &Context,
    ) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        self.history.set_counter(pos, m);
        self.history.update_all(pos, m, ctx, bonus);
        for &q in tried {
            self.history.update_all(pos, q, ctx, -bonus);
        }
    }
}

/// The score of a table entry if its bound settles the window (alpha, beta) at `ply`.
#[inline]
fn tt_cutoff(e: tt::TtEntry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(e.score, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// Is this repetition settled? A position seen once before counts only when that earlier
/// occurrence lies inside the tree (after the root): then both sides chose the cycle within
/// the search and either may be held to it. Seen once before at or before the root, the game
/// has not reached the threefold (24.1) and the side that would lose (or be held to a draw)
/// can still deviate: judging it here would credit a result the opponent need not concede.
/// Seen twice before, it is the threefold.
fn repeats_in_tree_or_thrice(pos: &Position, ply: usize) -> bool {
    let (count, _) = earlier_occurrences(pos);
    if count >= 2 {
        return true;
    }
    let key = pos.key();
    (2..ply).step_by(2).any(|b| pos.key_at(b) == Some(key))
}

/// Does the side to move have a piece besides pawns, advisors and elephants (null move is
/// unsafe in bare endgames, where zugzwang is common)?
fn has_attackers(pos: &Position) -> bool {
    let us = pos.side_to_move();
    [PieceType::Rook, PieceType::Horse, PieceType::Cannon]
        .iter()
        .any(|&t| pos.pieces(us, t).any())
}
