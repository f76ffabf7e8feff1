//! Command-line features built on the library: perft, bench, judge, match.

pub mod bench;
pub mod judge;
pub mod matchrun;
pub mod perft;
