//! Training games: Chariot's self-play games in a compact binary file, four bytes a position.
//!
//! A file is an 16-byte header, magic `CHARGAME`, version `u32` (1), reserved `u32` (0), then
//! game records to the end of the file, all little-endian:
//!
//! | size | field |
//! |---|---|
//! | 2 | length L of the start position's FEN |
//! | L | the FEN, UTF-8 |
//! | 1 | result from Red's side: 0 Black wins, 1 draw, 2 Red wins |
//! | 1 | reserved, 0 |
//! | 2 | number of moves N |
//! | 4·N | each move: `u16` move (`Move::bits`: from + to·128), `i16` the search score of the position before it, side to move's view, centipawns (`i16::MIN`: not searched, e.g. a random opening move) |
//!
//! The positions are re-created by playing the moves from the start position, so a reader
//! gets the whole game: the trainer chooses which positions to learn from (filters by
//! measurement) without regenerating anything.

use crate::core::{Move, Position};
use crate::rules::GameResult;
use std::io::{Read, Write};

pub const MAGIC: &[u8; 8] = b"CHARGAME";
pub const VERSION: u32 = 1;
pub const HEADER_LEN: usize = 16;
/// The score of a move that no search chose.
pub const NO_SCORE: i16 = i16::MIN;

/// One game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start_fen: String,
    /// `RedWins`, `BlackWins` or `Draw`.
    pub result: GameResult,
    /// Each move with the score of the search that chose it (side to move's view), or
    /// [`NO_SCORE`].
    pub moves: Vec<(Move, i16)>,
}

/// The file header.
pub fn write_header(w: &mut impl Write) -> std::io::Result<()> {
    w.write_all(MAGIC)?;
    w.write_all(&VERSION.to_le_bytes())?;
    w.write_all(&0u32.to_le_bytes())
}

impl GameRecord {
    /// Appends the record's bytes.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let fen = self.start_fen.as_bytes();
        out.extend_from_slice(&(fen.len() as u16).to_le_bytes());
        out.extend_from_slice(fen);
        out.push(match self.result {
            GameResult::BlackWins => 0,
            GameResult::RedWins => 2,
            _ => 1,
        });
        out.push(0);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &(m, s) in &self.moves {
            out.extend_from_slice(&m.bits().to_le_bytes());
            out.extend_from_slice(&s.to_le_bytes());
        }
    }

    /// Plays the game from its start, calling `f(position before the move, move, score)` for
    /// every move. An illegal move or a bad FEN is an error naming the ply.
    pub fn replay(&self, mut f: impl FnMut(&Position, Move, i16)) -> Result<(), String> {
        let mut pos = Position::from_fen(&self.start_fen)
            .map_err(|e| format!("bad start position {:?}: {e}", self.start_fen))?;
        for (ply, &(m, s)) in self.moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(format!("illegal move {m} at ply {}", ply + 1));
            }
            f(&pos, m, s);
            pos.make_move(m);
        }
        Ok(())
    }
}

/// Reads every game of a file's bytes; a damaged or foreign file is an error.
pub fn decode(bytes: &[u8]) -> Result<Vec<GameRecord>, String> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err("not a Chariot training-games file (bad magic bytes)".into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(format!(
            "training-games format version {version}, this build reads {VERSION}"
        ));
    }
    let mut games = Vec::new();
    let mut at = HEADER_LEN;
    let truncated = |at: usize| format!("truncated game record at byte {at}");
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    while at < bytes.len() {
        let start = at;
        if at + 2 > bytes.len() {
            return Err(truncated(start));
        }
        let len = u16_at(at) as usize;
        at += 2;
        if at + len + 4 > bytes.len() {
            return Err(truncated(start));
        }
        let start_fen = std::str::from_utf8(&bytes[at..at + len])
            .map_err(|_| format!("game at byte {start}: the FEN is not UTF-8"))?
            .to_string();
        at += len;
        let result = match bytes[at] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::RedWins,
            r => return Err(format!("game at byte {start}: bad result byte {r}")),
        };
        at += 2;
        let n = u16_at(at) as usize;
        at += 2;
        if at + 4 * n > bytes.len() {
            return Err(truncated(start));
        }
        let mut moves = Vec::with_capacity(n);
        for i in 0..n {
            let p = at + 4 * i;
            let m = Move::from_bits(u16_at(p))
                .ok_or_else(|| format!("game at byte {start}: bad move word at ply {}", i + 1))?;
            moves.push((m, u16_at(p + 2) as i16));
        }
        at += 4 * n;
        games.push(GameRecord {
            start_fen,
            result,
            moves,
        });
    }
    Ok(games)
}

/// Reads a file of games.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameRecord>, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> GameRecord {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for (i, text) in ["h2e2", "h9g7", "h0g2", "i9h9"].iter().enumerate() {
            let m = Move::parse_iccs(text).unwrap();
            assert!(pos.is_legal(m));
            pos.make_move(m);
            moves.push((m, if i == 0 { NO_SCORE } else { -20 + i as i16 }));
        }
        GameRecord {
            start_fen: Position::startpos().fen(),
            result: GameResult::RedWins,
            moves,
        }
    }

    #[test]
    fn games_round_trip_and_replay() {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        let (a, mut b) = (game(), game());
        b.result = GameResult::Draw;
        b.moves.truncate(2);
        a.encode(&mut bytes);
        b.encode(&mut bytes);
        let read = decode(&bytes).unwrap();
        assert_eq!(read, vec![a.clone(), b]);
        let mut plies = 0;
        a.replay(|pos, m, _| {
            assert!(pos.is_legal(m));
            plies += 1;
        })
        .unwrap();
        assert_eq!(plies, 4);
        // four bytes a move
        let mut one = Vec::new();
        a.encode(&mut one);
        assert_eq!(one.len(), 2 + a.start_fen.len() + 4 + 4 * 4);
    }

    #[test]
    fn damaged_files_are_refused() {
        let mut bytes = Vec::new();
        write_header(&mut bytes).unwrap();
        game().encode(&mut bytes);
        for cut in [
            bytes.len() - 1,
            bytes.len() - 4,
            HEADER_LEN + 1,
            HEADER_LEN + 5,
        ] {
            assert!(decode(&bytes[..cut]).unwrap_err().contains("truncated"));
        }
        assert!(decode(b"CHARGAMX\x01\0\0\0\0\0\0\0").is_err());
        let mut illegal = game();
        illegal.moves[1].0 = Move::parse_iccs("a0a5").unwrap();
        assert!(illegal.replay(|_, _, _| {}).unwrap_err().contains("ply 2"));
    }
}
