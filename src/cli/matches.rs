//! `chariot match`: a match as today (`chariot match --engine … --engine …`, optionally one
//! shard of it with `--shard K/N`), `chariot match merge` to join shards' results, or
//! `chariot match compare` for the difference between two runs of the same openings.

use chariot::tools::matchrun::{
    self,
    args::{CompareArgs, MatchArgs, MergeArgs},
};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchCommand {
    #[command(flatten)]
    args: MatchArgs,
    #[command(subcommand)]
    action: Option<MatchAction>,
}

#[derive(Subcommand)]
enum MatchAction {
    /// Merge the JSON (and PGN) results of the shards of one run (`--shard K/N`) into the
    /// report, JSON and PGN of the whole run.
    Merge(MergeArgs),
    /// Compare two runs of the same openings (other time controls, builds or peers): one
    /// engine's score in each game pair of run B against the same pair of run A, with the
    /// difference in score and Elo and its 95% interval.
    Compare(CompareArgs),
}

pub fn run(c: MatchCommand) -> Result<(), String> {
    match c.action {
        Some(MatchAction::Merge(m)) => matchrun::merge::run(m),
        Some(MatchAction::Compare(c)) => matchrun::compare::run(c),
        None => matchrun::run(c.args),
    }
}
