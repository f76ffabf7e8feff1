#!/bin/sh
# Texel tuning of the evaluation, end to end: build, play self-play games for training
# positions, fit the weights, write src/eval/weights.rs, rebuild and print the new bench.
#   scripts/tune.sh [GAMES] [NODES] [EPOCHS]      (defaults 2400 5000 1500)
# Positions go to target/tune/positions-<seed>.txt; set SEED to vary the openings, and
# DATA to fit on existing files instead of playing new games (space-separated paths).
set -eu
cd "$(dirname "$0")/.."
GAMES=${1:-2400}
NODES=${2:-5000}
EPOCHS=${3:-1500}
SEED=${SEED:-1}
THREADS=${THREADS:-2}
cargo build --release --quiet
mkdir -p target/tune
if [ -z "${DATA:-}" ]; then
    DATA=target/tune/positions-$SEED.txt
    ./target/release/chariot tune gen --out "$DATA" --games "$GAMES" --nodes "$NODES" \
        --seed "$SEED" --threads "$THREADS"
fi
# shellcheck disable=SC2086
./target/release/chariot tune fit $DATA --epochs "$EPOCHS" --threads "$THREADS" \
    --out target/tune/weights.rs
cp target/tune/weights.rs src/eval/weights.rs
cargo build --release --quiet
./target/release/chariot bench | tail -n 1
