//! Unit tests of the search: time stability, helpers and node limits, stopped iterations, the
//! move limit's damping, correction history, pruning switches.

use super::iterate::TimeStability;
use super::*;

/// A stability record whose best move `m` (score 10) held from depth 1 to
/// `tm_min_depth + 6`, and the scale of its last iteration.
fn settled(m: Move) -> (TimeStability, f64) {
    let p = Tunables::DEFAULT;
    let mut t = TimeStability::default();
    let scale = (1..=p.tm_min_depth + 6).fold(1.0, |_, d| t.update(&p, Some(m), 10, d));
    (t, scale)
}

/// A hand-crafted-evaluation searcher with its own table, playing with `params`.
fn searcher(params: Tunables) -> (Searcher, Arc<TranspositionTable>) {
    searcher_sharing(
        params,
        Arc::new(AtomicBool::new(false)),
        Arc::new(NodeCounters::new(1)),
    )
}

/// [`searcher`] with the stop flag and node counters it shares with other threads.
fn searcher_sharing(
    params: Tunables,
    stop: Arc<AtomicBool>,
    counters: Arc<NodeCounters>,
) -> (Searcher, Arc<TranspositionTable>) {
    let tt = Arc::new(TranspositionTable::new(4));
    let mut s = Searcher::new(
        Arc::clone(&tt),
        stop,
        RuleSet::Cxa,
        Arc::new(VerdictCache::new()),
        counters,
    );
    s.configure(SearchSetup {
        tt: Arc::clone(&tt),
        rules: RuleSet::Cxa,
        net: None,
        params,
    });
    (s, tt)
}

/// Asserts that the table holds the raw evaluation of every child of `pos` it stored
/// (not in check), and counts those for which `differs(child, raw)` says the search's
/// evaluation differs (so the assertion could tell the two apart).
fn stored_children_keep_raw_evals(
    pos: &mut Position,
    tt: &TranspositionTable,
    differs: impl Fn(&Position, i32) -> bool,
) -> usize {
    let mut differing = 0;
    for &m in pos.legal_moves().iter() {
        pos.make_move(m);
        if let Some(entry) = tt.probe(pos.key())
            && !pos.in_check()
        {
            let raw = evaluate(pos);
            assert_eq!(entry.eval, raw, "after {m}");
            differing += usize::from(differs(pos, raw));
        }
        pos.unmake_move();
    }
    differing
}

#[test]
fn a_helper_thread_holds_the_node_limit_while_the_main_thread_waits() {
    // the main thread (slot 0) has published 100,000 nodes and then, waiting for a core,
    // checks nothing: the helper alone must stop the search at the shared limit
    let stop = Arc::new(AtomicBool::new(false));
    let counters = Arc::new(NodeCounters::new(2));
    counters.publish(0, 100_000);
    let (mut helper, _) =
        searcher_sharing(Tunables::DEFAULT, Arc::clone(&stop), Arc::clone(&counters));
    helper.set_helper(1);
    let mut pos = Position::from_fen(crate::core::START_FEN).unwrap();
    let limit = 150_000;
    let r = helper.go(
        &mut pos,
        Limits {
            nodes: Some(limit),
            depth: Some(16),
            ..Limits::default()
        },
        |_| {},
    );
    assert!(
        stop.load(Ordering::Relaxed),
        "the helper raised the stop flag"
    );
    let total = counters.total_with(1, r.nodes);
    assert!(
        (limit..limit + 1024).contains(&total),
        "{total} nodes for a limit of {limit} ({} by the helper)",
        r.nodes
    );
}

#[test]
fn a_stopped_iteration_plays_a_move_it_already_proved_better_and_reports_its_line() {
    // node limits stop the search inside an iteration; whatever it plays, its last
    // report must show the move played, and where the unfinished iteration had already
    // proved another move better than the last complete one, that move is played
    let mut adopted = 0;
    for fen in crate::core::samples::POSITIONS.iter().take(16) {
        for limit in [4_000, 9_000, 20_000, 45_000] {
            let (mut s, _) = searcher(Tunables::DEFAULT);
            let mut pos = Position::from_fen(fen).unwrap();
            let mut infos: Vec<Info> = Vec::new();
            let r = s.go(
                &mut pos,
                Limits {
                    nodes: Some(limit),
                    ..Limits::default()
                },
                |info| infos.push(info.clone()),
            );
            let last = infos.last().expect("at least one iteration reported");
            assert_eq!(last.pv.first().copied(), r.best, "{fen} at {limit} nodes");
            assert!(pos.legal_moves().iter().any(|&m| Some(m) == r.best));
            if last.depth > r.depth {
                // the report of a stopped iteration: its move differs from the
                // best of the last complete iteration, which it beat at a greater depth
                let complete = infos
                    .iter()
                    .rev()
                    .find(|i| i.depth == r.depth)
                    .expect("the last complete iteration was reported");
                assert_ne!(complete.pv.first().copied(), r.best, "{fen} at {limit}");
                assert_eq!(last.depth, r.depth + 1);
                adopted += 1;
            }
        }
    }
    assert!(
        adopted > 0,
        "no stopped iteration changed the move in 64 searches"
    );
}

#[test]
fn the_eval_shrinks_toward_the_move_limit_but_the_table_keeps_it_whole() {
    let board = "3akab2/9/2n1b4/p1p1p1p1p/9/9/P1P1P1P1P/4B4/4A4/2NAK1B2 w - -";
    let at = |plies: u32| Position::from_fen(&format!("{board} {plies} 1")).unwrap();
    let (off, _) = searcher(Tunables {
        move_limit_damping: 0,
        ..Tunables::DEFAULT
    });
    let (half, tt) = searcher(Tunables {
        move_limit_damping: 50,
        ..Tunables::DEFAULT
    });
    let e = 400;
    assert_eq!(off.damped(e, &at(100)), e, "0 turns it off");
    assert_eq!(half.damped(e, &at(0)), e, "nothing after a capture");
    assert_eq!(half.damped(e, &at(60)), 300, "a quarter off halfway");
    assert_eq!(half.damped(e, &at(120)), 200, "half off at the limit");
    assert_eq!(half.damped(-e, &at(150)), -200, "no more past it");
    // the hash table keeps the undamped evaluation of the positions it searched
    let mut half = half;
    let mut pos = at(100);
    half.go(
        &mut pos,
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
        |_| {},
    );
    let checked = stored_children_keep_raw_evals(&mut pos, &tt, |child, whole| {
        half.damped(whole, child) != whole
    });
    assert!(
        checked > 0,
        "no stored position had a damped eval to tell apart"
    );
}

#[test]
fn the_correction_history_learns_only_when_on_and_the_table_keeps_raw_evals() {
    let depth = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let mut pos = Position::from_fen(crate::core::START_FEN).unwrap();
    let (mut off, _) = searcher(Tunables {
        correction_weight: 0,
        ..Tunables::DEFAULT
    });
    off.go(&mut pos, depth(6), |_| {});
    assert_eq!(off.correction.learnt(), 0);
    let (mut on, tt) = searcher(Tunables {
        correction_weight: 100,
        ..Tunables::DEFAULT
    });
    on.go(&mut pos, depth(6), |_| {});
    assert!(on.correction.learnt() > 0);
    let corrected =
        stored_children_keep_raw_evals(&mut pos, &tt, |child, _| on.correction_of(child) != 0);
    assert!(corrected > 0, "no stored position had a correction");
    on.clear();
    assert_eq!(on.correction.learnt(), 0, "a new game forgets");
}

#[test]
fn the_pruning_and_reduction_switches_change_the_tree_and_keep_the_moves_legal() {
    // nodes of fixed-depth searches of bench positions, each with a fresh searcher
    let nodes = |params: Tunables| -> u64 {
        crate::core::samples::POSITIONS[..10]
            .iter()
            .map(|fen| {
                let mut pos = Position::from_fen(fen).unwrap();
                let (mut s, _) = searcher(params);
                let r = s.go(
                    &mut pos,
                    Limits {
                        depth: Some(8),
                        ..Limits::default()
                    },
                    |_| {},
                );
                assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{fen}");
                r.nodes
            })
            .sum()
    };
    let base = nodes(Tunables::DEFAULT);
    // few nodes have late quiet evasions, and reducing them can cost re-searches; either
    // check extension (the node in check, or a safe check at the parent) deepens some lines
    // and lets others end in quiescence; the table's score for pruning can prune more or
    // less: these four are only checked to change the search
    for (name, params) in [
        (
            "LmrEvasions",
            Tunables {
                lmr_evasions: 1,
                ..Tunables::DEFAULT
            },
        ),
        (
            "CheckExtension 1",
            Tunables {
                check_extension: 1,
                ..Tunables::DEFAULT
            },
        ),
        (
            "CheckExtension 2",
            Tunables {
                check_extension: 2,
                ..Tunables::DEFAULT
            },
        ),
        (
            "TtEval",
            Tunables {
                tt_eval: 1,
                ..Tunables::DEFAULT
            },
        ),
    ] {
        assert_ne!(nodes(params), base, "{name} changed nothing");
    }
    // pruning by history is on by default: its switch is checked against the search
    // without it
    let no_history_pruning = nodes(Tunables {
        history_prune_margin: 0,
        ..Tunables::DEFAULT
    });
    assert!(
        base < no_history_pruning,
        "HistoryPruneMargin: {base} nodes, {no_history_pruning} without"
    );
    for (name, params) in [
        (
            "LmrCaptures",
            Tunables {
                lmr_captures: 1,
                ..Tunables::DEFAULT
            },
        ),
        (
            "PruneAtLmrDepth 1",
            Tunables {
                prune_at_lmr_depth: 1,
                ..Tunables::DEFAULT
            },
        ),
        (
            "PruneAtLmrDepth 2",
            Tunables {
                prune_at_lmr_depth: 2,
                ..Tunables::DEFAULT
            },
        ),
        (
            "RazorMargin",
            Tunables {
                razor_margin: 200,
                ..Tunables::DEFAULT
            },
        ),
        (
            "ProbcutMargin",
            Tunables {
                probcut_margin: 200,
                ..Tunables::DEFAULT
            },
        ),
        (
            "QsBadCaptures",
            Tunables {
                qs_bad_captures: 0,
                ..Tunables::DEFAULT
            },
        ),
    ] {
        let n = nodes(params);
        assert!(n < base, "{name}: {n} nodes, {base} without");
    }
}

#[test]
fn unsettled_searches_get_more_time_settled_ones_less() {
    let a = Move::parse_iccs("h2e2").unwrap();
    let b = Move::parse_iccs("b0c2").unwrap();
    let p = Tunables::DEFAULT;
    // shallow iterations leave the limit alone
    assert_eq!(TimeStability::default().update(&p, Some(a), 10, 1), 1.0);
    let (mut t, scale) = settled(a);
    assert!(scale < 1.0, "a best move kept for many iterations: {scale}");
    let changed = t.update(&p, Some(b), 10, p.tm_min_depth + 7);
    assert!(changed > 1.0, "a new best move: {changed}");
    let (mut u, _) = settled(a);
    let fell = u.update(&p, Some(a), -140, p.tm_min_depth + 7);
    assert!(
        fell > scale,
        "a falling score earns time: {fell} vs {scale}"
    );
}
