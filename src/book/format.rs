//! The book file: a 32-byte header, sorted 16-byte records, then a names section. All
//! integers are little-endian.
//!
//! ```text
//! header   0..8   magic "CHARBOOK"
//!          8..10  version (u16, now 1)
//!         10..12  record size (u16, 16)
//!         12..16  record count (u32)
//!         16..20  name count (u32)
//!         20..24  names section length in bytes (u32)
//!         24..32  checksum (u64): FNV-1a 64 of bytes 0..24 and of everything after byte 32
//! record   0..8   Zobrist key of the position (side to move included), the smaller of the
//!                 position's and its left-right mirror's (`mirror::canonical_key`)
//!          8..10  move (`Move::bits`, from | to << 7), seen from the stored orientation
//!         10..12  weight (u16): how often the move is chosen relative to its siblings;
//!                 the builder writes the number of games/lines that played it
//!         12..14  score (i16): search score of the move for the side to move, centipawns,
//!                 written by `book grow`; -32768 when never searched
//!         14      depth (u8) of that search; 0 when never searched
//!         15      flags: 1 = from the source games/lines, 2 = added by search (grow),
//!                 4 = vetted by search; other bits are zero
//! names    per name: key (u64), length (u16), UTF-8 bytes; sorted by key, keys unique
//! ```
//!
//! Records are sorted by (key, move) with no duplicates, so a probe is a binary search. The
//! score and depth let `grow` skip work already done and let `probe` show how a move was
//! judged; names let a probe say which opening a position belongs to.

use crate::core::Move;
use std::fmt;

pub const MAGIC: [u8; 8] = *b"CHARBOOK";
pub const VERSION: u16 = 1;
pub const HEADER_SIZE: usize = 32;
pub const RECORD_SIZE: usize = 16;
/// Score of a record no search has looked at.
pub const NO_SCORE: i16 = i16::MIN;

pub const FLAG_SOURCE: u8 = 1;
pub const FLAG_GROWN: u8 = 2;
pub const FLAG_VETTED: u8 = 4;
const FLAGS_KNOWN: u8 = FLAG_SOURCE | FLAG_GROWN | FLAG_VETTED;

/// One position-move pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub key: u64,
    pub mv: Move,
    pub weight: u16,
    pub score: i16,
    pub depth: u8,
    pub flags: u8,
}

impl Record {
    pub fn searched(&self) -> Option<i16> {
        (self.depth > 0 && self.score != NO_SCORE).then_some(self.score)
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&self.mv.bits().to_le_bytes());
        out.extend_from_slice(&self.weight.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.depth);
        out.push(self.flags);
    }
}

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    Io(String),
    TooShort(usize),
    BadMagic,
    Version(u16),
    RecordSize(u16),
    Length { expected: u64, actual: usize },
    Checksum,
    BadRecord { index: usize, why: &'static str },
    BadNames(&'static str),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "book: {e}"),
            BookError::TooShort(n) => write!(
                f,
                "book: file too short ({n} bytes; a Chariot book has a {HEADER_SIZE}-byte header)"
            ),
            BookError::BadMagic => write!(f, "book: not a Chariot book (bad magic bytes)"),
            BookError::Version(v) => write!(
                f,
                "book: format version {v}, this Chariot reads version {VERSION}"
            ),
            BookError::RecordSize(s) => write!(
                f,
                "book: record size {s}, this Chariot reads {RECORD_SIZE}-byte records"
            ),
            BookError::Length { expected, actual } => write!(
                f,
                "book: truncated or padded file ({actual} bytes, the header promises {expected})"
            ),
            BookError::Checksum => write!(f, "book: checksum mismatch (the file is corrupt)"),
            BookError::BadRecord { index, why } => write!(f, "book: record {index} {why}"),
            BookError::BadNames(why) => write!(f, "book: names section {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// FNV-1a, 64 bits: enough to catch truncation and bit rot (not an adversary).
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn checksum(file: &[u8]) -> u64 {
    let h = fnv1a(FNV_OFFSET, &file[..24]);
    fnv1a(h, &file[HEADER_SIZE..])
}

/// The bytes of a book with these records (sorted, unique) and names (sorted, unique).
pub fn encode(records: &[Record], names: &[(u64, String)]) -> Vec<u8> {
    let mut names_bytes = Vec::new();
    for (key, name) in names {
        let bytes = &name.as_bytes()[..name.len().min(u16::MAX as usize)];
        names_bytes.extend_from_slice(&key.to_le_bytes());
        names_bytes.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
        names_bytes.extend_from_slice(bytes);
    }
    let mut out = Vec::with_capacity(HEADER_SIZE + records.len() * RECORD_SIZE + names_bytes.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&(names.len() as u32).to_le_bytes());
    out.extend_from_slice(&(names_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    for r in records {
        r.write(&mut out);
    }
    out.extend_from_slice(&names_bytes);
    let sum = checksum(&out);
    out[24..32].copy_from_slice(&sum.to_le_bytes());
    out
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}
fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

/// Position names by key, as stored in the names section.
pub type Names = Vec<(u64, String)>;

/// Reads and checks a whole book file: header, length, checksum, record order, moves, names.
pub fn decode(file: &[u8]) -> Result<(Vec<Record>, Names), BookError> {
    if file.len() >= 8 && file[..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    if file.len() < HEADER_SIZE {
        return Err(BookError::TooShort(file.len()));
    }
    let version = u16_at(file, 8);
    if version != VERSION {
        return Err(BookError::Version(version));
    }
    let size = u16_at(file, 10);
    if size as usize != RECORD_SIZE {
        return Err(BookError::RecordSize(size));
    }
    let count = u32_at(file, 12) as u64;
    let name_count = u32_at(file, 16) as usize;
    let names_len = u32_at(file, 20) as u64;
    let expected = HEADER_SIZE as u64 + count * RECORD_SIZE as u64 + names_len;
    if expected != file.len() as u64 {
        return Err(BookError::Length {
            expected,
            actual: file.len(),
        });
    }
    if checksum(file) != u64_at(file, 24) {
        return Err(BookError::Checksum);
    }
    let mut records = Vec::with_capacity(count as usize);
    let mut prev: Option<(u64, u16)> = None;
    for index in 0..count as usize {
        let b = &file[HEADER_SIZE + index * RECORD_SIZE..][..RECORD_SIZE];
        let key = u64_at(b, 0);
        let bits = u16_at(b, 8);
        let mv = Move::from_bits(bits).ok_or(BookError::BadRecord {
            index,
            why: "holds no valid move",
        })?;
        let flags = b[15];
        if flags & !FLAGS_KNOWN != 0 {
            return Err(BookError::BadRecord {
                index,
                why: "has unknown flag bits",
            });
        }
        if prev.is_some_and(|p| p >= (key, bits)) {
            return Err(BookError::BadRecord {
                index,
                why: "is out of order (records must be sorted by key and move)",
            });
        }
        prev = Some((key, bits));
        records.push(Record {
            key,
            mv,
            weight: u16_at(b, 10),
            score: u16_at(b, 12) as i16,
            depth: b[14],
            flags,
        });
    }
    let mut names = Vec::with_capacity(name_count);
    let mut rest = &file[HEADER_SIZE + count as usize * RECORD_SIZE..];
    for _ in 0..name_count {
        if rest.len() < 10 {
            return Err(BookError::BadNames("ends inside an entry"));
        }
        let key = u64_at(rest, 0);
        let len = u16_at(rest, 8) as usize;
        let text = rest
            .get(10..10 + len)
            .ok_or(BookError::BadNames("ends inside a name"))?;
        let text =
            std::str::from_utf8(text).map_err(|_| BookError::BadNames("holds invalid UTF-8"))?;
        if names.last().is_some_and(|(k, _)| *k >= key) {
            return Err(BookError::BadNames("is out of order"));
        }
        names.push((key, text.to_string()));
        rest = &rest[10 + len..];
    }
    if !rest.is_empty() {
        return Err(BookError::BadNames("has bytes after its last entry"));
    }
    Ok((records, names))
}
