//! Quiescence search: captures (and check evasions) until the position is quiet.

use super::*;

impl Searcher {
    pub(super) fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.path_dependent = false;
        self.pv[ply].clear();
        self.nodes += 1;
        self.stats.qnodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            let eval = self.static_eval(pos);
            return self.adjusted(eval, pos);
        }
        if self.out_of_time() {
            return 0;
        }
        let in_check = pos.in_check();
        let pv_node = beta - alpha > 1;
        let original_alpha = alpha;
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !pv_node
            && let Some(s) = tt_cutoff(e, ply, alpha, beta)
        {
            return s;
        }
        let mut best = -INFINITE;
        let mut stand = -INFINITE;
        let mut raw_eval = -INFINITE;
        if !in_check {
            raw_eval = match entry {
                Some(e) => e.eval,
                None => self.static_eval(pos),
            };
            stand = self.adjusted(raw_eval, pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut best_move = None;
        // captures that lose material by static exchange come last, or not at all
        let mode = if self.p.qs_bad_captures == 0 {
            PickMode::GoodCaptures
        } else {
            PickMode::Captures
        };
        let mut picker = MovePicker::new(
            pos,
            mode,
            entry.and_then(|e| e.mv),
            [None; 2],
            None,
            Context::default(),
        );
        let mut any_move = false;
        while let Some(m) = picker.next(pos, &self.history) {
            any_move = true;
            if !in_check
                && let Some(victim) = pos.piece_on(m.to())
                && stand + MATERIAL_MG[victim.kind().index()] + self.p.delta_margin < alpha
            {
                self.stats.delta_pruned += 1;
                continue;
            }
            self.tt.prefetch(pos.key_after(m));
            pos.make_move(m);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1);
            pos.unmake_move();
            if self.stop.load(Ordering::Relaxed) {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any_move {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let evicted = self
            .tt
            .store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
        self.stats.tt_stores += 1;
        self.stats.tt_overwrites += u64::from(evicted);
        self.path_dependent = false;
        best
    }
}
