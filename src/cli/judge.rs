//! `chariot judge`: judges a game by the rules, clause by clause.

use chariot::records::{self, Format, text};
use chariot::rules::RuleSet;
use chariot::tools::judge;
use clap::Args;
use std::io::Read;
use std::path::PathBuf;

#[derive(Args)]
pub struct JudgeArgs {
    /// Rule set: cxa (Chinese Xiangqi Association, default) or axf (Asian rules).
    #[arg(long, default_value = "cxa")]
    rules: String,
    /// Start from this FEN instead of the start position (or the PGN's FEN tag).
    #[arg(long)]
    fen: Option<String>,
    /// Moves in ICCS, WXF or Chinese notation (otherwise read from --pgn or stdin).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Option<Vec<String>>,
    /// Read the game from a record: PGN (UTF-8 or GBK) or XQF, told apart by its bytes.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// The same as --pgn FILE.
    #[arg(value_name = "FILE", conflicts_with = "pgn")]
    file: Option<PathBuf>,
    /// Which game of the record to judge (1 = the first).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: JudgeArgs) -> Result<(), String> {
    let rules: RuleSet = a.rules.parse()?;
    let number = a.game.max(1);
    let record = match (a.moves, a.pgn.or(a.file)) {
        (Some(_), Some(_)) => return Err("give either --moves or --pgn, not both".into()),
        (Some(m), None) => Err(judge::GameText {
            fen: None,
            moves: m.iter().flat_map(|t| judge::movetext_tokens(t)).collect(),
        }),
        (None, Some(path)) => Ok(records::read_file(&path).map_err(|e| e.to_string())?),
        (None, None) => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            let text = text::decode(&bytes).0;
            if Format::detect(&bytes, "") == Format::Xqf || text.trim_start().starts_with('[') {
                Ok(records::read_bytes(&bytes, "stdin"))
            } else {
                Err(judge::GameText {
                    fen: None,
                    moves: judge::movetext_tokens(&text),
                })
            }
        }
    };
    let j = match record {
        Err(mut game) => {
            if a.fen.is_some() {
                game.fen = a.fen;
            }
            judge::judge(&game, rules)?
        }
        Ok(games) => {
            let count = games.len();
            let entry = games
                .into_iter()
                .nth(number - 1)
                .ok_or_else(|| format!("--game {number}: the record holds {count} game(s)"))?;
            if let Some(fen) = a.fen {
                // a FEN given on the command line replaces the record's start
                let moves = match &entry {
                    Ok(g) => g.iccs(),
                    Err(b) => b.partial.as_ref().map(|g| g.iccs()).unwrap_or_default(),
                };
                let game = judge::GameText {
                    fen: Some(fen),
                    moves,
                };
                return report(&judge::judge(&game, rules)?, a.json);
            }
            judge::judge_record(&entry, rules)?
        }
    };
    report(&j, a.json)
}

fn report(j: &judge::Judgement, json: bool) -> Result<(), String> {
    if json {
        out!("{}", judge::report_json(j));
    } else {
        super::write_out(format_args!("{}", judge::report_text(j)));
    }
    Ok(())
}
