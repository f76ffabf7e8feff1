//! The bench: a fixed search of the sample positions ([`POSITIONS`]) through the engine, run
//! by `chariot bench` and by the protocol's `bench` command. With one thread the node count
//! is deterministic; every commit that changes search or evaluation quotes it.

use super::{Engine, Limits, Options};
use crate::core::samples::POSITIONS;
use std::time::Instant;

/// Default search depth of the bench (and of a protocol `go` that sets no limit).
pub const DEFAULT_DEPTH: i32 = 12;

/// One bench run with the evaluation `eval` (`nnue`, `hce` or a net file; see
/// [`Engine::set_eval`]): the evaluation in words, per-position lines, then
/// `Bench: <nodes> nodes <nps> nps`.
pub fn run(
    depth: i32,
    threads: usize,
    hash_mib: usize,
    eval: &str,
    out: impl FnMut(&str),
) -> Result<(u64, u64), String> {
    run_with(depth, threads, hash_mib, eval, &[], out)
}

/// [`run`] with some of the search's tunables set (`name`, value), each checked as
/// `setoption` checks it; they are named in the output, before the positions.
pub fn run_with(
    depth: i32,
    threads: usize,
    hash_mib: usize,
    eval: &str,
    tunables: &[(String, i32)],
    mut out: impl FnMut(&str),
) -> Result<(u64, u64), String> {
    let mut engine = Engine::new(Options {
        hash_mib,
        threads,
        ..Options::default()
    });
    out(&format!("eval: {}", engine.set_eval(eval)?));
    if let Some(line) = set_tunables(&mut engine, tunables)? {
        out(&line);
    }
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        engine.new_game();
        let t0 = Instant::now();
        engine
            .set_position(Some(fen), &[])
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let r = engine.go(
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            |_| {},
        );
        total += r.nodes;
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        out(&format!(
            "position {:>2}/{}: bestmove {best} score {} nodes {} time {} ms  {fen}",
            i + 1,
            POSITIONS.len(),
            r.score,
            r.nodes,
            t0.elapsed().as_millis()
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / secs) as u64;
    out(&format!("Bench: {total} nodes {nps} nps"));
    Ok((total, nps))
}

/// Sets the tunables on `engine`; the line that names them, if any were given.
pub fn set_tunables(
    engine: &mut Engine,
    tunables: &[(String, i32)],
) -> Result<Option<String>, String> {
    for (name, value) in tunables {
        engine.set_tunable(name, *value)?;
    }
    Ok((!tunables.is_empty()).then(|| {
        let set: Vec<String> = tunables.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("tunables: {}", set.join(" "))
    }))
}
