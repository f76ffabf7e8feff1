//! The book builder's own text format: plain move lines (`<moves> [; name]`), one line from
//! the start position each. Game records (PGN, XQF) are read by `crate::records`.

/// One line: an optional start FEN, move texts, and a name (the text after `;`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLine {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub name: Option<String>,
    /// 1-based line of the source (for messages).
    pub line: usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_names() {
        let lines = parse_lines("# c\n\nh2e2 h9g7 ; 中炮 \nb2e2\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].name.as_deref(), Some("中炮"));
        assert_eq!(lines[0].line, 3);
        assert_eq!(lines[1].moves, ["b2e2"]);
    }
}
