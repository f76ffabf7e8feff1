//! Game records in: one reader for every command that takes games (`judge`, `book build`,
//! `match --openings`). PGN in UTF-8 or GBK (see [`text`]), and XQF (see [`xqf`]), told apart
//! by their bytes. Each game comes with its tags, start position, main line as legal moves and
//! comments; a bad game comes with one line saying which file, game and ply and why, and the
//! moves read before it. This layer knows only `core`.

pub mod pgn;
pub mod text;
pub mod xqf;

use crate::core::notation::parse_any;
use crate::core::{Move, Position};
use std::fmt;
use std::path::Path;

/// The formats read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Xqf,
}

impl Format {
    /// XQF when the bytes carry its signature and version byte (or the name ends `.xqf`);
    /// PGN otherwise.
    pub fn detect(bytes: &[u8], name: &str) -> Format {
        let ext_xqf = name.to_ascii_lowercase().ends_with(".xqf");
        if xqf::looks_like_xqf(bytes) || (ext_xqf && !pgn::looks_like_pgn(&text::decode(bytes).0)) {
            Format::Xqf
        } else {
            Format::Pgn
        }
    }
}

/// One game read from a record.
#[derive(Clone, Debug)]
pub struct Game {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// 1-based line where a PGN game starts (0 for binary records).
    pub line: usize,
    /// Tags in file order (XQF headers as `Title`, `Event`, `Date`, `Site`, `Red`, `Black`,
    /// `Result`, …).
    pub tags: Vec<(String, String)>,
    /// The start position (a PGN `FEN` tag, an XQF board, or the standard start).
    pub start: Position,
    /// The main line, every move legal.
    pub moves: Vec<Move>,
    /// Comments with the number of moves before them (0: before the first move).
    pub comments: Vec<(usize, String)>,
}

impl Game {
    /// A tag's value (name compared without case); empty and `?` values count as absent.
    pub fn tag(&self, name: &str) -> Option<&str> {
        pgn::tag_value(&self.tags, name)
    }

    /// The start position's FEN when it is not the standard start.
    pub fn fen(&self) -> Option<String> {
        let fen = self.start.fen();
        (fen != Position::startpos().fen()).then_some(fen)
    }

    /// The main line in ICCS.
    pub fn iccs(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.to_string()).collect()
    }

    /// The position after the main line.
    pub fn end(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }
}

/// What went wrong, said in one line: `FILE: game N, ply P: reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub source: String,
    /// 1-based game number (0: the file as a whole).
    pub game: usize,
    /// 1-based ply of the bad move (None: the game's header or start position).
    pub ply: Option<usize>,
    pub reason: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.source)?;
        if self.game > 0 {
            write!(f, "game {}", self.game)?;
            if let Some(p) = self.ply {
                write!(f, ", ply {p}")?;
            }
            write!(f, ": ")?;
        }
        let one_line: String = self
            .reason
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        write!(f, "{one_line}")
    }
}

impl std::error::Error for RecordError {}

/// A game that could not be read to its end.
#[derive(Clone, Debug)]
pub struct BadGame {
    pub error: RecordError,
    /// The game up to the bad move (None when its header or start could not be read).
    pub partial: Option<Game>,
    /// Move texts from the bad one to the end of the game, that were not read.
    pub unread: usize,
}

/// A game, or why it could not be read.
pub type Entry = Result<Game, Box<BadGame>>;

/// Reads every game of a record's bytes. `source` names it in messages.
pub fn read_bytes(bytes: &[u8], source: &str) -> Vec<Entry> {
    match Format::detect(bytes, source) {
        Format::Xqf => vec![read_xqf(bytes, source)],
        Format::Pgn => read_text(&text::decode(bytes).0, source),
    }
}

/// Reads a file (PGN or XQF). An error here is the file as a whole (it cannot be read).
pub fn read_file(path: &Path) -> Result<Vec<Entry>, RecordError> {
    let source = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| RecordError {
        source: source.clone(),
        game: 0,
        ply: None,
        reason: format!("cannot read: {e}"),
    })?;
    Ok(read_bytes(&bytes, &source))
}

/// Every game of a PGN text, each played from its start.
pub fn read_text(text: &str, source: &str) -> Vec<Entry> {
    pgn::parse(text)
        .into_iter()
        .enumerate()
        .map(|(i, g)| play(g, i + 1, source))
        .collect()
}

/// Plays a PGN game's move texts.
pub fn play(g: pgn::PgnGame, number: usize, source: &str) -> Entry {
    let error = |ply, reason: String| RecordError {
        source: source.to_string(),
        game: number,
        ply,
        reason,
    };
    let start = match g.tag("FEN") {
        Some(f) => Position::from_fen(f).map_err(|e| {
            Box::new(BadGame {
                error: error(None, format!("FEN tag: {e}")),
                partial: None,
                unread: g.moves.len(),
            })
        })?,
        None => Position::startpos(),
    };
    let mut game = Game {
        number,
        line: g.line,
        tags: g.tags,
        start,
        moves: Vec::with_capacity(g.moves.len()),
        comments: Vec::new(),
    };
    let mut pos = game.start.clone();
    for (i, text) in g.moves.iter().enumerate() {
        match parse_any(&pos, text) {
            Ok(m) => {
                pos.make_move(m);
                game.moves.push(m);
            }
            Err(e) => {
                game.comments = g.comments.into_iter().filter(|c| c.0 <= i).collect();
                return Err(Box::new(BadGame {
                    error: error(Some(i + 1), e.to_string()),
                    partial: Some(game),
                    unread: g.moves.len() - i,
                }));
            }
        }
    }
    game.comments = g.comments;
    if game.tag("Result").is_none()
        && let Some(r) = g.result
    {
        game.tags.push(("Result".into(), r));
    }
    Ok(game)
}

fn read_xqf(bytes: &[u8], source: &str) -> Entry {
    let game = |x: xqf::XqfGame| Game {
        number: 1,
        line: 0,
        tags: x.tags,
        start: x.start,
        moves: x.moves,
        comments: x.comments,
    };
    xqf::read(bytes).map(game).map_err(|f| {
        let xqf::Failure { partial, error: e } = *f;
        Box::new(BadGame {
            error: RecordError {
                source: source.to_string(),
                game: 1,
                ply: e.ply,
                reason: format!("XQF: {}", e.reason),
            },
            partial: partial.map(game),
            unread: 0,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_play_and_errors_say_game_and_ply() {
        let text = "[Event \"a\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n\n\
                    [Event \"b\"]\n1. h2e2 h9g7 2. h2h9 1-0\n\n\
                    [FEN \"bad\"]\n1. h2e2\n";
        let games = read_text(text, "t.pgn");
        assert_eq!(games.len(), 3);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.iccs(), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!((g.number, g.tag("Result"), g.fen()), (1, Some("*"), None));
        let bad = games[1].as_ref().unwrap_err();
        assert_eq!(
            bad.error.to_string(),
            "t.pgn: game 2, ply 3: notation: 'h2h9' is illegal here"
        );
        assert_eq!(bad.partial.as_ref().unwrap().moves.len(), 2);
        assert_eq!(bad.unread, 1);
        let bad = games[2].as_ref().unwrap_err();
        assert!(
            bad.error
                .to_string()
                .starts_with("t.pgn: game 3: FEN tag: "),
            "{}",
            bad.error
        );
        assert!(bad.partial.is_none());
    }

    #[test]
    fn formats_are_told_by_their_bytes() {
        assert_eq!(Format::detect(b"XQ\x0a\0\0", "a.pgn"), Format::Xqf);
        assert_eq!(Format::detect(b"[Event \"x\"]", "a.xqf"), Format::Pgn);
        assert_eq!(Format::detect(b"\x00\x01", "a.XQF"), Format::Xqf);
        assert_eq!(Format::detect(b"1. h2e2", "a.txt"), Format::Pgn);
        let e = read_bytes(b"XQ\x0b", "x.xqf");
        let e = e[0].as_ref().unwrap_err();
        assert_eq!(e.error.game, 1);
        assert!(
            e.error
                .to_string()
                .starts_with("x.xqf: game 1: XQF: header cut off")
        );
    }
}
