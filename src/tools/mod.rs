//! Command-line features built on the library: perft, bench, judge, tune.

pub mod bench;
pub mod judge;
pub mod perft;
pub mod tune;
