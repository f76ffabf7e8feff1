//! Helpers shared by the engine tests: the perft suite reader and a deterministic walk
//! through random legal games.

#![allow(dead_code)]

use chariot::core::Position;
use std::path::PathBuf;

/// One line of `engine-tests/perft.epd`: a FEN and its counts by depth.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
    pub line: usize,
}

pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join(name)
}

/// Reads `FEN ;D1 n ;D2 n …` lines; `#` starts a comment line. The file is
/// `engine-tests/perft.epd`, or the one named by `CHARIOT_PERFT_EPD`.
pub fn perft_cases() -> Vec<PerftCase> {
    let path =
        std::env::var_os("CHARIOT_PERFT_EPD").map_or_else(|| data_path("perft.epd"), PathBuf::from);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts
            .next()
            .expect("split yields one part")
            .trim()
            .to_string();
        let counts = parts
            .map(|p| {
                let mut it = p.split_whitespace();
                let d = it
                    .next()
                    .and_then(|d| d.strip_prefix('D'))
                    .and_then(|d| d.parse().ok());
                let n = it.next().and_then(|n| n.parse().ok());
                match (d, n) {
                    (Some(d), Some(n)) => (d, n),
                    _ => panic!("perft.epd line {}: bad count '{p}'", i + 1),
                }
            })
            .collect();
        cases.push(PerftCase {
            fen,
            counts,
            line: i + 1,
        });
    }
    assert!(!cases.is_empty(), "perft.epd has no cases");
    cases
}

/// A small deterministic PRNG (xorshift64*), so that every run tests the same positions.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions met while playing `games` random legal games of up to `plies` plies from each
/// suite position (games stop at mate or stalemate).
pub fn sample_positions(games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(0x5eed_c4a2_1077_0001);
    let mut out = Vec::new();
    for case in perft_cases() {
        let root = Position::from_fen(&case.fen).expect("suite FENs are valid");
        for _ in 0..games {
            let mut pos = root.clone();
            out.push(pos.clone());
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
                out.push(pos.clone());
            }
        }
    }
    out
}

/// The case lines of a `|`-separated data file under `engine-tests/` (blank lines and
/// `#` comments skipped): each with its line number and its fields, trimmed.
pub fn field_lines(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| (n, l.split('|').map(|f| f.trim().to_string()).collect()))
        .collect()
}

/// `red`, `black`, `draw` or `ongoing`, as the rule data files write results.
pub fn parse_result(s: &str) -> Option<chariot::rules::GameResult> {
    use chariot::rules::GameResult;
    Some(match s {
        "red" => GameResult::RedWins,
        "black" => GameResult::BlackWins,
        "draw" => GameResult::Draw,
        "ongoing" => GameResult::Ongoing,
        _ => return None,
    })
}

/// Plays a case's ICCS moves from its FEN under `rules`, judging after every move: the
/// verdict after the last move, or an error when the game was decided before it. An illegal
/// move panics, naming `who` (the case's id and line).
pub fn play_case(
    who: &str,
    fen: &str,
    moves: &[String],
    rules: chariot::rules::RuleSet,
) -> Result<chariot::rules::Verdict, String> {
    use chariot::core::Move;
    use chariot::rules::adjudicate;
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{who}: {e}"));
    let mut early = None;
    for (ply, text) in moves.iter().enumerate() {
        let m = Move::parse_iccs(text)
            .filter(|&m| pos.is_legal(m))
            .unwrap_or_else(|| panic!("{who}: ply {} '{text}' is illegal", ply + 1));
        pos.make_move(m);
        if ply + 1 < moves.len() && early.is_none() {
            let v = adjudicate(&pos, rules);
            if v.is_over() {
                early = Some(format!(
                    "ended early at ply {}: {} ({})",
                    ply + 1,
                    v.result,
                    v.description
                ));
            }
        }
    }
    match early {
        Some(e) => Err(e),
        None => Ok(adjudicate(&pos, rules)),
    }
}
