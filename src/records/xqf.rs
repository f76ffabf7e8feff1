//! XQF, the binary format of 象棋演播室 (XQStudio), which XiangQi Wizard and most Chinese game
//! collections use. Written from public descriptions of the layout (XQStudio's `XQFRW.pas`
//! as quoted by several open readers); no code was taken from them.
//!
//! **Layout.** A 1024-byte header: `XQ`, the version byte, thirteen key bytes (mask, product
//! id, four OR masks, sum, and the seeds of the board, from-square and to-square keys), the
//! 32 piece squares (red rook, horse, elephant, advisor, king, advisor, elephant, horse, rook,
//! two cannons, five pawns, then black's in the same order; a square is `file * 10 + rank`,
//! rank 0 on Red's side, more than 89 for a captured piece), the result at byte 51, and
//! length-prefixed GBK strings (title, event, date, site, players, …). Then the move records,
//! depth first: 4 bytes (from, to, flags, reserved) and a comment. The first record holds no
//! move, only the game's opening comment. A record's flags say whether the next move of its
//! line follows and whether a variation (a sibling) comes after its subtree, so the main line
//! is the run of records while "next" is set.
//!
//! **Versions.** Up to 10 (0x0A) nothing is encrypted: squares are stored plus `0x18`/`0x20`,
//! flags `0xF0` next and `0x0F` variation, and every record has a 4-byte comment length. From
//! 11 on, everything after the header is shifted by a 32-byte key made from the copyright
//! string and the header's key bytes; squares also carry the from/to keys, flags are `0x80`
//! next, `0x40` variation, `0x20` comment, a comment length is stored only when flagged and
//! offset by a key, and the piece squares are shifted by the board key; from 12 on the 32
//! piece slots are also rotated by it.

use super::text::gbk_field;
use crate::core::{Color, Move, Piece, PieceType, Position, Square};

const HEADER_LEN: usize = 0x400;
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
const SLOTS: [PieceType; 16] = {
    use PieceType::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// What an XQF file holds: its header as PGN-style tags, the start position, the main line
/// and its comments.
#[derive(Clone, Debug)]
pub struct XqfGame {
    pub version: u8,
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// Comments with the number of moves before them (0: the opening comment).
    pub comments: Vec<(usize, String)>,
}

/// Why a file could not be read (entirely or from a ply on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqfError {
    /// The 1-based ply of the bad move (None: the header or the start position).
    pub ply: Option<usize>,
    pub reason: String,
}

/// A file that could not be read to its end: the game read so far (None when the header or
/// the start position failed) and why.
#[derive(Clone, Debug)]
pub struct Failure {
    pub partial: Option<XqfGame>,
    pub error: XqfError,
}

fn fail(partial: Option<XqfGame>, error: XqfError) -> Box<Failure> {
    Box::new(Failure { partial, error })
}

/// The decryption keys of versions 11 and later.
struct Keys {
    board: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
}

/// XQStudio's key step: a polynomial of the seed byte times the previous key, modulo 256.
fn key_step(seed: u8, previous: u8) -> u8 {
    let b = u32::from(seed);
    let p = ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    p.wrapping_mul(u32::from(previous)) as u8
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let (mask, or) = (h[3], [h[8], h[9], h[10], h[11]]);
        let (sum, seed_xy, seed_f, seed_t) = (h[12], h[13], h[14], h[15]);
        let board = key_step(seed_xy, seed_xy);
        let from = key_step(seed_f, board);
        let to = key_step(seed_t, from);
        let comment = i64::from((u32::from(sum) * 256 + u32::from(seed_xy)) % 32000) + 767;
        let bytes = [
            (sum & mask) | or[0],
            (seed_xy & mask) | or[1],
            (seed_f & mask) | or[2],
            (seed_t & mask) | or[3],
        ];
        let mut stream = *COPYRIGHT;
        for (i, s) in stream.iter_mut().enumerate() {
            *s &= bytes[i % 4];
        }
        Keys {
            board,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// Does the data look like XQF (the signature and a plausible version byte)?
pub fn looks_like_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ") && bytes.get(2).is_none_or(|&v| v < 0x20)
}

fn err(ply: Option<usize>, reason: impl Into<String>) -> XqfError {
    XqfError {
        ply,
        reason: reason.into(),
    }
}

/// A header string: its length byte at `at`, at most `cap` bytes after it.
fn field(h: &[u8], at: usize, cap: usize) -> String {
    let n = usize::from(h[at]).min(cap);
    gbk_field(&h[at + 1..at + 1 + n])
}

/// `red advisor`, for messages.
fn name(p: Piece) -> String {
    let kind = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ][p.kind().index()];
    format!("{} {kind}", p.color())
}

fn square(byte: u8) -> Option<Square> {
    if byte > 89 {
        return None;
    }
    Square::from_coords(byte / 10, byte % 10)
}

/// One move record of the main line, decoded.
struct Record {
    from: u8,
    to: u8,
    next: bool,
    comment: Option<String>,
}

/// The move records after the header.
struct Records<'a> {
    data: &'a [u8],
    at: usize,
    keys: Option<&'a Keys>,
}

impl Records<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.data.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }

    fn u32(&mut self) -> Option<u32> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn comment(&mut self, len: i64) -> Result<Option<String>, String> {
        if len <= 0 {
            return Ok(None);
        }
        let left = self.data.len() - self.at;
        let n = usize::try_from(len).unwrap_or(usize::MAX);
        if n > left {
            return Err(format!(
                "a comment of {n} bytes runs past the end of the file ({left} left)"
            ));
        }
        let text = gbk_field(self.take(n).unwrap_or_default());
        Ok(Some(text).filter(|t| !t.is_empty()))
    }

    /// The next record; Ok(None) at the end of the data.
    fn next(&mut self) -> Result<Option<Record>, String> {
        let left = self.data.len() - self.at;
        if left == 0 {
            return Ok(None);
        }
        let Some(&[a, b, flags, _]) = self.take(4) else {
            return Err(format!("a move record is cut off ({left} bytes left)"));
        };
        let cut = || "a comment length is cut off".to_string();
        let (from, to, next, comment) = match self.keys {
            None => {
                let len = self.u32().ok_or_else(cut)?;
                let c = self.comment(i64::from(len as i32))?;
                (
                    a.wrapping_sub(0x18),
                    b.wrapping_sub(0x20),
                    flags & 0xf0 != 0,
                    c,
                )
            }
            Some(k) => {
                let c = if flags & 0x20 != 0 {
                    let len = self.u32().ok_or_else(cut)?;
                    self.comment(i64::from(len as i32) - k.comment)?
                } else {
                    None
                };
                (
                    a.wrapping_sub(0x18).wrapping_sub(k.from),
                    b.wrapping_sub(0x20).wrapping_sub(k.to),
                    flags & 0x80 != 0,
                    c,
                )
            }
        };
        Ok(Some(Record {
            from,
            to,
            next,
            comment,
        }))
    }
}

/// Reads an XQF file. On a bad move the game read so far comes back with the error.
pub fn read(bytes: &[u8]) -> Result<XqfGame, Box<Failure>> {
    if !bytes.starts_with(b"XQ") {
        return Err(fail(None, err(None, "not an XQF file (no XQ signature)")));
    }
    if bytes.len() < HEADER_LEN {
        return Err(fail(
            None,
            err(
                None,
                format!(
                    "header cut off: the file has {} bytes, the header alone 1024",
                    bytes.len()
                ),
            ),
        ));
    }
    let (h, body) = bytes.split_at(HEADER_LEN);
    let version = h[2];
    let keys = (version > 10).then(|| Keys::new(h));

    // the pieces
    let mut slots = [0u8; 32];
    for (i, &b) in h[16..48].iter().enumerate() {
        match (&keys, version >= 12) {
            (Some(k), true) => slots[(usize::from(k.board) + i + 1) & 31] = b,
            _ => slots[i] = b,
        }
    }
    let mut board: [Option<Piece>; 90] = [None; 90];
    for (i, &s) in slots.iter().enumerate() {
        let s = keys.as_ref().map_or(s, |k| s.wrapping_sub(k.board));
        let Some(sq) = square(s) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, SLOTS[i % 16]);
        if let Some(other) = board[sq.index()].replace(piece) {
            return Err(fail(
                None,
                err(
                    None,
                    format!(
                        "start position: the {} and the {} both stand on {sq}",
                        name(other),
                        name(piece)
                    ),
                ),
            ));
        }
    }

    // the tags
    let result = match h[51] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    let mut tags: Vec<(String, String)> = Vec::new();
    for (name, at, cap) in [
        ("Title", 80, 63),
        ("Event", 208, 63),
        ("Date", 272, 15),
        ("Site", 288, 15),
        ("Red", 304, 15),
        ("Black", 320, 15),
        ("TimeRule", 336, 63),
        ("Annotator", 464, 15),
        ("Author", 480, 15),
    ] {
        let v = field(h, at, cap);
        if !v.is_empty() {
            tags.push((name.to_string(), v));
        }
    }
    tags.push(("Result".into(), result.into()));

    // the records: decrypted, then the opening comment and the main line
    let data: Vec<u8> = match &keys {
        None => body.to_vec(),
        Some(k) => body
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(k.stream[(HEADER_LEN + i) % 32]))
            .collect(),
    };
    let mut records = Records {
        data: &data,
        at: 0,
        keys: keys.as_ref(),
    };
    let mut comments = Vec::new();
    let mut line = Vec::new();
    let mut problem = None;
    match records.next() {
        Ok(Some(first)) => {
            comments.extend(first.comment.map(|c| (0, c)));
            loop {
                match records.next() {
                    Ok(Some(r)) => {
                        let next = r.next;
                        line.push(r);
                        if !next {
                            break;
                        }
                    }
                    // the previous move said another follows
                    Ok(None) if !line.is_empty() => {
                        let ply = line.len() + 1;
                        problem = Some(err(
                            Some(ply),
                            format!("the file ends where move {ply} should be"),
                        ));
                        break;
                    }
                    Ok(None) => break,
                    Err(e) => {
                        problem = Some(err(Some(line.len() + 1), e));
                        break;
                    }
                }
            }
        }
        Ok(None) => {}
        Err(e) => problem = Some(err(None, e)),
    }

    // The side to move is the side of the first move's piece. Without moves it is the
    // header's "who plays" byte (50; 1 for Black, though many files leave it 0), or the
    // other side where that one would have its opponent in check (a diagram of a mate).
    let first = line
        .first()
        .and_then(|r| square(r.from))
        .and_then(|sq| board[sq.index()])
        .map(|p| p.color());
    let side = first.unwrap_or(if h[50] == 1 { Color::Black } else { Color::Red });
    let mut placement = String::new();
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match board[usize::from(rank) * 9 + usize::from(file)] {
                Some(p) => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let fen = |side: Color| format!("{placement} {}", if side == Color::Red { "w" } else { "b" });
    let start = match Position::from_fen(&fen(side)) {
        Ok(p) => p,
        Err(e) => match Position::from_fen(&fen(!side)) {
            Ok(p) if first.is_none() => p,
            _ => {
                let e = format!("start position {}: {e}", fen(side));
                return Err(fail(None, err(None, e)));
            }
        },
    };

    let mut game = XqfGame {
        version,
        tags,
        start: start.clone(),
        moves: Vec::new(),
        comments,
    };
    let mut pos = start;
    for (i, r) in line.iter().enumerate() {
        let ply = i + 1;
        let (Some(from), Some(to)) = (square(r.from), square(r.to)) else {
            let e = format!("move bytes {} {} are off the board", r.from, r.to);
            return Err(fail(Some(game), err(Some(ply), e)));
        };
        let m = Move::new(from, to).filter(|&m| pos.is_legal(m));
        let Some(m) = m else {
            let e = match pos.piece_on(from) {
                None => format!("{from}{to}: no piece on {from}"),
                Some(p) if p.color() != pos.side_to_move() => format!(
                    "{from}{to}: the {} on {from} moves out of turn ({} to move)",
                    name(p),
                    pos.side_to_move()
                ),
                Some(p) => format!(
                    "{from}{to}: the {} on {from} cannot go to {to} here",
                    name(p)
                ),
            };
            return Err(fail(Some(game), err(Some(ply), e)));
        };
        pos.make_move(m);
        game.moves.push(m);
        game.comments.extend(r.comment.clone().map(|c| (ply, c)));
    }
    match problem {
        Some(e) => Err(fail(Some(game), e)),
        None => Ok(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_published_formula() {
        // KeyXY = f(seed) * seed with f(b) = ((((b*b)*3+9)*3+8)*2+1)*3+8, all mod 256
        for seed in 0..=255u8 {
            let b = u64::from(seed);
            let f = ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
            assert_eq!(u64::from(key_step(seed, seed)), (f * b) % 256);
        }
        let mut h = vec![0u8; 16];
        h[3] = 0xff;
        h[12] = 200;
        h[13] = 7;
        let k = Keys::new(&h);
        assert_eq!(k.comment, (200 * 256 + 7) % 32000 + 767);
        // with no OR masks, the stream keeps the copyright bytes the key bytes allow
        assert_eq!(k.stream[0], COPYRIGHT[0] & 200);
        assert_eq!(k.stream[2], 0);
    }

    #[test]
    fn short_and_foreign_data_are_refused() {
        assert!(read(b"[Event").is_err());
        let e = read(b"XQ\x0a").unwrap_err().error;
        assert!(e.reason.contains("header cut off"), "{}", e.reason);
        assert!(looks_like_xqf(b"XQ\x12") && !looks_like_xqf(b"XQF is"));
    }
}
