//! Chariot: a rule-exact Xiangqi (Chinese chess) engine.
//!
//! Layers (arrows point down only): `tools` -> `core`. See `DESIGN.md` for the map.

pub mod book;
pub mod core;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
