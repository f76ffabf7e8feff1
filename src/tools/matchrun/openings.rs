//! Openings for a match: a file of EPD/FEN lines, or a FEN (or `startpos`) followed by ICCS
//! moves, or bare ICCS move lines from the start position, or a game record (PGN, XQF: each
//! game's start and main line); taken in file order or shuffled with a fixed seed. `--book` reads the same EPD lines from a file that `chariot book
//! export` writes (see [`from_book_export`]).

use crate::core::{Move, Position, START_FEN};
use crate::records::{self, Format, pgn::looks_like_pgn, text};
use crate::rules::{RuleSet, adjudicate};
use std::path::Path;

/// A start for one game pair.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Where it came from (`file:line`, or `startpos`).
    pub source: String,
    /// A name from an EPD `id`/`c0` field, if any.
    pub name: Option<String>,
    /// The FEN the game starts from (None: the standard start position).
    pub fen: Option<String>,
    /// Moves played from that FEN before the engines take over.
    pub moves: Vec<Move>,
    /// The position after those moves, with their history.
    pub position: Position,
}

impl Opening {
    /// The standard start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            source: "startpos".into(),
            name: None,
            fen: None,
            moves: Vec::new(),
            position: Position::startpos(),
        }
    }
}

/// Reads an openings file. Each line (blank lines and lines starting with `#` are skipped):
/// - `FEN` or EPD: board, side, then optional `- - halfmove fullmove` and EPD operations
///   (`id "name";` or `c0 "name";` names the opening, the rest are ignored);
/// - `FEN [moves] m1 m2 …` or `startpos [moves] m1 m2 …`: ICCS moves played from it;
/// - `m1 m2 …`: ICCS moves from the start position.
///
/// Every line must give a legal position whose game is not already over under `rules`.
///
/// A game record (PGN in UTF-8 or GBK, or XQF; see `crate::records`) gives one opening per
/// game: its start position and its whole main line.
pub fn read_file(path: &Path, rules: RuleSet) -> Result<Vec<Opening>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let text = match Format::detect(&bytes, &name) {
        Format::Xqf => return from_records(&bytes, &name, rules),
        Format::Pgn => text::decode(&bytes).0,
    };
    if looks_like_pgn(&text) {
        return from_records(&bytes, &name, rules);
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim().trim_start_matches('\u{feff}');
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let source = format!("{name}:{}", i + 1);
        let opening = parse_line(l, source.clone(), rules).map_err(|e| format!("{source}: {e}"))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("openings {name}: no opening lines"));
    }
    Ok(out)
}

/// One opening per game of a record; a bad game is an error (its line names the game and
/// ply), as is a game that is already over.
fn from_records(bytes: &[u8], name: &str, rules: RuleSet) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for entry in records::read_bytes(bytes, name) {
        let g = entry.map_err(|b| b.error.to_string())?;
        let source = format!("{name}: game {}", g.number);
        let position = g.end();
        let v = adjudicate(&position, rules);
        if v.is_over() {
            return Err(format!(
                "{source}: the game is already over there ({}): not an opening",
                v.description
            ));
        }
        let label = match (g.tag("Opening"), g.tag("Variation")) {
            (Some(o), Some(v)) => Some(format!("{o} {v}")),
            (o, _) => o.or_else(|| g.tag("Title")).map(str::to_string),
        };
        out.push(Opening {
            source,
            name: label,
            fen: g.fen(),
            moves: g.moves.clone(),
            position,
        });
    }
    if out.is_empty() {
        return Err(format!("openings {name}: no games"));
    }
    Ok(out)
}

/// The `--book` hook: the openings `chariot book export` writes, one EPD line per book
/// line. They are the same format `--openings` reads, so this reads them the same way; the
/// book itself (src/book) is not consulted here.
pub fn from_book_export(path: &Path, rules: RuleSet) -> Result<Vec<Opening>, String> {
    read_file(path, rules).map_err(|e| format!("book export: {e}"))
}

/// An EPD operation `id "…"` or `c0 "…"` anywhere in the line.
fn epd_name(line: &str) -> Option<String> {
    for op in line.split(';') {
        let words: Vec<&str> = op.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "id" || *w == "c0") {
            let v = words[i + 1..].join(" ");
            let v = v.trim().trim_matches('"').trim();
            if !v.is_empty() {
                return Some(v.to_string());
            }
        }
    }
    None
}

fn parse_line(line: &str, source: String, rules: RuleSet) -> Result<Opening, String> {
    let name = epd_name(line);
    // EPD operations end with ';'; the first one starts right after the FEN fields
    let head = line.split(';').next().unwrap_or("");
    let tokens: Vec<&str> = head.split_whitespace().collect();
    let (fen, pos, rest) = if tokens
        .first()
        .is_some_and(|t| t.eq_ignore_ascii_case("startpos"))
    {
        (None, Position::startpos(), &tokens[1..])
    } else if tokens.first().is_some_and(|t| t.contains('/')) {
        // board, then side, then `- -` and the two counters when present
        let mut k = 1;
        if tokens
            .get(1)
            .is_some_and(|t| matches!(t.to_ascii_lowercase().as_str(), "w" | "r" | "b"))
        {
            k = 2;
            if tokens.get(2) == Some(&"-") && tokens.get(3) == Some(&"-") {
                k = 4;
                while k < 6 && tokens.get(k).is_some_and(|t| t.parse::<u16>().is_ok()) {
                    k += 1;
                }
            }
        }
        let text = tokens[..k].join(" ");
        let p = Position::from_fen(&text).map_err(|e| e.to_string())?;
        (Some(text), p, &tokens[k..])
    } else {
        (None, Position::startpos(), &tokens[..])
    };
    let mut pos = pos;
    let mut moves = Vec::new();
    let mut words = rest.iter().peekable();
    match words.peek() {
        Some(w) if w.eq_ignore_ascii_case("moves") => {
            words.next();
        }
        // after a FEN, a word that is not a move starts the EPD operations
        Some(w) if fen.is_some() && Move::parse_iccs(w).is_none() => {
            words.by_ref().for_each(drop);
        }
        _ => {}
    }
    for w in words {
        let m = Move::parse_iccs(w).ok_or_else(|| format!("'{w}' is not an ICCS move"))?;
        if !pos.is_legal(m) {
            return Err(format!(
                "move {} '{w}' is illegal in {}",
                moves.len() + 1,
                pos.fen()
            ));
        }
        pos.make_move(m);
        moves.push(m);
    }
    let v = adjudicate(&pos, rules);
    if v.is_over() {
        return Err(format!(
            "the game is already over there ({}): not an opening",
            v.description
        ));
    }
    Ok(Opening {
        source,
        name,
        fen: fen.filter(|f| {
            Position::from_fen(f).map(|p| p.fen()) != Position::from_fen(START_FEN).map(|p| p.fen())
        }),
        moves,
        position: pos,
    })
}

/// How openings are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// The order of play: the list as read, or shuffled by `seed` (Fisher–Yates with a
/// xorshift64* generator, so the same seed gives the same order on every machine).
pub fn arrange(mut openings: Vec<Opening>, order: Order, seed: u64) -> Vec<Opening> {
    if order == Order::Random {
        let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
        if state == 0 {
            state = 1;
        }
        let mut next = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        for i in (1..openings.len()).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            openings.swap(i, j);
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(l: &str) -> Result<Opening, String> {
        parse_line(l, "t".into(), RuleSet::Cxa)
    }

    #[test]
    fn every_line_form() {
        let o = line("h2e2 h9g7").unwrap();
        assert_eq!(o.fen, None);
        assert_eq!(o.moves.len(), 2);
        let o = line("startpos moves h2e2").unwrap();
        assert_eq!((o.fen.as_deref(), o.moves.len()), (None, 1));
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
        let o = line(fen).unwrap();
        assert_eq!(o.fen.as_deref(), Some(fen));
        assert!(o.moves.is_empty());
        let o = line(&format!("{fen} - - 0 1 moves h9g7 h0g2")).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.position.side_to_move(), crate::core::Color::Black);
        let o = line(&format!("{fen} - - 0 1; id \"central cannon\";")).unwrap();
        assert_eq!(o.name.as_deref(), Some("central cannon"));
        let o = line(&format!("{fen} - - id \"c2\"; c1 \"x\";")).unwrap();
        assert_eq!((o.name.as_deref(), o.moves.len()), (Some("c2"), 0));
        // a FEN with only board and side, then moves
        assert_eq!(line(&format!("{fen} h9g7")).unwrap().moves.len(), 1);
        // the standard start position written out is the start position
        assert_eq!(line(&format!("{START_FEN} h2e2")).unwrap().fen, None);
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(line("h2e3").unwrap_err().contains("illegal"));
        assert!(line("h2e2 xyz").unwrap_err().contains("not an ICCS move"));
        assert!(line("rnbakabnr/9/9 w").is_err());
        // a mated side to move: not an opening
        let e = line("3k5/9/9/9/9/9/9/9/3R5/3RK4 b").unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }

    #[test]
    fn pgn_games_are_openings() {
        let dir = std::env::temp_dir().join(format!("chariot-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.pgn");
        let pgn = "[Opening \"中炮\"]\n{x} 1. 炮二平五 马８进７ (1... 炮８平５) *\nnotes\n\
                   [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\"]\n1... h9g7 *\n";
        std::fs::write(&path, pgn).unwrap();
        let o = read_file(&path, RuleSet::Cxa).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name.as_deref(), Some("中炮"));
        assert_eq!(o[0].fen, None);
        assert_eq!(o[0].moves.len(), 2);
        assert!(o[0].source.ends_with("o.pgn: game 1"), "{}", o[0].source);
        assert!(o[1].fen.is_some());
        assert_eq!(o[1].position.side_to_move(), crate::core::Color::Red);
        std::fs::write(&path, "[Event \"x\"]\n1. h2e2 h2h9 *\n").unwrap();
        let e = read_file(&path, RuleSet::Cxa).unwrap_err();
        assert!(
            e.ends_with("o.pgn: game 1, ply 2: notation: 'h2h9' is illegal here"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shuffle_is_fixed_by_the_seed() {
        let all: Vec<Opening> = (0..20)
            .map(|i| {
                let mut o = Opening::startpos();
                o.source = i.to_string();
                o
            })
            .collect();
        let order = |seed| -> Vec<String> {
            arrange(all.clone(), Order::Random, seed)
                .into_iter()
                .map(|o| o.source)
                .collect()
        };
        assert_eq!(order(7), order(7));
        assert_ne!(order(7), order(8));
        let mut sorted = order(7);
        sorted.sort_by_key(|s| s.parse::<u32>().unwrap());
        assert_eq!(sorted, (0..20).map(|i| i.to_string()).collect::<Vec<_>>());
        let seq: Vec<String> = arrange(all.clone(), Order::Sequential, 7)
            .into_iter()
            .map(|o| o.source)
            .collect();
        assert_eq!(seq, (0..20).map(|i| i.to_string()).collect::<Vec<_>>());
    }
}
