//! The efficiently updatable neural network evaluation (NNUE).
//!
//! * [`features`]: the 810 inputs of one side's view.
//! * [`format`]: the net file and the quantised [`format::Network`].

pub mod features;
pub mod format;
