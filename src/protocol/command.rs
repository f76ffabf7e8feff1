//! Parsing one line of UCCI or UCI into a typed command. Tolerant as real GUIs need:
//! `\r` stripped, repeated spaces collapsed, keywords case-insensitive, bare `fen …` /
//! `startpos …` lines taken as `position`. The command words are one table
//! ([`COMMANDS`]) that `help` lists too.

use super::Dialect;
use crate::core::Color;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ucci,
    Uci,
    /// `xboard`: the first handshake line of CECP (see `cecp/`).
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
    /// `help`: the commands of the session's dialect, the debug commands, the subcommands.
    Help,
    Unknown(String),
}

/// What a command word asks for, before its arguments are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Verb {
    Ucci,
    Uci,
    Xboard,
    IsReady,
    SetOption,
    NewGame,
    Position,
    /// `fen …` / `startpos …` without `position`.
    BarePosition,
    BanMoves,
    Go,
    PonderHit,
    Probe,
    Stop,
    Quit,
    Display,
    Eval,
    Perft,
    Bench,
    Help,
}

/// Where `help` shows a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// The first line of a session: it picks the dialect.
    Handshake,
    /// The protocol's own commands (both dialects take all of them).
    Protocol,
    /// For a person at the keyboard: board, perft, evaluation, bench, help.
    Debug,
}

/// One command of UCCI/UCI as the parser knows it and as `help` shows it.
pub struct Entry {
    /// The words that start it (case-insensitive).
    pub words: &'static [&'static str],
    verb: Verb,
    pub group: Group,
    /// How to write it, as UCCI has it.
    pub usage: &'static str,
    pub what: &'static str,
    /// UCI's usage and text, where they differ.
    pub uci: Option<(&'static str, &'static str)>,
}

/// Every command word the parser takes, in the order `help` lists them. The parser finds
/// the word here and nowhere else, so `help` cannot miss a command nor list one the parser
/// refuses.
pub const COMMANDS: &[Entry] = &[
    Entry {
        words: &["ucci"],
        verb: Verb::Ucci,
        group: Group::Handshake,
        usage: "ucci",
        what: "UCCI (ElephantEye's protocol): id, options, ucciok",
        uci: None,
    },
    Entry {
        words: &["uci"],
        verb: Verb::Uci,
        group: Group::Handshake,
        usage: "uci",
        what: "UCI, Pikafish style: id, options, uciok",
        uci: None,
    },
    Entry {
        words: &["xboard"],
        verb: Verb::Xboard,
        group: Group::Handshake,
        usage: "xboard",
        what: "CECP, XBoard/WinBoard protocol 2 (then protover 2)",
        uci: None,
    },
    Entry {
        words: &["isready"],
        verb: Verb::IsReady,
        group: Group::Protocol,
        usage: "isready",
        what: "answers readyok, also while thinking",
        uci: None,
    },
    Entry {
        words: &["setoption"],
        verb: Verb::SetOption,
        group: Group::Protocol,
        usage: "setoption <name> [<value>]",
        what: "sets an option (the handshake lists them)",
        uci: Some((
            "setoption name <name> [value <value>]",
            "sets an option (the handshake lists them)",
        )),
    },
    Entry {
        words: &["ucinewgame"],
        verb: Verb::NewGame,
        group: Group::Protocol,
        usage: "ucinewgame",
        what: "a new game: forgets the hash table and histories",
        uci: None,
    },
    Entry {
        words: &["position"],
        verb: Verb::Position,
        group: Group::Protocol,
        usage: "position {startpos | fen <FEN>} [moves <m1> <m2> ...]",
        what: "sets the position; moves in ICCS (h2e2)",
        uci: None,
    },
    Entry {
        words: &["fen", "startpos"],
        verb: Verb::BarePosition,
        group: Group::Protocol,
        usage: "fen <FEN> [moves ...] | startpos [moves ...]",
        what: "the same as position fen / position startpos",
        uci: None,
    },
    Entry {
        words: &["banmoves"],
        verb: Verb::BanMoves,
        group: Group::Protocol,
        usage: "banmoves <m1> [<m2> ...]",
        what: "moves the next search may not play (until the next position)",
        uci: None,
    },
    Entry {
        words: &["go"],
        verb: Verb::Go,
        group: Group::Protocol,
        usage: "go [ponder | draw] [depth N | nodes N | time T [movestogo M | increment I] | infinite]",
        what: "searches, then bestmove (times in ms; in seconds after setoption usemillisec false)",
        uci: Some((
            "go [ponder] [wtime T btime T [winc I binc I] [movestogo M] | movetime T | depth N | nodes N | mate N | infinite]",
            "searches, then bestmove (times in ms)",
        )),
    },
    Entry {
        words: &["ponderhit"],
        verb: Verb::PonderHit,
        group: Group::Protocol,
        usage: "ponderhit [draw]",
        what: "the expected move was played: the clock starts now",
        uci: None,
    },
    Entry {
        words: &["stop"],
        verb: Verb::Stop,
        group: Group::Protocol,
        usage: "stop",
        what: "answers bestmove at once",
        uci: None,
    },
    Entry {
        words: &["probe"],
        verb: Verb::Probe,
        group: Group::Protocol,
        usage: "probe {startpos | fen <FEN>} [moves ...]",
        what: "what the hash table knows of a position: pophash ...",
        uci: None,
    },
    Entry {
        words: &["quit", "exit"],
        verb: Verb::Quit,
        group: Group::Protocol,
        usage: "quit | exit",
        what: "leaves (UCCI says bye); so does the end of input",
        uci: None,
    },
    Entry {
        words: &["d"],
        verb: Verb::Display,
        group: Group::Debug,
        usage: "d",
        what: "shows the board, its FEN and key",
        uci: None,
    },
    Entry {
        words: &["eval"],
        verb: Verb::Eval,
        group: Group::Debug,
        usage: "eval",
        what: "the static evaluation, side to move's view",
        uci: None,
    },
    Entry {
        words: &["perft"],
        verb: Verb::Perft,
        group: Group::Debug,
        usage: "perft N | go perft N",
        what: "counts the legal move tree to depth N (1 to 12), move by move",
        uci: None,
    },
    Entry {
        words: &["bench"],
        verb: Verb::Bench,
        group: Group::Debug,
        usage: "bench",
        what: "fixed searches of fixed positions: a node count",
        uci: None,
    },
    Entry {
        words: &["help"],
        verb: Verb::Help,
        group: Group::Debug,
        usage: "help",
        what: "this list",
        uci: None,
    },
];

fn verb(word: &str) -> Option<Verb> {
    COMMANDS
        .iter()
        .find(|e| e.words.contains(&word))
        .map(|e| e.verb)
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
    Ok(Some(match verb(&word) {
        Some(Verb::Ucci) => Command::Ucci,
        Some(Verb::Uci) => Command::Uci,
        Some(Verb::Xboard) => Command::Xboard,
        Some(Verb::IsReady) => Command::IsReady,
        Some(Verb::SetOption) => parse_setoption(rest)?,
        Some(Verb::NewGame) => Command::NewGame,
        Some(Verb::Position) => parse_position(rest)?,
        Some(Verb::BarePosition) => parse_position(&tokens)?,
        Some(Verb::BanMoves) => {
            Command::BanMoves(rest.iter().map(|s| s.to_ascii_lowercase()).collect())
        }
        Some(Verb::Go) => parse_go(rest)?,
        Some(Verb::PonderHit) => Command::PonderHit {
            draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")),
        },
        Some(Verb::Probe) => {
            let (fen, moves) = position_args(rest)?;
            Command::Probe { fen, moves }
        }
        Some(Verb::Bench) => Command::Bench,
        Some(Verb::Stop) => Command::Stop,
        Some(Verb::Quit) => Command::Quit,
        Some(Verb::Display) => Command::Display,
        Some(Verb::Eval) => Command::Eval,
        Some(Verb::Perft) => Command::Perft(parse_perft(rest.first())?),
        Some(Verb::Help) => Command::Help,
        None => Command::Unknown(first.chars().take(40).collect()),
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
    // UCCI: `setoption <name> [<value>]`; a name of several words (a UCI name such as
    // `Skill Level`, as a match runner may send it) is the longest known option name the
    // words begin with
    let words = (1..=rest.len())
        .rev()
        .find(|&k| super::options::find(&rest[..k].join(" ")).is_some())
        .unwrap_or(1);
    let value = (rest.len() > words).then(|| rest[words..].join(" "));
    Ok(Command::SetOption {
        name: rest[..words].join(" "),
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
            p("setoption Skill Level 3"),
            Command::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into()),
            }
        );
        assert_eq!(
            p("setoption bookfiles a b.book"),
            Command::SetOption {
                name: "bookfiles".into(),
                value: Some("a b.book".into()),
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
    fn the_command_table_is_the_parsers_word_list() {
        let mut seen = std::collections::HashSet::new();
        for e in COMMANDS {
            assert!(e.usage.is_ascii() && e.what.is_ascii(), "{}", e.usage);
            for w in e.words {
                assert_eq!(*w, w.to_ascii_lowercase(), "{w}");
                assert!(seen.insert(*w), "{w} twice");
                assert!(e.usage.contains(w), "{w} not in its usage '{}'", e.usage);
                if let Some((usage, _)) = e.uci {
                    assert!(usage.contains(w), "{w} not in its UCI usage '{usage}'");
                }
                // every listed word is a command, whatever its case, in both dialects
                for line in [w.to_string(), w.to_ascii_uppercase()] {
                    for d in [Dialect::Ucci, Dialect::Uci] {
                        assert!(
                            !matches!(parse(&line, d), Ok(Some(Command::Unknown(_)))),
                            "{line}"
                        );
                    }
                }
            }
        }
        assert_eq!(p("help"), Command::Help);
        assert_eq!(p("HELP me"), Command::Help);
        assert_eq!(p("exit"), Command::Quit);
        // words of other dialects and near misses stay unknown
        for w in ["protover", "new", "usermove", "white", "helps", "h", "?"] {
            assert_eq!(p(w), Command::Unknown(w.into()), "{w}");
        }
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
