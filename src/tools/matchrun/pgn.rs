//! PGN output in the xqbase style: `[Game "Chinese Chess"]`, Red/Black, the opening, the
//! time control, the result, a termination reason and `[Format "ICCS"]` (moves `H2-E2`),
//! or Chinese / WXF move text. `chariot judge --pgn` reads these files back.

use super::engine::MATE_SCORE;
use super::game::{GameRecord, PlayedMove};
use crate::core::Position;
use crate::core::notation::{to_chinese, to_wxf};
use crate::rules::GameResult;
use std::fmt::Write;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    Iccs,
    Chinese,
    Wxf,
}

impl Notation {
    pub fn parse(text: &str) -> Result<Notation, String> {
        match text.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "chinese" | "cn" => Ok(Notation::Chinese),
            "wxf" => Ok(Notation::Wxf),
            _ => Err(format!("unknown notation '{text}' (iccs, chinese or wxf)")),
        }
    }

    /// The `Format` tag value.
    fn tag(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Chinese => "Chinese",
            Notation::Wxf => "WXF",
        }
    }
}

/// Names and details the PGN needs beside the record.
pub struct PgnContext<'a> {
    pub event: &'a str,
    pub date: &'a str,
    pub red: &'a str,
    pub black: &'a str,
    pub time_control: String,
    pub rules: &'a str,
    /// Each engine move's score, depth and think time as a comment (`--pgn-comments`).
    pub comments: bool,
}

pub fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::RedWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Ongoing => "*",
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (the era/day-of-era method).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// An engine move's comment, as other match runners write it: the score from the mover's
/// side in pawns (`+M5`/`-M4`: a UCI `score mate` in that many moves; UCCI engines' mate
/// scores are shown as they gave them), a slash and the depth, then the think time in
/// seconds — `+0.35/14 1.234s`; what the engine did not report is left out.
pub fn move_comment(m: &PlayedMove) -> String {
    let mut s = String::new();
    if let Some(v) = m.score {
        if v.abs() > MATE_SCORE - 1000 {
            let sign = if v > 0 { '+' } else { '-' };
            let _ = write!(s, "{sign}M{}", MATE_SCORE - v.abs());
        } else {
            let _ = write!(s, "{:+.2}", f64::from(v) / 100.0);
        }
    }
    if let Some(d) = m.depth {
        let _ = write!(s, "/{d}");
    }
    if !s.is_empty() {
        s.push(' ');
    }
    let _ = write!(s, "{:.3}s", m.time.as_secs_f64());
    s
}

/// One game as PGN text, ending with a blank line.
pub fn game_pgn(rec: &GameRecord, ctx: &PgnContext, notation: Notation) -> String {
    let opening = &rec.setup.opening;
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    };
    tag("Game", "Chinese Chess");
    tag("Event", ctx.event);
    tag("Site", "chariot match");
    tag("Date", ctx.date);
    tag("Round", &format!("{}.{}", rec.setup.round, rec.setup.id));
    tag("Red", ctx.red);
    tag("Black", ctx.black);
    tag("Result", result_text(rec.result));
    let opening_text = match &opening.name {
        Some(n) => format!("{n} ({})", opening.source),
        None => opening.source.clone(),
    };
    tag("Opening", &opening_text);
    if let Some(fen) = &opening.fen {
        tag("FEN", fen);
    }
    tag("TimeControl", &ctx.time_control);
    tag("Rules", ctx.rules);
    tag("Termination", rec.termination.pgn_word());
    tag("Format", notation.tag());
    tag(
        "PlyCount",
        &(opening.moves.len() + rec.moves.len()).to_string(),
    );

    // the movetext: opening moves, a comment where the engines take over, then theirs
    let mut pos = match &opening.fen {
        Some(f) => Position::from_fen(f).expect("checked when the openings were read"),
        None => Position::startpos(),
    };
    let all: Vec<(crate::core::Move, bool)> = opening
        .moves
        .iter()
        .map(|&m| (m, true))
        .chain(rec.moves.iter().map(|p| (p.mv, false)))
        .collect();
    let mut body = String::new();
    let first_black = pos.side_to_move() == crate::core::Color::Black;
    let mut number = pos.fullmove_number().max(1);
    if first_black && !all.is_empty() {
        let _ = write!(body, "{number}... ");
    }
    for (i, &(m, book)) in all.iter().enumerate() {
        let red = pos.side_to_move() == crate::core::Color::Red;
        if red {
            let _ = write!(body, "{number}. ");
        }
        let text = match notation {
            Notation::Iccs => {
                let t = m.to_string().to_ascii_uppercase();
                format!("{}-{}", &t[..2], &t[2..])
            }
            Notation::Chinese => to_chinese(&pos, m),
            Notation::Wxf => to_wxf(&pos, m),
        };
        body.push_str(&text);
        body.push(' ');
        if book && (i + 1 == opening.moves.len()) {
            body.push_str("{opening} ");
        }
        if !book && ctx.comments {
            let played = &rec.moves[i - opening.moves.len()];
            let _ = write!(body, "{{{}}} ", move_comment(played));
        }
        pos.make_move(m);
        if !red {
            number += 1;
        }
    }
    let _ = write!(
        body,
        "{{{}}} {}",
        rec.reason.replace(['{', '}'], ""),
        result_text(rec.result)
    );
    s.push('\n');
    // wrap the movetext before 80 columns (comments may span lines in PGN); Chinese
    // characters take two columns
    let width = |t: &str| -> usize { t.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum() };
    let mut line = String::new();
    for word in body.split(' ') {
        if !line.is_empty() && width(&line) + width(word) >= 80 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(word);
        line.push(' ');
    }
    s.push_str(line.trim_end());
    s.push_str("\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_give_score_depth_and_time() {
        use std::time::Duration;
        let mv = crate::core::Move::parse_iccs("h2e2").unwrap();
        let at = |score, depth, ms| {
            move_comment(&PlayedMove {
                mv,
                score,
                depth,
                time: Duration::from_millis(ms),
            })
        };
        assert_eq!(at(Some(35), Some(14), 1234), "+0.35/14 1.234s");
        assert_eq!(at(Some(-120), Some(9), 5), "-1.20/9 0.005s");
        assert_eq!(at(Some(0), None, 1000), "+0.00 1.000s");
        assert_eq!(at(None, Some(3), 0), "/3 0.000s");
        assert_eq!(at(None, None, 20), "0.020s");
        // UCI `score mate 5` and `score mate -4`, as the engine link stores them
        assert_eq!(at(Some(MATE_SCORE - 5), Some(20), 1), "+M5/20 0.001s");
        assert_eq!(at(Some(-MATE_SCORE + 4), Some(20), 1), "-M4/20 0.001s");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }
}
