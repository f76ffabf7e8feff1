//! `chariot nnue`: training data from self-play and the network's trainer.

use chariot::rules::RuleSet;
use chariot::tools::nnue::datagen::{self, GenOptions};
use chariot::tools::nnue::manifest::{self, ShardState};
use chariot::tools::selfplay::{SelfPlay, parse_range};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Subcommand)]
pub enum NnueAction {
    /// Play self-play games at fixed nodes and write them (moves, search scores, results)
    /// to a training-games file.
    Gen {
        /// File to write (created; games are written as they finish).
        #[arg(long)]
        out: PathBuf,
        /// Games to play (default 1000, or no limit with --seconds).
        #[arg(long)]
        games: Option<usize>,
        /// Start no game after this many seconds; the games in flight finish, and the file
        /// holds games 0..n of the shard.
        #[arg(long)]
        seconds: Option<f64>,
        /// Add the shard's row (settings, games, positions, checksum, teacher, bench) to
        /// this manifest (created if missing; see `chariot nnue shards`).
        #[arg(long)]
        manifest: Option<PathBuf>,
        /// Node budget of each move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the run: with the shard it fixes every game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This machine's shard of the run (0, 1, 2, …): shards never repeat a game.
        #[arg(long, default_value_t = 0)]
        shard: u64,
        /// Random opening length in plies, MIN-MAX.
        #[arg(long, default_value = "6-10")]
        random_plies: String,
        /// Plies after which a game is drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Score (centipawns) beyond which, held for 6 plies, a game is won.
        #[arg(long, default_value_t = 1000)]
        resign: i32,
        /// Rule set: cxa or axf.
        #[arg(long, default_value = "cxa")]
        rules: String,
        /// Evaluation both sides play with: nnue (the embedded net), hce (hand-crafted; the
        /// teacher of the first generation) or a net file (net N plays generation N+1's data).
        #[arg(long, default_value = "nnue")]
        eval: String,
    },
    /// Check the shards a manifest lists in a data folder; with --regenerate, play the
    /// missing or damaged ones again from their seeds (byte for byte, by the same build).
    Shards {
        /// The manifest (as written by `nnue gen --manifest`).
        #[arg(long)]
        manifest: PathBuf,
        /// The folder holding the shard files.
        #[arg(long)]
        dir: PathBuf,
        /// Play missing and damaged shards again.
        #[arg(long)]
        regenerate: bool,
        /// A net file that was the teacher of some shards (the embedded net and the
        /// hand-crafted evaluation are known without it).
        #[arg(long)]
        teacher: Vec<PathBuf>,
        /// Games played at once while regenerating (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Only the rows of this seed (repeat for several); the others are not looked at,
        /// so one generation's data can be checked or played again in its own folder.
        #[arg(long = "seed")]
        seeds: Vec<u64>,
    },
    /// Train a net on training-games files (`chariot nnue gen`) and write it.
    Train {
        /// Training-games files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
        /// Hidden width (a multiple of 16, 16..=512).
        #[arg(long, default_value_t = 256)]
        hidden: usize,
        /// Output layers chosen by material, the count of rooks, horses and cannons on the
        /// board (1: architecture 1, one output layer; 2, 4 or 8: architecture 2, each
        /// position's own layer; see docs/nnue.md).
        #[arg(long, default_value_t = 1)]
        buckets: usize,
        /// Most passes over the training positions.
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Peak learning rate (cosine decay to 5 % of it).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// AdamW's decoupled weight decay (a pull of every weight towards 0 each step).
        #[arg(long, default_value_t = 1e-4)]
        weight_decay: f32,
        /// Weight of the game result in the target (the search score gets the rest).
        #[arg(long, default_value_t = 0.25)]
        wdl: f32,
        /// Logistic scale in centipawns.
        #[arg(long, default_value_t = 400.0)]
        k: f32,
        /// Use the K fitted to the data's scores and results instead of --k.
        #[arg(long)]
        fit_k: bool,
        /// Fraction of the games held out for validation.
        #[arg(long, default_value_t = 0.02)]
        valid: f64,
        /// Epochs without a better validation loss before stopping (0: never).
        #[arg(long, default_value_t = 3)]
        patience: usize,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Drop positions scored beyond this many centipawns (0: no cap).
        #[arg(long, default_value_t = 3000)]
        max_score: i32,
        /// Drop the first plies of each game.
        #[arg(long, default_value_t = 0)]
        skip_plies: usize,
        /// Keep positions with the side to move in check.
        #[arg(long)]
        keep_checks: bool,
        /// Keep positions whose move is a capture.
        #[arg(long)]
        keep_captures: bool,
        /// Keep positions with a mate score.
        #[arg(long)]
        keep_mates: bool,
        /// Start from this net's weights instead of random ones (fine-tuning): its hidden
        /// width and buckets must be --hidden and --buckets. Epoch 0's validation loss is
        /// then this net's, and training keeps it unless an epoch does better.
        #[arg(long, value_name = "NET")]
        init: Option<PathBuf>,
    },
    /// Write a net with the same weights and another output scale: every evaluation is
    /// multiplied by SCALE / 400 (to try the size of a net's scores against the search's
    /// margins without training).
    Scale {
        /// The net file to read.
        net: PathBuf,
        /// Output scale in centipawns (the trainer's is 400; 100..=1600).
        #[arg(long)]
        scale: i32,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(action: NnueAction) -> Result<(), String> {
    use chariot::tools::nnue::train;
    match action {
        NnueAction::Train {
            files,
            out,
            hidden,
            buckets,
            epochs,
            batch,
            lr,
            weight_decay,
            wdl,
            k,
            fit_k,
            valid,
            patience,
            threads,
            seed,
            max_score,
            skip_plies,
            keep_checks,
            keep_captures,
            keep_mates,
            init,
        } => {
            let init = match init {
                Some(path) => Some(chariot::eval::nnue::load_file(&path)?),
                None => None,
            };
            let opts = train::TrainOptions {
                hidden,
                buckets,
                epochs,
                batch,
                lr,
                weight_decay,
                wdl,
                k,
                fit_k,
                valid,
                patience,
                threads,
                seed,
                max_score: (max_score > 0).then_some(max_score),
                skip_plies,
                skip_checks: !keep_checks,
                skip_captures: !keep_captures,
                skip_mates: !keep_mates,
                init,
                ..train::TrainOptions::default()
            };
            let r = train::train(&files, &opts, |line| eprintln!("{line}"))?;
            train::write_net(&r.net, &out)?;
            out!(
                "wrote {} (hidden {}{}): {} training positions from {} games, {} dropped ({}); best validation loss {:.6} at epoch {} of {} (from {:.6}), {:.0} positions/s, {:.0} s",
                out.display(),
                r.net.hidden,
                if r.net.buckets > 1 {
                    format!(", buckets {}", r.net.buckets)
                } else {
                    String::new()
                },
                r.train_positions,
                r.games,
                r.dropped.total(),
                r.dropped,
                r.best_valid_loss,
                r.best_epoch,
                r.epochs,
                r.initial_valid_loss,
                r.positions_per_s,
                r.elapsed_s
            );
            Ok(())
        }

        NnueAction::Scale { net, scale, out } => {
            let mut n = chariot::eval::nnue::load_file(&net)?;
            let from = n.scale;
            n.scale = scale;
            train::write_net(&n, &out)?;
            out!(
                "wrote {}: the weights of {} with output scale {scale} (was {from})",
                out.display(),
                net.display()
            );
            Ok(())
        }
        NnueAction::Shards {
            manifest,
            dir,
            regenerate,
            teacher,
            threads,
            seeds,
        } => shards(&manifest, &dir, regenerate, &teacher, threads, &seeds),
        NnueAction::Gen {
            out,
            games,
            seconds,
            manifest,
            nodes,
            threads,
            seed,
            shard,
            random_plies,
            max_plies,
            resign,
            rules,
            eval,
        } => {
            let rules: RuleSet = rules.parse()?;
            let opts = GenOptions {
                play: SelfPlay {
                    nodes,
                    random_plies: parse_range(&random_plies)
                        .map_err(|e| format!("--random-plies: {e}"))?,
                    max_plies,
                    resign,
                    rules,
                    eval: eval.clone(),
                    ..SelfPlay::default()
                },
                games: games.unwrap_or(if seconds.is_some() { usize::MAX } else { 1000 }),
                budget: match seconds {
                    Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
                    Some(s) => return Err(format!("--seconds {s} is not a number of seconds")),
                    None => None,
                },
                threads: threads.unwrap_or(GenOptions::default().threads),
                seed,
                shard,
            };
            opts.play.check()?;
            // the manifest's checks come before any game is played
            let bench = match &manifest {
                Some(m) => {
                    let rows = manifest::read(m)?;
                    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if let Some(r) = rows
                        .iter()
                        .find(|r| r.file == name || (r.seed, r.shard) == (seed, shard))
                    {
                        return Err(format!(
                            "{} already lists {} (seed {}, shard {}): choose another shard",
                            m.display(),
                            r.file,
                            r.seed,
                            r.shard
                        ));
                    }
                    Some(bench_nodes()?)
                }
                None => None,
            };
            // a shard for the manifest is written under a temporary name and renamed whole
            let part = match &manifest {
                Some(_) => {
                    let mut p = out.clone().into_os_string();
                    p.push(".part");
                    PathBuf::from(p)
                }
                None => out.clone(),
            };
            let file = std::fs::File::create(&part)
                .map_err(|e| format!("cannot create {}: {e}", part.display()))?;
            let count = match (games, seconds) {
                (None, Some(s)) => format!("games for {s} s"),
                (g, Some(s)) => format!("up to {} games for {s} s", g.unwrap_or(1000)),
                (g, None) => format!("{} games", g.unwrap_or(1000)),
            };
            eprintln!(
                "nnue gen: seed {seed} shard {shard}, {count} at {nodes} nodes, eval {eval}, {} threads -> {}",
                opts.threads,
                out.display()
            );
            let stats = datagen::generate(&opts, file, |s| eprintln!("{}", s.summary()))?;
            if part != out {
                std::fs::rename(&part, &out)
                    .map_err(|e| format!("cannot rename {}: {e}", part.display()))?;
            }
            out!("wrote {}: {}", out.display(), stats.summary());
            if let (Some(m), Some(bench)) = (&manifest, bench) {
                let row = manifest::row_of(&out, &opts, &stats, bench, made())?;
                manifest::append(m, &row)?;
                out!(
                    "{}: added {} ({} games, {} positions, fnv64 {:016x})",
                    m.display(),
                    row.file,
                    row.games,
                    row.positions,
                    row.fnv64
                );
            }
            Ok(())
        }
    }
}

/// The `bench` node count of this build: the search's fingerprint in the manifest.
fn bench_nodes() -> Result<u64, String> {
    use chariot::engine::bench;
    bench::run(bench::DEFAULT_DEPTH, 1, 16, "nnue", |_| {}).map(|(nodes, _)| nodes)
}

/// The date (UTC) and this machine's name, for the manifest's `made` column.
fn made() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = chariot::tools::matchrun::pgn::civil_from_days((secs / 86_400) as i64);
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_default();
    format!("{y:04}-{m:02}-{d:02} {}", host.trim())
}

/// `chariot nnue shards`: checks every shard of a manifest, and regenerates the lost ones.
fn shards(
    path: &Path,
    dir: &Path,
    regenerate: bool,
    teachers: &[PathBuf],
    threads: Option<usize>,
    seeds: &[u64],
) -> Result<(), String> {
    let mut rows = manifest::read(path)?;
    if rows.is_empty() {
        return Err(format!("{} lists no shards", path.display()));
    }
    if !seeds.is_empty() {
        rows.retain(|r| seeds.contains(&r.seed));
        if rows.is_empty() {
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            return Err(format!(
                "{} lists no shards of seed {}",
                path.display(),
                list.join(", ")
            ));
        }
    }
    // the evaluations this build can play, by their manifest names
    let mut evals = vec![
        ("hce".to_string(), "hce".to_string()),
        (manifest::teacher_id("nnue")?, "nnue".to_string()),
    ];
    for t in teachers {
        let t = t.display().to_string();
        evals.push((manifest::teacher_id(&t)?, t));
    }
    let (mut present, mut games, mut positions, mut bad) = (0, 0, 0, Vec::new());
    for r in &rows {
        let state = manifest::state(dir, r);
        let eval = evals
            .iter()
            .find(|(id, _)| *id == r.teacher)
            .map(|(_, e)| e.as_str());
        match &state {
            ShardState::Present => {
                present += 1;
                games += r.games;
                positions += r.positions;
            }
            ShardState::Missing => {
                out!(
                    "missing  {}: {}",
                    r.file,
                    r.command(eval.unwrap_or("<teacher net>"))
                );
                bad.push((r, eval));
            }
            ShardState::Damaged(why) => {
                out!(
                    "damaged  {}: {why}; {}",
                    r.file,
                    r.command(eval.unwrap_or("<teacher net>"))
                );
                bad.push((r, eval));
            }
        }
    }
    out!(
        "{} of {} shards present in {}: {} games, {} positions",
        present,
        rows.len(),
        dir.display(),
        games,
        positions
    );
    if bad.is_empty() {
        return Ok(());
    }
    if !regenerate {
        return Err(format!(
            "{} shards missing or damaged (--regenerate plays them again)",
            bad.len()
        ));
    }
    let build = bench_nodes()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (r, eval) in bad {
        let Some(eval) = eval else {
            return Err(format!(
                "{} was played by {}, which is not the embedded net: give that net with --teacher FILE",
                r.file, r.teacher
            ));
        };
        if r.bench != build {
            return Err(format!(
                "{} was played by a build with bench {}, this build's is {}: regenerate it with that build",
                r.file, r.bench, build
            ));
        }
        let opts = GenOptions {
            play: SelfPlay {
                nodes: r.nodes,
                random_plies: parse_range(&r.random_plies)
                    .map_err(|e| format!("{}: random_plies: {e}", r.file))?,
                max_plies: r.max_plies,
                resign: r.resign,
                rules: r.rules.parse()?,
                eval: eval.to_string(),
                ..SelfPlay::default()
            },
            games: r.games,
            budget: None,
            threads: threads.unwrap_or(GenOptions::default().threads),
            seed: r.seed,
            shard: r.shard,
        };
        let tmp = dir.join(format!("{}.tmp", r.file));
        let file = std::fs::File::create(&tmp)
            .map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        eprintln!("regenerating {}: {} games", r.file, r.games);
        let stats = datagen::generate(&opts, std::io::BufWriter::new(file), |s| {
            eprintln!("{}", s.summary())
        })?;
        let made = manifest::row_of(&tmp, &opts, &stats, build, String::new())?;
        if (made.bytes, made.fnv64) != (r.bytes, r.fnv64) {
            return Err(format!(
                "{} played again differs from the manifest ({} bytes, fnv64 {:016x}; the manifest says {} bytes, {:016x}): kept as {}",
                r.file,
                made.bytes,
                made.fnv64,
                r.bytes,
                r.fnv64,
                tmp.display()
            ));
        }
        std::fs::rename(&tmp, dir.join(&r.file))
            .map_err(|e| format!("cannot rename {}: {e}", tmp.display()))?;
        out!(
            "regenerated {}: {} games, {} positions, checksum matches",
            r.file,
            r.games,
            r.positions
        );
    }
    Ok(())
}
