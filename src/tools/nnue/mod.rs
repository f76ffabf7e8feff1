//! `chariot nnue`: training data from self-play, and the trainer of the network.
//!
//! * [`data`]: the compact binary file of self-play games.
//! * [`datagen`]: self-play shards; [`manifest`]: the list of shards made, to check and remake them.

pub mod data;
pub mod datagen;
pub mod manifest;
pub mod train;
