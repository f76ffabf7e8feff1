//! The shape of a search tree: what each pruning, reduction and extension did, how often
//! the first move cut, how the table served, and what each iteration cost. Every search
//! thread counts into its own [`SearchStats`] (plain integers, no atomics: a count is an add
//! on a line the thread already owns), and `chariot bench --tree` prints them, so a loss of
//! strength at long time controls can be traced to the technique that grows or starves the
//! tree.

use std::time::Duration;

/// One finished iteration of the main thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Iteration {
    pub depth: i32,
    /// Nodes searched by this thread since the search began, at the iteration's end.
    pub nodes: u64,
    /// Time since the search began, at the iteration's end.
    pub time: Duration,
    /// Aspiration windows that failed low and high in this iteration (each a re-search).
    pub fail_lows: u32,
    pub fail_highs: u32,
}

/// Counts of one search thread, from the start of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Main-search nodes (depth > 0) and quiescence nodes.
    pub nodes: u64,
    pub qnodes: u64,
    /// Root moves made (the search counts each as a node too).
    pub root_nodes: u64,
    /// Nodes whose side to move was in check and were extended for it (`CheckExtension 1`),
    /// and moves extended because they check at the parent (`CheckExtension 2`).
    pub ext_in_check: u64,
    pub ext_check_move: u64,
    /// Singular extension: tests made, moves extended by one and by two plies, multi-cuts,
    /// and hash moves searched shallower (negative extension).
    pub se_tests: u64,
    pub se_single: u64,
    pub se_double: u64,
    pub se_multicut: u64,
    pub se_negative: u64,
    /// Transposition table: probes in the main search, hits, cut-offs by a hit; stores and
    /// stores that evicted another position's entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub tt_stores: u64,
    pub tt_overwrites: u64,
    /// Node-level pruning: razoring tried and cut, reverse futility cuts, null-move searches
    /// and their cut-offs (verification failures among them), internal iterative reductions.
    pub razor_tries: u64,
    pub razor_cuts: u64,
    /// ProbCut: nodes that tried it, and those it cut.
    pub probcut_tries: u64,
    pub probcut_cuts: u64,
    pub rfp_cuts: u64,
    pub nmp_tries: u64,
    pub nmp_cuts: u64,
    pub nmp_verify_fails: u64,
    pub iir: u64,
    /// Move-level pruning: quiet moves skipped by late-move and futility pruning, by history,
    /// and moves skipped by static exchange; quiescence captures skipped by delta pruning.
    pub lmp_futility: u64,
    pub history_pruned: u64,
    pub see_pruned: u64,
    pub delta_pruned: u64,
    /// Moves searched in the main search, those searched reduced, the plies taken off in
    /// all, reduced moves that beat alpha and were searched again at full depth, and
    /// zero-window searches of PV nodes re-searched with the full window.
    pub moves: u64,
    pub reduced: u64,
    pub reduction_plies: u64,
    pub lmr_researches: u64,
    pub pvs_researches: u64,
    /// Nodes of the main search that ended in a beta cut-off, and those where the first
    /// move searched made it.
    pub cut_nodes: u64,
    pub first_move_cuts: u64,
    /// Nodes that found no move above alpha (fail-low nodes) and PV nodes with an exact score.
    pub all_nodes: u64,
    pub exact_nodes: u64,
    /// Repetitions judged by the rules (a verdict looked up or computed).
    pub repetitions: u64,
    /// Each finished iteration of the main thread.
    pub iterations: Vec<Iteration>,
}

impl SearchStats {
    /// Adds another thread's counts (its iterations are left out: the report's iterations
    /// are the main thread's).
    pub fn add(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.qnodes += o.qnodes;
        self.root_nodes += o.root_nodes;
        self.ext_in_check += o.ext_in_check;
        self.ext_check_move += o.ext_check_move;
        self.se_tests += o.se_tests;
        self.se_single += o.se_single;
        self.se_double += o.se_double;
        self.se_multicut += o.se_multicut;
        self.se_negative += o.se_negative;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_stores += o.tt_stores;
        self.tt_overwrites += o.tt_overwrites;
        self.razor_tries += o.razor_tries;
        self.razor_cuts += o.razor_cuts;
        self.probcut_tries += o.probcut_tries;
        self.probcut_cuts += o.probcut_cuts;
        self.rfp_cuts += o.rfp_cuts;
        self.nmp_tries += o.nmp_tries;
        self.nmp_cuts += o.nmp_cuts;
        self.nmp_verify_fails += o.nmp_verify_fails;
        self.iir += o.iir;
        self.lmp_futility += o.lmp_futility;
        self.history_pruned += o.history_pruned;
        self.see_pruned += o.see_pruned;
        self.delta_pruned += o.delta_pruned;
        self.moves += o.moves;
        self.reduced += o.reduced;
        self.reduction_plies += o.reduction_plies;
        self.lmr_researches += o.lmr_researches;
        self.pvs_researches += o.pvs_researches;
        self.cut_nodes += o.cut_nodes;
        self.first_move_cuts += o.first_move_cuts;
        self.all_nodes += o.all_nodes;
        self.exact_nodes += o.exact_nodes;
        self.repetitions += o.repetitions;
    }

    /// Effective branching factor of each iteration after the first: nodes of iteration d
    /// over nodes of iteration d − 1 (each iteration's own nodes, not the running total).
    pub fn branching_factors(&self) -> Vec<(i32, f64)> {
        let mut out = Vec::new();
        let mut before = 0u64;
        let mut last: Option<u64> = None;
        for it in &self.iterations {
            let own = it.nodes.saturating_sub(before);
            if let Some(prev) = last
                && prev > 0
            {
                out.push((it.depth, own as f64 / prev as f64));
            }
            last = Some(own);
            before = it.nodes;
        }
        out
    }
}

/// `part / whole` as a percentage (0 when `whole` is 0).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The geometric mean of positive numbers (`None` for none).
pub fn geometric_mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u32);
    for x in xs {
        if x > 0.0 {
            sum += x.ln();
            n += 1;
        }
    }
    (n > 0).then(|| (sum / f64::from(n)).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iter(depth: i32, nodes: u64) -> Iteration {
        Iteration {
            depth,
            nodes,
            ..Iteration::default()
        }
    }

    #[test]
    fn branching_factors_divide_each_iterations_own_nodes() {
        let s = SearchStats {
            iterations: vec![iter(1, 10), iter(2, 40), iter(3, 130)],
            ..SearchStats::default()
        };
        // own nodes 10, 30, 90
        assert_eq!(s.branching_factors(), vec![(2, 3.0), (3, 3.0)]);
    }

    #[test]
    fn adding_sums_counts_and_keeps_its_own_iterations() {
        let mut a = SearchStats {
            nodes: 5,
            cut_nodes: 2,
            iterations: vec![iter(1, 5)],
            ..SearchStats::default()
        };
        let b = SearchStats {
            nodes: 7,
            first_move_cuts: 1,
            iterations: vec![iter(1, 7)],
            ..SearchStats::default()
        };
        a.add(&b);
        assert_eq!((a.nodes, a.cut_nodes, a.first_move_cuts), (12, 2, 1));
        assert_eq!(a.iterations, vec![iter(1, 5)]);
    }

    #[test]
    fn means_and_shares() {
        assert_eq!(percent(1, 4), 25.0);
        assert_eq!(percent(1, 0), 0.0);
        let g = geometric_mean([2.0, 8.0]).expect("two numbers");
        assert!((g - 4.0).abs() < 1e-12);
        assert!(geometric_mean([]).is_none());
    }
}
