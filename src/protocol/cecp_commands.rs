//! The command words of CECP (XBoard protocol 2) that the engine takes: one table that
//! `cecp/` dispatches through and `help` lists, so the two cannot drift apart. A word
//! that is not here (nor a move) is answered `Error (unknown command): …`.

/// What a CECP command word asks for, before its arguments are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Taken and ignored (`xboard` after the first line, `accepted`, `name`, …).
    Ignored,
    /// `uci` / `ucci`: refused, the session speaks CECP.
    OtherHandshake,
    Protover,
    New,
    Variant,
    SetBoard,
    UserMove,
    Go,
    Force,
    PlayOther,
    Level,
    St,
    Sd,
    /// `time` / `otim`.
    Clock,
    Ping,
    MoveNow,
    Analyze,
    Exit,
    Undo,
    Remove,
    Result,
    Draw,
    Hint,
    Hard,
    Easy,
    Post,
    NoPost,
    /// `memory` / `cores`.
    Resources,
    Option,
    Help,
    Quit,
}

/// One CECP command as the dispatcher knows it and as `help` shows it.
pub struct Entry {
    /// The words that start it (case-insensitive).
    pub words: &'static [&'static str],
    pub verb: Verb,
    pub usage: &'static str,
    pub what: &'static str,
}

/// Every CECP command word the engine takes, in the order `help` lists them.
pub const COMMANDS: &[Entry] = &[
    Entry {
        words: &["xboard"],
        verb: Verb::Ignored,
        usage: "xboard",
        what: "the first line: starts CECP (ignored later)",
    },
    Entry {
        words: &["protover"],
        verb: Verb::Protover,
        usage: "protover 2",
        what: "answers the features (myname, variants, options, ...)",
    },
    Entry {
        words: &["new"],
        verb: Verb::New,
        usage: "new",
        what: "a new game from the start position; the engine plays Black",
    },
    Entry {
        words: &["variant"],
        verb: Verb::Variant,
        usage: "variant xiangqi",
        what: "the only variant",
    },
    Entry {
        words: &["setboard"],
        verb: Verb::SetBoard,
        usage: "setboard <FEN>",
        what: "sets the position (H/E or N/B for horse and elephant)",
    },
    Entry {
        words: &["usermove"],
        verb: Verb::UserMove,
        usage: "usermove <move> | <move>",
        what: "plays a move in ICCS (h2e2); the engine answers on its turn",
    },
    Entry {
        words: &["go"],
        verb: Verb::Go,
        usage: "go",
        what: "the engine plays the side to move and thinks",
    },
    Entry {
        words: &["force"],
        verb: Verb::Force,
        usage: "force",
        what: "moves are only played, the engine does not think",
    },
    Entry {
        words: &["playother"],
        verb: Verb::PlayOther,
        usage: "playother",
        what: "the engine plays the side not to move",
    },
    Entry {
        words: &["level"],
        verb: Verb::Level,
        usage: "level <MPS> <BASE> <INC>",
        what: "time control: moves per session, minutes[:seconds], increment in seconds",
    },
    Entry {
        words: &["st"],
        verb: Verb::St,
        usage: "st <seconds>",
        what: "time per move",
    },
    Entry {
        words: &["sd"],
        verb: Verb::Sd,
        usage: "sd <depth>",
        what: "depth limit",
    },
    Entry {
        words: &["time", "otim"],
        verb: Verb::Clock,
        usage: "time <cs> | otim <cs>",
        what: "the engine's / the opponent's clock in centiseconds",
    },
    Entry {
        words: &["ping"],
        verb: Verb::Ping,
        usage: "ping <N>",
        what: "pong N once the commands before it are done",
    },
    Entry {
        words: &["?"],
        verb: Verb::MoveNow,
        usage: "?",
        what: "move now",
    },
    Entry {
        words: &["analyze"],
        verb: Verb::Analyze,
        usage: "analyze",
        what: "analyses the position until exit",
    },
    Entry {
        words: &["exit"],
        verb: Verb::Exit,
        usage: "exit",
        what: "leaves analyze mode",
    },
    Entry {
        words: &["undo"],
        verb: Verb::Undo,
        usage: "undo",
        what: "takes back one ply",
    },
    Entry {
        words: &["remove"],
        verb: Verb::Remove,
        usage: "remove",
        what: "takes back two plies",
    },
    Entry {
        words: &["result"],
        verb: Verb::Result,
        usage: "result <score> {<reason>}",
        what: "the game is over",
    },
    Entry {
        words: &["draw"],
        verb: Verb::Draw,
        usage: "draw",
        what: "the opponent offers a draw (answered offer draw when the engine agrees)",
    },
    Entry {
        words: &["hint"],
        verb: Verb::Hint,
        usage: "hint",
        what: "the reply the engine expects, while it ponders",
    },
    Entry {
        words: &["hard"],
        verb: Verb::Hard,
        usage: "hard",
        what: "pondering on",
    },
    Entry {
        words: &["easy"],
        verb: Verb::Easy,
        usage: "easy",
        what: "pondering off",
    },
    Entry {
        words: &["post"],
        verb: Verb::Post,
        usage: "post",
        what: "thinking output on",
    },
    Entry {
        words: &["nopost"],
        verb: Verb::NoPost,
        usage: "nopost",
        what: "thinking output off",
    },
    Entry {
        words: &["memory", "cores"],
        verb: Verb::Resources,
        usage: "memory <MiB> | cores <N>",
        what: "hash table size, search threads",
    },
    Entry {
        words: &["option"],
        verb: Verb::Option,
        usage: "option <name>[=<value>]",
        what: "sets an option (the features list them)",
    },
    Entry {
        words: &[
            "accepted", "rejected", "random", "computer", "name", "rating", "ics", "bk", ".",
        ],
        verb: Verb::Ignored,
        usage: "accepted rejected random computer name rating ics bk .",
        what: "taken and ignored",
    },
    Entry {
        words: &["uci", "ucci"],
        verb: Verb::OtherHandshake,
        usage: "uci | ucci",
        what: "refused: this session speaks CECP (start the engine again for UCI or UCCI)",
    },
    Entry {
        words: &["help"],
        verb: Verb::Help,
        usage: "help",
        what: "this list",
    },
    Entry {
        words: &["quit"],
        verb: Verb::Quit,
        usage: "quit",
        what: "leaves; so does the end of input",
    },
];

/// The verb of a (lowercased) command word.
pub fn verb(word: &str) -> Option<Verb> {
    COMMANDS
        .iter()
        .find(|e| e.words.contains(&word))
        .map(|e| e.verb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercase_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for e in COMMANDS {
            for w in e.words {
                assert_eq!(*w, w.to_ascii_lowercase(), "{w}");
                assert!(seen.insert(*w), "{w} twice");
                assert!(e.usage.contains(w), "{w} not in its usage '{}'", e.usage);
            }
        }
    }

    #[test]
    fn only_the_table_words_are_commands() {
        assert_eq!(verb("help"), Some(Verb::Help));
        assert_eq!(verb("otim"), Some(Verb::Clock));
        assert_eq!(verb("."), Some(Verb::Ignored));
        // CECP commands of protocol 2 that the engine does not take, and UCCI's words
        for w in [
            "white", "black", "edit", "pause", "resume", "nps", "isready", "d", "Help",
        ] {
            assert_eq!(verb(w), None, "{w}");
        }
    }
}
