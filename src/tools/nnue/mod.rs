//! `chariot nnue`: training data from self-play, and the trainer of the network.
//!
//! * [`data`]: the compact binary file of self-play games.

pub mod data;
pub mod datagen;
pub mod train;
