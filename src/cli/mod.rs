//! The command line's subcommands, one file each (moving out of `main.rs` one at a time).

pub mod nnue;
