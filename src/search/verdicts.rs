//! Repetition verdicts shared by the search threads. Judging a repeated cycle (who checks,
//! who chases, under which rule set) costs far more than a node, and the same cycles come
//! up again and again in a search — in every thread of a Lazy SMP search alike. The cache
//! is a fixed-size, lock-free table: one atomic word per slot holding the cycle's signature
//! (with the rule set folded in) and the verdict, so its memory stays bounded however long
//! an analysis runs. A verdict depends only on the positions of the cycle and the rules,
//! so a slot overwritten or torn by another thread only costs a recomputation.

use crate::rules::{GameResult, RuleSet};
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two; 8 bytes each).
const SLOTS: usize = 1 << 16;
/// The low bits of a slot hold the verdict; the rest are the signature's.
const VERDICT_BITS: u64 = 3;

pub struct VerdictCache {
    slots: Vec<AtomicU64>,
}

impl Default for VerdictCache {
    fn default() -> VerdictCache {
        VerdictCache::new()
    }
}

impl VerdictCache {
    pub fn new() -> VerdictCache {
        VerdictCache {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Forgets every verdict.
    pub fn clear(&self) {
        for s in &self.slots {
            s.store(0, Ordering::Relaxed);
        }
    }

    /// The signature under `rules`: the same cycle gets another tag under the other set.
    fn tag(signature: u64, rules: RuleSet) -> u64 {
        match rules {
            RuleSet::Cxa => signature,
            RuleSet::Axf => signature ^ 0x9e37_79b9_7f4a_7c15,
        }
    }

    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[((tag as u128 * SLOTS as u128) >> 64) as usize]
    }

    /// The verdict on the cycle with this signature under `rules`, if known.
    pub fn get(&self, signature: u64, rules: RuleSet) -> Option<GameResult> {
        let tag = Self::tag(signature, rules);
        let word = self.slot(tag).load(Ordering::Relaxed);
        if word & !VERDICT_BITS != tag & !VERDICT_BITS {
            return None;
        }
        match word & VERDICT_BITS {
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::RedWins),
            3 => Some(GameResult::BlackWins),
            _ => None,
        }
    }

    /// Keeps a verdict (a result without a winner is kept as a draw).
    pub fn put(&self, signature: u64, rules: RuleSet, result: GameResult) {
        let tag = Self::tag(signature, rules);
        let code = match result {
            GameResult::RedWins => 2,
            GameResult::BlackWins => 3,
            _ => 1,
        };
        self.slot(tag)
            .store((tag & !VERDICT_BITS) | code, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_round_trip_per_rule_set() {
        let c = VerdictCache::new();
        let sig = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(sig, RuleSet::Cxa), None);
        c.put(sig, RuleSet::Cxa, GameResult::BlackWins);
        assert_eq!(c.get(sig, RuleSet::Cxa), Some(GameResult::BlackWins));
        // the other rule set has not judged this cycle
        assert_eq!(c.get(sig, RuleSet::Axf), None);
        c.put(sig, RuleSet::Axf, GameResult::Draw);
        assert_eq!(c.get(sig, RuleSet::Axf), Some(GameResult::Draw));
        assert_eq!(c.get(sig, RuleSet::Cxa), Some(GameResult::BlackWins));
        // another signature in the same slot is not mistaken for this one
        assert_eq!(c.get(sig ^ (1 << 40), RuleSet::Cxa), None);
        let other = sig.rotate_left(17);
        c.put(other, RuleSet::Cxa, GameResult::RedWins);
        assert_eq!(c.get(other, RuleSet::Cxa), Some(GameResult::RedWins));
        c.clear();
        assert_eq!(c.get(sig, RuleSet::Cxa), None);
        assert_eq!(c.get(other, RuleSet::Cxa), None);
    }
}
