//! PGN as the xiangqi tools write it: tag pairs, then movetext with move numbers (`1.`,
//! `1...`, `1.h2e2`), moves in ICCS (`h2e2`, `H2-E2`), WXF or Chinese notation, `{comments}`
//! (kept, with the ply they follow), `;` comments to the end of the line (kept), `(variations)`
//! (skipped, nested, with their comments), NAGs (`$1`), move suffixes (`!`, `?`) and the result
//! token, after which everything up to the next tag line is ignored (the notes and
//! advertisements XiangQi Wizard and web sites append). Several games a file.
//!
//! [`parse`] is the syntax alone (move texts); [`super::read_text`] plays the texts.

/// One game as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order (names as written).
    pub tags: Vec<(String, String)>,
    /// The main line's move texts.
    pub moves: Vec<String>,
    /// Comments of the main line, each with the number of moves before it.
    pub comments: Vec<(usize, String)>,
    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// 1-based line where the game starts.
    pub line: usize,
}

impl PgnGame {
    /// A tag's value (name compared without case); empty and `?` values count as absent.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }
}

pub(crate) fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty() && *v != "?")
}

const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

/// Does the text look like PGN (a tag pair before any move)?
pub fn looks_like_pgn(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim().trim_start_matches('\u{feff}'))
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('['))
}

/// The tag pairs of a line such as `[Event "x"]` or `[Red "a"] [Black "b"]`; None when the
/// line is not made of tag pairs.
fn tag_line(line: &str) -> Option<Vec<(String, String)>> {
    let mut rest = line.trim();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let name_end = inner.find(|c: char| c.is_whitespace() || c == '"' || c == ']')?;
        let name = &inner[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let after = inner[name_end..].trim_start();
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            // a quoted value; \" and \\ are escapes
            let mut v = String::new();
            let mut chars = q.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            v.push(n);
                        }
                    }
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    _ => v.push(c),
                }
            }
            let tail = q[end?..].trim_start();
            (v, tail.strip_prefix(']')?)
        } else {
            // an unquoted value, up to the bracket
            let close = after.find(']')?;
            (after[..close].trim().to_string(), &after[close + 1..])
        };
        out.push((name.to_string(), value.trim().to_string()));
        rest = tail.trim_start();
    }
    (!out.is_empty()).then_some(out)
}

#[derive(Default)]
struct Scanner {
    games: Vec<PgnGame>,
    game: PgnGame,
    /// Movetext has begun (a tag line now starts the next game).
    in_moves: bool,
    /// The result token was read: the rest up to the next tag line is ignored.
    done: bool,
    /// Inside `{…}`: the comment so far.
    brace: Option<String>,
    /// Depth of `(…)` variations.
    paren: usize,
    token: String,
}

impl Scanner {
    fn flush_game(&mut self) {
        self.end_token();
        if let Some(c) = self.brace.take() {
            self.comment(c);
        }
        let g = std::mem::take(&mut self.game);
        if !g.tags.is_empty() || !g.moves.is_empty() || !g.comments.is_empty() {
            self.games.push(g);
        }
        self.in_moves = false;
        self.done = false;
        self.paren = 0;
    }

    fn comment(&mut self, text: String) {
        if self.paren > 0 || self.done {
            return;
        }
        let t = text.trim();
        if t.is_empty() {
            return;
        }
        let ply = self.game.moves.len();
        match self.game.comments.last_mut() {
            Some((p, c)) if *p == ply => {
                c.push('\n');
                c.push_str(t);
            }
            _ => self.game.comments.push((ply, t.to_string())),
        }
    }

    fn end_token(&mut self) {
        if self.token.is_empty() {
            return;
        }
        let tok = std::mem::take(&mut self.token);
        if self.paren > 0 || self.done {
            return;
        }
        if RESULTS.contains(&tok.as_str()) {
            self.game.result = Some(if tok == "½-½" {
                "1/2-1/2".into()
            } else {
                tok
            });
            self.done = true;
            return;
        }
        // "12." / "12..." / "12.h2e2" / "12。炮二平五": a move number, maybe glued to a move
        let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rest = &tok[digits..];
        let t = if digits > 0 && rest.starts_with(['.', '。', '、', '．']) {
            rest.trim_start_matches(['.', '。', '、', '．'])
        } else {
            &tok[..]
        };
        let t = t.trim_end_matches(['!', '?']);
        if t.is_empty()
            || t.starts_with('$')
            || t == "="
            || t.chars().all(|c| c.is_ascii_digit() || c == '.')
        {
            return;
        }
        self.game.moves.push(t.to_string());
    }

    fn line(&mut self, number: usize, raw: &str) {
        let l = raw.trim().trim_start_matches('\u{feff}');
        if self.brace.is_none()
            && (self.paren == 0 || self.done)
            && l.starts_with('[')
            && let Some(tags) = tag_line(l)
        {
            if self.in_moves || self.done {
                self.flush_game();
            }
            if self.game.tags.is_empty() && self.game.comments.is_empty() {
                self.game.line = number;
            }
            self.game.tags.extend(tags);
            return;
        }
        if self.done {
            return;
        }
        if !l.is_empty() && self.game.tags.is_empty() && !self.in_moves {
            self.game.line = number;
        }
        // the raw line: a comment keeps its spacing
        let mut chars = raw
            .trim_end_matches('\r')
            .trim_start_matches('\u{feff}')
            .chars();
        while let Some(c) = chars.next() {
            if let Some(text) = &mut self.brace {
                if c == '}' {
                    let text = self.brace.take().unwrap_or_default();
                    self.comment(text);
                } else {
                    text.push(c);
                }
                continue;
            }
            if self.done {
                return;
            }
            match c {
                '{' => {
                    self.end_token();
                    self.in_moves = true;
                    self.brace = Some(String::new());
                }
                ';' => {
                    self.end_token();
                    self.in_moves = true;
                    let rest: String = chars.by_ref().collect();
                    self.comment(rest);
                }
                '(' => {
                    self.end_token();
                    self.paren += 1;
                }
                ')' => {
                    self.end_token();
                    self.paren = self.paren.saturating_sub(1);
                }
                _ if c.is_whitespace() => self.end_token(),
                _ => {
                    self.in_moves = true;
                    self.token.push(c);
                }
            }
        }
        self.end_token();
        if let Some(text) = &mut self.brace {
            text.push('\n');
        }
    }
}

/// Every game of a PGN text, as written.
pub fn parse(text: &str) -> Vec<PgnGame> {
    let mut s = Scanner::default();
    for (i, line) in text.lines().enumerate() {
        s.line(i + 1, line);
    }
    s.flush_game();
    s.games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_movetext_comments_variations_and_trailing_text() {
        let text = "\u{feff}[Event \"x\"]\n[Opening \"中炮\"]\n\n{开局} 1. h2e2 h9g7 {c1\nc2} 2. H0-G2 (2. b0c2 {in var (x)} (2. c3c4)) \
                    i9h9 $1 3.i0h0! ; to the end\n1-0\n这是广告 1. h2e2\n===\n\n\
                    [FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"][Result \"*\"]\n1.炮二平五 马８进７!? 2。兵七进一 *\n";
        let games = parse(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.moves, ["h2e2", "h9g7", "H0-G2", "i9h9", "i0h0"]);
        assert_eq!(g.tag("opening"), Some("中炮"));
        assert_eq!(
            g.comments,
            [
                (0, "开局".to_string()),
                (2, "c1\nc2".to_string()),
                (5, "to the end".to_string())
            ]
        );
        assert_eq!((g.result.as_deref(), g.line), (Some("1-0"), 1));
        let g = &games[1];
        assert_eq!(g.moves, ["炮二平五", "马８进７", "兵七进一"]);
        assert_eq!(g.tag("FEN"), Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert_eq!(g.tag("Result"), Some("*"));
        assert_eq!(g.line, 10);
        assert!(looks_like_pgn(text));
        assert!(!looks_like_pgn("h2e2 h9g7"));
    }

    #[test]
    fn odd_tag_lines() {
        assert_eq!(
            tag_line(r#"[Red "a \"b\""] [Black x]"#),
            Some(vec![
                ("Red".into(), "a \"b\"".into()),
                ("Black".into(), "x".into())
            ])
        );
        assert_eq!(tag_line("[not a tag"), None);
        assert_eq!(tag_line("[]"), None);
        assert_eq!(tag_line("[Event \"x\"] junk"), None);
        // a game without tags, then one with: two games
        let games = parse("1. h2e2 h9g7 *\n[Event \"b\"]\n1. b2e2\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[1].moves, ["b2e2"]);
        assert_eq!(games[1].result, None);
    }
}
