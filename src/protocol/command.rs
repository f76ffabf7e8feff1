//! Parsing one line of UCCI or UCI into a typed command. Tolerant as real GUIs need:
//! `\r` stripped, repeated spaces collapsed, keywords case-insensitive, bare `fen …` /
//! `startpos …` lines taken as `position`.

use super::Dialect;
use crate::core::Color;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ucci,
    Uci,
    /// `xboard`: the first handshake line of CECP (see `cecp.rs`).
    Xboard,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    BanMoves(Vec<String>),
    Go(GoParams),
    /// `ponderhit`, with `draw` when the opponent offers a draw with its move.
    PonderHit {
        draw: bool,
    },
    /// UCCI `probe`: what the hash table knows about a position.
    Probe {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Bench,
    Stop,
    Quit,
    Display,
    Perft(u32),
    Eval,
    Unknown(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub draw: bool,
    /// UCCI: own clock.
    pub time: Option<u64>,
    pub increment: Option<u64>,
    pub movestogo: Option<u32>,
    /// UCI: both clocks.
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
}

impl GoParams {
    /// The side to move's clock as (left, increment, moves to go), in the GUI's units.
    pub fn clock(&self, side: Color) -> Option<(u64, u64, Option<u32>)> {
        let (left, inc) = match side {
            Color::Red => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        match (self.time, left) {
            (Some(t), _) => Some((t, self.increment.unwrap_or(0), self.movestogo)),
            (None, Some(t)) => Some((t, inc.unwrap_or(0), self.movestogo)),
            (None, None) => None,
        }
    }
}

fn number<T: std::str::FromStr>(word: &str, token: Option<&&str>) -> Result<T, String> {
    let t = token.ok_or_else(|| format!("'{word}' needs a number"))?;
    // negative clock values (some GUIs send them when flagging) count as zero
    if t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) && !t[1..].is_empty() {
        return "0"
            .parse()
            .map_err(|_| format!("'{word} {t}' is not a valid number"));
    }
    t.parse()
        .map_err(|_| format!("'{word} {t}' is not a valid number"))
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str, _dialect: Dialect) -> Result<Option<Command>, String> {
    let line = line.replace('\r', " ");
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    let word = first.to_ascii_lowercase();
    let rest = &tokens[1..];
    Ok(Some(match word.as_str() {
        "ucci" => Command::Ucci,
        "uci" => Command::Uci,
        "xboard" => Command::Xboard,
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(rest)?,
        "ucinewgame" => Command::NewGame,
        "position" => parse_position(rest)?,
        "fen" | "startpos" => parse_position(&tokens)?,
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_ascii_lowercase()).collect()),
        "go" => parse_go(rest)?,
        "ponderhit" => Command::PonderHit {
            draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")),
        },
        "probe" => {
            let (fen, moves) = position_args(rest)?;
            Command::Probe { fen, moves }
        }
        "bench" => Command::Bench,
        "stop" => Command::Stop,
        "quit" | "exit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "perft" => Command::Perft(parse_perft(rest.first())?),
        _ => Command::Unknown(first.chars().take(40).collect()),
    }))
}

fn parse_perft(t: Option<&&str>) -> Result<u32, String> {
    match t.map(|t| t.parse::<u32>()) {
        Some(Ok(d)) if (1..=12).contains(&d) => Ok(d),
        _ => Err("perft needs a depth from 1 to 12".into()),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    if rest.is_empty() {
        return Err("setoption needs an option name".into());
    }
    if rest[0].eq_ignore_ascii_case("name") {
        let vpos = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name = rest[1..vpos.unwrap_or(rest.len())].join(" ");
        let value = vpos
            .map(|p| rest[p + 1..].join(" "))
            .filter(|v| !v.is_empty());
        if name.is_empty() {
            return Err("setoption name needs an option name".into());
        }
        return Ok(Command::SetOption { name, value });
    }
    // UCCI: `setoption <name> [<value>]`
    let value = if rest.len() > 1 {
        Some(rest[1..].join(" "))
    } else {
        None
    };
    Ok(Command::SetOption {
        name: rest[0].to_string(),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let (fen, moves) = position_args(rest)?;
    Ok(Command::Position { fen, moves })
}

/// `{startpos | fen <FEN>} [moves …]` -> (FEN, moves).
fn position_args(rest: &[&str]) -> Result<(Option<String>, Vec<String>), String> {
    let Some(kind) = rest.first() else {
        return Err("position needs 'startpos' or 'fen'".into());
    };
    let moves_at = rest.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let moves: Vec<String> = moves_at
        .map(|p| {
            rest[p + 1..]
                .iter()
                .map(|m| m.to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default();
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    match kind.to_ascii_lowercase().as_str() {
        "startpos" => Ok((None, moves)),
        "fen" => {
            if head.len() < 2 {
                return Err("position fen needs a FEN".into());
            }
            Ok((Some(head[1..].join(" ")), moves))
        }
        other => Err(format!("position needs 'startpos' or 'fen', not '{other}'")),
    }
}

fn parse_go(rest: &[&str]) -> Result<Command, String> {
    let mut p = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let w = rest[i].to_ascii_lowercase();
        let next = rest.get(i + 1);
        let mut takes = true;
        match w.as_str() {
            "ponder" => {
                p.ponder = true;
                takes = false;
            }
            "draw" => {
                p.draw = true;
                takes = false;
            }
            "infinite" => {
                p.infinite = true;
                takes = false;
            }
            "depth" => {
                if next.is_some_and(|t| t.eq_ignore_ascii_case("infinite")) {
                    p.infinite = true;
                } else {
                    p.depth = Some(number::<i32>(&w, next)?.clamp(0, 100));
                }
            }
            "nodes" => p.nodes = Some(number(&w, next)?),
            "movetime" => p.movetime = Some(number(&w, next)?),
            "time" => p.time = Some(number(&w, next)?),
            "increment" => p.increment = Some(number(&w, next)?),
            "movestogo" => p.movestogo = Some(number(&w, next)?),
            "wtime" => p.wtime = Some(number(&w, next)?),
            "btime" => p.btime = Some(number(&w, next)?),
            "winc" => p.winc = Some(number(&w, next)?),
            "binc" => p.binc = Some(number(&w, next)?),
            "mate" => p.depth = Some((number::<i32>(&w, next)?.clamp(1, 50)) * 2),
            "opptime" | "oppmovestogo" | "oppincrement" => {
                let _: u64 = number(&w, next)?;
            }
            "perft" => return Ok(Command::Perft(parse_perft(next)?)),
            _ => {
                return Err(format!(
                    "go: unknown word '{}'",
                    rest[i].chars().take(20).collect::<String>()
                ));
            }
        }
        i += if takes { 2 } else { 1 };
    }
    Ok(Command::Go(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Command {
        parse(line, Dialect::Ucci).unwrap().unwrap()
    }

    #[test]
    fn tolerant_parsing() {
        assert_eq!(p("  ISREADY \r"), Command::IsReady);
        assert_eq!(parse("   ", Dialect::Ucci), Ok(None));
        assert_eq!(
            p("position startpos moves h2e2   h9g7"),
            Command::Position {
                fen: None,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }
        );
        assert_eq!(
            p(
                "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2"
            ),
            Command::Position {
                fen: Some(
                    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".into()
                ),
                moves: vec!["h2e2".into()]
            }
        );
        assert_eq!(
            p("setoption hashsize 64"),
            Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(
            p("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            p("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(p("go perft 3"), Command::Perft(3));
        assert_eq!(p("frobnicate now"), Command::Unknown("frobnicate".into()));
    }

    #[test]
    fn go_parameters() {
        let Command::Go(g) = p("go time 60000 increment 1000 movestogo 40 opptime 50000") else {
            panic!()
        };
        assert_eq!(g.clock(Color::Black), Some((60000, 1000, Some(40))));
        let Command::Go(g) = p("go wtime 1000 btime -5 winc 10 binc 20") else {
            panic!()
        };
        assert_eq!(g.clock(Color::Black), Some((0, 20, None)));
        assert_eq!(g.clock(Color::Red), Some((1000, 10, None)));
        let Command::Go(g) = p("go ponder depth infinite") else {
            panic!()
        };
        assert!(g.ponder && g.infinite);
        assert!(parse("go depth x", Dialect::Ucci).is_err());
        assert!(parse("go nodes 99999999999999999999999", Dialect::Ucci).is_err());
        assert!(parse("position fen", Dialect::Ucci).is_err());
        assert!(parse("go sideways", Dialect::Uci).is_err());
    }
}
