//! Playing strength below full: `Skill Level` 0–19 (20 is full strength).
//!
//! A weaker level should play like a weaker player, not like a strong engine that now and
//! then throws a piece away. Two things make a player weaker, and a level turns both:
//! - **how far it sees**: the search gets a node budget that doubles every 1.6 levels
//!   (500 nodes at level 0, about what one ply with its captures costs, a look that misses
//!   every quiet threat, to about two million at level 19), so its mistakes are the ones a
//!   shallow look makes;
//! - **how sure its judgement is**: the search reports its best few lines (MultiPV), and the
//!   move is drawn among them with a weight that falls with the line's loss against the best
//!   (`exp(-loss / T)`, `T` from 250 cp at level 0 and 120 cp at level 4 to 8 cp at level
//!   19), never a line that loses more than a cap (from 500 cp at level 0 and 243 cp at level
//!   4 to 30 cp at level 19) or into a mate; a
//!   mate the search found, for or against, is played out exactly.
//!
//! Fractional levels interpolate every figure, so a rating scale maps onto the ladder
//! smoothly: `UCI_LimitStrength` with `UCI_Elo` picks the level whose measured rating is the
//! one asked for ([`level_for_elo`], [`RATED_LEVELS`]).

use crate::core::Move;
use crate::search::mate_plies;

/// Full strength.
pub const MAX_LEVEL: f64 = 20.0;

/// The ladder's ratings, measured by matches (docs/strength.md, "Strength levels"): (level,
/// Elo) on a scale anchored at **ElephantEye 3.31 at its default settings = 2000** (10 s +
/// 0.1 s, one thread). Fitted by `scripts/ladder-fit.py` (maximum likelihood over every
/// ladder game, then made monotone); strictly increasing in both columns.
pub const RATED_LEVELS: &[(f64, f64)] = &[
    (0.0, 238.0),
    (1.0, 288.0),
    (2.0, 506.0),
    (3.0, 534.0),
    (4.0, 725.0),
    (5.0, 946.0),
    (6.0, 1052.0),
    (7.0, 1253.0),
    (8.0, 1360.0),
    (9.0, 1523.0),
    (10.0, 1622.0),
    (12.0, 1935.0),
    (14.0, 2213.0),
    (16.0, 2316.0),
    (18.0, 2500.0),
    (20.0, 2743.0),
];

/// The lowest `UCI_Elo` (the weakest level's rating, rounded down to tens: level 0).
pub const ELO_MIN: i64 = 230;
/// The highest `UCI_Elo` (full strength's rating, rounded up to tens: level 20).
pub const ELO_MAX: i64 = 2750;

/// The level (fractional) whose rating is `elo`, interpolating [`RATED_LEVELS`] linearly;
/// ratings outside the table give its end levels.
pub fn level_for_elo(elo: f64) -> f64 {
    let (first, last) = (RATED_LEVELS[0], RATED_LEVELS[RATED_LEVELS.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    if elo >= last.1 {
        return last.0;
    }
    for w in RATED_LEVELS.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0);
        }
    }
    last.0
}

/// What a level does to a search and to the choice of its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkillPlan {
    /// Node budget of the search (the smaller of this and the GUI's limits).
    pub nodes: u64,
    /// Lines searched to choose from (the GUI still sees only the MultiPV it asked for).
    pub lines: usize,
    /// Softness of the choice, in centipawns.
    pub temperature: f64,
    /// Lines losing more than this against the best are never chosen.
    pub max_loss: i32,
}

/// The plan of a level in 0..20 (clamped).
pub fn plan(level: f64) -> SkillPlan {
    let l = level.clamp(0.0, MAX_LEVEL - 1.0);
    // below level 4 the search barely grows (500 to 2,830 nodes, one or two plies), and
    // levels 0 and 1, 2 and 3 measured alike (49-2-49 and 44-4-52 over 100 games); their
    // choice loosens instead, more the lower the level, up to a 250 cp temperature and a
    // 500 cp cap at level 0 (a minor piece can be dropped, a rook not)
    let low = (4.0 - l).max(0.0) / 4.0;
    SkillPlan {
        nodes: (500.0 * 2f64.powf(l / 1.6)).round() as u64,
        lines: 4,
        temperature: 150.0 - (150.0 - 8.0) * l / 19.0 + 100.0 * low,
        max_loss: (300.0 - (300.0 - 30.0) * l / 19.0 + 200.0 * low).round() as i32,
    }
}

/// One line the search reported: its first move and score (side to move's view).
#[derive(Clone, Debug)]
pub struct Line {
    pub pv: Vec<Move>,
    pub score: i32,
}

/// Picks the index of the line to play, `r` uniform in [0, 1). The best line is always
/// among the candidates; a line beyond the plan's loss cap or into a mate is never chosen,
/// and when the best line is a mate (won or lost) it is played.
pub fn choose(lines: &[Line], plan: &SkillPlan, r: f64) -> usize {
    let Some(best) = lines.iter().map(|l| l.score).max() else {
        return 0;
    };
    if mate_plies(best).is_some() {
        // a forced mate, won or lost, is played out exactly
        return lines.iter().position(|l| l.score == best).unwrap_or(0);
    }
    let weight = |l: &Line| -> f64 {
        let loss = best - l.score;
        if l.pv.is_empty() || loss > plan.max_loss || mate_plies(l.score).is_some() {
            return 0.0;
        }
        (-(loss as f64) / plan.temperature.max(1e-6)).exp()
    };
    let weights: Vec<f64> = lines.iter().map(weight).collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return lines.iter().position(|l| l.score == best).unwrap_or(0);
    }
    let mut x = r.clamp(0.0, 1.0 - f64::EPSILON) * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    fn lines(scores: &[i32]) -> Vec<Line> {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Line {
                pv: vec![moves.as_slice()[i]],
                score,
            })
            .collect()
    }

    #[test]
    fn plans_weaken_monotonically_with_the_level() {
        for l in 0..19 {
            let (a, b) = (plan(l as f64), plan(l as f64 + 1.0));
            assert!(a.nodes < b.nodes, "level {l}");
            assert!(a.temperature > b.temperature, "level {l}");
            assert!(a.max_loss > b.max_loss, "level {l}");
        }
        assert!(plan(0.0).nodes == 500 && plan(19.0).nodes > 1_000_000);
        assert_eq!(plan(-3.0), plan(0.0));
    }

    #[test]
    fn ratings_map_onto_the_ladder_monotonically() {
        for w in RATED_LEVELS.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
        let (first, last) = (RATED_LEVELS[0], RATED_LEVELS[RATED_LEVELS.len() - 1]);
        assert!(first.0 == 0.0 && last.0 == MAX_LEVEL);
        assert!(ELO_MIN as f64 <= first.1 && (ELO_MIN as f64) > first.1 - 10.0);
        assert!(ELO_MAX as f64 >= last.1 && (ELO_MAX as f64) < last.1 + 10.0);
        assert_eq!(level_for_elo(ELO_MIN as f64), 0.0);
        assert_eq!(level_for_elo(ELO_MAX as f64), MAX_LEVEL);
        let mut prev = -1.0;
        for elo in first.1.ceil() as i64..=last.1.floor() as i64 {
            let l = level_for_elo(elo as f64);
            assert!(l > prev, "UCI_Elo {elo} gives level {l}, not above {prev}");
            prev = l;
        }
        // every knot maps back to its level; the ends clamp
        for &(l, e) in RATED_LEVELS {
            assert!((level_for_elo(e) - l).abs() < 1e-9);
        }
        assert_eq!(level_for_elo(-5000.0), 0.0);
        assert_eq!(level_for_elo(9999.0), MAX_LEVEL);
    }

    #[test]
    fn the_choice_keeps_to_the_cap_and_favours_the_better_lines() {
        let p = plan(0.0);
        let ls = lines(&[50, 20, -240, -600]);
        let mut counts = [0usize; 4];
        for k in 0..1000 {
            counts[choose(&ls, &p, (k as f64 + 0.5) / 1000.0)] += 1;
        }
        assert_eq!(
            counts[3], 0,
            "a line 650 cp worse than the best is beyond level 0's cap"
        );
        assert!(
            counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0,
            "{counts:?}"
        );
        // at level 19 a line 100 cp worse is never chosen
        let strong = plan(19.0);
        for k in 0..100 {
            assert_ne!(choose(&lines(&[30, -70]), &strong, k as f64 / 100.0), 1);
        }
    }

    #[test]
    fn a_mate_the_best_line_avoids_is_never_walked_into() {
        let p = plan(0.0);
        let mated = -crate::search::params::MATE + 5;
        for k in 0..100 {
            assert_eq!(choose(&lines(&[-250, mated]), &p, k as f64 / 100.0), 0);
        }
        // when every line is mated, the longest resistance is played; a mate found is played
        assert_eq!(choose(&lines(&[mated - 2, mated]), &p, 0.3), 1);
        assert_eq!(choose(&lines(&[0, -mated, 100]), &p, 0.9), 1);
    }
}
