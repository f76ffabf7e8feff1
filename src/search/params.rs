//! Every search margin, reduction and limit in one place, so they can be tuned.

/// Score of a mate at the root; a mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 512;
/// A repetition won or lost by the rules (长将, 长捉, …) scores like a distant mate.
pub const REPETITION_WIN: i32 = MATE - 1024;
pub const INFINITE: i32 = 32000;
pub const DRAW: i32 = 0;
pub const MAX_PLY: usize = 128;

/// Aspiration window half-width at depth 5 and beyond, and how it widens.
pub const ASPIRATION_START_DEPTH: i32 = 5;
pub const ASPIRATION_DELTA: i32 = 24;

/// Reverse futility pruning: margin per ply, depth limit.
pub const RFP_MARGIN: i32 = 90;
pub const RFP_MAX_DEPTH: i32 = 6;

/// Null-move pruning: minimum depth, base reduction and depth divisor.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DIVISOR: i32 = 4;
/// From this depth on a null-move cutoff is verified with a reduced normal search.
pub const NMP_VERIFY_DEPTH: i32 = 10;
/// The null move is reduced one ply more per this much static eval above beta (at most
/// `NMP_EVAL_MAX` plies more).
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;

/// SEE pruning at low depth (non-PV, not in check): a quiet move must not lose more than
/// `SEE_PRUNE_QUIET * depth`, a capture more than `SEE_PRUNE_CAPTURE * depth²`.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
pub const SEE_PRUNE_QUIET: i32 = 60;
pub const SEE_PRUNE_CAPTURE: i32 = 25;

/// Late-move reductions: minimum depth and move number, scale (in 1/100 ply).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
pub const LMR_BASE: f64 = 0.6;
pub const LMR_DIVISOR: f64 = 2.2;
/// Extra reduction at expected cut nodes (zero-window nodes whose parent expects to fail
/// high: a late move there is very likely refuted).
pub const LMR_CUT_NODE: i32 = 2;
/// A quiet move's history (plus continuation histories) over this reduces it one ply less.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Late-move pruning: quiet moves beyond `LMP_BASE + depth²` are skipped at low depth.
pub const LMP_MAX_DEPTH: i32 = 4;
pub const LMP_BASE: usize = 4;

/// Futility pruning of quiet moves at low depth: margin per ply.
pub const FUTILITY_MARGIN: i32 = 110;
pub const FUTILITY_MAX_DEPTH: i32 = 5;

/// Internal iterative reduction: depth from which a node without a hash move searches one
/// ply less.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: minimum depth, how much shallower the hash entry may be, the
/// margin below the hash score per ply, the extra margin for a double extension and the
/// most double extensions on one line.
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_TT_DEPTH_SLACK: i32 = 3;
pub const SE_MARGIN: i32 = 3;
pub const SE_DOUBLE_MARGIN: i32 = 40;
pub const SE_DOUBLE_MAX: u8 = 6;
/// No singular extension beyond this many plies per ply of the iteration's depth: lines
/// extended again and again (and table entries from deeper searches, which trigger more
/// extensions — Lazy SMP) would otherwise grow without end in endgames of few moves.
pub const SE_MAX_PLY_PER_ROOT_DEPTH: i32 = 2;

/// Capture ordering: most valuable victim (×8 SEE value) plus capture history over this.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 150;

/// History scores stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16384;
/// History bonus (and penalty) of a cutoff at `depth`: SLOPE × depth − OFFSET, within
/// 1..=MAX — a deep cutoff moves a score by a fifth of HISTORY_MAX, so the tables follow
/// what the search learns now rather than summing everything since the game began.
pub const HISTORY_BONUS_SLOPE: i32 = 300;
pub const HISTORY_BONUS_OFFSET: i32 = 200;
pub const HISTORY_BONUS_MAX: i32 = 3500;

/// Does quiescence search also try the captures that lose material by static exchange?
pub const QS_BAD_CAPTURES: bool = true;

/// Time management: the soft limit (when no new iteration starts) is scaled by how many
/// iterations in a row kept the best move (0, 1, 2, … from the table) and by how far the
/// score fell since the last iteration (up to `TM_SCORE_DROP_MAX`, +1 per divisor), from
/// depth `TM_MIN_DEPTH` on.
pub const TM_MIN_DEPTH: i32 = 6;
pub const TM_STABILITY_SCALE: [f64; 5] = [1.8, 1.4, 1.1, 0.9, 0.75];
pub const TM_SCORE_DROP_MAX: i32 = 150;
pub const TM_SCORE_DROP_DIVISOR: f64 = 300.0;

/// The clock is read after this many ticks (a node is one tick, judging a repetition cycle
/// `TICKS_PER_VERDICT`), besides every 1024 nodes.
pub const TIME_CHECK_TICKS: u32 = 1024;
pub const TICKS_PER_VERDICT: u32 = 128;
