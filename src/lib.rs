//! Chariot: a rule-exact Xiangqi (Chinese chess) engine.
//!
//! Layers, imports pointing down only: `core` (board, moves, notation) at the bottom;
//! `rules`, `eval` and `book` on it; `search` on `eval` and `rules`; `engine`, the facade, on
//! search and book; `protocol` on the engine; `tools` (match runner, tuning, book growing,
//! training) above the engine. The binary adds `main.rs` and `cli/`. The exact arrows are in
//! `docs/architecture.md`, which `engine-tests/architecture.rs` holds to the code.

pub mod book;
pub mod core;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod records;
pub mod rules;
pub mod search;
pub mod tools;
