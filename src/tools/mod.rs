//! Command-line features built on the library: perft, bench, judge, match, tune,
//! spsa; `json`, what their JSON files share.

pub mod bench;
pub mod json;
pub mod judge;
pub mod matchrun;
pub mod nnue;
pub mod perft;
pub mod selfplay;
pub mod spsa;
pub mod tune;
