//! The manifest of the training data: which self-play shards exist, how they were played and
//! what their bytes are, kept in the repository (`nets/shards.tsv`) while the data stays
//! outside it.
//!
//! A shard is the file of games `0..games` of `(seed, shard)` ([`super::datagen`]); with the
//! same build (its `bench` node count), the same teacher (its net's checksum) and the same
//! settings it is played again byte for byte. So a shard that a machine lost is never skipped:
//! `chariot nnue shards` finds it missing or damaged and plays it again from its row.
//!
//! The file is tab-separated text: a first line naming the columns, then one row a shard.
//! Lines starting with `#` are comments.

use super::datagen::GenStats;
use crate::eval::nnue::{embedded_bytes, format::fnv1a64};
use std::path::Path;

/// The columns, in order.
pub const COLUMNS: [&str; 16] = [
    "file",
    "seed",
    "shard",
    "games",
    "positions",
    "scored",
    "bytes",
    "fnv64",
    "nodes",
    "random_plies",
    "max_plies",
    "resign",
    "rules",
    "teacher",
    "bench",
    "made",
];

/// One shard as the manifest records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRow {
    /// The file's name (no folder: shards are looked for in the data folder).
    pub file: String,
    pub seed: u64,
    pub shard: u64,
    pub games: usize,
    /// Moves in the file (random opening moves included).
    pub positions: usize,
    /// Moves a search chose.
    pub scored: usize,
    pub bytes: u64,
    /// FNV-1a-64 of the whole file.
    pub fnv64: u64,
    pub nodes: u64,
    /// `MIN-MAX`.
    pub random_plies: String,
    pub max_plies: usize,
    pub resign: i32,
    /// `cxa` or `axf`.
    pub rules: String,
    /// [`teacher_id`] of the evaluation that played.
    pub teacher: String,
    /// The `bench` node count of the build that played (the search's fingerprint).
    pub bench: u64,
    /// When and where: free text without tabs (a date and a host).
    pub made: String,
}

impl ShardRow {
    /// The row's line (no newline).
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:016x}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.file,
            self.seed,
            self.shard,
            self.games,
            self.positions,
            self.scored,
            self.bytes,
            self.fnv64,
            self.nodes,
            self.random_plies,
            self.max_plies,
            self.resign,
            self.rules,
            self.teacher,
            self.bench,
            self.made.replace(['\t', '\n', '\r'], " ")
        )
    }

    fn parse(line: &str) -> Result<ShardRow, String> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != COLUMNS.len() {
            return Err(format!(
                "{} fields where {} were expected",
                f.len(),
                COLUMNS.len()
            ));
        }
        fn num<T: std::str::FromStr>(f: &[&str], i: usize) -> Result<T, String> {
            f[i].parse()
                .map_err(|_| format!("{} {:?} is not a number", COLUMNS[i], f[i]))
        }
        if f[0].is_empty() || f[0].contains(['/', '\\']) {
            return Err(format!("file {:?} is not a plain file name", f[0]));
        }
        Ok(ShardRow {
            file: f[0].to_string(),
            seed: num(&f, 1)?,
            shard: num(&f, 2)?,
            games: num(&f, 3)?,
            positions: num(&f, 4)?,
            scored: num(&f, 5)?,
            bytes: num(&f, 6)?,
            fnv64: u64::from_str_radix(f[7], 16)
                .map_err(|_| format!("fnv64 {:?} is not 16 hex digits", f[7]))?,
            nodes: num(&f, 8)?,
            random_plies: f[9].to_string(),
            max_plies: num(&f, 10)?,
            resign: num(&f, 11)?,
            rules: f[12].to_string(),
            teacher: f[13].to_string(),
            bench: num(&f, 14)?,
            made: f[15].to_string(),
        })
    }

    /// The command that plays this shard again (`EVAL`: the evaluation that gives
    /// [`ShardRow::teacher`]).
    pub fn command(&self, eval: &str) -> String {
        format!(
            "chariot nnue gen --out {} --games {} --seed {} --shard {} --nodes {} --random-plies {} --max-plies {} --resign {} --rules {} --eval {}",
            self.file,
            self.games,
            self.seed,
            self.shard,
            self.nodes,
            self.random_plies,
            self.max_plies,
            self.resign,
            self.rules,
            eval
        )
    }
}

/// Reads a manifest; a bad line is an error naming it.
pub fn parse(text: &str) -> Result<Vec<ShardRow>, String> {
    let mut rows: Vec<ShardRow> = Vec::new();
    let mut header = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if !header {
            if line.split('\t').collect::<Vec<_>>() != COLUMNS {
                return Err(format!(
                    "line {}: the first line must name the columns: {}",
                    n + 1,
                    COLUMNS.join(" ")
                ));
            }
            header = true;
            continue;
        }
        let row = ShardRow::parse(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        if let Some(old) = rows
            .iter()
            .find(|r| r.file == row.file || (r.seed, r.shard) == (row.seed, row.shard))
        {
            return Err(format!(
                "line {}: shard {} (seed {}, shard {}) is listed twice",
                n + 1,
                row.file,
                old.seed,
                old.shard
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Reads a manifest file (a file that does not exist is an empty manifest).
pub fn read(path: &Path) -> Result<Vec<ShardRow>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Adds a row (the file and its column line are created when missing). A row for the same
/// file or the same seed and shard is refused: a shard is made once.
pub fn append(path: &Path, row: &ShardRow) -> Result<(), String> {
    use std::io::Write;
    let rows = read(path)?;
    if let Some(old) = rows
        .iter()
        .find(|r| r.file == row.file || (r.seed, r.shard) == (row.seed, row.shard))
    {
        return Err(format!(
            "{} already lists {} (seed {}, shard {})",
            path.display(),
            old.file,
            old.seed,
            old.shard
        ));
    }
    let mut text = String::new();
    if rows.is_empty() && std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
        text.push_str(&COLUMNS.join("\t"));
        text.push('\n');
    }
    text.push_str(&row.line());
    text.push('\n');
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The teacher's name in the manifest: `hce`, or `net-` and the FNV-1a-64 of the net file's
/// bytes (the embedded net for `nnue`).
pub fn teacher_id(eval: &str) -> Result<String, String> {
    match eval {
        "hce" => Ok("hce".into()),
        "nnue" | "" | "<embedded>" => Ok(format!("net-{:016x}", fnv1a64(embedded_bytes()))),
        file => {
            let bytes =
                std::fs::read(file).map_err(|e| format!("cannot read net file {file}: {e}"))?;
            Ok(format!("net-{:016x}", fnv1a64(&bytes)))
        }
    }
}

/// The row of a shard just written.
pub fn row_of(
    file: &Path,
    opts: &super::datagen::GenOptions,
    stats: &GenStats,
    bench: u64,
    made: String,
) -> Result<ShardRow, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{} has no plain file name", file.display()))?;
    let p = &opts.play;
    Ok(ShardRow {
        file: name.to_string(),
        seed: opts.seed,
        shard: opts.shard,
        games: stats.games,
        positions: stats.moves,
        scored: stats.scored,
        bytes: bytes.len() as u64,
        fnv64: fnv1a64(&bytes),
        nodes: p.nodes,
        random_plies: format!("{}-{}", p.random_plies.0, p.random_plies.1),
        max_plies: p.max_plies,
        resign: p.resign,
        rules: p.rules.to_string(),
        teacher: teacher_id(&p.eval)?,
        bench,
        made,
    })
}

/// What a shard of the manifest looks like in a data folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardState {
    Present,
    Missing,
    /// Its size or checksum differs from the row's.
    Damaged(String),
}

/// Looks at one shard in `dir`.
pub fn state(dir: &Path, row: &ShardRow) -> ShardState {
    let path = dir.join(&row.file);
    match std::fs::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => ShardState::Missing,
        Err(e) => ShardState::Damaged(format!("cannot read: {e}")),
        Ok(b) if b.len() as u64 != row.bytes => ShardState::Damaged(format!(
            "{} bytes, the manifest says {}",
            b.len(),
            row.bytes
        )),
        Ok(b) => {
            let h = fnv1a64(&b);
            if h == row.fnv64 {
                ShardState::Present
            } else {
                ShardState::Damaged(format!(
                    "checksum {h:016x}, the manifest says {:016x}",
                    row.fnv64
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(file: &str, shard: u64) -> ShardRow {
        ShardRow {
            file: file.into(),
            seed: 4,
            shard,
            games: 10,
            positions: 1500,
            scored: 1420,
            bytes: 6100,
            fnv64: 0x0123_4567_89ab_cdef,
            nodes: 3000,
            random_plies: "6-10".into(),
            max_plies: 400,
            resign: 1000,
            rules: "cxa".into(),
            teacher: "net-00ff00ff00ff00ff".into(),
            bench: 3_600_817,
            made: "2026-11-26 host".into(),
        }
    }

    #[test]
    fn rows_round_trip_and_bad_lines_are_named() {
        let text = format!(
            "# comment\n{}\n{}\n{}\n",
            COLUMNS.join("\t"),
            row("a.games", 0).line(),
            row("b.games", 1).line()
        );
        assert_eq!(
            parse(&text).unwrap(),
            vec![row("a.games", 0), row("b.games", 1)]
        );
        let twice = format!("{text}{}\n", row("c.games", 1).line());
        assert!(parse(&twice).unwrap_err().contains("listed twice"));
        let bad = text.replace("\t3000\t", "\tmany\t");
        let e = parse(&bad).unwrap_err();
        assert!(e.starts_with("line 3: nodes \"many\""), "{e}");
        assert!(
            parse("file\tseed\n")
                .unwrap_err()
                .contains("name the columns")
        );
        let cmd = row("a.games", 0).command("nnue");
        assert!(
            cmd.contains("--games 10 --seed 4 --shard 0 --nodes 3000"),
            "{cmd}"
        );
    }

    #[test]
    fn append_refuses_a_shard_twice_and_state_checks_the_bytes() {
        let dir = std::env::temp_dir().join(format!("chariot-manifest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let m = dir.join("shards.tsv");
        let bytes = b"CHARGAME some bytes".to_vec();
        std::fs::write(dir.join("a.games"), &bytes).unwrap();
        let mut a = row("a.games", 0);
        a.bytes = bytes.len() as u64;
        a.fnv64 = fnv1a64(&bytes);
        append(&m, &a).unwrap();
        append(&m, &row("b.games", 1)).unwrap();
        assert!(
            append(&m, &row("c.games", 1))
                .unwrap_err()
                .contains("already lists")
        );
        let rows = read(&m).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(state(&dir, &rows[0]), ShardState::Present);
        assert_eq!(state(&dir, &rows[1]), ShardState::Missing);
        std::fs::write(dir.join("a.games"), b"CHARGAME some bytez").unwrap();
        assert!(matches!(state(&dir, &rows[0]), ShardState::Damaged(e) if e.contains("checksum")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
