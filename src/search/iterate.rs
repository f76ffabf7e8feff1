//! Iterative deepening: the iterations with their aspiration windows, the root move loop, and
//! how settled the search is (which scales the soft time limit).

use super::*;

impl Searcher {
    /// Iterative deepening from `pos`; `report` receives an [`Info`] after each iteration.
    pub fn go(
        &mut self,
        pos: &mut Position,
        limits: Limits,
        mut report: impl FnMut(&Info),
    ) -> SearchResult {
        self.limits = limits;
        self.start = Instant::now();
        self.nodes = 0;
        self.stats = SearchStats::default();
        let mut result = SearchResult::default();
        let mut root: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !self.limits.banned.contains(m))
            .collect();
        if root.is_empty() {
            return result;
        }
        result.best = Some(root[0]);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let lines = self.limits.multipv.clamp(1, root.len());
        let mut scores = vec![0; lines];
        let mut stability = TimeStability::default();
        let mut depth = 0;
        'deepening: loop {
            // the next depth no thread has completed yet: a depth another thread finished
            // is skipped (its results are in the shared table); helpers aim one further
            let done = self.tt.completed_depth();
            depth = (depth + 1).max(done + 1 + self.depth_skew).min(max_depth);
            self.root_depth = depth;
            let mut reports = Vec::with_capacity(lines);
            let (mut fail_lows, mut fail_highs) = (0, 0);
            // the best line a stopped iteration already proved: a root move fully searched
            // at this depth that raised alpha (score, line)
            let mut partial: Option<(i32, Vec<Move>)> = None;
            for k in 0..lines {
                self.seldepth = 0;
                let mut delta = self.p.aspiration_delta;
                let (mut alpha, mut beta) = if depth >= self.p.aspiration_start_depth {
                    (
                        (scores[k] - delta).max(-INFINITE),
                        (scores[k] + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                // line k searches the root moves not already shown in lines 0..k
                let s = loop {
                    let s = self.root_search(pos, &mut root[k..], alpha, beta, depth);
                    if k == 0 && self.root_raised {
                        partial = Some((s, self.pv[0].clone()));
                    }
                    if self.stop.load(Ordering::Relaxed) {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITE);
                        fail_lows += 1;
                    } else if s >= beta {
                        beta = (s + delta).min(INFINITE);
                        fail_highs += 1;
                    } else {
                        break s;
                    }
                    delta += delta / 2;
                };
                if self.stop.load(Ordering::Relaxed) && depth > 1 {
                    // the unfinished iteration is dropped, but a move it already proved
                    // better than the last iteration's best is played (its line reported)
                    if let Some((s, mut pv)) = partial.take()
                        && pv.first().is_some_and(|&m| result.best != Some(m))
                    {
                        if pv.len() == 1 {
                            // a line cut short (a fail-high): the table's reply, if legal,
                            // so that there is still a move to ponder on
                            pos.make_move(pv[0]);
                            if let Some(r) = self.tt.probe(pos.key()).and_then(|e| e.mv)
                                && pos.legal_moves().iter().any(|&m| m == r)
                            {
                                pv.push(r);
                            }
                            pos.unmake_move();
                        }
                        result.best = pv.first().copied();
                        result.ponder = pv.get(1).copied();
                        result.score = s;
                        result.pv = pv.clone();
                        if self.main {
                            report(&Info {
                                multipv: 1,
                                depth,
                                seldepth: self.seldepth as i32,
                                score: s,
                                nodes: self.total_nodes(),
                                time: self.start.elapsed(),
                                pv,
                            });
                        }
                    }
                    break 'deepening;
                }
                scores[k] = s;
                let pv = self.pv[0].clone();
                if k == 0 {
                    // keep the root in the table too (UCCI `probe`, the next search), unless
                    // its score is a rules verdict that depends on the game's path
                    if s.abs() < REPETITION_WIN - MAX_PLY as i32 || s.abs() >= MATE_BOUND {
                        let eval = self.static_eval(pos);
                        let evicted = self.tt.store(
                            pos.key(),
                            pv.first().copied(),
                            score_to_tt(s, 0),
                            eval,
                            depth,
                            Bound::Exact,
                        );
                        self.stats.tt_stores += 1;
                        self.stats.tt_overwrites += u64::from(evicted);
                    }
                    result = SearchResult {
                        best: pv.first().copied().or(result.best),
                        ponder: pv.get(1).copied(),
                        score: s,
                        depth,
                        nodes: self.nodes,
                        pv: pv.clone(),
                        seldepth: self.seldepth as i32,
                        stats: SearchStats::default(),
                    };
                }
                reports.push(Info {
                    multipv: k + 1,
                    depth,
                    seldepth: self.seldepth as i32,
                    score: s,
                    nodes: self.nodes,
                    time: self.start.elapsed(),
                    pv,
                });
            }
            self.tt.record_completed(depth);
            self.stats.iterations.push(Iteration {
                depth,
                nodes: self.nodes,
                time: self.start.elapsed(),
                fail_lows,
                fail_highs,
            });
            if self.main {
                for info in &reports {
                    report(&Info {
                        nodes: self.total_nodes(),
                        time: self.start.elapsed(),
                        ..info.clone()
                    });
                }
            }
            if self.main
                && let Some(soft) = self.limits.soft_time
            {
                // a best move that keeps changing, or a falling score, earns more time; a
                // settled one less (never past the hard limit; a fixed move time is kept)
                let scale = stability.update(&self.p, result.best, scores[0], depth);
                let soft = match self.limits.hard_time {
                    Some(hard) if hard > soft => soft.mul_f64(scale).min(hard),
                    _ => soft,
                };
                if self.start.elapsed() >= soft {
                    break;
                }
            }
            if mate_plies(scores[0]).is_some_and(|n| n.abs() <= depth)
                && self.limits.depth.is_none()
            {
                break;
            }
            if depth >= max_depth {
                if !self.main && self.limits.depth.is_some() {
                    // a helper has the answer at the depth asked for: the search is done
                    self.stop.store(true, Ordering::Relaxed);
                }
                break;
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.stats = std::mem::take(&mut self.stats);
        self.counters.publish(self.slot, self.nodes);
        result
    }

    /// The root: all root moves, best first after each iteration.
    pub(super) fn root_search(
        &mut self,
        pos: &mut Position,
        root: &mut [Move],
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let mut best = -INFINITE;
        let mut best_index = 0;
        self.pv[0].clear();
        self.root_raised = false;
        for (i, &m) in root.iter().enumerate() {
            let extended = self.extends_check(pos, m, pos.gives_check(m));
            self.stats.ext_check_move += u64::from(extended);
            let new_depth = depth - 1 + i32::from(extended);
            pos.make_move(m);
            self.nodes += 1;
            self.stats.root_nodes += 1;
            let s = if i == 0 {
                -self.search(pos, -beta, -alpha, new_depth, 1, Node::Pv)
            } else {
                let mut s = -self.search(pos, -alpha - 1, -alpha, new_depth, 1, Node::Cut);
                if s > alpha && s < beta {
                    s = -self.search(pos, -beta, -alpha, new_depth, 1, Node::Pv);
                }
                s
            };
            pos.unmake_move();
            if self.stop.load(Ordering::Relaxed) && depth > 1 {
                break;
            }
            if s > best {
                best = s;
                best_index = i;
                if s > alpha {
                    alpha = s;
                    self.root_raised = true;
                    let child = std::mem::take(&mut self.pv[1]);
                    self.pv[0].clear();
                    self.pv[0].push(m);
                    self.pv[0].extend_from_slice(&child);
                    self.pv[1] = child;
                }
                if s >= beta {
                    break;
                }
            }
        }
        root[..=best_index].rotate_right(1);
        if self.pv[0].is_empty() {
            self.pv[0].push(root[0]);
        }
        best
    }
}

/// How settled the search is, iteration by iteration: scales the soft time limit.
#[derive(Default)]
pub(super) struct TimeStability {
    best: Option<Move>,
    /// Iterations in a row that kept the best move.
    stable: u32,
    score: Option<i32>,
}

impl TimeStability {
    /// Records an iteration's best move and score; returns the factor for the soft limit.
    pub(super) fn update(
        &mut self,
        p: &Tunables,
        best: Option<Move>,
        score: i32,
        depth: i32,
    ) -> f64 {
        if best == self.best {
            self.stable += 1;
        } else {
            self.stable = 0;
            self.best = best;
        }
        let drop = self
            .score
            .map_or(0, |s| (s - score).clamp(0, p.tm_score_drop_max));
        self.score = Some(score);
        if depth < p.tm_min_depth {
            return 1.0;
        }
        p.tm_stability(self.stable) * (1.0 + drop as f64 / f64::from(p.tm_score_drop_divisor))
    }
}
