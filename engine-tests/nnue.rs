//! The neural evaluation: incremental accumulators against full refreshes, the AVX2 kernel
//! against the portable one, symmetry, net files, and the search with the net.

use chariot::core::{Color, Position};
use chariot::engine::{Engine, Options};
use chariot::eval::nnue::accumulator::{
    evaluate_full_with, random_bucketed_network, random_network,
};
use chariot::eval::nnue::features::material_bucket;
use chariot::eval::nnue::format::Network;
use chariot::eval::nnue::simd::{self, Kernel};
use chariot::eval::nnue::{EMBEDDED, NnueEval, evaluate_full, load_file};
use chariot::search::Limits;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The position after fewer than `max_plies` random legal moves from the start.
fn random_walk(rng: &mut Rng, max_plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..rng.below(max_plies) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.make_move(legal.as_slice()[rng.below(legal.len())]);
    }
    pos
}

/// The board rotated 180° with the colours swapped and the other side to move.
fn colour_flip(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board: Vec<String> = parts
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .rev()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if parts.next() == Some("w") { "b" } else { "w" };
    format!("{} {side}", board.join("/"))
}

/// The board mirrored left-right.
fn mirror(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board: Vec<String> = parts
        .next()
        .unwrap()
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {}", board.join("/"), parts.next().unwrap())
}

/// Random games (captures, checks, null moves, unmakes and other lines): the incremental
/// evaluation equals a full refresh after every move, for each kernel, and the two kernels
/// agree, for a net of architecture 1 and one of architecture 2 (8 material buckets). One
/// evaluator per kernel and net serves every game.
#[test]
fn incremental_updates_equal_full_refreshes_over_1000_games() {
    let nets = [
        random_network(64, 0x5eed),
        random_bucketed_network(64, 8, 0xb0c4),
    ];
    let mut per_bucket = [0usize; 8];
    let kernels: Vec<Kernel> = [Kernel::Portable, Kernel::Avx2]
        .into_iter()
        .filter(|&k| simd::available(k))
        .collect();
    if kernels.len() == 1 {
        eprintln!("note: no AVX2 on this CPU; only the portable kernel was checked");
    }
    let mut evals: Vec<Vec<NnueEval>> = nets
        .iter()
        .map(|_| kernels.iter().map(|&k| NnueEval::with_kernel(k)).collect())
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut captures, mut nulls, mut unmakes) = (0usize, 0usize, 0usize, 0usize);
    let mut black_to_move = 0usize;
    for _ in 0..1000 {
        let mut pos = Position::startpos();
        let plies = 20 + rng.below(180);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let r = rng.below(100);
            if r < 4 && !pos.in_check() {
                pos.make_null();
                nulls += 1;
            } else if r < 10 && !pos.history().is_empty() {
                // step back and go another way
                let back = 1 + rng.below(pos.history().len().min(4));
                for _ in 0..back {
                    if pos.history().last().and_then(|u| u.mv).is_some() {
                        pos.unmake_move();
                    } else {
                        pos.unmake_null();
                    }
                }
                unmakes += back;
            } else {
                let m = legal.as_slice()[rng.below(legal.len())];
                captures += usize::from(pos.piece_on(m.to()).is_some());
                pos.make_move(m);
            }
            // evaluate only now and then, as a search does (longer walks between)
            if rng.below(3) == 0 {
                continue;
            }
            for (net, evals) in nets.iter().zip(&mut evals) {
                let expect = evaluate_full_with(Kernel::Portable, net, &pos);
                for (e, &k) in evals.iter_mut().zip(&kernels) {
                    assert_eq!(
                        e.evaluate(net, &pos),
                        expect,
                        "{k:?} incremental differs from the refresh ({} buckets): {}",
                        net.buckets,
                        pos.fen()
                    );
                    assert_eq!(evaluate_full_with(k, net, &pos), expect, "{k:?} refresh");
                }
            }
            per_bucket[material_bucket(&pos, 8)] += 1;
            checked += 1;
            black_to_move += usize::from(pos.side_to_move() == Color::Black);
        }
    }
    assert!(checked > 50_000, "{checked} positions checked");
    eprintln!("{checked} positions, {captures} captures, {nulls} null moves, {unmakes} unmade");
    assert!(captures > 5_000 && nulls > 1_000 && unmakes > 1_000);
    assert!(black_to_move > checked / 3);
    eprintln!("architecture 2's buckets: {per_bucket:?}");
    assert!(
        per_bucket.iter().filter(|&&n| n > 1000).count() >= 3,
        "{per_bucket:?}"
    );
}

/// A net's output scale S multiplies each evaluation by S / 400 (the one truncation apart),
/// for the shipped net and a bucketed one, and the scaled net travels through its file.
#[test]
fn the_output_scale_multiplies_every_evaluation() {
    let shipped: Network = (**EMBEDDED).clone();
    for net in [shipped, random_bucketed_network(64, 8, 0x5ca1e)] {
        let mut rng = Rng(0xface);
        let mut large = 0;
        for _ in 0..300 {
            let pos = random_walk(&mut rng, 120);
            let base = evaluate_full(&net, &pos);
            if base.abs() >= 5_000 {
                continue; // clear of the ±20,000 clamp at four times the scale
            }
            large += usize::from(base.abs() >= 200);
            for scale in [100, 200, 372, 800, 1600] {
                let mut scaled = net.clone();
                scaled.scale = scale;
                let scaled = Network::from_bytes(&scaled.to_bytes()).unwrap();
                let got = f64::from(evaluate_full(&scaled, &pos));
                let want = f64::from(base) * f64::from(scale) / 400.0;
                assert!(
                    (got - want).abs() < 1.0 + f64::from(scale) / 400.0,
                    "scale {scale}: {got} against {want} ({base} at 400): {}",
                    pos.fen()
                );
            }
        }
        assert!(
            large > 50,
            "{large} positions with a score of 2 pawns or more"
        );
    }
}

/// A colour-flipped or mirrored position evaluates the same (the net sees each side from its
/// own side, and averages the board and its mirror image).
#[test]
fn colour_flips_and_mirrors_evaluate_the_same() {
    for net in [random_network(128, 77), random_bucketed_network(128, 8, 78)] {
        flips_and_mirrors(&net);
    }
}

fn flips_and_mirrors(net: &Network) {
    let mut rng = Rng(12345);
    let mut distinct = 0;
    for _ in 0..300 {
        let pos = random_walk(&mut rng, 80);
        let fen = pos.fen();
        let e = evaluate_full(net, &pos);
        for other in [colour_flip(&fen), mirror(&fen), mirror(&colour_flip(&fen))] {
            let p = Position::from_fen(&other).unwrap();
            assert_eq!(evaluate_full(net, &p), e, "{fen} vs {other}");
            assert_eq!(material_bucket(&p, 8), material_bucket(&pos, 8));
        }
        // and the net does tell positions apart
        let flipped_side = Position::from_fen(&format!(
            "{} {}",
            fen.split_whitespace().next().unwrap(),
            if pos.side_to_move() == Color::Red {
                "b"
            } else {
                "w"
            }
        ));
        if let Ok(p) = flipped_side
            && evaluate_full(net, &p) != e
        {
            distinct += 1;
        }
    }
    assert!(
        distinct > 200,
        "the side to move changes the score ({distinct})"
    );
}

/// Damaged, truncated and foreign net files are refused through the engine with one line,
/// and the net in use stays.
#[test]
fn bad_net_files_are_refused_and_the_net_stays() {
    let dir = std::env::temp_dir().join(format!("chariot-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = random_network(32, 3).to_bytes();
    let bucketed = random_bucketed_network(32, 8, 4).to_bytes();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() - 10].to_vec()),
        ("corrupt", {
            let mut b = good.clone();
            b[200] ^= 0x40;
            b
        }),
        ("arch", {
            let mut b = good.clone();
            b[12] = 9;
            b
        }),
        ("arch2-as-1", {
            let mut b = good.clone();
            b[12] = 2;
            b
        }),
        ("buckets", {
            let mut b = bucketed.clone();
            b[36] = 5;
            b
        }),
        ("buckets-payload", {
            let mut b = bucketed.clone();
            b[36] = 2;
            b
        }),
        ("bucketed-corrupt", {
            let mut b = bucketed.clone();
            let at = b.len() - 2;
            b[at] ^= 1;
            b
        }),
        ("scale", {
            let mut b = good.clone();
            b[32..36].copy_from_slice(&0u32.to_le_bytes());
            b
        }),
        ("empty", Vec::new()),
        ("text", b"this is not a net".to_vec()),
    ];
    let mut engine = Engine::new(Options::default());
    let before = engine.eval_description();
    for (name, bytes) in &cases {
        let path = dir.join(format!("{name}.nnue"));
        std::fs::write(&path, bytes).unwrap();
        let err = engine.set_eval_file(path.to_str().unwrap()).unwrap_err();
        assert!(!err.contains('\n'), "{name}: {err}");
        assert!(load_file(&path).is_err());
        assert_eq!(engine.eval_description(), before, "{name}");
    }
    let path = dir.join("good.nnue");
    std::fs::write(&path, &good).unwrap();
    let text = engine.set_eval_file(path.to_str().unwrap()).unwrap();
    assert!(text.contains("32 hidden"), "{text}");
    assert!(!text.contains("scale"), "{text}");
    assert_eq!(Network::from_bytes(&good).unwrap().hidden, 32);
    // a net of another output scale says so
    let mut scaled = Network::from_bytes(&good).unwrap();
    scaled.scale = 372;
    let path = dir.join("scaled.nnue");
    std::fs::write(&path, scaled.to_bytes()).unwrap();
    let text = engine.set_eval_file(path.to_str().unwrap()).unwrap();
    assert!(text.contains("output scale 372"), "{text}");
    // an architecture-2 net loads, and a damaged file after it leaves it in use
    let path = dir.join("bucketed.nnue");
    std::fs::write(&path, &bucketed).unwrap();
    let text = engine.set_eval_file(path.to_str().unwrap()).unwrap();
    assert!(text.contains("8 material output buckets"), "{text}");
    let now = engine.eval_description();
    let bad = dir.join("buckets.nnue");
    assert!(engine.set_eval_file(bad.to_str().unwrap()).is_err());
    assert_eq!(engine.eval_description(), now);
    std::fs::remove_dir_all(&dir).ok();
}

/// The search with the net: deterministic node counts, a legal move, and the net's own
/// static evaluation at depth 1 of a quiet position tracks `evaluate_full`.
#[test]
fn searches_with_the_net_are_deterministic() {
    let run = || {
        let mut e = Engine::new(Options::default());
        e.set_eval("nnue").unwrap();
        e.set_position(None, &["h2e2", "h9g7"]).unwrap();
        e.go(
            Limits {
                depth: Some(7),
                ..Limits::default()
            },
            |_| {},
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
    assert!(a.best.is_some());
    assert!(EMBEDDED.hidden >= 16);
}
