//! `chariot nnue train`: fits the network of [`crate::eval::nnue::format`] (architecture 1, or
//! architecture 2 with `buckets` output layers chosen by material) to self-play games ([`super::data`]) and writes the quantised net.
//!
//! * Loading replays every game and keeps each position that passes the filters (each one
//!   switchable in [`TrainOptions`], each one counted in [`Dropped`], a position counted by
//!   the first that drops it, in this order): the first `skip_plies` plies of a game, moves
//!   that no search chose ([`NO_SCORE`](super::data::NO_SCORE)), the side to move in check, the stored move a
//!   capture, mate scores, scores beyond `max_score`. A kept position becomes a [`Sample`] of
//!   32 bytes: its pieces (a bitmap of the occupied points and 4 bits a piece, unpacked into
//!   piece·90 + point codes when used), the side to move, the stored score and the game's
//!   result, both from the side to move's view.
//! * Validation: whole games (a fraction `valid`, picked by a seeded hash of the game's index
//!   over all the files, so the split is reproducible) are held out, so that positions of one
//!   game never sit on both sides.
//! * The model in `f32` is exactly the format's: `W1` (810×H, shared by both perspectives and
//!   both board orientations), `b1`, `w2` (side to move's H, then the other side's H), `b2`;
//!   `out = (Σ_o Σ_i screlu(a_stm^o)·w2 + screlu(a_other^o)·w2') / 2 + b2` over the plain
//!   and the mirrored board, `screlu(x) = clamp(x, 0, 1)²`, `eval = SCALE·out` centipawns.
//!   With B output buckets, `w2` and `b2` are B layers (`w2` bucket-major, then the B biases)
//!   and each position uses, and trains, the layer of its material bucket
//!   ([`features::bucket_of_count`]); `W1` and `b1` are shared by all.
//!   The prediction is `sigmoid(eval / K)`; the target `(1 − wdl)·sigmoid(score / K) +
//!   wdl·result` (just the result for an unscored position kept on purpose); the loss is the
//!   mean squared error.
//! * Training: every epoch a full seeded Fisher–Yates shuffle of the training positions,
//!   minibatches split into one contiguous chunk per thread (each with its own gradient
//!   buffer: the backward pass touches only the ~32 active rows of `W1` per accumulator),
//!   the chunks' gradients summed in order, then one dense AdamW step (β 0.9/0.999, ε 1e-8,
//!   weight decay on `W1` and `w2` only) and clipping: `W1` and `b1` to ±[`L1_CLIP`] (so a
//!   quantised accumulator of 32 pieces stays within an `i16`), `w2` to ±127/64 (the format's
//!   output-weight range). The learning rate warms up linearly over `warmup_steps`, then
//!   follows a cosine from `lr` down to `lr · lr_final` over all `epochs`' steps.
//! * After each epoch the validation loss; the best weights are kept, and training stops
//!   after `patience` epochs without improvement (with no validation games, the training
//!   loss is watched instead).
//! * Initialisation (seeded): `W1` uniform in ±0.5/√32 (an accumulator of ~32 pieces starts
//!   with a spread of about 0.16), `b1 = 0`, `w2` uniform in ±1/√(2H), `b2 = 0`; or, with
//!   `init` (fine-tuning), a net's weights, each its quantised value over its scale.
//! * A run is deterministic for a given seed and thread count (the chunks and the order of
//!   every floating-point sum follow from those two alone); other thread counts give
//!   slightly different sums, hence slightly different nets. The hot loops also come compiled
//!   for AVX2, picked at run time (about 1.5× faster); they do the same operations in the same
//!   order, so a run gives the same bits on any x86-64 CPU.

use crate::eval::nnue::features;
use crate::eval::nnue::format::{MAX_HIDDEN, MAX_OUT_WEIGHT, Network, QB, SCALE, valid_buckets};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Largest magnitude of a first-layer weight or bias in floats: 33 of them (a bias and 32
/// pieces) times QA stay below `i16::MAX`.
pub const L1_CLIP: f32 = 1.98;
/// Largest magnitude of an output weight in floats (127 once quantised).
pub const OUT_CLIP: f32 = MAX_OUT_WEIGHT as f32 / QB as f32;
/// Largest magnitude of the output bias in floats (far inside an `i32` once quantised).
const BIAS_CLIP: f32 = 1000.0;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Hidden width H (a multiple of 16, 16..=512).
    pub hidden: usize,
    /// Output buckets chosen by material (1: architecture 1; 2, 4 or 8: architecture 2).
    pub buckets: usize,
    /// Most passes over the training positions.
    pub epochs: usize,
    /// Positions a minibatch.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f32,
    /// The learning rate at the end of the cosine, as a fraction of `lr`.
    pub lr_final: f32,
    /// Steps of linear warm-up from 0 to `lr`.
    pub warmup_steps: usize,
    /// AdamW's decoupled weight decay (weights only, not biases).
    pub weight_decay: f32,
    /// Weight of the game result in the target; the search score gets the rest.
    pub wdl: f32,
    /// Logistic scale in centipawns: probability = sigmoid(cp / K).
    pub k: f32,
    /// Use the K fitted to the training positions' scores against their results instead.
    pub fit_k: bool,
    /// Fraction of the games held out for validation.
    pub valid: f64,
    /// Epochs without a better validation loss before stopping (0: never stop early).
    pub patience: usize,
    /// Worker threads (0: all cores).
    pub threads: usize,
    pub seed: u64,
    /// Drop positions whose |score| exceeds this (`None`: no cap).
    pub max_score: Option<i32>,
    /// Drop the first plies of each game.
    pub skip_plies: usize,
    pub skip_unscored: bool,
    pub skip_checks: bool,
    pub skip_captures: bool,
    pub skip_mates: bool,
    /// Start from this net's weights (dequantised) instead of random ones: fine-tuning a
    /// shipped net on newer data. Its width and buckets must be `hidden` and `buckets`.
    pub init: Option<Network>,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            hidden: 256,
            buckets: 1,
            epochs: 30,
            batch: 16384,
            lr: 0.001,
            lr_final: 0.05,
            warmup_steps: 0,
            weight_decay: 1e-4,
            wdl: 0.25,
            k: 400.0,
            fit_k: false,
            valid: 0.02,
            patience: 3,
            threads: 0,
            seed: 1,
            max_score: Some(3000),
            skip_plies: 0,
            skip_unscored: true,
            skip_checks: true,
            skip_captures: true,
            skip_mates: true,
            init: None,
        }
    }
}

mod model;
mod samples;
#[cfg(test)]
mod tests;

use model::{Adam, Features, LossCfg, Model, Rng, Worker, batch_grad, mean_loss};
pub use samples::{Dataset, Dropped, Sample, fit_k, load};

/// What a run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub games: usize,
    pub valid_games: usize,
    /// Positions seen in the games.
    pub positions: usize,
    pub train_positions: usize,
    pub valid_positions: usize,
    pub dropped: Dropped,
    /// The K used.
    pub k: f32,
    /// Epochs run (including those after the best one).
    pub epochs: usize,
    /// The epoch whose weights were kept (0: the initial weights).
    pub best_epoch: usize,
    /// Validation loss of the initial weights.
    pub initial_valid_loss: f64,
    /// Validation loss of the kept weights (the training loss with no validation set).
    pub best_valid_loss: f64,
    pub elapsed_s: f64,
    /// Training positions per second (backward passes included, validation excluded).
    pub positions_per_s: f64,
    /// The same, for each epoch.
    pub epoch_positions_per_s: Vec<f64>,
    /// The kept weights, quantised and validated.
    pub net: Network,
}

fn check_options(opts: &TrainOptions) -> Result<(), String> {
    let h = opts.hidden;
    if h == 0 || !h.is_multiple_of(16) || h > MAX_HIDDEN {
        return Err(format!(
            "hidden width {h} is not a multiple of 16 in 16..={MAX_HIDDEN}"
        ));
    }
    if !valid_buckets(opts.buckets) {
        return Err(format!(
            "{} output buckets: 1 (architecture 1), 2, 4 or 8 (architecture 2)",
            opts.buckets
        ));
    }
    if opts.batch == 0 || opts.epochs == 0 {
        return Err("the batch size and the epochs must be at least 1".into());
    }
    if !(opts.lr > 0.0 && opts.lr.is_finite()) {
        return Err("the learning rate must be positive".into());
    }
    if !(0.0..=1.0).contains(&opts.lr_final) || !(0.0..=1.0).contains(&opts.wdl) {
        return Err("the final learning-rate fraction and wdl must lie in 0..=1".into());
    }
    if !(opts.k > 0.0 && opts.k.is_finite()) {
        return Err("K must be positive".into());
    }
    if !(0.0..1.0).contains(&opts.valid) {
        return Err("the validation fraction must lie in 0..1".into());
    }
    if !(opts.weight_decay >= 0.0 && opts.weight_decay.is_finite()) {
        return Err("the weight decay must not be negative".into());
    }
    if let Some(net) = &opts.init
        && (net.hidden != h || net.buckets != opts.buckets)
    {
        return Err(format!(
            "the initial net has hidden width {} and {} output buckets: give --hidden {} --buckets {}",
            net.hidden, net.buckets, net.hidden, net.buckets
        ));
    }
    if let Some(net) = &opts.init
        && net.scale != SCALE
    {
        return Err(format!(
            "the initial net has output scale {}: the trainer starts only from nets of scale {SCALE}",
            net.scale
        ));
    }
    Ok(())
}

/// Loads the games files and trains (see the module doc); progress lines go to `progress`.
pub fn train(
    files: &[PathBuf],
    opts: &TrainOptions,
    mut progress: impl FnMut(&str),
) -> Result<TrainReport, String> {
    check_options(opts)?;
    let pool = thread_pool(opts.threads)?;
    let start = Instant::now();
    let ds = pool.install(|| load(files, opts))?;
    progress(&format!(
        "{} games ({} for validation), {} positions: {} train, {} valid, {} dropped ({}) in {:.1} s",
        ds.games,
        ds.valid_games,
        ds.positions,
        ds.train.len(),
        ds.valid.len(),
        ds.dropped.total(),
        ds.dropped,
        start.elapsed().as_secs_f64()
    ));
    train_on(&ds, opts, progress)
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    let n = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))
}

/// Training positions per bucket, and per material count, as one progress line.
pub fn bucket_histogram(ds: &Dataset, buckets: usize) -> String {
    let mut counts = [0usize; 13];
    for s in &ds.train {
        counts[usize::from(s.material).min(12)] += 1;
    }
    let mut per_bucket = vec![0usize; buckets];
    for (m, &n) in counts.iter().enumerate() {
        per_bucket[features::bucket_of_count(m, buckets)] += n;
    }
    let total = ds.train.len().max(1) as f64;
    let pct = |n: usize| 100.0 * n as f64 / total;
    let b: Vec<String> = per_bucket
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("{i}:{n} ({:.1}%)", pct(n)))
        .collect();
    let m: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| format!("{i}:{:.1}%", pct(n)))
        .collect();
    format!(
        "training positions per output bucket {}; per rook+horse+cannon count {}",
        b.join(" "),
        m.join(" ")
    )
}

/// Trains on a loaded dataset.
pub fn train_on(
    ds: &Dataset,
    opts: &TrainOptions,
    mut progress: impl FnMut(&str),
) -> Result<TrainReport, String> {
    check_options(opts)?;
    if ds.train.is_empty() {
        return Err(format!(
            "no training positions left after the filters ({} positions, {} dropped: {})",
            ds.positions,
            ds.dropped.total(),
            ds.dropped
        ));
    }
    let pool = thread_pool(opts.threads)?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    let feats = Features::new();
    let fitted = pool.install(|| fit_k(&ds.train));
    let k = match fitted {
        Some(f) if opts.fit_k => f,
        _ => opts.k,
    };
    if let Some(f) = fitted {
        progress(&format!(
            "K fitted to the training positions' scores and results: {f:.0} (using K {k:.0})"
        ));
    }
    let cfg = LossCfg { k, wdl: opts.wdl };
    let h = opts.hidden;
    if opts.buckets > 1 {
        progress(&bucket_histogram(ds, opts.buckets));
    }
    let mut model = match &opts.init {
        Some(net) => Model::from_network(net),
        None => Model::init(h, opts.buckets, opts.seed),
    };
    let mut adam = Adam::new(model.p.len());
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker {
            grad: vec![0.0; model.p.len()],
            acc: vec![0.0; 4 * h],
            loss: 0.0,
        })
        .collect();
    let has_valid = !ds.valid.is_empty();
    let initial_valid_loss = pool.install(|| mean_loss(&model, &feats, &ds.valid, cfg, threads));
    let mut best_loss = if has_valid {
        initial_valid_loss
    } else {
        f64::INFINITY
    };
    let mut best = model.clone();
    let mut best_epoch = 0;
    let mut since_best = 0;
    progress(&format!(
        "epoch 0  valid_loss {initial_valid_loss:.6}  hidden {h}  buckets {}  threads {threads}",
        opts.buckets
    ));

    let mut order: Vec<u32> = (0..ds.train.len() as u32).collect();
    let mut rng = Rng(opts.seed ^ 0x7368_7566_666c_6521);
    let steps_per_epoch = ds.train.len().div_ceil(opts.batch);
    let total_steps = (steps_per_epoch * opts.epochs) as f64;
    let mut step = 0usize;
    let mut epoch_rates = Vec::new();
    let mut train_time = 0.0;
    let mut epochs = 0;
    let lr_at = |step: usize| -> f32 {
        if step < opts.warmup_steps {
            opts.lr * (step + 1) as f32 / opts.warmup_steps as f32
        } else {
            let x = step as f64 / total_steps;
            let cos = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
            opts.lr * (opts.lr_final + (1.0 - opts.lr_final) * cos as f32)
        }
    };
    for epoch in 1..=opts.epochs {
        let t0 = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss_sum = 0.0;
        for idx in order.chunks(opts.batch) {
            let lr = lr_at(step);
            loss_sum +=
                pool.install(|| batch_grad(&model, &feats, &ds.train, idx, cfg, &mut workers));
            adam.step(&mut model, &workers[0].grad, lr, opts.weight_decay);
            step += 1;
        }
        let dt = t0.elapsed().as_secs_f64();
        train_time += dt;
        let rate = ds.train.len() as f64 / dt.max(1e-9);
        epoch_rates.push(rate);
        epochs = epoch;
        let train_loss = loss_sum / ds.train.len() as f64;
        let valid_loss = pool.install(|| mean_loss(&model, &feats, &ds.valid, cfg, threads));
        let lr = lr_at(step - 1);
        progress(&format!(
            "epoch {epoch}  train_loss {train_loss:.6}  valid_loss {valid_loss:.6}  lr {lr:.6}  positions/s {rate:.0}  elapsed {:.1}",
            start.elapsed().as_secs_f64()
        ));
        if !train_loss.is_finite() {
            return Err(format!(
                "the training loss diverged at epoch {epoch} (try a lower learning rate)"
            ));
        }
        let watched = if has_valid { valid_loss } else { train_loss };
        if watched < best_loss {
            best_loss = watched;
            best = model.clone();
            best_epoch = epoch;
            since_best = 0;
        } else {
            since_best += 1;
            if opts.patience > 0 && since_best >= opts.patience {
                progress(&format!(
                    "no better validation loss for {since_best} epochs: stopping, keeping epoch {best_epoch}"
                ));
                break;
            }
        }
    }
    let net = best.quantise();
    net.validate()?;
    Ok(TrainReport {
        games: ds.games,
        valid_games: ds.valid_games,
        positions: ds.positions,
        train_positions: ds.train.len(),
        valid_positions: ds.valid.len(),
        dropped: ds.dropped,
        k,
        epochs,
        best_epoch,
        initial_valid_loss,
        best_valid_loss: best_loss,
        elapsed_s: start.elapsed().as_secs_f64(),
        positions_per_s: (ds.train.len() * epochs) as f64 / train_time.max(1e-9),
        epoch_positions_per_s: epoch_rates,
        net,
    })
}

/// Writes a net file.
pub fn write_net(net: &Network, path: &Path) -> Result<(), String> {
    net.validate()?;
    std::fs::write(path, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
