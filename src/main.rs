//! The `chariot` binary: with no arguments, the protocol loop (UCCI, UCI, CECP); otherwise
//! one of the command line's subcommands (`src/cli/`).

mod cli;

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // one line, like every other error of the command line
            let text = e.to_string();
            let what: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            eprintln!(
                "error: {} (see `chariot --help`)",
                what.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => {
            chariot::protocol::run_with(chariot::protocol::Start {
                tunables: cli.tunables,
                // a person at a terminal is greeted; GUIs and match runners use pipes
                greet: std::io::stdin().is_terminal(),
                subcommands: cli::summaries(),
            });
            Ok(())
        }
        Some(command) => cli::run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
