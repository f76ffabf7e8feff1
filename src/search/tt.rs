//! The transposition table: shared by all search threads without locks. Each entry is two
//! atomic words, `key ^ data` and `data`; a reader that sees a torn pair (another thread
//! wrote one word in between) finds a key mismatch and ignores the entry. Buckets of four
//! entries fill one 64-byte cache line. The size is the `Hash` option in MiB, exactly.

use crate::core::Move;
use std::sync::atomic::{AtomicI32, AtomicU8, AtomicU64, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// A decoded entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[repr(align(64))]
struct Bucket {
    words: [AtomicU64; 8],
}

const ENTRIES: usize = 4;
const DEPTH_OFFSET: i32 = 8;

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
    /// The deepest iteration any thread has completed in the current search: the threads
    /// share the table, so they learn here which depths need no more work (Lazy SMP).
    completed: AtomicI32,
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, Move::bits) as u64;
    let s = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let e = (eval.clamp(-32767, 32767) as i16 as u16) as u64;
    let d = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | ((generation & 0x3f) as u64) << 58
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        TtEntry {
            mv: Move::from_bits(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
            bound,
        },
        (data >> 58) as u8,
    )
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> TranspositionTable {
        let n = (mib.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, || Bucket {
            words: Default::default(),
        });
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            completed: AtomicI32::new(0),
        }
    }

    /// A one-bucket table: a stand-in while a table is being replaced.
    pub fn tiny() -> TranspositionTable {
        TranspositionTable {
            buckets: vec![Bucket {
                words: Default::default(),
            }],
            generation: AtomicU8::new(0),
            completed: AtomicI32::new(0),
        }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.words {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.completed.store(0, Ordering::Relaxed);
    }

    /// The deepest iteration completed so far in this search, by any thread.
    pub fn completed_depth(&self) -> i32 {
        self.completed.load(Ordering::Relaxed)
    }

    /// A thread completed an iteration of `depth`.
    pub fn record_completed(&self, depth: i32) {
        self.completed.fetch_max(depth, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the CPU to bring `key`'s bucket into cache ahead of a probe (a hint: it changes
    /// nothing a probe or store sees, and does nothing on other architectures).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch never faults and writes nothing; the address is a live
            // bucket of this table, and SSE (which has the instruction) is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..ENTRIES {
            let data = b.words[2 * i + 1].load(Ordering::Relaxed);
            let check = b.words[2 * i].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a search result; returns whether it evicted another position's entry (the
    /// search's tree report counts them).
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) -> bool {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..ENTRIES {
            let data = b.words[2 * i + 1].load(Ordering::Relaxed);
            let check = b.words[2 * i].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                if data != 0 {
                    let (old, _) = unpack(data);
                    // keep a deeper entry of the same position unless this one is exact
                    if bound != Bound::Exact && depth + 2 < old.depth {
                        return false;
                    }
                    // keep the old move when the new search found none
                    let mv = mv.or(old.mv);
                    let new = pack(mv, score, eval, depth, bound, generation);
                    b.words[2 * i].store(key ^ new, Ordering::Relaxed);
                    b.words[2 * i + 1].store(new, Ordering::Relaxed);
                    return false;
                }
                victim = i;
                break;
            }
            let (old, g) = unpack(data);
            let age = (generation.wrapping_sub(g) & 0x3f) as i32;
            let worth = old.depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        let evicted = b.words[2 * victim + 1].load(Ordering::Relaxed) != 0;
        let new = pack(mv, score, eval, depth, bound, generation);
        b.words[2 * victim].store(key ^ new, Ordering::Relaxed);
        b.words[2 * victim + 1].store(new, Ordering::Relaxed);
        evicted
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3f;
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for i in 0..ENTRIES {
                let data = b.words[2 * i + 1].load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    #[test]
    fn completed_depth_is_the_deepest_of_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.completed_depth(), 0);
        tt.record_completed(5);
        tt.record_completed(3);
        assert_eq!(tt.completed_depth(), 5);
        tt.new_search();
        assert_eq!(tt.completed_depth(), 0);
        tt.record_completed(2);
        assert_eq!(tt.completed_depth(), 2);
    }

    #[test]
    fn a_store_says_when_it_evicts_another_position() {
        let tt = TranspositionTable::new(1);
        // keys with the same top bits share a bucket
        let key = |i: u64| (7u64 << 56) | i;
        for i in 0..ENTRIES as u64 {
            assert!(
                !tt.store(key(i), None, 0, 0, 5, Bound::Exact),
                "free slot {i}"
            );
        }
        assert!(
            !tt.store(key(0), None, 1, 0, 6, Bound::Exact),
            "same position"
        );
        assert!(
            tt.store(key(99), None, 0, 0, 5, Bound::Exact),
            "a full bucket evicts"
        );
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.size_bytes(), 1024 * 1024);
        let m = Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
        tt.store(0xdead_beef, m, -1234, 56, 7, Bound::Lower);
        let e = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (m, -1234, 56, 7, Bound::Lower)
        );
        assert!(tt.probe(0xdead_bee0).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }
}
