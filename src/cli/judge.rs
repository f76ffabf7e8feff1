//! `chariot judge`: judges a game by the rules, clause by clause.

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
    /// Read the game (first one) from a PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: JudgeArgs) -> Result<(), String> {
    let rules: RuleSet = a.rules.parse()?;
    let mut game = match (a.moves, a.pgn) {
        (Some(_), Some(_)) => return Err("give either --moves or --pgn, not both".into()),
        (Some(m), None) => judge::GameText {
            fen: None,
            moves: m.iter().flat_map(|t| judge::movetext_tokens(t)).collect(),
        },
        (None, Some(path)) => {
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            judge::parse_pgn(&String::from_utf8_lossy(&bytes))?
        }
        (None, None) => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            if text.trim_start().starts_with('[') {
                judge::parse_pgn(&text)?
            } else {
                judge::GameText {
                    fen: None,
                    moves: judge::movetext_tokens(&text),
                }
            }
        }
    };
    if a.fen.is_some() {
        game.fen = a.fen;
    }
    let j = judge::judge(&game, rules)?;
    if a.json {
        out!("{}", judge::report_json(&j));
    } else {
        super::write_out(format_args!("{}", judge::report_text(&j)));
    }
    Ok(())
}
