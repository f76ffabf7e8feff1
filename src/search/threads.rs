//! The Lazy SMP thread pool: helper threads created once (again only when the `Threads`
//! option changes), each keeping its own [`Searcher`] — histories, killers, countermoves —
//! from one search to the next. The main search runs on the caller's thread; helpers search
//! the same position, sharing the transposition table, until the stop flag is set.

use super::tt::TranspositionTable;
use super::verdicts::VerdictCache;
use super::{Limits, SearchResult, SearchSetup, Searcher};
use crate::core::Position;
use crate::rules::RuleSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

/// The node counts of the search threads while a search runs, each on a cache line of its
/// own (a thread writes only its own slot): the main thread reads their sum to report the
/// nodes of the whole search and to hold a `nodes` limit for all threads together.
pub struct NodeCounters {
    slots: Vec<Slot>,
}

#[repr(align(64))]
#[derive(Default)]
struct Slot(AtomicU64);

impl NodeCounters {
    /// Counters for `threads` threads (slot 0: the main thread).
    pub fn new(threads: usize) -> NodeCounters {
        NodeCounters {
            slots: (0..threads.max(1)).map(|_| Slot::default()).collect(),
        }
    }

    /// Thread `slot` has searched `nodes` nodes in this search.
    pub fn publish(&self, slot: usize, nodes: u64) {
        if let Some(s) = self.slots.get(slot) {
            s.0.store(nodes, Ordering::Relaxed);
        }
    }

    /// Zero for every thread (a new search).
    pub fn reset(&self) {
        for s in &self.slots {
            s.0.store(0, Ordering::Relaxed);
        }
    }

    /// The nodes of all threads, with the caller's own up-to-date count for its slot.
    pub fn total_with(&self, slot: usize, own: u64) -> u64 {
        self.slots
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if i == slot {
                    own
                } else {
                    s.0.load(Ordering::Relaxed)
                }
            })
            .sum()
    }
}

enum Job {
    Search {
        position: Box<Position>,
        limits: Limits,
        setup: Box<SearchSetup>,
    },
    Clear,
}

struct Helper {
    jobs: Sender<Job>,
    done: Receiver<SearchResult>,
    thread: Option<JoinHandle<()>>,
}

/// Helper threads for Lazy SMP (none for one thread).
pub struct ThreadPool {
    helpers: Vec<Helper>,
    busy: bool,
}

impl ThreadPool {
    /// A pool of `n` helper threads (the main search thread is not counted).
    pub fn new(
        n: usize,
        tt: &Arc<TranspositionTable>,
        stop: &Arc<AtomicBool>,
        counters: &Arc<NodeCounters>,
        verdicts: &Arc<VerdictCache>,
        rules: RuleSet,
    ) -> ThreadPool {
        let helpers = (1..=n)
            .map(|id| {
                let (job_tx, job_rx) = channel::<Job>();
                let (done_tx, done_rx) = channel::<SearchResult>();
                let mut searcher = Searcher::new(
                    Arc::clone(tt),
                    Arc::clone(stop),
                    rules,
                    Arc::clone(verdicts),
                    Arc::clone(counters),
                );
                searcher.set_helper(id);
                let thread = std::thread::Builder::new()
                    .name(format!("chariot-helper-{id}"))
                    .spawn(move || {
                        // the loop ends when the pool drops its sender
                        while let Ok(job) = job_rx.recv() {
                            match job {
                                Job::Search {
                                    mut position,
                                    limits,
                                    setup,
                                } => {
                                    searcher.configure(*setup);
                                    let r = searcher.go(&mut position, limits, |_| {});
                                    if done_tx.send(r).is_err() {
                                        break;
                                    }
                                }
                                Job::Clear => searcher.clear(),
                            }
                        }
                    })
                    .ok();
                Helper {
                    jobs: job_tx,
                    done: done_rx,
                    thread,
                }
            })
            .filter(|h| h.thread.is_some())
            .collect();
        ThreadPool {
            helpers,
            busy: false,
        }
    }

    /// Number of helper threads.
    pub fn len(&self) -> usize {
        self.helpers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.helpers.is_empty()
    }

    /// Starts every helper on `position` (helpers have no time limit: they stop with the
    /// stop flag, or at the depth limit; every thread holds the node limit, which counts
    /// all threads' nodes together).
    pub fn start(&mut self, position: &Position, limits: &Limits, setup: &SearchSetup) {
        let helper_limits = Limits {
            soft_time: None,
            hard_time: None,
            ..limits.clone()
        };
        for h in &self.helpers {
            let _ = h.jobs.send(Job::Search {
                position: Box::new(position.clone()),
                limits: helper_limits.clone(),
                setup: Box::new(setup.clone()),
            });
        }
        self.busy = true;
    }

    /// Waits for every helper to finish its search (the caller has set the stop flag) and
    /// returns their results.
    pub fn wait(&mut self) -> Vec<SearchResult> {
        if !self.busy {
            return Vec::new();
        }
        self.busy = false;
        self.helpers
            .iter()
            .filter_map(|h| h.done.recv().ok())
            .collect()
    }

    /// Clears every helper's histories (a new game).
    pub fn clear(&mut self) {
        for h in &self.helpers {
            let _ = h.jobs.send(Job::Clear);
        }
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for h in &mut self.helpers {
            // closing the job channel ends the helper's loop
            let (dead, _) = channel();
            drop(std::mem::replace(&mut h.jobs, dead));
            if let Some(t) = h.thread.take() {
                let _ = t.join();
            }
        }
    }
}
