//! Every search margin, reduction and limit in one place. Those worth tuning are in the
//! [`TUNABLES`] table (default, range, SPSA step), read by the search from a [`Tunables`]
//! value; the rest are constants.

/// Score of a mate at the root; a mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 512;
/// A repetition won or lost by the rules (长将, 长捉, …) scores like a distant mate.
pub const REPETITION_WIN: i32 = MATE - 1024;
pub const INFINITE: i32 = 32000;
pub const DRAW: i32 = 0;
pub const MAX_PLY: usize = 128;

/// No singular extension beyond this many plies per ply of the iteration's depth: lines
/// extended again and again (and table entries from deeper searches, which trigger more
/// extensions — Lazy SMP) would otherwise grow without end in endgames of few moves.
pub const SE_MAX_PLY_PER_ROOT_DEPTH: i32 = 2;

/// Capture ordering: most valuable victim (×8 SEE value) plus capture history over this.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// History scores stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16384;
/// History bonus (and penalty) of a cutoff at `depth`: SLOPE × depth − OFFSET, within
/// 1..=MAX — a deep cutoff moves a score by a fifth of HISTORY_MAX, so the tables follow
/// what the search learns now rather than summing everything since the game began.
pub const HISTORY_BONUS_SLOPE: i32 = 300;
pub const HISTORY_BONUS_OFFSET: i32 = 200;
pub const HISTORY_BONUS_MAX: i32 = 3500;

/// The clock is read after this many ticks (a node is one tick, judging a repetition cycle
/// `TICKS_PER_VERDICT`), besides every 1024 nodes.
pub const TIME_CHECK_TICKS: u32 = 1024;
pub const TICKS_PER_VERDICT: u32 = 128;

/// One tunable search parameter: its option name, default, range and SPSA perturbation
/// (the `c` of the last iteration, in the parameter's units).
pub struct Tunable {
    pub name: &'static str,
    /// The field of [`Tunables`] (for printing new table lines).
    pub field: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: f64,
    pub get: fn(&Tunables) -> i32,
    pub set: fn(&mut Tunables, i32),
}

macro_rules! tunables {
    ($( $(#[doc = $doc:literal])* $field:ident $name:literal = $default:literal,
        $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// The search's tunable numbers: [`Tunables::DEFAULT`] is what Chariot plays with;
        /// tuning (SPSA) sets others through the engine.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Tunables {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl Tunables {
            pub const DEFAULT: Tunables = Tunables { $( $field: $default, )* };
        }

        /// Every tunable, in the order of [`Tunables`]' fields.
        pub const TUNABLES: &[Tunable] = &[ $(
            Tunable {
                name: $name,
                field: stringify!($field),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                get: |t| t.$field,
                set: |t, v| t.$field = v,
            },
        )* ];
    };
}

tunables! {
    /// Aspiration window: half-width, and the depth from which the window is used.
    aspiration_delta "AspirationDelta" = 28, 8 ..= 60, step 3.0;
    aspiration_start_depth "AspirationStartDepth" = 5, 3 ..= 8, step 1.0;
    /// Reverse futility pruning: margin per ply, depth limit.
    rfp_margin "RfpMargin" = 113, 40 ..= 200, step 8.0;
    rfp_max_depth "RfpMaxDepth" = 6, 3 ..= 10, step 1.0;
    /// Razoring: up to `razor_max_depth`, a node whose static eval is more than
    /// `razor_margin × depth²` below alpha asks quiescence search, and returns its result
    /// when that stays below alpha; margin 0: no razoring.
    razor_margin "RazorMargin" = 0, 0 ..= 600, step 20.0;
    razor_max_depth "RazorMaxDepth" = 3, 1 ..= 6, step 1.0;
    /// Null-move pruning: minimum depth, base reduction and depth divisor.
    nmp_min_depth "NmpMinDepth" = 3, 2 ..= 5, step 1.0;
    nmp_base "NmpBase" = 3, 1 ..= 5, step 1.0;
    nmp_divisor "NmpDivisor" = 4, 2 ..= 8, step 1.0;
    /// From this depth on a null-move cutoff is verified with a reduced normal search.
    nmp_verify_depth "NmpVerifyDepth" = 10, 6 ..= 16, step 1.0;
    /// The null move is reduced one ply more per this much static eval above beta (at most
    /// `nmp_eval_max` plies more).
    nmp_eval_divisor "NmpEvalDivisor" = 248, 80 ..= 400, step 20.0;
    nmp_eval_max "NmpEvalMax" = 3, 1 ..= 6, step 1.0;
    /// SEE pruning at low depth (non-PV, not in check): a quiet move must not lose more
    /// than `see_prune_quiet × depth`, a capture more than `see_prune_capture × depth²`.
    see_prune_max_depth "SeePruneMaxDepth" = 6, 3 ..= 10, step 1.0;
    see_prune_quiet "SeePruneQuiet" = 54, 20 ..= 150, step 6.0;
    see_prune_capture "SeePruneCapture" = 26, 5 ..= 60, step 3.0;
    /// Late-move reductions: minimum depth and move number; the table's
    /// `base + ln(depth)·ln(move)/divisor`, both in hundredths.
    lmr_min_depth "LmrMinDepth" = 3, 2 ..= 5, step 1.0;
    lmr_min_moves "LmrMinMoves" = 3, 1 ..= 6, step 1.0;
    lmr_base "LmrBase" = 61, 0 ..= 150, step 8.0;
    lmr_divisor "LmrDivisor" = 202, 120 ..= 400, step 15.0;
    /// Extra reduction at expected cut nodes (zero-window nodes whose parent expects to
    /// fail high: a late move there is very likely refuted).
    lmr_cut_node "LmrCutNode" = 2, 0 ..= 4, step 1.0;
    /// A quiet move's history (plus continuation histories) over this reduces it one ply
    /// less.
    lmr_history_divisor "LmrHistoryDivisor" = 8577, 2048 ..= 32768, step 600.0;
    /// Late-move pruning: quiet moves beyond `(lmp_base + depth²)` (halved unless
    /// improving) are skipped up to `lmp_max_depth`.
    lmp_max_depth "LmpMaxDepth" = 4, 2 ..= 8, step 1.0;
    lmp_base "LmpBase" = 3, 1 ..= 10, step 1.0;
    /// History pruning: up to `history_prune_depth`, a late quiet move (not a check, not a
    /// killer or the countermove) whose history (plus continuation histories) is below
    /// `−history_prune_margin × depth` is skipped; margin 0: none is.
    history_prune_margin "HistoryPruneMargin" = 1217, 0 ..= 12000, step 400.0;
    history_prune_depth "HistoryPruneDepth" = 3, 1 ..= 8, step 1.0;
    /// 1: late captures are reduced too (one ply less than quiet moves; not in check, not
    /// checks); 0: captures are never reduced.
    lmr_captures "LmrCaptures" = 0, 0 ..= 1, step 1.0;
    /// 1: late quiet evasions of a check are reduced like other quiet moves; 0: nothing is
    /// reduced in check.
    lmr_evasions "LmrEvasions" = 0, 0 ..= 1, step 1.0;
    /// Futility pruning of quiet moves at low depth: margin per ply, depth limit.
    futility_margin "FutilityMargin" = 117, 40 ..= 250, step 8.0;
    futility_max_depth "FutilityMaxDepth" = 5, 2 ..= 9, step 1.0;
    /// 1: futility, history and static-exchange pruning of a quiet move judge it at the
    /// depth its late-move reduction would leave (the table's reduction off the node's depth),
    /// so late quiet moves of deep nodes can be pruned too; 2: futility and history pruning
    /// so, static-exchange pruning at the node's depth (a static exchange costs more than the
    /// other two tests); 0: all three at the node's depth.
    prune_at_lmr_depth "PruneAtLmrDepth" = 0, 0 ..= 2, step 1.0;
    /// ProbCut: from `probcut_min_depth` on, at a node off the principal variation, a
    /// capture that wins at least `beta + probcut_margin` (less a third of the margin when
    /// improving) in a search four plies shallower cuts the node; margin 0: no ProbCut.
    probcut_margin "ProbcutMargin" = 0, 0 ..= 500, step 20.0;
    probcut_min_depth "ProbcutMinDepth" = 5, 3 ..= 8, step 1.0;
    /// 1: razoring, reverse futility, null move, ProbCut and futility pruning judge a node
    /// by its table score instead of its static evaluation when the entry's bound says the
    /// evaluation is too low (lower bound above it), too high (upper bound below it), or
    /// the score is exact; 0: by the static evaluation alone.
    tt_eval "TtEval" = 0, 0 ..= 1, step 1.0;
    /// Internal iterative reduction: the depth from which a node without a hash move
    /// searches one ply less.
    iir_min_depth "IirMinDepth" = 4, 2 ..= 8, step 1.0;
    /// Singular extensions: minimum depth, how much shallower the hash entry may be, the
    /// margin below the hash score per ply, the extra margin for a double extension and
    /// the most double extensions on one line.
    se_min_depth "SeMinDepth" = 7, 4 ..= 12, step 1.0;
    se_tt_depth_slack "SeTtDepthSlack" = 3, 1 ..= 6, step 1.0;
    se_margin "SeMargin" = 3, 1 ..= 8, step 1.0;
    se_double_margin "SeDoubleMargin" = 44, 10 ..= 120, step 5.0;
    se_double_max "SeDoubleMax" = 6, 0 ..= 12, step 1.0;
    /// The check extension: 0 none; 1 every node in check is searched a ply deeper; 2 a
    /// checking move that does not lose material by static exchange is searched a ply
    /// deeper (a losing check is not extended). None by default: mode 1 was worth 65 Elo at
    /// 20,000 nodes a move (generation 2's net), nothing at 10 s + 0.1 s and cost 51 at 30 s +
    /// 0.3 s (generation 8b): checks are frequent in xiangqi, and extending them widens the
    /// tree the more the deeper the search goes (docs/search.md).
    check_extension "CheckExtension" = 0, 0 ..= 2, step 1.0;
    /// 1: late quiet moves that give check are reduced too, one ply less than other quiet
    /// moves; 0: they are never reduced.
    lmr_checks "LmrChecks" = 0, 0 ..= 1, step 1.0;
    /// How much smaller (per cent) the evaluation is when the plies without a capture
    /// reach the 60-move limit, shrinking linearly from none after a capture; 0: the
    /// evaluation ignores the count.
    move_limit_damping "MoveLimitDamping" = 33, 0 ..= 80, step 5.0;
    /// How much of the correction history (what searches found the evaluation to miss in
    /// positions of the same pawn structure and material, `correction.rs`) is added to the
    /// evaluation, per cent; 0: none (and none is learnt).
    correction_weight "CorrectionWeight" = 73, 0 ..= 200, step 10.0;
    /// Quiescence delta pruning margin.
    delta_margin "DeltaMargin" = 151, 50 ..= 400, step 15.0;
    /// 1: quiescence search also tries the captures that lose material by static exchange
    /// (after the others); 0: it leaves them out (not in check: every evasion is tried).
    qs_bad_captures "QsBadCaptures" = 1, 0 ..= 1, step 1.0;
    /// Time management: from depth `tm_min_depth` on, the soft limit (when no new
    /// iteration starts) is scaled by how many iterations in a row kept the best move (0,
    /// 1, 2, 3, 4 or more: percentages) and by how far the score fell since the last
    /// iteration (up to `tm_score_drop_max`, +100 % per divisor).
    tm_min_depth "TmMinDepth" = 6, 3 ..= 10, step 1.0;
    tm_stable0 "TmStable0" = 180, 100 ..= 300, step 10.0;
    tm_stable1 "TmStable1" = 140, 80 ..= 220, step 10.0;
    tm_stable2 "TmStable2" = 110, 60 ..= 180, step 8.0;
    tm_stable3 "TmStable3" = 90, 50 ..= 150, step 6.0;
    tm_stable4 "TmStable4" = 75, 40 ..= 130, step 5.0;
    tm_score_drop_max "TmScoreDropMax" = 150, 50 ..= 400, step 15.0;
    tm_score_drop_divisor "TmScoreDropDivisor" = 300, 100 ..= 800, step 30.0;
    /// Time allocation (`time.rs`): with no moves to go given, the soft limit is the time
    /// left over `tm_moves` plus `tm_increment` per cent of the increment; the hard limit
    /// is `tm_hard` per cent of the soft one and never more than the time left over
    /// `tm_hard_divisor`. Fixed-node SPSA cannot see them: tune them with games on a clock.
    tm_moves "TmMoves" = 30, 10 ..= 60, step 3.0;
    tm_increment "TmIncrement" = 75, 0 ..= 100, step 8.0;
    tm_hard "TmHard" = 300, 120 ..= 600, step 30.0;
    tm_hard_divisor "TmHardDivisor" = 3, 2 ..= 8, step 1.0;
}

impl Default for Tunables {
    fn default() -> Tunables {
        Tunables::DEFAULT
    }
}

impl Tunables {
    /// The tunable called `name` (any case).
    pub fn find(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Sets a tunable by name, refusing unknown names and values out of range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let t = Tunables::find(name).ok_or_else(|| format!("no tunable named '{name}'"))?;
        if !(t.min..=t.max).contains(&value) {
            return Err(format!(
                "{} {value} is outside {}..={}",
                t.name, t.min, t.max
            ));
        }
        (t.set)(self, value);
        Ok(())
    }

    /// The soft time limit's scale after `stable` iterations that kept the best move.
    pub fn tm_stability(&self, stable: u32) -> f64 {
        let pct = match stable {
            0 => self.tm_stable0,
            1 => self.tm_stable1,
            2 => self.tm_stable2,
            3 => self.tm_stable3,
            _ => self.tm_stable4,
        };
        f64::from(pct) / 100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_struct_agree() {
        let mut t = Tunables::DEFAULT;
        let mut names = std::collections::HashSet::new();
        for (i, p) in TUNABLES.iter().enumerate() {
            assert!(
                names.insert(p.name.to_ascii_lowercase()),
                "{} twice",
                p.name
            );
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(
                p.step > 0.0 && p.step <= f64::from(p.max - p.min),
                "{}",
                p.name
            );
            assert_eq!((p.get)(&t), p.default, "{}", p.name);
            // each setter moves its own field and no other
            let v = if p.default < p.max {
                p.default + 1
            } else {
                p.default - 1
            };
            t.set(&p.name.to_ascii_lowercase(), v).unwrap();
            for (j, q) in TUNABLES.iter().enumerate() {
                let want = if j == i { v } else { q.default };
                assert_eq!((q.get)(&t), want, "setting {} moved {}", p.name, q.name);
            }
            t = Tunables::DEFAULT;
        }
        assert!(t.set("RfpMargin", 1000).is_err());
        assert!(t.set("NoSuchThing", 1).is_err());
        assert_eq!(t, Tunables::DEFAULT);
    }

    #[test]
    fn time_stability_scale_matches_the_percentages() {
        let t = Tunables::DEFAULT;
        assert_eq!(t.tm_stability(0), 1.8);
        assert_eq!(t.tm_stability(4), 0.75);
        assert_eq!(t.tm_stability(9), 0.75);
    }
}
