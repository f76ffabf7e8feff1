//! The book tools that need the engine: checking and growing a book with Chariot's own
//! search ([`grow`]), balanced openings for matches ([`export`]), and the `chariot book …`
//! subcommands ([`cli`]). The book itself (format, probe, building from PGN) is `crate::book`,
//! below the engine.

pub mod cli;
pub mod export;
pub mod grow;
