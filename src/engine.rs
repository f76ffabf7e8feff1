//! The engine facade: the one door through which the protocol loop and the command line
//! reach search, book and rules. It owns the game (position with its history), the
//! transposition table, the options, the opening book, and the stop flag that `stop` sets
//! from any thread. The types a front end needs (limits, info, results, scores, clocks) are
//! exported from here, so neither `protocol` nor `cli` imports `search` or `book` itself;
//! the bulk tools above (`tools`: tuning, book growing, data generation) may reach below it.
//! The bench ([`bench`](mod@bench)), a fixed search through this door, lives here so that the
//! protocol and the command line can both run it.

pub mod bench;
mod book;
mod score;
pub mod skill;

pub use crate::search::stats::{Iteration, SearchStats};
pub use crate::search::time::Clock;
pub use crate::search::{Info, Limits, SearchResult};
pub use book::{BookChoice, BookMove};
pub use score::{Score, wdl};

use crate::core::{FenError, Move, Position};
use crate::eval::nnue::{self, format::Network};
use crate::rules::RuleSet;
pub use crate::rules::{EndKind, GameResult, Verdict};
pub use crate::search::params::{TUNABLES, Tunable, Tunables};
use crate::search::threads::{NodeCounters, ThreadPool};
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::verdicts::VerdictCache;
use crate::search::{SearchSetup, Searcher};
use book::BookState;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// The main search thread's state (it runs on the caller's thread).
    main: Searcher,
    /// Lazy SMP helpers: `threads - 1` long-lived threads.
    pool: ThreadPool,
    /// The node counts of the running search's threads (slot 0: the main thread).
    counters: Arc<NodeCounters>,
    /// Repetition verdicts, shared by all threads.
    verdicts: Arc<VerdictCache>,
    /// The loaded net (the embedded one unless `EvalFile` named another).
    net: Arc<Network>,
    /// Where the loaded net came from: empty for the embedded net.
    net_file: String,
    /// Evaluate with the net (`UseNNUE`), or with the hand-crafted evaluation.
    use_nnue: bool,
    book: BookState,
    /// The search's tunable numbers (the defaults unless a tuner set others).
    params: Tunables,
    /// Playing strength: `Skill Level` (20: full).
    skill_level: f64,
    /// `UCI_LimitStrength` with `UCI_Elo`: the rating asked for, which overrides the level.
    elo_limit: Option<f64>,
    /// Draws the weaker levels' moves.
    skill_rng: crate::book::Rng,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(Options::default())
    }
}

impl Engine {
    pub fn new(options: Options) -> Engine {
        let tt = Arc::new(TranspositionTable::new(options.hash_mib));
        let stop = Arc::new(AtomicBool::new(false));
        let threads = options.threads.clamp(1, MAX_THREADS);
        let counters = Arc::new(NodeCounters::new(threads));
        let verdicts = Arc::new(VerdictCache::new());
        Engine {
            main: Searcher::new(
                Arc::clone(&tt),
                Arc::clone(&stop),
                options.rules,
                Arc::clone(&verdicts),
                Arc::clone(&counters),
            ),
            pool: ThreadPool::new(threads - 1, &tt, &stop, &counters, &verdicts, options.rules),
            counters,
            verdicts,
            tt,
            options: Options { threads, ..options },
            position: Position::startpos(),
            stop,
            net: Arc::clone(&nnue::EMBEDDED),
            net_file: String::new(),
            use_nnue: true,
            book: BookState::new(),
            params: Tunables::DEFAULT,
            skill_level: skill::MAX_LEVEL,
            elo_limit: None,
            skill_rng: crate::book::Rng::from_time(),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Resizes the table (clearing it) when the size changes.
    /// Callers holding a [`Engine::table_reader`] handle should drop it first: the old table is
    /// freed before the new one is allocated, so memory never holds both.
    pub fn set_hash(&mut self, mib: usize) {
        if mib != self.options.hash_mib {
            self.options.hash_mib = mib.max(1);
            // let go of the old table everywhere (the helpers hold handles too)
            let tiny = Arc::new(TranspositionTable::tiny());
            self.main.set_table(Arc::clone(&tiny));
            self.tt = tiny;
            self.pool = self.helpers(0);
            self.tt = Arc::new(TranspositionTable::new(self.options.hash_mib));
            self.main.set_table(Arc::clone(&self.tt));
            self.pool = self.helpers(self.options.threads - 1);
        }
    }

    /// Sets the number of search threads; the helper threads are created here, once.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        if n != self.options.threads || self.pool.len() + 1 != n {
            self.options.threads = n;
            self.counters = Arc::new(NodeCounters::new(n));
            self.main.set_counters(Arc::clone(&self.counters));
            self.pool = self.helpers(n - 1);
        }
    }

    /// `n` new helper threads sharing this engine's table, stop flag, counters and verdicts
    /// (the old pool, if any, is dropped by the caller's assignment: its threads end).
    fn helpers(&self, n: usize) -> ThreadPool {
        ThreadPool::new(
            n,
            &self.tt,
            &self.stop,
            &self.counters,
            &self.verdicts,
            self.options.rules,
        )
    }

    /// Evaluate with the net (true, the default) or with the hand-crafted evaluation. The
    /// table is cleared when this changes: the evaluations it holds came from the other.
    pub fn set_use_nnue(&mut self, on: bool) {
        if on != self.use_nnue {
            self.use_nnue = on;
            self.tt.clear();
        }
    }

    pub fn use_nnue(&self) -> bool {
        self.use_nnue
    }

    /// Loads the net of `EvalFile`: a path, or empty (or `<embedded>`) for the shipped net.
    /// On an error the net in use stays. Returns a description of the net now in use.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        let path = path.trim();
        let (net, name) = if path.is_empty() || path == "<empty>" || path == "<embedded>" {
            (Arc::clone(&nnue::EMBEDDED), String::new())
        } else {
            let net = nnue::load_file(std::path::Path::new(path))?;
            (Arc::new(net), path.to_string())
        };
        if !Arc::ptr_eq(&net, &self.net) {
            self.net = net;
            self.net_file = name;
            self.tt.clear();
        }
        Ok(self.eval_description())
    }

    /// Chooses the evaluation from a command-line word: `hce` (hand-crafted), `nnue` (the
    /// net loaded, the embedded one by default) or a net file's path.
    pub fn set_eval(&mut self, spec: &str) -> Result<String, String> {
        match spec.trim() {
            "hce" => {
                self.set_use_nnue(false);
                Ok(self.eval_description())
            }
            "" | "nnue" => {
                self.set_use_nnue(true);
                Ok(self.eval_description())
            }
            path => {
                self.set_eval_file(path)?;
                self.set_use_nnue(true);
                Ok(self.eval_description())
            }
        }
    }

    /// The evaluation in use, in words (`info string` replies, `chariot bench`).
    pub fn eval_description(&self) -> String {
        let from = if self.net_file.is_empty() {
            "the embedded net".to_string()
        } else {
            self.net_file.clone()
        };
        if !self.use_nnue {
            return format!("hand-crafted evaluation (UseNNUE is off; the net loaded: {from})");
        }
        let buckets = if self.net.buckets > 1 {
            format!(", {} material output buckets", self.net.buckets)
        } else {
            String::new()
        };
        let scale = if self.net.scale != crate::eval::nnue::format::SCALE {
            format!(", output scale {}", self.net.scale)
        } else {
            String::new()
        };
        format!(
            "NNUE evaluation, {from} (810 inputs, {} hidden{buckets}{scale})",
            self.net.hidden
        )
    }

    /// The static evaluation of the current position (side to move's view) with the
    /// evaluation in use.
    pub fn static_eval(&self) -> i32 {
        match self.active_net() {
            Some(net) => nnue::evaluate_full(&net, &self.position),
            None => crate::eval::evaluate(&self.position),
        }
    }

    /// The net the search evaluates with, or `None` for the hand-crafted evaluation.
    fn active_net(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| Arc::clone(&self.net))
    }

    pub fn set_rules(&mut self, rules: RuleSet) {
        self.options.rules = rules;
    }

    /// Forgets everything learned (new game): the table, the repetition verdicts and every
    /// thread's histories.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.verdicts.clear();
        self.main.clear();
        self.pool.clear();
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

    /// The rules' verdict on the game as it stands (mate, stalemate, a repetition ruling,
    /// the 60-move limit, insufficient material, or that it goes on) under the rule set in
    /// use: the same judge the match runner and `chariot judge` use.
    pub fn verdict(&self) -> Verdict {
        crate::rules::adjudicate(&self.position, self.options.rules)
    }

    /// What the transposition table holds for `pos` (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<HashEntry> {
        self.table_reader().probe(pos)
    }

    /// A reader of the shared table, for answering `probe` while a search holds the engine
    /// (the table is lock-free). A new reader is needed after [`Engine::set_hash`] resizes
    /// the table; drop the old one first, so memory never holds both tables.
    pub fn table_reader(&self) -> TableReader {
        TableReader(Arc::clone(&self.tt))
    }

    /// Sets one of the search's tunable numbers (tuning only: GUIs are not shown them),
    /// refusing unknown names and values out of the parameter's range.
    pub fn set_tunable(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.params.set(name, value)
    }

    /// The search's tunable numbers in use.
    pub fn tunables(&self) -> &Tunables {
        &self.params
    }

    /// Switches the opening book on or off (`usebook`); switching it on loads the books.
    /// Returns warnings (a file that cannot be read, no book found).
    pub fn set_use_book(&mut self, on: bool) -> Vec<String> {
        self.book.set_on(on)
    }

    pub fn use_book(&self) -> bool {
        self.book.is_on()
    }

    /// Names the book files (`bookfiles`: `;`-separated; empty or `<empty>` for the shipped
    /// book), loaded now if the book is on. Returns warnings.
    pub fn set_book_files(&mut self, files: &str) -> Vec<String> {
        self.book.set_files(files)
    }

    /// How randomly book moves are chosen: none, tiny, small, medium, large or huge.
    pub fn set_book_randomness(&mut self, level: &str) -> Result<(), String> {
        self.book.set_randomness(level)
    }

    /// The book's move in the current position, avoiding `banned` (and moves that return to
    /// a position of the game), with every move the book offered; `None` when the book is
    /// off or has nothing playable here.
    pub fn book_move(&mut self, banned: &[Move]) -> Option<BookChoice> {
        self.book.choose(&self.position, banned)
    }

    /// `Skill Level`: 0 (weakest) to 20 (full strength, the default).
    pub fn set_skill_level(&mut self, level: u8) {
        self.skill_level = f64::from(level).min(skill::MAX_LEVEL);
    }

    /// `UCI_LimitStrength` / `UCI_Elo`: play at the level rated `elo` on the ladder's scale
    /// ([`skill::RATED_LEVELS`], clamped to its range); `None` goes back to `Skill Level`.
    pub fn set_elo_limit(&mut self, elo: Option<i64>) {
        self.elo_limit = elo.map(|e| e.clamp(skill::ELO_MIN, skill::ELO_MAX) as f64);
    }

    /// The level played at (20: full strength): `UCI_Elo`'s level when strength is limited,
    /// else `Skill Level`.
    pub fn strength_level(&self) -> f64 {
        self.elo_limit
            .map_or(self.skill_level, skill::level_for_elo)
    }

    /// Seeds the draw of the weaker levels' moves (for reproducible games; by default it is
    /// seeded from the clock).
    pub fn set_skill_seed(&mut self, seed: u64) {
        self.skill_rng = crate::book::Rng::new(seed);
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
    pub fn search(&mut self, limits: Limits, on_info: impl FnMut(&Info)) -> SearchResult {
        let level = self.strength_level();
        if level < skill::MAX_LEVEL {
            return self.search_weaker(level, limits, on_info);
        }
        self.search_full(limits, on_info)
    }

    /// The search at full strength.
    fn search_full(&mut self, limits: Limits, mut on_info: impl FnMut(&Info)) -> SearchResult {
        let start = Instant::now();
        self.tt.new_search();
        let rules = self.options.rules;
        let multipv = limits.multipv > 1;
        self.counters.reset();
        let setup = SearchSetup {
            tt: Arc::clone(&self.tt),
            rules,
            net: self.active_net(),
            params: self.params,
        };
        self.pool.start(&self.position, &limits, &setup);
        self.main.configure(setup);
        let mut pos = self.position.clone();
        let mut result = self.main.go(&mut pos, limits, &mut on_info);
        self.stop.store(true, Ordering::Relaxed);
        let helpers = self.pool.wait();
        result.nodes += helpers.iter().map(|r| r.nodes).sum::<u64>();
        for h in &helpers {
            result.stats.add(&h.stats);
        }
        if !multipv {
            // the deepest completed iteration speaks for the search (the main thread's on
            // a tie; its lines stay for MultiPV): threads skip the depths another finished,
            // so the main thread's own last iteration may lag behind
            if let Some(h) = helpers
                .iter()
                .filter(|h| h.best.is_some() && h.depth > result.depth)
                .max_by_key(|h| (h.depth, h.score))
            {
                result = SearchResult {
                    nodes: result.nodes,
                    stats: std::mem::take(&mut result.stats),
                    ..h.clone()
                };
                // the last info line shows the line that is played (the main thread
                // reported only its own, shallower iterations)
                on_info(&Info {
                    multipv: 1,
                    depth: result.depth,
                    seldepth: result.seldepth,
                    score: result.score,
                    nodes: result.nodes,
                    time: start.elapsed(),
                    pv: result.pv.clone(),
                });
            }
        }
        result
    }
}

impl Engine {
    /// A search at a level below full strength ([`skill`]): a smaller node budget, more
    /// lines, and the move drawn among them. The GUI sees the lines it asked for, then the
    /// line played.
    fn search_weaker(
        &mut self,
        level: f64,
        mut limits: Limits,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let plan = skill::plan(level);
        let shown = limits.multipv.max(1);
        limits.nodes = Some(limits.nodes.map_or(plan.nodes, |n| n.min(plan.nodes)));
        limits.multipv = shown.max(plan.lines);
        let mut last: Vec<Info> = Vec::new();
        let mut result = self.search_full(limits, |info: &Info| {
            if info.multipv == 1 {
                last.clear();
            }
            last.push(info.clone());
            if info.multipv <= shown {
                on_info(info);
            }
        });
        let lines: Vec<skill::Line> = last
            .iter()
            .map(|i| skill::Line {
                pv: i.pv.clone(),
                score: i.score,
            })
            .collect();
        if lines.is_empty() {
            return result;
        }
        let k = skill::choose(&lines, &plan, self.skill_rng.next_f64());
        let chosen = &last[k];
        if let Some(&mv) = chosen.pv.first() {
            result.best = Some(mv);
            result.ponder = chosen.pv.get(1).copied();
            result.score = chosen.score;
            result.pv = chosen.pv.clone();
            if k != 0 || shown > 1 {
                on_info(&Info {
                    multipv: 1,
                    ..chosen.clone()
                });
            }
        }
        result
    }
}

/// The search time for one move from the clock: a soft limit (no new iteration after it)
/// and a hard one (the search stops), both less the GUI's `overhead`, by the
/// time-management tunables of `p`.
pub fn allocate_time(clock: Clock, overhead: Duration, p: &Tunables) -> (Duration, Duration) {
    crate::search::time::allocate(clock, overhead, p)
}

/// What the hash table holds for a position, as UCCI's `probe` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEntry {
    /// The stored move, when it is legal in the position probed.
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    /// The score is a lower bound (the true score is at least this).
    pub lower: bool,
    /// The score is an upper bound.
    pub upper: bool,
}

/// Reads the engine's hash table from any thread, while a search runs too.
#[derive(Clone)]
pub struct TableReader(Arc<TranspositionTable>);

impl TableReader {
    pub fn probe(&self, pos: &Position) -> Option<HashEntry> {
        self.0.probe(pos.key()).map(|e| HashEntry {
            mv: e.mv.filter(|&m| pos.is_legal(m)),
            score: e.score,
            depth: e.depth.max(0),
            lower: matches!(e.bound, Bound::Lower | Bound::Exact),
            upper: matches!(e.bound, Bound::Upper | Bound::Exact),
        })
    }
}

/// The most search threads the engine runs.
pub const MAX_THREADS: usize = 256;
