//! Command-line features above the engine, free to use any layer below: the game review
//! (`analyze`, with its progress bar), the rule judge, the
//! match runner, the book tools that grow and export a book with search, self-play, tuning
//! (Texel, SPSA), the net's data generation and trainer, and `json`, what their JSON files
//! share. Nothing below imports a tool.

pub mod analyze;
pub mod book;
pub mod json;
pub mod judge;
pub mod matchrun;
pub mod nnue;
pub mod progress;
pub mod selfplay;
pub mod spsa;
pub mod tree;
pub mod tune;
