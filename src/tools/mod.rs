//! Command-line features built on the library: perft, bench, judge, match, the book tools
//! that grow and export a book with search, tune, spsa.

pub mod bench;
pub mod book;
pub mod judge;
pub mod matchrun;
pub mod nnue;
pub mod perft;
pub mod selfplay;
pub mod spsa;
pub mod tune;
