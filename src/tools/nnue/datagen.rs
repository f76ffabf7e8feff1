//! `chariot nnue gen`: self-play games for training the network, written as they finish to a
//! training-games file ([`super::data`]).
//!
//! Game `i` of shard `k` under seed `s` opens from a random state derived from `(s, k, i)`,
//! so shards of one run (on one machine or many) never play the same game twice, and the same
//! triple always plays the same game (one thread per game, fixed nodes, a fresh table).

use super::data::{GameRecord, write_header};
use crate::book::Rng;
use crate::rules::GameResult;
use crate::tools::selfplay::{SelfPlay, play_game};
use rayon::prelude::*;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// Settings of `chariot nnue gen`.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub play: SelfPlay,
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    pub seed: u64,
    /// This run's shard of the seed's games.
    pub shard: u64,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            play: SelfPlay::default(),
            games: 1000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            shard: 0,
        }
    }
}

/// What a run produced so far.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    pub games: usize,
    /// Moves written (random opening moves included).
    pub moves: usize,
    /// Moves chosen by a search (the positions a trainer can learn from).
    pub scored: usize,
    pub red_wins: usize,
    pub black_wins: usize,
    pub draws: usize,
    pub seconds: f64,
}

impl GenStats {
    pub fn summary(&self) -> String {
        format!(
            "{} games, {} positions ({} scored), {} red wins, {} black wins, {} draws, {:.0} s, {:.0} positions/s",
            self.games,
            self.moves,
            self.scored,
            self.red_wins,
            self.black_wins,
            self.draws,
            self.seconds,
            self.moves as f64 / self.seconds.max(1e-9)
        )
    }
}

/// The random state that opens game `index` of `shard` under `seed`.
pub fn game_seed(seed: u64, shard: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed ^ 0x6a09_e667_f3bc_c909);
    let a = r.next_u64();
    let mut r = Rng::new(shard.wrapping_add(a));
    let b = r.next_u64();
    let mut r = Rng::new(index.wrapping_add(b));
    r.next_u64()
}

/// Plays the games and writes the file (header first, then each game as it finishes).
pub fn generate(
    opts: &GenOptions,
    out: impl Write + Send,
    progress: impl Fn(&GenStats) + Sync,
) -> Result<GenStats, String> {
    opts.play.check()?;
    if opts.games == 0 || opts.threads == 0 {
        return Err("--games and --threads must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    let mut out = out;
    write_header(&mut out).map_err(|e| format!("cannot write games: {e}"))?;
    let start = Instant::now();
    let state = Mutex::new((out, GenStats::default(), None::<String>));
    let step = (opts.games / 100).max(1);
    pool.install(|| {
        (0..opts.games).into_par_iter().for_each(|i| {
            let game: GameRecord =
                play_game(game_seed(opts.seed, opts.shard, i as u64), &opts.play);
            let mut bytes = Vec::with_capacity(64 + 4 * game.moves.len());
            game.encode(&mut bytes);
            let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
            let (w, stats, error) = &mut *guard;
            if error.is_some() {
                return;
            }
            if let Err(e) = w.write_all(&bytes).and_then(|()| w.flush()) {
                *error = Some(format!("cannot write games: {e}"));
                return;
            }
            stats.games += 1;
            stats.moves += game.moves.len();
            stats.scored += game
                .moves
                .iter()
                .filter(|(_, s)| *s != super::data::NO_SCORE)
                .count();
            match game.result {
                GameResult::RedWins => stats.red_wins += 1,
                GameResult::BlackWins => stats.black_wins += 1,
                _ => stats.draws += 1,
            }
            stats.seconds = start.elapsed().as_secs_f64();
            if stats.games % step == 0 {
                progress(stats);
            }
        });
    });
    let (_, mut stats, error) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(e);
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::nnue::data::decode;

    #[test]
    fn shards_play_different_games_and_seeds_repeat_them() {
        let opts = |shard| GenOptions {
            play: SelfPlay {
                nodes: 150,
                max_plies: 30,
                ..SelfPlay::default()
            },
            games: 2,
            threads: 1,
            seed: 7,
            shard,
        };
        let run = |o: &GenOptions| {
            let mut buf = Vec::new();
            let stats = generate(o, &mut buf, |_| {}).unwrap();
            (decode(&buf).unwrap(), stats)
        };
        let (a, stats) = run(&opts(0));
        assert_eq!(a.len(), 2);
        assert_eq!(stats.games, 2);
        assert_eq!(stats.moves, a.iter().map(|g| g.moves.len()).sum::<usize>());
        for g in &a {
            g.replay(|_, _, _| {}).unwrap();
            assert!(g.moves.len() >= 6, "a game has its random opening at least");
        }
        let (again, _) = run(&opts(0));
        let sorted = |mut v: Vec<GameRecord>| {
            v.sort_by_key(|g| {
                g.moves
                    .iter()
                    .map(|(m, s)| (m.bits(), *s))
                    .collect::<Vec<_>>()
            });
            v
        };
        assert_eq!(sorted(again), sorted(a.clone()));
        let (b, _) = run(&opts(1));
        for g in &b {
            assert!(
                !a.iter().any(|h| h.moves == g.moves),
                "shard 1 replays a game of shard 0"
            );
        }
    }
}
