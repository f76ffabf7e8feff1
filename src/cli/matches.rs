//! `chariot match`: a match as today (`chariot match --engine … --engine …`, optionally one
//! shard of it with `--shard K/N`), or `chariot match merge` to join shards' results.

use chariot::tools::matchrun::{
    self,
    args::{MatchArgs, MergeArgs},
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
}

pub fn run(c: MatchCommand) -> Result<(), String> {
    match c.action {
        Some(MatchAction::Merge(m)) => matchrun::merge::run(m),
        None => matchrun::run(c.args),
    }
}
