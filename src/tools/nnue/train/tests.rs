//! Tests of the trainer: loading and filters, gradients, quantisation, whole runs.

use super::model::*;
use super::samples::*;
use super::*;
use crate::core::{Color, Move, Piece, PieceType, Position, Square};
use crate::eval::nnue::format::{QA, SCALE};
use crate::rules::GameResult;
use crate::tools::nnue::data::{self, GameRecord, NO_SCORE};

fn mv(text: &str) -> Move {
    Move::parse_iccs(text).unwrap()
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chariot-train-{}-{name}", std::process::id()))
}

/// The same games in other files, in another order, give the same training and
/// validation sets (generation writes games in the order they finish).
#[test]
fn the_order_of_games_and_files_changes_nothing() {
    let games = random_games(40, 30, 5);
    let mut reversed = games.clone();
    reversed.reverse();
    let a = write_games("order-a", &games[..20]);
    let b = write_games("order-b", &games[20..]);
    let c = write_games("order-c", &reversed);
    let opts = TrainOptions {
        valid: 0.2,
        ..TrainOptions::default()
    };
    let x = load(&[a.clone(), b.clone()], &opts).unwrap();
    let y = load(std::slice::from_ref(&c), &opts).unwrap();
    let z = load(&[b.clone(), a.clone()], &opts).unwrap();
    assert!(!x.train.is_empty() && !x.valid.is_empty());
    assert_eq!((&x.train, &x.valid), (&y.train, &y.valid));
    assert_eq!((&x.train, &x.valid), (&z.train, &z.valid));
    for p in [a, b, c] {
        std::fs::remove_file(p).ok();
    }
}

fn write_games(name: &str, games: &[GameRecord]) -> PathBuf {
    let path = temp_path(name);
    let mut bytes = Vec::new();
    data::write_header(&mut bytes).unwrap();
    for g in games {
        g.encode(&mut bytes);
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Nine plies from a sparse position, one of each kind of dropped position.
fn filter_game() -> GameRecord {
    let plies: [(&str, i16); 9] = [
        ("e9f9", 0),    // Black in check (rook e1)
        ("e1e3", 300),  // kept
        ("f9f8", -300), // kept
        ("e3a3", 400),  // captures the pawn
        ("f8f9", NO_SCORE),
        ("a3f3", 29990),  // a mate score
        ("f9e9", -29990), // in check (rook f3)
        ("f3f4", 5000),   // beyond the score cap
        ("e9e8", -100),   // kept
    ];
    GameRecord {
        start_fen: "4k4/9/9/9/9/9/p8/9/4R4/3K5 b - - 0 1".into(),
        result: GameResult::RedWins,
        moves: plies.iter().map(|&(m, s)| (mv(m), s)).collect(),
    }
}

#[test]
fn loading_applies_each_filter() {
    let g = filter_game();
    let mut seen = Vec::new();
    g.replay(|pos, m, _| seen.push((pos.in_check(), pos.piece_on(m.to()).is_some())))
        .unwrap();
    let (check, capture, quiet) = ((true, false), (false, true), (false, false));
    assert_eq!(
        seen,
        [
            check, quiet, quiet, capture, quiet, quiet, check, quiet, quiet
        ]
    );
    let path = write_games("filters.games", &[g.clone(), g.clone()]);
    let files = [path.clone()];
    let opts = TrainOptions {
        valid: 0.0,
        ..TrainOptions::default()
    };
    let ds = load(&files, &opts).unwrap();
    assert_eq!(ds.positions, 18);
    let expected = Dropped {
        opening: 0,
        unscored: 2,
        in_check: 4,
        capture: 2,
        mate: 2,
        score_cap: 2,
    };
    assert_eq!(ds.dropped, expected);
    assert_eq!((ds.train.len(), ds.valid.len(), ds.valid_games), (6, 0, 0));
    let kept: Vec<(i16, u8, u8)> = ds.train[..3]
        .iter()
        .map(|s| (s.score, s.stm(), s.result()))
        .collect();
    // Red wins: a win for Red to move (stm 0), a loss for Black to move
    assert_eq!(kept, [(300, 0, 2), (-300, 1, 0), (-100, 1, 0)]);
    assert_eq!(ds.train[0].codes(&mut [0; 32]).len(), 4);

    let open = TrainOptions {
        skip_plies: 3,
        ..opts.clone()
    };
    let ds = load(&files, &open).unwrap();
    assert_eq!(ds.dropped.opening, 6);
    assert_eq!(ds.dropped.in_check, 2);
    assert_eq!(ds.train.len(), 2);

    let none = TrainOptions {
        max_score: None,
        skip_unscored: false,
        skip_checks: false,
        skip_captures: false,
        skip_mates: false,
        ..opts.clone()
    };
    let ds = load(&files, &none).unwrap();
    assert_eq!(ds.dropped, Dropped::default());
    assert_eq!(ds.train.len(), 18);
    // an unscored position kept on purpose learns the result alone
    assert_eq!(ds.train[4].target(400.0, 0.25), 0.0);

    let capped = TrainOptions {
        max_score: Some(250),
        ..opts.clone()
    };
    let ds = load(&files, &capped).unwrap();
    // ±300 now beyond the cap as well as 5000
    assert_eq!(ds.dropped.score_cap, 6);
    std::fs::remove_file(&path).unwrap();

    let err = load(&[temp_path("missing.games")], &opts).unwrap_err();
    assert!(err.contains("cannot read") && !err.contains('\n'), "{err}");
}

#[test]
fn validation_takes_whole_games_reproducibly() {
    let path = write_games("split.games", &vec![filter_game(); 60]);
    let opts = TrainOptions {
        valid: 0.25,
        ..TrainOptions::default()
    };
    let a = load(std::slice::from_ref(&path), &opts).unwrap();
    let b = load(std::slice::from_ref(&path), &opts).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(a.valid.len(), 3 * a.valid_games);
    assert_eq!(a.train.len() + a.valid.len(), 180);
    assert!((5..=25).contains(&a.valid_games), "{}", a.valid_games);
    assert_eq!((a.valid_games, a.train), (b.valid_games, b.train));
}

fn material(pos: &Position) -> i16 {
    let mut sum = 0;
    for sq in Square::ALL {
        if let Some(p) = pos.piece_on(sq) {
            let v = match p.kind() {
                PieceType::King => 0,
                PieceType::Advisor | PieceType::Elephant => 150,
                PieceType::Horse => 400,
                PieceType::Rook => 900,
                PieceType::Cannon => 450,
                PieceType::Pawn => 100,
            };
            sum += if p.color() == pos.side_to_move() {
                v
            } else {
                -v
            };
        }
    }
    sum
}

/// Random games scored by material; the result follows the final material.
fn random_games(n: usize, plies: usize, seed: u64) -> Vec<GameRecord> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal.as_slice()[rng.below(legal.len())];
                moves.push((m, material(&pos)));
                pos.make_move(m);
            }
            let red = material(&pos)
                * if pos.side_to_move() == Color::Red {
                    1
                } else {
                    -1
                };
            GameRecord {
                start_fen: Position::startpos().fen(),
                result: match red {
                    r if r > 200 => GameResult::RedWins,
                    r if r < -200 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                },
                moves,
            }
        })
        .collect()
}

fn samples_of(games: &[GameRecord]) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        g.replay(|pos, _, s| out.push(Sample::new(pos, s, g.result).unwrap()))
            .unwrap();
    }
    out
}

#[test]
fn a_sample_is_32_bytes_and_gives_back_every_piece_and_label() {
    assert_eq!(std::mem::size_of::<Sample>(), 32);
    let games = random_games(40, 160, 17);
    let mut seen = 0;
    for g in &games {
        g.replay(|pos, _, score| {
            let s = Sample::new(pos, score, g.result).unwrap();
            let want: Vec<u16> = Square::ALL
                .iter()
                .filter_map(|&sq| {
                    pos.piece_on(sq)
                        .map(|p| (p.index() * 90 + sq.index()) as u16)
                })
                .collect();
            assert_eq!(s.codes(&mut [0; 32]), want.as_slice(), "{}", pos.fen());
            let stm = pos.side_to_move();
            assert_eq!(s.stm(), stm as u8);
            let half = match g.result.winner() {
                Some(c) if c == stm => 2,
                Some(_) => 0,
                None => 1,
            };
            assert_eq!((s.result(), s.score), (half, score));
            assert_eq!(usize::from(s.material), features::material_count(pos));
            seen += 1;
        })
        .unwrap();
    }
    assert!(seen > 1000, "{seen}");
    // the start position's 32 pieces fill every half-byte
    let start = Sample::new(&Position::startpos(), 0, GameResult::Draw).unwrap();
    assert_eq!(start.codes(&mut [0; 32]).len(), 32);
    let last = Piece::new(Color::Black, PieceType::Rook).index() * 90 + 89;
    assert_eq!(
        start.codes(&mut [0; 32])[31],
        last as u16,
        "i9 holds a black rook"
    );
}

fn worker(h: usize, b: usize) -> Worker {
    Worker {
        grad: vec![0.0; param_count(h, b)],
        acc: vec![0.0; 4 * h],
        loss: 0.0,
    }
}

/// A model of width 16 whose hidden values sit mostly inside (0, 1), so that every
/// path carries gradient.
fn lively_model(seed: u64, b: usize) -> Model {
    let mut model = Model::init(16, b, seed);
    let (b1o, w2o, b2o) = offsets(16, b);
    model.p[b1o..w2o].fill(0.4);
    for w in &mut model.p[w2o..b2o] {
        *w *= 4.0;
    }
    for (i, x) in model.p[b2o..].iter_mut().enumerate() {
        *x = 0.05 - 0.01 * i as f32;
    }
    model
}

#[test]
fn analytic_gradient_matches_finite_differences() {
    for b in [1, 8] {
        gradient_check(b);
    }
}

fn gradient_check(b: usize) {
    let feats = Features::new();
    let samples: Vec<Sample> = samples_of(&random_games(3, 60, 5))
        .into_iter()
        .step_by(6)
        .collect();
    let model = lively_model(3, b);
    let cfg = LossCfg { k: 200.0, wdl: 0.3 };
    let idx: Vec<u32> = (0..samples.len() as u32).collect();
    let mut workers = vec![worker(16, b), worker(16, b)];
    let loss = batch_grad(&model, &feats, &samples, &idx, cfg, &mut workers);
    let mean = mean_loss(&model, &feats, &samples, cfg, 1);
    assert!((loss / samples.len() as f64 - mean).abs() < 1e-9);
    let g = workers[0].grad.clone();
    let (b1o, w2o, b2o) = offsets(16, b);
    let s0 = &samples[0];
    let mut buf = [0u16; 32];
    let codes0 = s0.codes(&mut buf);
    let row = |k: usize, i: usize| feats.table(s0.stm(), k)[codes0[i] as usize] as usize * 16;
    // the output layer of the start position's bucket, and of the last sample's
    let (bk, bl) = (s0.bucket(b), samples[samples.len() - 1].bucket(b));
    if b > 1 {
        assert_ne!(bk, bl, "the samples span one bucket only");
    }
    // a bucket no sample falls in gets no gradient
    for other in 0..b {
        let used = samples.iter().any(|s| s.bucket(b) == other);
        let lo = w2o + other * 32;
        let any = g[lo..lo + 32]
            .iter()
            .chain([&g[b2o + other]])
            .any(|&x| x != 0.0);
        assert_eq!(any, used, "bucket {other}");
    }
    let params = [
        b2o + bk,
        b2o + bl,
        w2o + bk * 32,
        w2o + bk * 32 + 5,
        w2o + bk * 32 + 16 + 3,
        w2o + bl * 32 + 16 + 7,
        b1o,
        b1o + 9,
        row(0, 0),
        row(0, 0) + 7,
        row(1, 3) + 2,
        row(2, 5) + 11,
        row(3, 8) + 15,
    ];
    let eps = 1e-3f32;
    for &p in &params {
        let mut m = model.clone();
        m.p[p] += eps;
        let up = mean_loss(&m, &feats, &samples, cfg, 1);
        m.p[p] = model.p[p] - eps;
        let down = mean_loss(&m, &feats, &samples, cfg, 1);
        let fd = (up - down) / (2.0 * f64::from(eps));
        let an = f64::from(g[p]);
        assert!(an != 0.0, "parameter {p} has no gradient");
        assert!(
            (fd - an).abs() <= 0.02 * an.abs().max(fd.abs()) + 2e-6,
            "parameter {p}: analytic {an:e}, finite difference {fd:e}"
        );
    }
}

/// The AVX2 build of the hot loops gives bit for bit the plain build's gradient and loss
/// (so a run does not depend on the CPU it runs on).
#[cfg(target_arch = "x86_64")]
#[test]
fn avx2_and_plain_builds_agree_exactly() {
    if !std::arch::is_x86_feature_detected!("avx2") {
        return;
    }
    let feats = Features::new();
    let samples = samples_of(&random_games(2, 80, 13));
    let idx: Vec<u32> = (0..samples.len() as u32).rev().collect();
    let model = lively_model(8, 4);
    let cfg = LossCfg {
        k: 400.0,
        wdl: 0.25,
    };
    let (mut a, mut b) = (worker(16, 4), worker(16, 4));
    chunk_grad(&model, &feats, &samples, &idx, cfg, 0.01, &mut a);
    // SAFETY: the CPU has AVX2, checked above.
    unsafe { chunk_grad_avx2(&model, &feats, &samples, &idx, cfg, 0.01, &mut b) };
    assert!(a.loss > 0.0 && a.grad.iter().any(|&g| g != 0.0));
    assert_eq!(a.loss.to_bits(), b.loss.to_bits());
    assert!(
        a.grad
            .iter()
            .zip(&b.grad)
            .all(|(x, y)| x.to_bits() == y.to_bits())
    );
    let plain = chunk_loss(&model, &feats, &samples, cfg);
    // SAFETY: as above.
    let wide = unsafe { chunk_loss_avx2(&model, &feats, &samples, cfg) };
    assert_eq!(plain.to_bits(), wide.to_bits());
}

/// The quantised net's evaluation, straight from the format's doc, in integers.
fn integer_eval(net: &Network, s: &Sample) -> i64 {
    let h = net.hidden;
    let w2 = &net.out_weights[s.bucket(net.buckets) * 2 * h..];
    let stm = if s.stm() == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut sum = 0i64;
    for mirror in [false, true] {
        for (half, persp) in [(0, stm), (1, !stm)] {
            let mut acc: Vec<i32> = net.l1_bias.iter().map(|&b| i32::from(b)).collect();
            for &code in s.codes(&mut [0; 32]) {
                let piece = Piece::ALL[code as usize / 90];
                let sq = Square::from_index((code % 90) as u8);
                let f = features::index(persp, piece, sq, mirror);
                for (a, &w) in acc.iter_mut().zip(&net.l1_weights[f * h..(f + 1) * h]) {
                    *a += i32::from(w);
                }
            }
            for (i, &a) in acc.iter().enumerate() {
                assert!(i16::try_from(a).is_ok(), "accumulator {a} overflows an i16");
                let c = i64::from(a.clamp(0, QA));
                sum += c * c * i64::from(w2[half * h + i]);
            }
        }
    }
    let (qa, qb) = (i64::from(QA), i64::from(QB));
    let bias = net.out_bias[s.bucket(net.buckets)];
    (sum / qa + 2 * i64::from(bias)) * i64::from(SCALE) / (2 * qa * qb)
}

#[test]
fn quantised_net_agrees_with_the_float_model() {
    for b in [1, 8] {
        quantised_check(b);
    }
}

fn quantised_check(b: usize) {
    let feats = Features::new();
    let games = random_games(4, 100, 9);
    let samples = samples_of(&games);
    let model = lively_model(21, b);
    let net = model.quantise();
    net.validate().unwrap();
    assert_eq!(net.buckets, b);
    // the engine's evaluation (its bucket from the board) is the integer formula (the
    // bucket from the sample)
    let mut i = 0;
    for g in &games {
        g.replay(|pos, _, _| {
            let engine = crate::eval::nnue::evaluate_full(&net, pos);
            assert_eq!(i64::from(engine), integer_eval(&net, &samples[i]));
            i += 1;
        })
        .unwrap();
    }
    assert_eq!(i, samples.len());
    if b > 1 {
        let used: std::collections::BTreeSet<usize> = samples.iter().map(|s| s.bucket(b)).collect();
        assert!(used.len() >= 2, "buckets {used:?}");
    }
    // the float model with the quantised weights: only the integer divisions differ
    let (b1o, w2o, b2o) = offsets(16, b);
    let mut deq = model.clone();
    for (i, p) in deq.p.iter_mut().enumerate() {
        *p = if i < w2o {
            let q = if i < b1o {
                net.l1_weights[i]
            } else {
                net.l1_bias[i - b1o]
            };
            f32::from(q) / QA as f32
        } else if i < b2o {
            f32::from(net.out_weights[i - w2o]) / QB as f32
        } else {
            net.out_bias[i - b2o] as f32 / (QA * QB) as f32
        };
    }
    let (mut worst_deq, mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0, 0.0f32);
    for s in &samples {
        let int = integer_eval(&net, s) as f32;
        worst_deq = worst_deq.max((int - deq.eval_cp(&feats, s)).abs());
        let err = (int - model.eval_cp(&feats, s)).abs();
        worst = worst.max(err);
        total += err;
        spread = spread.max(int.abs());
    }
    let mean = total / samples.len() as f32;
    assert!(spread > 100.0, "the evaluations are all near 0 ({spread})");
    assert!(
        worst_deq <= 1.5,
        "integer vs dequantised float: {worst_deq} cp"
    );
    // rounding W1 to 1/255 moves this (large-output-weight) model's evaluation by a few
    // centipawns: 13 at worst over these positions (one bucket; mean 4.5, worst 15 with
    // the 8 buckets' other output weights)
    assert!(
        mean <= 5.0 && worst <= 20.0,
        "integer vs float: mean {mean}, worst {worst} cp"
    );
}

#[test]
fn training_on_material_lowers_the_loss_and_writes_a_loadable_net() {
    train_material(1);
}

#[test]
fn a_bucketed_net_trains_and_writes_a_loadable_net() {
    train_material(8);
}

fn train_material(buckets: usize) {
    let name = format!("material-{buckets}");
    let path = write_games(&format!("{name}.games"), &random_games(60, 80, 11));
    let opts = TrainOptions {
        hidden: 32,
        buckets,
        epochs: 8,
        batch: 128,
        lr: 0.01,
        wdl: 0.0,
        valid: 0.2,
        patience: 0,
        threads: 2,
        ..TrainOptions::default()
    };
    let mut lines = Vec::new();
    let files = [path.clone()];
    let rep = train(&files, &opts, |l| lines.push(l.to_string())).unwrap();
    assert!(
        rep.train_positions >= 300 && rep.valid_positions >= 30,
        "{rep:?}"
    );
    assert_eq!(rep.epochs, 8);
    assert_eq!(rep.net.buckets, buckets);
    assert_eq!(lines.iter().filter(|l| l.starts_with("epoch ")).count(), 9);
    assert_eq!(
        lines.iter().any(|l| l.contains("per output bucket")),
        buckets > 1
    );
    assert!(
        // 12 random games hold the validation positions: their loss falls to about 0.6 of
        // the untrained net's (an untrained or broken trainer stays near 1.0)
        // (with 8 buckets, 8 output layers from random weights, each seeing its share of
        // the positions: 0.89 of it)
        rep.best_valid_loss < if buckets == 1 { 0.7 } else { 0.95 } * rep.initial_valid_loss,
        "validation loss {} from {}",
        rep.best_valid_loss,
        rep.initial_valid_loss
    );
    let out = temp_path(&format!("{name}.nnue"));
    write_net(&rep.net, &out).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes[12], if buckets == 1 { 1 } else { 2 });
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, rep.net);
    // the same seed and thread count give the same net
    let again = train(&files, &opts, |_| {}).unwrap();
    assert_eq!(again.net, rep.net);
    // fine-tuning starts where the trained net is, not from random weights
    let tuned = train(
        &files,
        &TrainOptions {
            init: Some(rep.net.clone()),
            epochs: 2,
            ..opts.clone()
        },
        |_| {},
    )
    .unwrap();
    assert!(
        (tuned.initial_valid_loss - rep.best_valid_loss).abs() < 0.05 * rep.best_valid_loss,
        "fine-tuning starts at {}, the trained net's loss is {}",
        tuned.initial_valid_loss,
        rep.best_valid_loss
    );
    assert!(tuned.best_valid_loss <= tuned.initial_valid_loss);
    // a start net of another shape is refused in one line
    let err = train(
        &files,
        &TrainOptions {
            init: Some(rep.net.clone()),
            hidden: 64,
            ..opts.clone()
        },
        |_| {},
    )
    .unwrap_err();
    assert!(err.contains("initial net has hidden width 32"), "{err}");
    assert!(!err.contains('\n'));
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn a_dequantised_net_quantises_back_to_itself() {
    for b in [1, 8] {
        let net = lively_model(5, b).quantise();
        assert_eq!(Model::from_network(&net).quantise(), net, "buckets {b}");
    }
}

#[test]
fn bad_options_are_refused() {
    let ds = Dataset::default();
    for opts in [
        TrainOptions {
            hidden: 100,
            ..TrainOptions::default()
        },
        TrainOptions {
            batch: 0,
            ..TrainOptions::default()
        },
        TrainOptions {
            k: 0.0,
            ..TrainOptions::default()
        },
        TrainOptions {
            buckets: 3,
            ..TrainOptions::default()
        },
    ] {
        assert!(train_on(&ds, &opts, |_| {}).is_err());
    }
    let err = train_on(&ds, &TrainOptions::default(), |_| {}).unwrap_err();
    assert!(err.contains("no training positions"), "{err}");
}
