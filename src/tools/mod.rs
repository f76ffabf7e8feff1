//! Command-line features built on the library: perft (more to come: bench, judge, match).

pub mod bench;
pub mod judge;
pub mod perft;
