//! The engine facade: the one door through which the protocol loop and the command-line
//! tools reach search and rules. It owns the game (position with its history), the
//! transposition table, the options, and the stop flag that `stop` sets from any thread.

use crate::core::{FenError, Move, Position};
use crate::rules::RuleSet;
use crate::search::tt::TranspositionTable;
use crate::search::{Info, Limits, SearchResult, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Options a GUI may set.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mib: usize,
    pub threads: usize,
    pub rules: RuleSet,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 16,
            threads: 1,
            rules: RuleSet::Cxa,
        }
    }
}

pub struct Engine {
    options: Options,
    tt: Arc<TranspositionTable>,
    position: Position,
    stop: Arc<AtomicBool>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Options::default())
    }
}

impl Engine {
    pub fn new(options: Options) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mib)),
            options,
            position: Position::startpos(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Resizes the table (clearing it) when the size changes.
    pub fn set_hash(&mut self, mib: usize) {
        if mib != self.options.hash_mib {
            self.options.hash_mib = mib.max(1);
            self.tt = Arc::new(TranspositionTable::new(self.options.hash_mib));
        }
    }

    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.clamp(1, 256);
    }

    pub fn set_rules(&mut self, rules: RuleSet) {
        self.options.rules = rules;
    }

    /// Forgets everything learned (new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Sets the game: a FEN (or the start position) and the moves played since. On an
    /// illegal move the position stays at the last legal one and the error names the ply.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let start = match fen {
            Some(f) => Position::from_fen(f).map_err(|e: FenError| e.to_string())?,
            None => Position::startpos(),
        };
        self.position = start;
        for (i, text) in moves.iter().enumerate() {
            match Move::parse_iccs(text).filter(|&m| self.position.is_legal(m)) {
                Some(m) => self.position.make_move(m),
                None => return Err(format!("move {} '{text}' is illegal or malformed", i + 1)),
            }
        }
        Ok(())
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// What the transposition table holds for `pos` (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<crate::search::tt::TtEntry> {
        self.tt.probe(pos.key())
    }

    /// The shared table, for answering `probe` while a search runs (the table is lock-free).
    /// A new handle is needed after [`Engine::set_hash`] resizes it.
    pub fn table(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// A handle that stops the running search from another thread.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Searches the current position (blocking) with Lazy SMP over `threads` threads; the
    /// main thread reports progress and gives the result.
    pub fn go(&mut self, limits: Limits, on_info: impl FnMut(&Info)) -> SearchResult {
        self.stop.store(false, Ordering::Relaxed);
        self.search(limits, on_info)
    }

    /// [`Engine::go`] without clearing the stop flag first: for a caller that cleared it
    /// before handing the search to another thread, so that a `stop` arriving before the
    /// search starts is not lost.
    pub fn search(&mut self, limits: Limits, mut on_info: impl FnMut(&Info)) -> SearchResult {
        self.tt.new_search();
        let threads = self.options.threads;
        let rules = self.options.rules;
        let tt = &*self.tt;
        let stop = &*self.stop;
        let position = &self.position;
        std::thread::scope(|scope| {
            for id in 1..threads {
                let mut pos = position.clone();
                let helper_limits = Limits {
                    nodes: None,
                    soft_time: None,
                    hard_time: None,
                    ..limits.clone()
                };
                scope.spawn(move || {
                    let mut s = Searcher::new(tt, stop, rules);
                    s.set_helper(id);
                    s.go(&mut pos, helper_limits, |_| {});
                });
            }
            let mut pos = position.clone();
            let mut main = Searcher::new(tt, stop, rules);
            let result = main.go(&mut pos, limits, &mut on_info);
            stop.store(true, Ordering::Relaxed);
            result
        })
    }
}
