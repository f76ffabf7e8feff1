//! `chariot judge`: the rule verdict for a game — who wins and why, clause by clause.
//! Moves come as ICCS, WXF or Chinese text from the command line or stdin, or as a game record
//! (PGN in UTF-8 or GBK, XQF) read by `records`.

use crate::core::notation::{parse_any, to_chinese};
use crate::core::{Move, Position};
use crate::records::{Entry, Game, pgn};
use crate::rules::{EndKind, GameResult, RuleSet, Verdict, adjudicate, asian};
use serde::Serialize;
use std::fmt::Write;

/// A game to judge: a start position and move texts.
pub struct GameText {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// The verdict on a game, with where it was reached.
pub struct Judgement {
    pub verdict: Verdict,
    /// Ply after which the game ended (or the number of moves, if it goes on).
    pub ply: usize,
    /// Moves given after the game had ended.
    pub ignored: usize,
    pub rules: RuleSet,
    /// Chinese notation of the last move played, when there is one.
    pub last_move: Option<String>,
}

/// Reads the movetext and tags of the first game of a PGN text (through
/// [`records::pgn`](crate::records::pgn): move numbers, comments, variations, NAGs, the
/// result and whatever follows it are dropped). The moves stay text; [`judge`] plays them.
pub fn parse_pgn(text: &str) -> Result<GameText, String> {
    let g = pgn::parse(text).into_iter().next().unwrap_or_default();
    Ok(GameText {
        fen: g.tag("FEN").map(str::to_string),
        moves: g.moves,
    })
}

/// Splits movetext into move tokens, dropping numbers, comments, variations, NAGs, results.
pub fn movetext_tokens(text: &str) -> Vec<String> {
    pgn::parse(text)
        .into_iter()
        .next()
        .map(|g| g.moves)
        .unwrap_or_default()
}

impl From<&Game> for GameText {
    fn from(g: &Game) -> GameText {
        GameText {
            fen: g.fen(),
            moves: g.iccs(),
        }
    }
}

/// Judges a game read by [`records`](crate::records). A game that could not be read to its
/// end is judged up to its bad move: if it had ended by then, the moves after the end are
/// ignored as usual; otherwise the reader's line (file, game, ply, reason) is the error.
pub fn judge_record(entry: &Entry, rules: RuleSet) -> Result<Judgement, String> {
    match entry {
        Ok(g) => judge(&GameText::from(g), rules),
        Err(bad) => {
            let Some(g) = &bad.partial else {
                return Err(bad.error.to_string());
            };
            let j = judge(&GameText::from(g), rules)?;
            if j.verdict.is_over() {
                Ok(Judgement {
                    ignored: j.ignored + bad.unread,
                    ..j
                })
            } else {
                Err(bad.error.to_string())
            }
        }
    }
}

/// Plays the moves, judging after each: the first decisive event ends the game.
pub fn judge(game: &GameText, rules: RuleSet) -> Result<Judgement, String> {
    let mut pos = match &game.fen {
        Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    let mut verdict = adjudicate(&pos, rules);
    let mut ply = 0;
    let mut last_move = None;
    for (i, text) in game.moves.iter().enumerate() {
        if verdict.is_over() {
            break;
        }
        let m: Move =
            parse_any(&pos, text).map_err(|e| format!("ply {} '{}': {e}", i + 1, short(text)))?;
        last_move = Some(to_chinese(&pos, m));
        pos.make_move(m);
        ply = i + 1;
        verdict = adjudicate(&pos, rules);
    }
    Ok(Judgement {
        ignored: game.moves.len() - ply,
        verdict,
        ply,
        rules,
        last_move,
    })
}

fn short(text: &str) -> String {
    let t: String = text.chars().filter(|c| !c.is_control()).take(32).collect();
    if text.chars().count() > 32 {
        format!("{t}…")
    } else {
        t
    }
}

fn kind_name(kind: &EndKind) -> &'static str {
    match kind {
        EndKind::Checkmate => "checkmate",
        EndKind::Stalemate => "stalemate",
        EndKind::Repetition(_) => "repetition",
        EndKind::MoveLimit => "move-limit",
        EndKind::InsufficientMaterial => "insufficient-material",
        EndKind::Ongoing => "ongoing",
    }
}

/// The cycle's moves in Chinese notation with their classes, e.g. `车二平三(捉)`.
fn cycle_lines(kind: &EndKind) -> Vec<(String, String, String, Vec<String>)> {
    let EndKind::Repetition(cycle) = kind else {
        return Vec::new();
    };
    let Ok(mut pos) = Position::from_fen(&cycle.start_fen) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for cm in &cycle.moves {
        let chinese = to_chinese(&pos, cm.mv);
        let victims = cm.class.victims.iter().map(|v| v.to_string()).collect();
        out.push((
            cm.mv.to_string(),
            chinese,
            cm.class.kind.english().to_string(),
            victims,
        ));
        pos.make_move(cm.mv);
    }
    out
}

/// One line for each chased piece of each distinct chasing move of the cycle: who attacks
/// it, through what, and its roots, true or false (`rules::classify::explain_chase`).
fn why_lines(kind: &EndKind) -> Vec<String> {
    let EndKind::Repetition(cycle) = kind else {
        return Vec::new();
    };
    let Ok(mut pos) = Position::from_fen(&cycle.start_fen) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let asian = cycle.rules == RuleSet::Axf;
    let mut frozen: Vec<String> = Vec::new();
    let mut note_frozen = |pos: &Position, out: &mut Vec<String>| {
        if !asian {
            return;
        }
        for sq in asian::frozen_pieces(pos) {
            if let Some(note) = asian::frozen_note(pos, sq)
                && !frozen.contains(&note)
            {
                frozen.push(note.clone());
                out.push(note);
            }
        }
    };
    note_frozen(&pos, &mut out);
    for cm in &cycle.moves {
        let chinese = to_chinese(&pos, cm.mv);
        pos.make_move(cm.mv);
        for &v in &cm.class.victims {
            let line = format!(
                "{chinese} ({}) chases {}",
                cm.mv,
                crate::rules::classify::explain_chase(&mut pos, v)
            );
            if !out.contains(&line) {
                out.push(line);
            }
        }
        note_frozen(&pos, &mut out);
        if cm.excused {
            let line = format!(
                "{chinese} ({}) counts as idle (29.7): what it chases is protected or shares \
                 its root, while the other side chases an unprotected piece or a rook with \
                 its moving piece every move",
                cm.mv
            );
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// Why a repetition ended the game: the report's `why:` lines (empty for other endings).
pub fn why(j: &Judgement) -> Vec<String> {
    why_lines(&j.verdict.kind)
}

/// The plain-text report; its first line is exactly `result: <result>`.
pub fn report_text(j: &Judgement) -> String {
    let v = &j.verdict;
    let mut s = format!("result: {}\n", v.result);
    let _ = writeln!(s, "reason: {}", v.description);
    match (v.result, &j.last_move) {
        (GameResult::Ongoing, _) => {
            let _ = writeln!(s, "ply: {} (no decisive event yet)", j.ply);
        }
        (_, Some(m)) => {
            let _ = writeln!(s, "ply: {} (the game ended with {m})", j.ply);
        }
        (_, None) => {
            let _ = writeln!(s, "ply: 0 (the starting position is already decided)");
        }
    }
    if j.ignored > 0 {
        let _ = writeln!(
            s,
            "note: {} move(s) after the end of the game were not played",
            j.ignored
        );
    }
    let _ = writeln!(s, "rules: {}", j.rules);
    if !v.clauses.is_empty() {
        let _ = writeln!(s, "clauses: {}", v.clauses.join(", "));
    }
    let cycle = cycle_lines(&v.kind);
    if !cycle.is_empty() {
        let moves: Vec<String> = cycle
            .iter()
            .map(|(_, cn, class, _)| {
                let tag = match class.as_str() {
                    "check" => "将",
                    "mate threat" => "杀",
                    "chase" => "捉",
                    _ => "闲",
                };
                format!("{cn}({tag})")
            })
            .collect();
        let _ = writeln!(s, "cycle: {}", moves.join(" "));
    }
    for line in why_lines(&v.kind) {
        let _ = writeln!(s, "why: {line}");
    }
    s
}

/// `chariot judge --json`: one object on one line.
#[derive(Serialize)]
struct JudgementJson<'a> {
    result: &'a str,
    reason: &'a str,
    rule_set: String,
    clauses: &'a [&'static str],
    ply: usize,
    kind: &'static str,
    ignored: usize,
    /// The repeated cycle's moves, for a repetition.
    cycle: Vec<CycleMoveJson>,
    /// The text report's `why:` lines.
    why: Vec<String>,
}

#[derive(Serialize)]
struct CycleMoveJson {
    /// ICCS.
    #[serde(rename = "move")]
    iccs: String,
    chinese: String,
    class: String,
    victims: Vec<String>,
}

/// One JSON object: `result`, `reason`, `rule_set`, `clauses`, `ply`, `kind`, `ignored`,
/// and for repetitions `cycle` (each move in ICCS and Chinese, its class and victims) and
/// `why` (the text report's `why:` lines; empty otherwise).
pub fn report_json(j: &Judgement) -> String {
    let v = &j.verdict;
    let doc = JudgementJson {
        result: v.result.as_str(),
        reason: &v.description,
        rule_set: j.rules.to_string(),
        clauses: &v.clauses,
        ply: j.ply,
        kind: kind_name(&v.kind),
        ignored: j.ignored,
        cycle: cycle_lines(&v.kind)
            .into_iter()
            .map(|(iccs, chinese, class, victims)| CycleMoveJson {
                iccs,
                chinese,
                class,
                victims,
            })
            .collect(),
        why: why_lines(&v.kind),
    };
    // strings and numbers only: nothing here can fail to serialize
    serde_json::to_string(&doc).expect("a judgement serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_movetext_is_cleaned() {
        let pgn = "[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n1. h2e2 {comment} h9g7 (1... b9c7) 2.h0g2 $1 i9h9!? ; rest\n3. 炮二平五 1-0\n\n[Event \"next\"]\n1. a0a1";
        let g = parse_pgn(pgn).unwrap();
        assert_eq!(g.fen.as_deref(), Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert_eq!(g.moves, vec!["h2e2", "h9g7", "h0g2", "i9h9", "炮二平五"]);
    }

    #[test]
    fn records_are_judged_up_to_a_bad_move_only_when_the_game_had_ended() {
        use crate::records::read_text;
        // mated at ply 1; the unreadable move after the end is not played
        let mated = "[FEN \"3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1\"]\n1. a0a9 d9d8 zz 1-0\n";
        let j = judge_record(&read_text(mated, "m.pgn")[0], RuleSet::Cxa).unwrap();
        assert_eq!(j.verdict.result, GameResult::RedWins);
        assert_eq!((j.ply, j.ignored), (1, 2));
        // a bad move before the end is the reader's line
        let bad = "1. h2e2 h9g7 2. zz *\n";
        let e = judge_record(&read_text(bad, "b.pgn")[0], RuleSet::Cxa)
            .err()
            .unwrap();
        assert!(e.starts_with("b.pgn: game 1, ply 3: "), "{e}");
    }

    #[test]
    fn chases_are_explained_in_text_and_json() {
        // red horse g2<->i3 against a pawn g4<->f4 (pyffish-disagreements.txt P29): only
        // g2i3 chases, the pawn on g4 without a root
        let game = GameText {
            fen: Some(
                "2bakabr1/r8/5cn2/n1p5p/9/2B3p1P/P1P1P4/1C4N2/4K4/Rc1A1ABR1 w - - 0 1".into(),
            ),
            moves: "g2i3 g4f4 i3g2 f4g4 g2i3 g4f4 i3g2 f4g4"
                .split(' ')
                .map(String::from)
                .collect(),
        };
        let j = judge(&game, RuleSet::Cxa).unwrap();
        let why = "马三进一 (g2i3) chases the black pawn on g4: attacked by the red horse on i3; \
                   it has no root";
        let text = report_text(&j);
        assert_eq!(text.matches("why: ").count(), 1, "{text}");
        assert!(text.contains(&format!("why: {why}\n")), "{text}");
        let json: serde_json::Value = serde_json::from_str(&report_json(&j)).unwrap();
        assert_eq!(json["why"], serde_json::json!([why]));
        assert_eq!(json["cycle"][0]["move"], "g2i3");
        assert_eq!(json["cycle"][0]["class"], "chase");
        assert_eq!(json["cycle"][0]["victims"], serde_json::json!(["g4"]));
    }

    #[test]
    fn a_frozen_piece_is_named_under_the_asian_rules_only() {
        // casebook A01: the red cannon chases the black rook f8, frozen on the leg of the red
        // horse g8, with every move; black's advisor moves chase the horse under CXA only
        let game = GameText {
            fen: Some("4k4/1R2arN2/9/9/3C5/9/9/9/9/3K5 w - - 0 1".into()),
            moves: "d5d8 e8d9 d8d5 d9e8 d5d8 e8d9 d8d5 d9e8"
                .split(' ')
                .map(String::from)
                .collect(),
        };
        let axf = judge(&game, RuleSet::Axf).unwrap();
        assert_eq!(axf.verdict.result, GameResult::BlackWins);
        let text = report_text(&axf);
        let frozen = "why: frozen: the black rook on f8 is the leg of the red horse on g8, which \
                      would check its king on e9 if the leg were free";
        assert_eq!(text.matches("why: frozen:").count(), 1, "{text}");
        assert!(text.contains(frozen), "{text}");
        assert!(
            text.contains("its attack on the horse is no chase"),
            "{text}"
        );
        // the Asian rules' numbers: a violation not changed loses (3), cannons on a rook
        // (15), a frozen piece (19), a rook that cannot take back (24)
        assert!(
            text.contains("\nrules: axf\nclauses: AXF 3, AXF 15, AXF 19, AXF 24\n"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&report_json(&axf)).unwrap();
        assert_eq!(
            json["clauses"],
            serde_json::json!(["AXF 3", "AXF 15", "AXF 19", "AXF 24"])
        );
        let cxa = judge(&game, RuleSet::Cxa).unwrap();
        assert_eq!(cxa.verdict.result, GameResult::Draw);
        assert!(
            !report_text(&cxa).contains("frozen"),
            "{}",
            report_text(&cxa)
        );
        assert!(
            report_text(&cxa).contains("\nrules: cxa\nclauses: 24.5.2, 26.3, 28.13\n"),
            "{}",
            report_text(&cxa)
        );
    }

    #[test]
    fn judge_reports_the_first_decisive_ply_and_errors_name_the_ply() {
        // black is mated by red's first move; the move after it is never played
        let game = GameText {
            fen: Some("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1".into()),
            moves: vec!["a0a9".into(), "d9d8".into()],
        };
        let j = judge(&game, RuleSet::Cxa).unwrap();
        assert_eq!(j.verdict.result, GameResult::RedWins);
        assert_eq!((j.ply, j.ignored), (1, 1));
        assert!(report_text(&j).starts_with("result: red-wins\n"));
        assert!(report_json(&j).starts_with("{\"result\":\"red-wins\""));
        let open = judge(
            &GameText {
                fen: None,
                moves: vec!["h2e2".into()],
            },
            RuleSet::Cxa,
        )
        .unwrap();
        assert_eq!(open.verdict.result, GameResult::Ongoing);
        let bad = GameText {
            fen: None,
            moves: vec!["h2e2".into(), "zz".into()],
        };
        let err = judge(&bad, RuleSet::Cxa).err().unwrap();
        assert!(err.starts_with("ply 2 'zz'"), "{err}");
    }
}
