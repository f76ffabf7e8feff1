//! The efficiently updatable neural network evaluation (NNUE).
//!
//! * [`features`]: the 810 inputs of one side's view.
//! * [`format`](mod@format): the net file and the quantised [`format::Network`].
//! * [`simd`]: the vector kernels, AVX2 and portable, bit-identical.
//! * [`accumulator`]: the per-thread evaluator ([`NnueEval`]) whose accumulators follow the
//!   search's moves incrementally.
//!
//! The search evaluates with [`NnueEval::evaluate`] when a net is in use (`UseNNUE`, the
//! default), with the hand-crafted [`crate::eval::evaluate`] otherwise.

pub mod accumulator;
pub mod features;
pub mod format;
pub mod simd;

pub use accumulator::{NnueEval, evaluate_full};
use format::Network;
use std::sync::{Arc, LazyLock};

/// The shipped net, compiled into the binary.
static EMBEDDED_BYTES: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/chariot.nnue"));

/// The shipped net file's bytes.
pub fn embedded_bytes() -> &'static [u8] {
    EMBEDDED_BYTES
}

/// The shipped net (checked by a test, so reading it cannot fail in a released build).
pub static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect("the embedded net is a valid net file"))
});

/// Reads a net file from disk; a missing, short, damaged or foreign file is a one-line error.
pub fn load_file(path: &std::path::Path) -> Result<Network, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read net file {}: {e}", path.display()))?;
    Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod embedded_tests {
    #[test]
    fn the_embedded_net_loads() {
        let net = super::Network::from_bytes(super::EMBEDDED_BYTES).unwrap();
        assert!(net.hidden >= 16);
    }
}
