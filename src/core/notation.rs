//! Move notation: ICCS coordinates, Chinese file notation (中文纵线记谱) and WXF.
//!
//! ICCS names squares (`h2e2`), so it needs no position; the other two name a piece by its
//! file and say how it moves, so writing and reading them needs the position.
//!
//! **Common ground.** Files are numbered from the mover's own right: Red 一..九 from file `i`
//! to `a`, Black 1..9 from `a` to `i`. 进/`+` goes toward the enemy, 退/`-` back, 平/`.`
//! sideways. Rook, cannon, king and pawn moving along their file give the number of ranks;
//! every other move gives the destination file. Two like pieces on one file are told apart
//! by 前/后 (`+`/`-`) in place of the file. Advisors and elephants never are: the one that
//! can retreat to a point is always the front one (象棋百科全书《中国象棋电脑应用规范（二）：着法
//! 表示》, xqbase.com/protocol/cchess_move.htm; the WXF pages write `A6+5` likewise).
//!
//! **Chinese pawns** follow that xqbase computer standard, the only written rule covering
//! every case (the CXA rulebook, 《象棋竞赛规则》 7.5, stops at 前/中/后): three on a file are
//! 前/中/后; four or five are 一..五 from the front; when two files each hold two or more, all
//! pawns on those files are numbered 一..五 together, files in the mover's right-to-left
//! order, front to back within a file (`二兵平五`). Ordinals are Chinese numerals for both
//! sides; Black's files and counts are written with full-width digits (`马８进７`).
//! Reading also accepts ASCII digits and Chinese numerals for either side, the older forms
//! with the file kept (`前兵九平八`, `前九平八`, `二7平6`; CXA/Wikipedia/DhtmlXQ), 前..后 for
//! four or five, 前/后 for advisors and elephants, traditional and red/black character
//! variants, and a bare file (`兵九平八`) when only one legal move fits.
//!
//! **WXF pawns** follow the AXF/WXF official notation (wxf.org/xq/computer/wxf_notation.html):
//! three on a file `P+`, `P3` (the middle one keeps its file), `P-`; four `++`, `P+`, `P-`,
//! `--`; five `++`, `P+`, `P3`, `P-`, `--`; with two files doubled, the letter gives way to
//! the file: `3+.4`, `33.4`, `3-.4`. Letters are written upper case for both sides; reading
//! is case-insensitive and takes `B`/`N` and `=` for sideways.

use super::mv::Move;
use super::piece::{Color, Piece, PieceType};
use super::position::Position;
use super::square::Square;
use std::fmt;

/// Why a move text was refused. `text` is the input as shown in messages (trimmed to a
/// short single line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing but whitespace.
    Empty,
    /// Not the shape of a move in the notation tried.
    Syntax { text: String, reason: String },
    /// A number outside what the notation allows (`炮二平十`).
    BadNumber {
        text: String,
        token: char,
        what: &'static str,
    },
    /// No piece of the side to move stands where the text says.
    NoPiece {
        text: String,
        color: Color,
        kind: PieceType,
        file: Option<String>,
    },
    /// The piece exists but the move described is not legal here.
    Illegal { text: String },
    /// More than one legal move fits the text.
    Ambiguous { text: String, count: usize },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "notation: empty move text"),
            NotationError::Syntax { text, reason } => write!(f, "notation: '{text}' {reason}"),
            NotationError::BadNumber { text, token, what } => {
                write!(f, "notation: '{text}' has no {what} {token}")
            }
            NotationError::NoPiece {
                text,
                color,
                kind,
                file: Some(file),
            } => write!(
                f,
                "notation: no {color} {} on file {file} (for '{text}')",
                kind_name(*kind)
            ),
            NotationError::NoPiece {
                text, color, kind, ..
            } => write!(
                f,
                "notation: '{text}' names no {color} {} in this position",
                kind_name(*kind)
            ),
            NotationError::Illegal { text } => write!(f, "notation: '{text}' is illegal here"),
            NotationError::Ambiguous { text, count } => write!(
                f,
                "notation: '{text}' is ambiguous here ({count} legal moves fit)"
            ),
        }
    }
}

impl std::error::Error for NotationError {}

fn kind_name(kind: PieceType) -> &'static str {
    [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ][kind.index()]
}

/// The input as an error message shows it: one line, at most 32 characters.
fn shown(text: &str) -> String {
    let t = text.trim();
    let mut s: String = t
        .chars()
        .take(32)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if t.chars().nth(32).is_some() {
        s.push('…');
    }
    s
}

fn syntax_error(text: &str, reason: &str) -> NotationError {
    NotationError::Syntax {
        text: shown(text),
        reason: reason.to_string(),
    }
}

// ---- ICCS --------------------------------------------------------------------------------

/// ICCS coordinates, lower case: `h2e2`.
pub fn to_iccs(m: Move) -> String {
    m.to_string()
}

/// Reads ICCS (`h2e2`, `H2-E2`) and checks the move is legal in `pos`.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    if text.trim().is_empty() {
        return Err(NotationError::Empty);
    }
    let m = Move::parse_iccs(text)
        .ok_or_else(|| syntax_error(text, "is not ICCS coordinates such as h2e2"))?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(NotationError::Illegal { text: shown(text) })
    }
}

/// Tries ICCS, then WXF, then Chinese. On failure it reports the error of the notation the
/// text looks like: ICCS when it is ICCS-shaped, WXF when it is ASCII, Chinese otherwise.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    match parse_iccs(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) if Move::parse_iccs(text).is_some() || text.trim().is_empty() => return Err(e),
        Err(_) => {}
    }
    match parse_wxf(pos, text) {
        Ok(m) => Ok(m),
        Err(e) if text.is_ascii() => Err(e),
        Err(_) => parse_chinese(pos, text),
    }
}

// ---- geometry shared by the file notations -----------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Forward,
    Backward,
    Sideways,
}

/// How far `sq` lies toward `color`'s enemy, 0..=9.
fn advance(color: Color, sq: Square) -> i8 {
    match color {
        Color::Red => sq.rank() as i8,
        Color::Black => 9 - sq.rank() as i8,
    }
}

/// A board file (0 = `a`) as `color` numbers it, 1..=9 from its own right.
fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// Horses, elephants and advisors always give the destination file after 进/退.
fn describe_by_file(kind: PieceType) -> bool {
    matches!(
        kind,
        PieceType::Horse | PieceType::Elephant | PieceType::Advisor
    )
}

/// The action and its number, as both file notations write a move.
fn describe(color: Color, kind: PieceType, from: Square, to: Square) -> (Action, u8) {
    let d = advance(color, to) - advance(color, from);
    if d == 0 {
        return (Action::Sideways, own_file(color, to.file()));
    }
    let act = if d > 0 {
        Action::Forward
    } else {
        Action::Backward
    };
    if !describe_by_file(kind) && from.file() == to.file() {
        (act, d.unsigned_abs())
    } else {
        (act, own_file(color, to.file()))
    }
}

/// How a text singles out one piece among those of its type. `Option<u8>` is an own file
/// written next to the positional word (`前兵九`, WXF `3+`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    File(u8),
    Front(Option<u8>),
    Middle(Option<u8>),
    Rear(Option<u8>),
    /// k-th (1-based): from the front of one file, or across two doubled files.
    Nth(u8, Option<u8>),
    /// WXF `++` and `--`: the outermost of four or five.
    Foremost,
    Rearmost,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Chinese,
    Wxf,
}

/// One side's pieces of one type, by board file, each file front first.
struct Layout {
    color: Color,
    kind: PieceType,
    files: [Vec<Square>; 9],
}

impl Layout {
    fn new(pos: &Position, color: Color, kind: PieceType) -> Layout {
        let mut files: [Vec<Square>; 9] = Default::default();
        for sq in pos.pieces(color, kind) {
            files[sq.file() as usize].push(sq);
        }
        for g in &mut files {
            g.sort_by_key(|&s| std::cmp::Reverse(advance(color, s)));
        }
        Layout { color, kind, files }
    }

    /// Board files in the mover's right-to-left order.
    fn right_to_left(&self) -> impl Iterator<Item = usize> + '_ {
        (0..9).map(|i| match self.color {
            Color::Red => 8 - i,
            Color::Black => i,
        })
    }

    /// Every tag that designates the piece on `sq`, the canonical one first.
    fn tags(&self, sq: Square, style: Style) -> Vec<Tag> {
        let g = &self.files[sq.file() as usize];
        let n = g.len();
        let idx = g.iter().position(|&s| s == sq).unwrap_or(0);
        let f = own_file(self.color, sq.file());
        if n <= 1 {
            return vec![Tag::File(f)];
        }
        let (front, rear, mid3) = (idx == 0, idx + 1 == n, n == 3 && idx == 1);
        let positional = |file: Option<u8>| {
            if front {
                Tag::Front(file)
            } else if rear {
                Tag::Rear(file)
            } else if mid3 {
                Tag::Middle(file)
            } else {
                Tag::Nth(idx as u8 + 1, file)
            }
        };
        match self.kind {
            PieceType::Advisor | PieceType::Elephant => {
                vec![Tag::File(f), positional(None), positional(Some(f))]
            }
            PieceType::Pawn => self.pawn_tags(sq, style, idx, n, f, positional),
            _ => vec![positional(None), positional(Some(f)), Tag::File(f)],
        }
    }

    fn pawn_tags(
        &self,
        sq: Square,
        style: Style,
        idx: usize,
        n: usize,
        f: u8,
        positional: impl Fn(Option<u8>) -> Tag,
    ) -> Vec<Tag> {
        let doubled: Vec<usize> = self
            .right_to_left()
            .filter(|&file| self.files[file].len() >= 2)
            .collect();
        let mid_odd = n % 2 == 1 && idx == n / 2;
        let mut t = Vec::with_capacity(8);
        if doubled.len() >= 2 {
            t.push(match style {
                Style::Chinese => {
                    let before: usize = doubled
                        .iter()
                        .take_while(|&&file| file != sq.file() as usize)
                        .map(|&file| self.files[file].len())
                        .sum();
                    Tag::Nth((before + idx + 1) as u8, None)
                }
                Style::Wxf => positional(Some(f)),
            });
            t.push(positional(Some(f)));
            // Without the file, 前兵 fits a pawn on either file; legality may still decide.
            t.push(positional(None));
        } else {
            t.push(match (style, n) {
                (Style::Chinese, 2 | 3) | (Style::Wxf, 2) => positional(None),
                (Style::Chinese, _) => Tag::Nth(idx as u8 + 1, None),
                (Style::Wxf, _) if mid_odd => Tag::File(f),
                (Style::Wxf, 3) => positional(None),
                (Style::Wxf, _) if idx == 0 => Tag::Foremost,
                (Style::Wxf, _) if idx + 1 == n => Tag::Rearmost,
                (Style::Wxf, _) if idx == 1 => Tag::Front(None),
                (Style::Wxf, _) => Tag::Rear(None),
            });
            // WXF `P+` means the second of four or five, so only Chinese may add 前/后 here.
            if style == Style::Chinese || n <= 3 {
                t.push(positional(None));
                t.push(Tag::Nth(idx as u8 + 1, None));
            }
            t.push(positional(Some(f)));
        }
        t.push(Tag::Nth(idx as u8 + 1, Some(f)));
        if mid_odd {
            t.push(Tag::Middle(Some(f)));
        }
        // A bare file names the middle of an odd stack in WXF; elsewhere legality decides.
        if style == Style::Chinese || mid_odd || n.is_multiple_of(2) {
            t.push(Tag::File(f));
        }
        t
    }
}

/// The legal move of the side to move that a decoded text denotes.
fn resolve(
    pos: &Position,
    text: &str,
    style: Style,
    kind: PieceType,
    tag: Tag,
    act: Action,
    num: u8,
) -> Result<Move, NotationError> {
    let us = pos.side_to_move();
    let layout = Layout::new(pos, us, kind);
    let pieces: Vec<Square> = pos
        .pieces(us, kind)
        .filter(|&sq| layout.tags(sq, style).contains(&tag))
        .collect();
    if pieces.is_empty() {
        let file = match tag {
            Tag::File(f) => Some(match (style, us) {
                (Style::Chinese, Color::Red) => CN_DIGITS[f as usize - 1].to_string(),
                _ => f.to_string(),
            }),
            _ => None,
        };
        return Err(NotationError::NoPiece {
            text: shown(text),
            color: us,
            kind,
            file,
        });
    }
    let fits: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            pieces.contains(&m.from()) && describe(us, kind, m.from(), m.to()) == (act, num)
        })
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(NotationError::Illegal { text: shown(text) }),
        _ => Err(NotationError::Ambiguous {
            text: shown(text),
            count: fits.len(),
        }),
    }
}

/// The canonical tag of the piece a move starts from, with its layout.
fn canonical(pos: &Position, m: Move, style: Style) -> Option<(Layout, Tag)> {
    let piece = pos.piece_on(m.from())?;
    let layout = Layout::new(pos, piece.color(), piece.kind());
    let tag = *layout.tags(m.from(), style).first()?;
    Some((layout, tag))
}

// ---- Chinese -----------------------------------------------------------------------------

const CN_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FW_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A file or count in `color`'s canonical style.
fn cn_number(color: Color, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => CN_DIGITS[i],
        Color::Black => FW_DIGITS[i],
    }
}

/// The move in Chinese notation (`炮二平五`, `马８进７`). Meant for a legal move of `pos`;
/// a move with no piece on its from-square comes back as ICCS rather than panicking.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let Some((layout, tag)) = canonical(pos, m, Style::Chinese) else {
        return to_iccs(m);
    };
    let (color, kind) = (layout.color, layout.kind);
    let p = Piece::new(color, kind).chinese();
    let ordinal = |k: u8| CN_DIGITS[(k.clamp(1, 5) - 1) as usize];
    let mut s = String::new();
    let (word, file) = match tag {
        Tag::File(f) => (None, Some(f)),
        Tag::Front(file) => (Some('前'), file),
        Tag::Foremost => (Some('前'), None),
        Tag::Middle(file) => (Some('中'), file),
        Tag::Rear(file) => (Some('后'), file),
        Tag::Rearmost => (Some('后'), None),
        Tag::Nth(k, file) => (Some(ordinal(k)), file),
    };
    s.extend(word);
    s.push(p);
    s.extend(file.map(|f| cn_number(color, f)));
    let (act, num) = describe(color, kind, m.from(), m.to());
    s.push(match act {
        Action::Forward => '进',
        Action::Backward => '退',
        Action::Sideways => '平',
    });
    s.push(cn_number(color, num));
    s
}

#[derive(Clone, Copy)]
enum Tok {
    Piece(PieceType),
    Word(fn(Option<u8>) -> Tag),
    Num(u8),
    BadNum(char),
    Other(char),
}

fn cn_token(c: char) -> Tok {
    use PieceType::*;
    match c {
        '帅' | '帥' | '将' | '將' => Tok::Piece(King),
        '仕' | '士' => Tok::Piece(Advisor),
        '相' | '象' => Tok::Piece(Elephant),
        '马' | '馬' | '傌' => Tok::Piece(Horse),
        '车' | '車' | '俥' => Tok::Piece(Rook),
        '炮' | '砲' | '包' => Tok::Piece(Cannon),
        '兵' | '卒' => Tok::Piece(Pawn),
        '前' => Tok::Word(Tag::Front),
        '中' => Tok::Word(Tag::Middle),
        '后' | '後' => Tok::Word(Tag::Rear),
        '1'..='9' => Tok::Num(c as u8 - b'0'),
        '０' | '0' | '十' | '零' | '〇' => Tok::BadNum(c),
        _ => {
            if let Some(i) = CN_DIGITS.iter().position(|&d| d == c) {
                Tok::Num(i as u8 + 1)
            } else if let Some(i) = FW_DIGITS.iter().position(|&d| d == c) {
                Tok::Num(i as u8 + 1)
            } else {
                Tok::Other(c)
            }
        }
    }
}

/// Reads Chinese notation (see the module doc for the forms accepted) and returns the legal
/// move of `pos` it denotes.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let syntax = |reason: &str| syntax_error(text, reason);
    let bad = |token, what| NotationError::BadNumber {
        text: shown(text),
        token,
        what,
    };
    if chars.is_empty() {
        return Err(NotationError::Empty);
    }
    if !(4..=5).contains(&chars.len()) {
        return Err(syntax("is not 4 or 5 characters like 炮二平五"));
    }
    let (head, tail) = chars.split_at(chars.len() - 2);
    let act = match tail[0] {
        '进' | '進' | '上' => Action::Forward,
        '退' | '下' => Action::Backward,
        '平' => Action::Sideways,
        _ => return Err(syntax("needs 进, 退 or 平 as its second-to-last character")),
    };
    let toks: Vec<Tok> = head.iter().map(|&c| cn_token(c)).collect();
    for (i, t) in toks.iter().enumerate() {
        match *t {
            Tok::BadNum(c) => return Err(bad(c, if i == 0 { "ordinal" } else { "file" })),
            Tok::Other(c) => return Err(syntax(&format!("has unknown character '{c}'"))),
            _ => {}
        }
    }
    let ordinal = |k: u8| {
        if k <= 5 {
            Ok(k)
        } else {
            Err(bad(head[0], "ordinal"))
        }
    };
    let (kind, tag) = match toks.as_slice() {
        [Tok::Piece(k), Tok::Num(f)] => (*k, Tag::File(*f)),
        [Tok::Word(w), Tok::Piece(k)] | [Tok::Piece(k), Tok::Word(w)] => (*k, w(None)),
        [Tok::Num(i), Tok::Piece(k)] => (*k, Tag::Nth(ordinal(*i)?, None)),
        [Tok::Word(w), Tok::Num(f)] => (PieceType::Pawn, w(Some(*f))),
        [Tok::Num(i), Tok::Num(f)] => (PieceType::Pawn, Tag::Nth(ordinal(*i)?, Some(*f))),
        [Tok::Word(w), Tok::Piece(k), Tok::Num(f)] => (*k, w(Some(*f))),
        [Tok::Num(i), Tok::Piece(k), Tok::Num(f)] => (*k, Tag::Nth(ordinal(*i)?, Some(*f))),
        _ => return Err(syntax("does not name a piece and its file")),
    };
    let num = match cn_token(tail[1]) {
        Tok::Num(n) => n,
        Tok::BadNum(c) if act == Action::Sideways || describe_by_file(kind) => {
            return Err(bad(c, "file"));
        }
        Tok::BadNum(c) => return Err(bad(c, "step count")),
        _ => return Err(syntax("must end with a file or step number")),
    };
    resolve(pos, text, Style::Chinese, kind, tag, act, num)
}

// ---- WXF ---------------------------------------------------------------------------------

/// The move in WXF notation (`C2.5`, `H8+7`, `R+.3`, `3+.4`). Meant for a legal move of
/// `pos`; a move with no piece on its from-square comes back as ICCS.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let Some((layout, tag)) = canonical(pos, m, Style::Wxf) else {
        return to_iccs(m);
    };
    let (color, kind) = (layout.color, layout.kind);
    let letter = match kind {
        PieceType::Elephant => 'E',
        PieceType::Horse => 'H',
        k => k.letter(),
    };
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    let mut s = String::new();
    match tag {
        Tag::Foremost => s.push_str("++"),
        Tag::Rearmost => s.push_str("--"),
        Tag::Front(Some(f)) => s.extend([digit(f), '+']),
        Tag::Rear(Some(f)) => s.extend([digit(f), '-']),
        Tag::Middle(Some(f)) | Tag::Nth(_, Some(f)) => s.extend([digit(f), digit(f)]),
        Tag::Front(None) => s.extend([letter, '+']),
        Tag::Rear(None) => s.extend([letter, '-']),
        Tag::File(f) => s.extend([letter, digit(f)]),
        Tag::Middle(None) | Tag::Nth(_, None) => {
            s.extend([letter, digit(own_file(color, m.from().file()))])
        }
    }
    let (act, num) = describe(color, kind, m.from(), m.to());
    s.push(match act {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '.',
    });
    s.push(digit(num));
    s
}

/// Reads WXF notation (see the module doc) and returns the legal move of `pos` it denotes.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let syntax = |reason: &str| syntax_error(text, reason);
    let bad = |token, what| NotationError::BadNumber {
        text: shown(text),
        token,
        what,
    };
    if chars.is_empty() {
        return Err(NotationError::Empty);
    }
    if !chars.iter().all(char::is_ascii) {
        return Err(syntax("is not WXF (ASCII such as C2.5)"));
    }
    let (kind, rest) = if chars[0].is_ascii_alphabetic() {
        let kind = PieceType::from_letter(chars[0])
            .ok_or_else(|| syntax(&format!("has no WXF piece letter '{}'", chars[0])))?;
        (kind, &chars[1..])
    } else if chars.len() == 4 {
        (PieceType::Pawn, &chars[..])
    } else {
        return Err(syntax("is not WXF such as C2.5 or 3+.4"));
    };
    let (desig, op, num) = match rest {
        [d, op, n] => (std::slice::from_ref(d), *op, *n),
        [_, _, op, n] => (&rest[..2], *op, *n),
        _ => return Err(syntax("is not WXF such as C2.5 or R+.3")),
    };
    let file = |c: char| match c {
        '1'..='9' => Ok(c as u8 - b'0'),
        '0' => Err(bad(c, "file")),
        _ => Err(syntax("has a bad file or +/- marker")),
    };
    let tag = match desig {
        ['+'] => Tag::Front(None),
        ['-'] => Tag::Rear(None),
        [c] => Tag::File(file(*c)?),
        ['+', '+'] => Tag::Foremost,
        ['-', '-'] => Tag::Rearmost,
        [c, '+'] => Tag::Front(Some(file(*c)?)),
        [c, '-'] => Tag::Rear(Some(file(*c)?)),
        [c, d] if c == d => Tag::Middle(Some(file(*c)?)),
        _ => return Err(syntax("has a bad file or +/- marker")),
    };
    let act = match op {
        '+' => Action::Forward,
        '-' => Action::Backward,
        '.' | '=' => Action::Sideways,
        _ => return Err(syntax("needs +, - or . before its last character")),
    };
    let num = match num {
        '1'..='9' => num as u8 - b'0',
        '0' => return Err(bad(num, "file or step count")),
        _ => return Err(syntax("must end with a digit 1-9")),
    };
    resolve(pos, text, Style::Wxf, kind, tag, act, num)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::START_FEN;

    fn fen(text: &str) -> Position {
        Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn mv(iccs: &str) -> Move {
        Move::parse_iccs(iccs).unwrap()
    }

    /// Each `(text, iccs)` read with `parse_any` in `fen` gives `iccs`; `"-"` means an error.
    fn reads(fen_text: &str, cases: &[(&str, &str)]) {
        let pos = fen(fen_text);
        for &(text, want) in cases {
            let got = parse_any(&pos, text).map_or("-".to_string(), |m| m.to_string());
            assert_eq!(got, want, "{text} in {fen_text}");
        }
    }

    /// Each `(iccs, chinese, wxf)`: the move is written so in `fen`.
    fn writes(fen_text: &str, cases: &[(&str, &str, &str)]) {
        let pos = fen(fen_text);
        for &(m, cn, wxf) in cases {
            assert_eq!(to_chinese(&pos, mv(m)), cn, "{m} in {fen_text}");
            assert_eq!(to_wxf(&pos, mv(m)), wxf, "{m} in {fen_text}");
        }
    }

    #[test]
    fn cxa_opening_in_chinese_and_wxf() {
        // 炮8进4 is h7h3: Black counts files from board file a, so its 8 is file h.
        let line = [
            ("炮二平五", "C2.5", "h2e2", "炮二平五"),
            ("马8进7", "h8+7", "h9g7", "马８进７"),
            ("马二进三", "N2+3", "h0g2", "马二进三"),
            ("车9平8", "R9=8", "i9h9", "车９平８"),
            ("车一平二", "R1.2", "i0h0", "车一平二"),
            ("炮８进４", "C8+4", "h7h3", "炮８进４"),
        ];
        let mut pos = Position::startpos();
        for (cn, wxf, want, written) in line {
            let m = parse_chinese(&pos, cn).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(m.to_string(), want);
            assert_eq!(parse_wxf(&pos, wxf), Ok(m), "{wxf}");
            assert_eq!(to_chinese(&pos, m), written);
            assert_eq!(
                to_wxf(&pos, m),
                wxf.to_uppercase().replace('=', ".").replace('N', "H")
            );
            pos.make_move(m);
        }
        reads(
            START_FEN,
            &[
                ("砲二平五", "h2e2"),
                ("包2平5", "h2e2"),
                (" 炮 ２ 平 五 ", "h2e2"),
                ("傌八進七", "b0c2"),
                ("俥九上一", "a0a1"),
                ("H2-E2", "h2e2"),
            ],
        );
    }

    #[test]
    fn advisors_elephants_kings_and_black_retreats() {
        #[rustfmt::skip]
        reads(START_FEN, &[
            ("仕四进五", "f0e1"), ("仕六进五", "d0e1"), ("相三进五", "g0e2"), ("象七进九", "c0a2"),
            ("帅五进一", "e0e1"), ("A4+5", "f0e1"), ("E3+5", "g0e2"), ("B7+9", "c0a2"),
            ("K5+1", "e0e1"),
        ]);
        #[rustfmt::skip]
        reads("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b", &[
            ("将5进1", "e9e8"), ("士4进5", "d9e8"), ("象3进5", "c9e7"), ("K5+1", "e9e8"),
        ]);
        // Black's 退 is toward rank 9.
        let black_rook = "rnbakabn1/9/1c5c1/p1p1p1p1p/7r1/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b";
        reads(
            black_rook,
            &[("车8退1", "h5h6"), ("车8进1", "h5h4"), ("R8-1", "h5h6")],
        );
        writes(black_rook, &[("h5h6", "车８退１", "R8-1")]);
        // Two advisors, two elephants on one file: the action alone tells them apart.
        let pair = "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w";
        #[rustfmt::skip]
        writes(pair, &[
            ("d0e1", "仕六进五", "A6+5"), ("d2e1", "仕六退五", "A6-5"),
            ("c0e2", "相七进五", "E7+5"), ("c4a2", "相七退九", "E7-9"),
        ]);
        reads(pair, &[("后仕进五", "d0e1"), ("A+-5", "d2e1")]);
    }

    #[test]
    fn tandem_rooks_and_cannons() {
        let red = "4k4/8C/9/9/R8/9/9/8C/9/R2K5 w";
        #[rustfmt::skip]
        writes(red, &[
            ("a5a6", "前车进一", "R++1"), ("a0a1", "后车进一", "R-+1"), ("a5e5", "前车平五", "R+.5"),
            ("i8i7", "前炮退一", "C+-1"), ("i2e2", "后炮平五", "C-.5"),
        ]);
        #[rustfmt::skip]
        reads(red, &[
            ("後炮進一", "i2i3"), ("车前进一", "a5a6"), ("前车九进一", "a5a6"), ("c-.5", "i2e2"),
            ("车九进一", "-"), ("车九退一", "a5a4"),
        ]);
        let black = "r3k4/9/9/9/r8/9/9/9/9/3K5 b";
        #[rustfmt::skip]
        writes(black, &[
            ("a5a4", "前车进１", "R++1"), ("a9a8", "后车进１", "R-+1"), ("a5a6", "前车退１", "R+-1"),
        ]);
        // Both rooks could go one step: the bare file is refused, never guessed.
        assert!(matches!(
            parse_chinese(&fen(red), "车九进一"),
            Err(NotationError::Ambiguous { count: 2, .. })
        ));
    }

    #[test]
    fn pawn_stacks() {
        // Three on a file: 前/中/后, WXF P+ / P7 / P-.
        let three = "4k4/9/9/2P6/2P6/2P6/9/9/9/3K5 w";
        writes(
            three,
            &[("c6c7", "前兵进一", "P++1"), ("c5d5", "中兵平六", "P7.6")],
        );
        reads(
            three,
            &[("中兵七平八", "c5b5"), ("P+.6", "c6d6"), ("后兵进一", "-")],
        );
        let black = "4k4/9/9/9/9/2p6/2p6/2p6/9/3K5 b";
        #[rustfmt::skip]
        writes(black, &[
            ("c2c1", "前卒进１", "P++1"), ("c3d3", "中卒平４", "P3.4"), ("c4b4", "后卒平２", "P-.2"),
        ]);
        // Four: 一..四 from the front (前..后 read too); WXF ++ P+ P- --.
        let four = "3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w";
        #[rustfmt::skip]
        writes(four, &[
            ("c7c8", "一兵进一", "+++1"), ("c6d6", "二兵平六", "P+.6"), ("c5b5", "三兵平八", "P-.8"),
        ]);
        reads(four, &[("前兵进一", "c7c8"), ("P++1", "-"), ("P7.6", "-")]);
        // Five: 一..五; WXF ++ P+ P7 P- --.
        let five = "3k5/9/2P6/2P6/2P6/2P6/2P6/9/9/4K4 w";
        #[rustfmt::skip]
        writes(five, &[
            ("c7d7", "一兵平六", "++.6"), ("c6b6", "二兵平八", "P+.8"), ("c5d5", "三兵平六", "P7.6"),
        ]);
        // Two doubled files (two on 五, three on 七): Chinese numbers them together, right to
        // left then front to back; WXF writes the file in place of the letter.
        let two = "4k4/9/9/2P1P4/2P1P4/2P6/9/9/9/4K4 w";
        #[rustfmt::skip]
        writes(two, &[
            ("e6e7", "一兵进一", "5++1"), ("e5f5", "二兵平四", "5-.4"), ("c6b6", "三兵平八", "7+.8"),
            ("c5d5", "四兵平六", "77.6"),
        ]);
        #[rustfmt::skip]
        reads(two, &[
            ("前兵五进一", "e6e7"), ("前五进一", "e6e7"), ("中兵七平八", "c5b5"), ("后五平六", "e5d5"),
            ("二7平8", "c5b5"), ("五兵进一", "-"), ("P7.8", "c5b5"), ("P5.4", "-"), ("5-.6", "e5d5"),
        ]);
    }

    #[test]
    fn errors_are_one_clear_line() {
        let pos = Position::startpos();
        let msg = |r: Result<Move, NotationError>| r.unwrap_err().to_string();
        #[rustfmt::skip]
        let cases = [
            ("炮二平十", "notation: '炮二平十' has no file 十"),
            ("炮三平五", "notation: no red cannon on file 三 (for '炮三平五')"),
            ("马二进四", "notation: '马二进四' is illegal here"),
            ("前车进一", "notation: '前车进一' names no red rook in this position"),
            ("h2h8", "notation: 'h2h8' is illegal here"),
            ("C2*5", "notation: 'C2*5' needs +, - or . before its last character"),
            ("Q2.5", "notation: 'Q2.5' has no WXF piece letter 'Q'"),
            ("炮二跳五", "notation: '炮二跳五' needs 进, 退 or 平 as its second-to-last character"),
            ("   ", "notation: empty move text"),
        ];
        for (text, want) in cases {
            assert_eq!(msg(parse_any(&pos, text)), want);
        }
        let e = msg(parse_any(&pos, &"炮".repeat(10_000)));
        assert!(e.chars().count() < 120, "{e}");
        assert!(std::error::Error::source(&NotationError::Empty).is_none());
    }

    struct Rng(u64);

    impl Rng {
        fn next(&mut self, below: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % below as u64) as usize
        }
    }

    #[test]
    fn junk_never_panics() {
        let pos = fen("4k4/9/9/2P1P4/2P1P4/2P6/9/9/9/4K4 w");
        let pool: Vec<char> =
            "炮二平五马8进7车九前后中兵卒一二三四五１２十0+-.=PRCHKAEBNpr3 é\n\0🦀退h2e"
                .chars()
                .collect();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let len = rng.next(7);
            let s: String = (0..len).map(|_| pool[rng.next(pool.len())]).collect();
            for r in [
                parse_any(&pos, &s),
                parse_chinese(&pos, &s),
                parse_wxf(&pos, &s),
                parse_iccs(&pos, &s),
            ] {
                if let Err(e) = r {
                    assert!(!e.to_string().contains('\n'), "{e}");
                }
            }
        }
        // No piece on the from-square: ICCS comes back instead of a panic.
        assert_eq!(to_chinese(&pos, mv("e1e2")), "e1e2");
        assert_eq!(to_wxf(&pos, mv("e1e2")), "e1e2");
    }
}
