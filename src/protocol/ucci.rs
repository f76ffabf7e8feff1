//! The replies UCCI and UCI share in form and differ in detail: scores (UCCI's bare numbers
//! with mates as ±(10000 − plies), UCI's `score cp` / `score mate`), the optional WDL
//! estimate, and the `info` line built from the search's progress. CECP's own formats are in
//! `cecp/`.

use super::{Dialect, Settings};
use crate::engine::{Info, Score, wdl};

/// A UCCI score: centipawns without `cp`; mates as ±(10000 − plies); rules wins
/// (长将, 长捉) as large non-mate scores.
pub(super) fn ucci_score(score: i32) -> i32 {
    match Score::of(score) {
        Score::Mate(n) if n > 0 => 10000 - n,
        Score::Mate(n) => -10000 - n,
        Score::RulesDecided(won) => {
            if won {
                9900
            } else {
                -9900
            }
        }
        Score::Centipawns(cp) => cp.clamp(-9800, 9800),
    }
}

pub(super) fn info_line(info: &Info, st: &Settings) -> String {
    let score = match (Score::of(info.score).mate_moves(), st.dialect) {
        (Some(n), Dialect::Uci) => format!("score mate {n}"),
        (None, Dialect::Uci) => format!("score cp {}", info.score.clamp(-19999, 19999)),
        (_, _) => format!("score {}", ucci_score(info.score)),
    };
    let wdl_text = if st.show_wdl && st.dialect == Dialect::Uci {
        let (w, d, l) = wdl(info.score);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let multipv = if st.multipv > 1 {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let ms = info.time.as_millis();
    let nps = info.nodes as u128 * 1000 / ms.max(1);
    format!(
        "info depth {} seldepth {}{multipv} {score}{wdl_text} time {ms} nodes {} nps {nps} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_both_dialects() {
        // the protocol sees no search constants: find the raw scores the engine reads as
        // a mate in 3 plies, mated in 4, and a rules win
        let mate_in = |plies: i32| (1..40_000).find(|&s| Score::of(s) == Score::Mate(plies));
        let mated_in = |plies: i32| (1..40_000).find(|&s| Score::of(-s) == Score::Mate(-plies));
        let rules_win = (1..40_000).find(|&s| Score::of(s) == Score::RulesDecided(true));
        assert_eq!(ucci_score(mate_in(3).unwrap()), 9997);
        assert_eq!(ucci_score(-mated_in(4).unwrap()), -9996);
        assert_eq!(ucci_score(rules_win.unwrap()), 9900);
        assert_eq!(ucci_score(-rules_win.unwrap()), -9900);
        assert_eq!(ucci_score(123), 123);
        let (w, d, l) = wdl(0);
        assert_eq!(w, l);
        assert_eq!(w + d + l, 1000);
        let (w, _, l) = wdl(600);
        assert!(w > 750 && l < 30, "{w} {l}");
    }
}
