//! The review's outputs: the terminal table, the annotated PGN and the SVG graph of a game.

use super::*;
use std::fmt::Write;

fn game_title(g: &GameReview) -> String {
    let red = pgn_tag(&g.tags, "Red").unwrap_or("Red");
    let black = pgn_tag(&g.tags, "Black").unwrap_or("Black");
    format!("{} game {}: {red} – {black}", g.source, g.game)
}

fn pgn_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    crate::records::pgn::tag_value(tags, name)
}

/// Pads `s` to `width` columns, counting CJK characters as two.
fn pad(s: &str, width: usize) -> String {
    let cols: usize = s
        .chars()
        .map(|c| if (c as u32) >= 0x1100 { 2 } else { 1 })
        .sum();
    format!("{s}{}", " ".repeat(width.saturating_sub(cols)))
}

/// The terminal table of one game, with a summary line per side.
pub fn table(g: &GameReview) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", game_title(g));
    let _ = writeln!(
        s,
        "{} {} {} {} {} best, rules",
        pad("ply", 4),
        pad("move", 10),
        pad("before", 15),
        pad("after", 15),
        pad("class", 11),
    );
    for m in &g.moves {
        let eval = |e: &Eval| format!("{} ({:>2}%)", e.short(), (e.expected * 100.0).round());
        let mut best = if m.best_iccs == m.iccs || m.best.is_empty() {
            String::new()
        } else {
            m.best.clone()
        };
        if let Some(f) = m.mate_flag {
            let _ = write!(best, " {}", f.describe(m.before, m.after));
        }
        for e in &m.events {
            if e.kind == "end" {
                let _ = write!(best, " [{}]", e.chinese);
            } else {
                let _ = write!(best, " {}", e.chinese);
            }
        }
        let _ = writeln!(
            s,
            "{} {} {} {} {} {}",
            pad(&m.ply.to_string(), 4),
            pad(&m.san, 10),
            pad(&eval(&m.before), 15),
            pad(&eval(&m.after), 15),
            pad(m.class.name(), 11),
            best.trim()
        );
    }
    // table rows end with the best column, which may be empty
    let trimmed: Vec<&str> = s.lines().map(str::trim_end).collect();
    let mut s = trimmed.join("\n");
    s.push('\n');
    for (name, side) in [("red", &g.red), ("black", &g.black)] {
        let _ = writeln!(
            s,
            "{name}: accuracy {:.1}, {} moves, {} best ({} only), {} inaccuracies, {} mistakes, {} blunders",
            side.accuracy,
            side.moves,
            side.best,
            side.only_moves,
            side.inaccuracies,
            side.mistakes,
            side.blunders
        );
        if side.mates_lost + side.mates_allowed > 0 {
            s.pop();
            let _ = writeln!(
                s,
                ", {} mates lost, {} mates allowed",
                side.mates_lost, side.mates_allowed
            );
        }
    }
    let recorded = pgn_tag(&g.tags, "Result")
        .filter(|&r| r != "*" && r != pgn_result(&g.result))
        .map(|r| format!("; recorded {r}"))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "result: {} ({}{}){recorded}",
        g.result,
        g.verdict,
        if g.clauses.is_empty() {
            String::new()
        } else {
            format!("; clauses {}", g.clauses.join(", "))
        }
    );
    s
}

fn pgn_result(result: &str) -> &'static str {
    match result {
        "red-wins" => "1-0",
        "black-wins" => "0-1",
        "draw" => "1/2-1/2",
        _ => "*",
    }
}

/// PGN comments may not hold `}`.
fn comment_text(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

/// The annotated PGN of one game: its tags (plus `Annotator`), moves in the notation asked
/// for, a NAG for inaccuracies, mistakes and blunders, and after each move a comment
/// `{[%eval 0.35] class; best 炮二平五 (line); events}` with the evaluation from Red's view.
/// The result is the record's (a draw agreed or a result adjudicated stays as recorded);
/// the rules' verdict, where it differs, is in the last move's comment and a `RulesResult`
/// tag. A record without a result gets the rules'.
pub fn pgn(g: &GameReview, budget: &str) -> String {
    let judged = pgn_result(&g.result);
    let result = pgn_tag(&g.tags, "Result")
        .filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(r))
        .unwrap_or(judged);
    let mut s = String::new();
    for (k, v) in &g.tags {
        if k.eq_ignore_ascii_case("Annotator")
            || k.eq_ignore_ascii_case("Result")
            || k.eq_ignore_ascii_case("RulesResult")
        {
            continue;
        }
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "[{k} \"{v}\"]");
    }
    let _ = writeln!(s, "[Result \"{result}\"]");
    if result != judged && judged != "*" {
        let _ = writeln!(s, "[RulesResult \"{judged}\"]");
    }
    if let Some(fen) = &g.fen
        && pgn_tag(&g.tags, "FEN").is_none()
    {
        let _ = writeln!(s, "[FEN \"{fen}\"]");
    }
    let _ = writeln!(s, "[Annotator \"Chariot analyze, {budget}\"]");
    s.push('\n');
    let mut text = String::new();
    for (i, m) in g.moves.iter().enumerate() {
        if m.side == "red" {
            let _ = write!(text, "{}. ", m.number);
        } else if i == 0 {
            let _ = write!(text, "{}... ", m.number);
        }
        text.push_str(&m.san);
        if let Some(nag) = m.class.nag() {
            let _ = write!(text, " {nag}");
        }
        let mut c = format!("[%eval {}] {}", m.red_after.pgn(), m.class.name());
        if let Some(f) = m.mate_flag {
            let _ = write!(c, ", {}", f.describe(m.before, m.after));
        }
        if m.best_iccs != m.iccs && !m.best.is_empty() {
            let _ = write!(c, "; best {}", m.best);
            if m.line.len() > 1 {
                let _ = write!(c, " ({})", m.line.join(" "));
            }
        }
        for e in &m.events {
            match &e.verdict {
                Some(v) => {
                    let _ = write!(c, "; {}: {v}", e.chinese);
                    if !e.clauses.is_empty() {
                        let _ = write!(c, " (clauses {})", e.clauses.join(", "));
                    }
                    for w in &e.why {
                        let _ = write!(c, "; {w}");
                    }
                }
                None => {
                    let _ = write!(c, "; {}", e.chinese);
                }
            }
        }
        let _ = write!(text, " {{{}}} ", comment_text(&c));
    }
    text.push_str(result);
    // wrap at spaces outside comments is not needed: PGN readers take long lines
    s.push_str(&text);
    s.push_str("\n\n");
    s
}

/// XML text: `&`, `<`, `>`, `"` and `'` escaped, control characters dropped.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The evaluation graph of one game as an SVG: Red's expected points over the plies (a
/// polyline, 0 to 100%), a 50% line, and a circle at each inaccuracy (yellow), mistake
/// (orange) and blunder (red), whose tooltip names the move.
pub fn svg(g: &GameReview) -> String {
    const W: f64 = 800.0;
    const H: f64 = 310.0;
    const LEFT: f64 = 40.0;
    const TOP: f64 = 30.0;
    const PW: f64 = W - LEFT - 10.0;
    const PH: f64 = H - TOP - 40.0;
    let n = g.moves.len().max(1) as f64;
    let x = |ply: usize| LEFT + PW * ply as f64 / n;
    let y = |e: f64| TOP + PH * (1.0 - e);
    let red_before = g.moves.first().map_or(0.5, |m| {
        if m.side == "red" {
            m.before.expected
        } else {
            m.before.flip().expected
        }
    });
    let mut points = vec![format!("{:.1},{:.1}", x(0), y(red_before))];
    for m in &g.moves {
        points.push(format!("{:.1},{:.1}", x(m.ply), y(m.red_after.expected)));
    }
    let mut s = String::new();
    let _ = writeln!(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        s,
        "<title>{}</title>",
        xml_escape(&format!("{}: Red's expected points", game_title(g)))
    );
    let _ = writeln!(s, "<rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>");
    let _ = writeln!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{PW}\" height=\"{PH}\" fill=\"#f4f4f4\" stroke=\"#999\"/>"
    );
    let _ = writeln!(
        s,
        "<text x=\"{LEFT}\" y=\"18\">{}</text>",
        xml_escape(&format!(
            "{} — red {:.1}, black {:.1} accuracy",
            game_title(g),
            g.red.accuracy,
            g.black.accuracy
        ))
    );
    for (v, label) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/><text x=\"4\" y=\"{:.1}\">{label}</text>",
            y(v),
            LEFT + PW,
            y(v),
            y(v) + 4.0
        );
    }
    let step = if g.moves.len() > 100 { 20 } else { 10 };
    for ply in (step..=g.moves.len()).step_by(step) {
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#999\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{ply}</text>",
            TOP + PH,
            TOP + PH + 4.0,
            TOP + PH + 16.0,
            x = x(ply)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">ply</text>",
        LEFT + PW / 2.0,
        H - 4.0
    );
    let _ = writeln!(
        s,
        "<polyline fill=\"none\" stroke=\"#c00\" stroke-width=\"2\" points=\"{}\"/>",
        points.join(" ")
    );
    for m in &g.moves {
        let colour = match m.class {
            Class::Inaccuracy => "#e0c000",
            Class::Mistake => "#f08000",
            Class::Blunder => "#d00000",
            _ => continue,
        };
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{colour}\" stroke=\"black\"><title>{}</title></circle>",
            x(m.ply),
            y(m.red_after.expected),
            xml_escape(&format!(
                "{}. {} {}: {}{} (drop {:.2}; best {})",
                m.number,
                m.san,
                m.side,
                m.class.name(),
                m.mate_flag
                    .map(|f| format!(", {}", f.describe(m.before, m.after)))
                    .unwrap_or_default(),
                m.drop,
                m.best
            ))
        );
    }
    s.push_str("</svg>\n");
    s
}
