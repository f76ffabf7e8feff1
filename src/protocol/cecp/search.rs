//! CECP's search threads: the engine's move, an analysis and pondering on the expected
//! reply, each on a thread of its own that the session starts, stops or turns from a ponder
//! search into the engine's move (a hit); and the limits of a move from the game's clock.

use super::{Game, lock, result_line, thinking_line};
use crate::core::Move;
use crate::engine::{Clock, Limits, allocate_time};
use crate::protocol::{Session, send};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

impl Session {
    /// Joins a search thread that has already given its answer, or stops pondering.
    pub(super) fn finish_idle_search(&mut self) {
        if self.search.is_some() && self.answered.load(Ordering::Acquire) {
            self.finish_search();
            self.end_pondering();
        }
    }

    /// Stops a running search without playing its move (its held pongs still go out);
    /// after pondering the engine is back on the game's position.
    pub(super) fn stop_discard(&mut self) {
        if self.search.is_some() {
            self.cecp.discard.store(true, Ordering::Relaxed);
            self.finish_search();
            self.cecp.discard.store(false, Ordering::Relaxed);
        }
        self.end_pondering();
    }

    /// After a ponder search has stopped: the engine's position is the game's again.
    fn end_pondering(&mut self) {
        if self.cecp.pondering.take().is_some() {
            self.sync_engine();
        }
    }

    /// The event of a search that has moved (`Input::Ponder`): ponders on `reply` when
    /// `hard` is on and the game is where that search left it, the user to move.
    pub(in crate::protocol) fn cecp_ponder(&mut self, id: u64, plies: usize, reply: Move) {
        let c = &self.cecp;
        let current = {
            let g = lock(&c.game);
            !g.over && g.moves.len() == plies
        };
        if !c.ponder
            || c.force
            || c.analyzing
            || !current
            || self.search_id.load(Ordering::Relaxed) != id
            || self.thinking()
        {
            return;
        }
        self.finish_idle_search();
        let plies_after = plies + 1;
        {
            let mut e = self.engine_lock();
            if e.position().side_to_move() == self.cecp.engine_side || !e.position().is_legal(reply)
            {
                return;
            }
            let g = lock(&self.cecp.game);
            let mut moves: Vec<&str> = g.moves.iter().map(String::as_str).collect();
            let text = reply.to_string();
            moves.push(&text);
            if e.set_position(g.fen.as_deref(), &moves).is_err() || e.verdict().is_over() {
                drop(g);
                drop(e);
                self.sync_engine();
                return;
            }
        }
        self.cecp.pondering = Some(reply);
        // no clock while pondering: the time runs from the hit (`sd` still bounds it, and
        // without any clock the fixed depth of a bare `go`)
        let limits = Limits {
            soft_time: None,
            hard_time: None,
            ..self.move_limits(plies_after)
        };
        self.spawn_search(limits, Mode::Ponder);
    }

    /// The user played the reply the engine ponders on: that search becomes the engine's
    /// own, its clock starting now.
    pub(super) fn ponder_hit(&mut self, reply: Move) {
        self.cecp.pondering = None;
        let plies = {
            let _held = lock(&self.cecp.pongs);
            let mut g = lock(&self.cecp.game);
            g.moves.push(reply.to_string());
            self.cecp.ponder_hit.store(true, Ordering::Relaxed);
            self.answered.store(false, Ordering::Release);
            g.moves.len()
        };
        if let Some(soft) = self.move_limits(plies).soft_time {
            self.stop_after(soft);
        }
        self.hold.store(false, Ordering::Relaxed);
    }

    pub(in crate::protocol) fn cecp_quit(&mut self) {
        self.stop_discard();
    }

    /// End of input: an analysis stops; the engine's own move, thinking under its limits,
    /// is finished and sent (scripts pipe a game and read the reply), as in the other
    /// dialects.
    pub(in crate::protocol) fn cecp_end_of_input(&mut self) {
        if self.cecp.analyzing || self.cecp.pondering.is_some() {
            self.stop_discard();
        } else if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// Thinks on the engine's move when it is the engine's turn, outside force mode and
    /// analysis, in a game that goes on.
    pub(super) fn think(&mut self) {
        let c = &self.cecp;
        let (over, plies) = {
            let g = lock(&c.game);
            (g.over, g.moves.len())
        };
        let side = self.engine_lock().position().side_to_move();
        if over || c.force || c.analyzing || side != c.engine_side {
            return;
        }
        self.finish_idle_search();
        let book = {
            let mut e = self.engine_lock();
            if e.use_book() {
                e.book_move(&[]).map(|b| b.mv)
            } else {
                None
            }
        };
        if let Some(m) = book {
            play_engine_move(&mut self.engine_lock(), &self.cecp.game, m);
            return;
        }
        let limits = self.move_limits(plies);
        self.spawn_search(limits, Mode::Think);
    }

    /// The limits of the engine's move after `plies` moves of the game: `sd`, and `st` or
    /// the share of the clock (`time`, or `level`'s base); a fixed depth when there is
    /// neither.
    fn move_limits(&self, plies: usize) -> Limits {
        let c = &self.cecp;
        let overhead = self.settings.overhead;
        let mut limits = Limits {
            depth: c.depth,
            ..Limits::default()
        };
        if let Some(t) = c.move_time {
            let t = t
                .saturating_sub(overhead)
                .max(t / 2)
                .max(Duration::from_millis(1));
            limits.soft_time = Some(t);
            limits.hard_time = Some(t);
        } else if let Some(left) = c.own_time.or((c.base > Duration::ZERO).then_some(c.base)) {
            let mps = c.moves_per_session;
            let done = (plies / 2) as u32;
            let clock = Clock {
                left,
                increment: c.increment,
                moves_to_go: (mps > 0).then(|| mps - done % mps),
            };
            let (soft, hard) = allocate_time(clock, overhead, &self.search_params);
            limits.soft_time = Some(soft);
            limits.hard_time = Some(hard);
        }
        if limits.depth.is_none() && limits.hard_time.is_none() {
            // no clock at all: a fixed depth rather than forever
            limits.depth = Some(crate::engine::bench::DEFAULT_DEPTH);
        }
        limits
    }

    /// Starts a search thread: an analysis (thinking output until stopped, no move), the
    /// engine's move (played, announced, judged, then the held pongs, then the event that
    /// may start pondering) or a ponder search (held until stopped, its move played only
    /// after a hit).
    pub(super) fn spawn_search(&mut self, limits: Limits, mode: Mode) {
        let engine = Arc::clone(&self.engine);
        let game = Arc::clone(&self.cecp.game);
        let pongs = Arc::clone(&self.cecp.pongs);
        let discard = Arc::clone(&self.cecp.discard);
        let last_score = Arc::clone(&self.cecp.last_score);
        let hold = Arc::clone(&self.hold);
        let answered = Arc::clone(&self.answered);
        let hit = Arc::clone(&self.cecp.ponder_hit);
        let events = self.events.clone();
        let show = mode == Mode::Analyze || self.cecp.post;
        self.hold.store(mode != Mode::Think, Ordering::Relaxed);
        self.stop.store(false, Ordering::Relaxed);
        hit.store(false, Ordering::Relaxed);
        let id = self.search_id.fetch_add(1, Ordering::Relaxed) + 1;
        // a ponder search is idle to the GUI until a hit makes it the engine's move
        self.answered.store(mode == Mode::Ponder, Ordering::Release);
        self.search = Some(std::thread::spawn(move || {
            let mut e = lock(&engine);
            let result = e.search(limits, |info| {
                if show {
                    send(&thinking_line(info));
                }
            });
            while hold.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            // the move, its result and the held pongs go out under the pongs lock, so a
            // command that checks `answered` under it sees the move either not yet sent or
            // sent and recorded
            let mut held = lock(&pongs);
            let plays = match mode {
                Mode::Analyze => false,
                Mode::Think => !discard.load(Ordering::Relaxed),
                Mode::Ponder => hit.load(Ordering::Relaxed) && !discard.load(Ordering::Relaxed),
            };
            let mut ponder_next = None;
            if plays {
                last_score.store(result.score, Ordering::Relaxed);
                match result.best {
                    Some(m) => {
                        if play_engine_move(&mut e, &game, m) {
                            ponder_next = result.ponder.map(|r| (lock(&game).moves.len(), r));
                        }
                    }
                    None => {
                        // no legal move: the game was over already (a set-up position)
                        let v = e.verdict();
                        if v.is_over() {
                            lock(&game).over = true;
                            send(&result_line(&v));
                        }
                    }
                }
            }
            answered.store(true, Ordering::Release);
            for n in held.drain(..) {
                send(&format!("pong {n}"));
            }
            if let Some((plies, reply)) = ponder_next {
                let _ = events.send(crate::protocol::Input::Ponder { id, plies, reply });
            }
        }));
    }
}

/// What a search thread is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// The engine's move.
    Think,
    /// Thinking output until stopped, no move.
    Analyze,
    /// On the expected reply, until a hit or a stop.
    Ponder,
}

/// Plays the engine's move in the game and the engine, sends `move …`, and the result when
/// the rules end the game with it; true when the game goes on.
fn play_engine_move(e: &mut crate::engine::Engine, game: &Mutex<Game>, m: Move) -> bool {
    let mut g = lock(game);
    g.moves.push(m.to_string());
    let refs: Vec<&str> = g.moves.iter().map(String::as_str).collect();
    let _ = e.set_position(g.fen.as_deref(), &refs);
    send(&format!("move {m}"));
    let v = e.verdict();
    if v.is_over() {
        g.over = true;
        send(&result_line(&v));
    }
    !g.over
}
