//! Every option the engine advertises, in one table, with its UCI and UCCI names. Options
//! marked "accepted" are taken from GUIs that always send them and change nothing (yet).

/// How an option is set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin { min: i64, max: i64 },
    Combo(&'static [&'static str]),
    Button,
    Text,
}

pub struct OptionDef {
    /// UCI name (`setoption name <uci> value …`); empty when UCCI only.
    pub uci: &'static str,
    /// UCCI name (`setoption <ucci> …`); empty when UCI only.
    pub ucci: &'static str,
    pub kind: Kind,
    pub default: &'static str,
    pub doc: &'static str,
}

pub const OPTIONS: &[OptionDef] = &[
    OptionDef {
        uci: "Hash",
        ucci: "hashsize",
        kind: Kind::Spin { min: 1, max: 65536 },
        default: "16",
        doc: "transposition table size in MiB",
    },
    OptionDef {
        uci: "Threads",
        ucci: "threads",
        kind: Kind::Spin { min: 1, max: 256 },
        default: "1",
        doc: "search threads (Lazy SMP)",
    },
    OptionDef {
        uci: "Ponder",
        ucci: "ponder",
        kind: Kind::Check,
        default: "false",
        doc: "the GUI may ask the engine to think on the opponent's time",
    },
    OptionDef {
        uci: "MultiPV",
        ucci: "multipv",
        kind: Kind::Spin { min: 1, max: 128 },
        default: "1",
        doc: "number of best lines to report",
    },
    OptionDef {
        uci: "Skill Level",
        ucci: "skilllevel",
        kind: Kind::Spin { min: 0, max: 20 },
        default: "20",
        doc: "playing strength: 20 is full; below, a smaller search and a move drawn among its best few lines (docs/strength.md)",
    },
    OptionDef {
        uci: "UCI_LimitStrength",
        ucci: "limitstrength",
        kind: Kind::Check,
        default: "false",
        doc: "play at the rating UCI_Elo asks for (it then overrides Skill Level)",
    },
    OptionDef {
        uci: "UCI_Elo",
        ucci: "elo",
        kind: Kind::Spin {
            min: crate::engine::skill::ELO_MIN,
            max: crate::engine::skill::ELO_MAX,
        },
        default: "2750",
        doc: "the rating to play at with UCI_LimitStrength, on a scale where ElephantEye 3.31 at its defaults is 2000 (docs/strength.md)",
    },
    OptionDef {
        uci: "Move Overhead",
        ucci: "moveoverhead",
        kind: Kind::Spin { min: 0, max: 5000 },
        default: "30",
        doc: "milliseconds kept back on every move for the GUI and the pipe",
    },
    OptionDef {
        uci: "Rules",
        ucci: "rules",
        kind: Kind::Combo(&["cxa", "axf"]),
        default: "cxa",
        doc: "repetition rules: Chinese Xiangqi Association or Asian",
    },
    OptionDef {
        uci: "Clear Hash",
        ucci: "newgame",
        kind: Kind::Button,
        default: "",
        doc: "forget the transposition table (a new game)",
    },
    OptionDef {
        uci: "UCI_ShowWDL",
        ucci: "showwdl",
        kind: Kind::Check,
        default: "false",
        doc: "add win/draw/loss permille to info lines (a logistic model fitted on self-play)",
    },
    OptionDef {
        uci: "DrawAcceptScore",
        ucci: "drawacceptscore",
        kind: Kind::Spin {
            min: -1000,
            max: 1000,
        },
        default: "0",
        doc: "accept an offered draw when the search score is at or below this",
    },
    OptionDef {
        uci: "Resign",
        ucci: "resign",
        kind: Kind::Check,
        default: "true",
        doc: "resign when the search finds a forced loss (mate or a rules loss)",
    },
    OptionDef {
        uci: "OwnBook",
        ucci: "usebook",
        kind: Kind::Check,
        default: "false",
        doc: "play from the opening book while the position is in it",
    },
    OptionDef {
        uci: "BookFile",
        ucci: "bookfiles",
        kind: Kind::Text,
        default: "",
        doc: "book files, `;`-separated, probed in order; empty: the shipped book/chariot.book",
    },
    OptionDef {
        uci: "Randomness",
        ucci: "randomness",
        kind: Kind::Combo(&["none", "tiny", "small", "medium", "large", "huge"]),
        default: "none",
        doc: "how freely book moves are chosen: none = always the heaviest, huge = all alike",
    },
    OptionDef {
        uci: "UseNNUE",
        ucci: "usenn",
        kind: Kind::Check,
        default: "true",
        doc: "evaluate with the neural network; false: the hand-crafted evaluation",
    },
    OptionDef {
        uci: "EvalFile",
        ucci: "evalfile",
        kind: Kind::Text,
        default: "<embedded>",
        doc: "net file to evaluate with; <embedded> (or empty): the net built into the engine",
    },
    OptionDef {
        uci: "",
        ucci: "usemillisec",
        kind: Kind::Check,
        default: "true",
        doc: "UCCI times in milliseconds instead of seconds",
    },
    OptionDef {
        uci: "",
        ucci: "idle",
        kind: Kind::Combo(&["none", "small", "medium", "large"]),
        default: "none",
        doc: "accepted",
    },
    OptionDef {
        uci: "",
        ucci: "style",
        kind: Kind::Combo(&["solid", "normal", "risky"]),
        default: "normal",
        doc: "accepted",
    },
    OptionDef {
        uci: "",
        ucci: "batch",
        kind: Kind::Check,
        default: "false",
        doc: "accepted",
    },
    OptionDef {
        uci: "",
        ucci: "debug",
        kind: Kind::Check,
        default: "false",
        doc: "report unknown options",
    },
    OptionDef {
        uci: "",
        ucci: "promotion",
        kind: Kind::Check,
        default: "false",
        doc: "accepted",
    },
    OptionDef {
        uci: "",
        ucci: "useegtb",
        kind: Kind::Check,
        default: "false",
        doc: "accepted: no endgame tables",
    },
    OptionDef {
        uci: "",
        ucci: "egtbpaths",
        kind: Kind::Text,
        default: "",
        doc: "accepted: no endgame tables",
    },
];

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The option with this name in either dialect (case, spaces and underscores ignored).
pub fn find(name: &str) -> Option<&'static OptionDef> {
    let n = normalise(name);
    OPTIONS
        .iter()
        .find(|o| normalise(o.uci) == n || normalise(o.ucci) == n)
}

/// UCCI `option …` lines.
pub fn ucci_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|o| !o.ucci.is_empty())
        .map(|o| {
            let mut l = format!("option {} type ", o.ucci);
            match o.kind {
                Kind::Check => l.push_str("check"),
                Kind::Spin { min, max } => l.push_str(&format!("spin min {min} max {max}")),
                Kind::Combo(vars) => {
                    l.push_str("combo");
                    for v in vars {
                        l.push_str(&format!(" var {v}"));
                    }
                }
                Kind::Button => l.push_str("button"),
                Kind::Text => l.push_str("string"),
            }
            if o.kind != Kind::Button {
                l.push_str(&format!(
                    " default {}",
                    if o.default.is_empty() {
                        "<empty>"
                    } else {
                        o.default
                    }
                ));
            }
            l
        })
        .collect()
}

/// UCI `option name …` lines.
pub fn uci_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|o| !o.uci.is_empty())
        .map(|o| match o.kind {
            Kind::Check => format!("option name {} type check default {}", o.uci, o.default),
            Kind::Spin { min, max } => format!(
                "option name {} type spin default {} min {min} max {max}",
                o.uci, o.default
            ),
            Kind::Combo(vars) => {
                let vs: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {} type combo default {} {}",
                    o.uci,
                    o.default,
                    vs.join(" ")
                )
            }
            Kind::Button => format!("option name {} type button", o.uci),
            Kind::Text => format!(
                "option name {} type string default {}",
                o.uci,
                if o.default.is_empty() {
                    "<empty>"
                } else {
                    o.default
                }
            ),
        })
        .collect()
}

/// The search's tunable numbers as `option` lines, in the dialect's form: shown only when
/// Chariot is started for tuning (`chariot --tunables`), so GUIs never see them.
pub fn tunable_lines(uci: bool) -> Vec<String> {
    crate::engine::TUNABLES
        .iter()
        .map(|t| {
            if uci {
                format!(
                    "option name {} type spin default {} min {} max {}",
                    t.name, t.default, t.min, t.max
                )
            } else {
                format!(
                    "option {} type spin min {} max {} default {}",
                    t.name.to_ascii_lowercase(),
                    t.min,
                    t.max,
                    t.default
                )
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_in_both_dialects() {
        assert_eq!(find("Hash").map(|o| o.ucci), Some("hashsize"));
        assert_eq!(find("hashsize").map(|o| o.uci), Some("Hash"));
        assert_eq!(find("move overhead").map(|o| o.ucci), Some("moveoverhead"));
        assert_eq!(find("UCI_ShowWDL").map(|o| o.ucci), Some("showwdl"));
        assert!(find("nonsense").is_none());
        assert!(
            ucci_lines()
                .iter()
                .any(|l| l == "option usemillisec type check default true")
        );
        assert!(
            uci_lines()
                .iter()
                .any(|l| l == "option name Threads type spin default 1 min 1 max 256")
        );
        // every default is valid for its kind
        for o in OPTIONS {
            match o.kind {
                Kind::Spin { min, max } => {
                    let d: i64 = o.default.parse().unwrap();
                    assert!((min..=max).contains(&d), "{}", o.ucci);
                }
                Kind::Combo(vars) => assert!(vars.contains(&o.default), "{}", o.ucci),
                Kind::Check => assert!(matches!(o.default, "true" | "false")),
                _ => {}
            }
        }
    }
}
