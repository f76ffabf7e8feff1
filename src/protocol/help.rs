//! What a person at the keyboard is told: the one-line greeting (only when standard input
//! is a terminal, so GUIs and match runners never see it) and the text of `help`, built
//! from the tables the parsers dispatch through (`command::COMMANDS`,
//! `cecp_commands::COMMANDS`) and from the command line's own list of subcommands, so it
//! lists exactly what the engine takes.
//!
//! The lines come without a prefix; the session adds the one its dialect needs (see
//! `Session::help`).

use super::Dialect;
use super::cecp_commands;
use super::command::{COMMANDS, Group};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The greeting: one line naming the engine and how to talk to it.
pub fn greeting() -> String {
    format!(
        "Chariot {VERSION}, a Xiangqi engine. Type 'ucci', 'uci' or 'xboard' to start a \
         protocol, 'help' for commands, 'quit' to leave; 'chariot --help' lists the subcommands."
    )
}

/// Commands' usages in a column this wide (longer ones push their text along), the same
/// in every section.
const COLUMN: usize = 26;

/// `(usage, what)` rows as indented lines, the usages padded to `width`.
fn rows<'a>(items: impl Iterator<Item = (&'a str, &'a str)>, width: usize) -> Vec<String> {
    items
        .map(|(usage, what)| format!("  {usage:<width$}  {what}"))
        .collect()
}

/// The UCCI/UCI commands of one group, with the dialect's usage.
fn ucci_rows(group: Group, uci: bool) -> Vec<String> {
    rows(
        COMMANDS
            .iter()
            .filter(|e| e.group == group)
            .map(|e| match (uci, e.uci) {
                (true, Some((usage, what))) => (usage, what),
                _ => (e.usage, e.what),
            }),
        COLUMN,
    )
}

/// The lines of `help`: `dialect` is the session's, `None` before the first handshake.
/// `subcommands` are the command line's (name, summary).
pub fn lines(dialect: Option<Dialect>, subcommands: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    match dialect {
        None => {
            out.push(format!(
                "Chariot {VERSION}, a Xiangqi engine. The first command picks the protocol:"
            ));
            out.extend(ucci_rows(Group::Handshake, false));
            out.push("Until then these commands work, with UCCI's formats:".into());
            out.extend(ucci_rows(Group::Protocol, false));
            out.push("Debug commands (here and in UCCI and UCI sessions):".into());
            out.extend(ucci_rows(Group::Debug, false));
        }
        Some(d @ (Dialect::Ucci | Dialect::Uci)) => {
            let (name, other) = match d {
                Dialect::Ucci => ("UCCI", "UCI"),
                _ => ("UCI", "UCCI"),
            };
            out.push(format!(
                "Chariot {VERSION} speaks {name} in this session (a later ucci or uci repeats \
                 its handshake); {other} or CECP need a new start of the engine."
            ));
            out.push(format!("{name} commands:"));
            out.extend(ucci_rows(Group::Protocol, d == Dialect::Uci));
            out.push("Debug commands:".into());
            out.extend(ucci_rows(Group::Debug, d == Dialect::Uci));
        }
        Some(Dialect::Cecp) => {
            out.push(format!(
                "Chariot {VERSION} speaks CECP (XBoard protocol 2) in this session; UCCI or UCI \
                 need a new start of the engine."
            ));
            out.push("CECP commands:".into());
            out.extend(rows(
                cecp_commands::COMMANDS.iter().map(|e| (e.usage, e.what)),
                COLUMN,
            ));
            let debug: Vec<&str> = COMMANDS
                .iter()
                .filter(|e| e.group == Group::Debug && e.words != ["help"])
                .flat_map(|e| e.words.iter().copied())
                .collect();
            out.push(format!(
                "The debug commands ({}) are for UCCI and UCI sessions.",
                debug.join(", ")
            ));
        }
    }
    if subcommands.is_empty() {
        out.push("Command line: 'chariot --help' lists the subcommands.".into());
    } else {
        out.push(
            "Command line: chariot <subcommand> ('chariot <subcommand> --help' explains one):"
                .into(),
        );
        let width = subcommands.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        out.extend(rows(
            subcommands.iter().map(|(n, a)| (n.as_str(), a.as_str())),
            width,
        ));
    }
    out.push("More in README.md and docs/: GUI set-up, options, the command line.".into());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_greeting_is_one_line_naming_the_engine_and_its_handshakes() {
        let g = greeting();
        assert!(!g.contains('\n'));
        assert!(g.starts_with(&format!("Chariot {VERSION}, a Xiangqi engine.")));
        for w in [
            "'ucci'",
            "'uci'",
            "'xboard'",
            "'help'",
            "'quit'",
            "chariot --help",
        ] {
            assert!(g.contains(w), "{w}");
        }
        assert!(g.is_ascii(), "a console of any code page shows it");
    }

    fn words_shown(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .filter_map(|l| l.strip_prefix("  "))
            .flat_map(|l| l.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_command_word_is_in_its_dialect_help() {
        let subs = vec![("perft".to_string(), "Count leaves".to_string())];
        for dialect in [None, Some(Dialect::Ucci), Some(Dialect::Uci)] {
            let text = lines(dialect, &subs);
            let shown = words_shown(&text);
            for e in COMMANDS {
                if dialect.is_some() && e.group == Group::Handshake {
                    continue;
                }
                for w in e.words {
                    assert!(shown.iter().any(|s| s == w), "{dialect:?}: {w}");
                }
            }
            assert!(
                text.iter()
                    .any(|l| l.starts_with("  perft") && l.ends_with("Count leaves"))
            );
        }
        let cecp = lines(Some(Dialect::Cecp), &subs);
        let shown = words_shown(&cecp);
        for e in cecp_commands::COMMANDS {
            for w in e.words {
                assert!(shown.iter().any(|s| s == w), "cecp: {w}");
            }
        }
    }

    #[test]
    fn each_dialect_shows_its_own_usage() {
        let ucci = lines(Some(Dialect::Ucci), &[]);
        let uci = lines(Some(Dialect::Uci), &[]);
        assert!(
            ucci.iter()
                .any(|l| l.contains("setoption <name> [<value>]"))
        );
        assert!(
            uci.iter()
                .any(|l| l.contains("setoption name <name> [value <value>]"))
        );
        assert!(uci.iter().any(|l| l.contains("wtime T btime T")));
        assert!(!ucci.iter().any(|l| l.contains("wtime")));
        assert!(ucci[0].contains("speaks UCCI") && uci[0].contains("speaks UCI "));
        let cecp = lines(Some(Dialect::Cecp), &[]);
        assert!(
            cecp.iter()
                .any(|l| l.contains("debug commands (d, eval, perft, bench)"))
        );
        assert!(cecp.iter().any(|l| l.contains("'chariot --help'")));
        for text in [&ucci, &uci, &cecp] {
            assert!(text.iter().all(|l| !l.is_empty() && !l.contains('\n')));
        }
    }
}
