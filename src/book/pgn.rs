//! Reading games for the book builder: every game of a PGN file (tags, movetext in ICCS,
//! WXF or Chinese notation) and plain move lines (`<moves> [; name]`).

/// One game or line: an optional start FEN, move texts, and a name (PGN `Opening`/`ECCO`
/// tags or the text after `;`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLine {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub name: Option<String>,
    /// 1-based line of the source where the game or line starts (for messages).
    pub line: usize,
}

/// Every game of a PGN text. Tags are read for `FEN`, `Opening` and `Variation`; movetext may
/// hold move numbers (`1.`, `1...`, `1.h2e2`), comments (`{…}`, `;…`), variations (skipped),
/// NAGs, results and `!`/`?` suffixes.
pub fn parse_pgn(text: &str) -> Vec<GameLine> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    let mut start_line = 1;
    let mut in_moves = false;
    let flush = |tags: &mut Vec<(String, String)>,
                 body: &mut String,
                 line: usize,
                 out: &mut Vec<GameLine>| {
        let moves = movetext_tokens(body);
        if !moves.is_empty() || !tags.is_empty() {
            let tag = |name: &str| {
                tags.iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v.clone())
                    .filter(|v| !v.is_empty() && v != "?")
            };
            let name = match (tag("Opening"), tag("Variation")) {
                (Some(o), Some(v)) => Some(format!("{o} {v}")),
                (o, _) => o,
            };
            out.push(GameLine {
                fen: tag("FEN"),
                moves,
                name,
                line,
            });
        }
        tags.clear();
        body.clear();
    };
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim().trim_start_matches('\u{feff}');
        if l.starts_with('[') && l.ends_with(']') {
            if in_moves {
                flush(&mut tags, &mut body, start_line, &mut games);
                in_moves = false;
            }
            if tags.is_empty() {
                start_line = i + 1;
            }
            let inner = l[1..l.len() - 1].trim();
            if let Some((k, v)) = inner.split_once(char::is_whitespace) {
                tags.push((k.to_string(), v.trim().trim_matches('"').to_string()));
            }
            continue;
        }
        if !l.is_empty() {
            if !in_moves && tags.is_empty() {
                start_line = i + 1;
            }
            in_moves = true;
        }
        body.push_str(l);
        body.push('\n');
    }
    flush(&mut tags, &mut body, start_line, &mut games);
    games
}

/// Splits movetext into move tokens, dropping numbers, comments, variations, NAGs, results.
pub fn movetext_tokens(text: &str) -> Vec<String> {
    let mut cleaned = String::with_capacity(text.len());
    let (mut brace, mut paren) = (0usize, 0usize);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => brace += 1,
            '}' => brace = brace.saturating_sub(1),
            '(' if brace == 0 => paren += 1,
            ')' if brace == 0 => paren = paren.saturating_sub(1),
            ';' if brace == 0 => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
                cleaned.push(' ');
            }
            _ if brace > 0 || paren > 0 => {}
            _ => cleaned.push(c),
        }
    }
    let mut out = Vec::new();
    for tok in cleaned.split_whitespace() {
        // "12." / "12..." / "12.h2e2" / "12。" (a number glued to the move)
        let t = if tok.starts_with(|c: char| c.is_ascii_digit()) && tok.contains(['.', '。', '、'])
        {
            tok.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches(['.', '。', '、'])
        } else {
            tok
        };
        let t = t.trim_end_matches(['!', '?']);
        if t.is_empty()
            || t.starts_with('$')
            || matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "=")
            || t.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        out.push(t.to_string());
    }
    out
}

/// Plain move lines: `<moves> [; name]`, one line from the start position each; blank lines
/// and lines starting with `#` are skipped.
pub fn parse_lines(text: &str) -> Vec<GameLine> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim().trim_start_matches('\u{feff}');
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (moves, name) = match l.split_once(';') {
            Some((m, n)) => (m, Some(n.trim().to_string()).filter(|n| !n.is_empty())),
            None => (l, None),
        };
        out.push(GameLine {
            fen: None,
            moves: moves.split_whitespace().map(str::to_string).collect(),
            name,
            line: i + 1,
        });
    }
    out
}

/// Does the text look like PGN (a tag pair before any move)?
pub fn looks_like_pgn(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim().trim_start_matches('\u{feff}'))
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('['))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_tags_and_movetext() {
        let text = "[Event \"x\"]\n[Opening \"中炮\"]\n\n1. h2e2 h9g7 {comment} 2. H0-G2 (2. b0c2) i9h9 $1 1-0\n\n\
                    [FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1.炮二平五 马８进７! *\n";
        let games = parse_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["h2e2", "h9g7", "H0-G2", "i9h9"]);
        assert_eq!(games[0].name.as_deref(), Some("中炮"));
        assert_eq!(games[0].line, 1);
        assert_eq!(games[1].moves, ["炮二平五", "马８进７"]);
        assert!(games[1].fen.is_some());
        assert!(looks_like_pgn(text));
        let lines = parse_lines("# c\n\nh2e2 h9g7 ; 中炮 \nb2e2\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].name.as_deref(), Some("中炮"));
        assert_eq!(lines[0].line, 3);
        assert_eq!(lines[1].moves, ["b2e2"]);
        assert!(!looks_like_pgn("h2e2 h9g7"));
    }
}
