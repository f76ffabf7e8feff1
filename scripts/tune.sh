#!/bin/sh
# Tuning of the evaluation, end to end: build, play self-play games for training positions,
# label each position with a search, fit the weights (early stopping on the last tenth of
# the positions), write src/eval/weights.rs, rebuild and print the new bench.
#   scripts/tune.sh [GAMES] [NODES] [EPOCHS]      (defaults 1600 8000 1500)
# Positions go to target/tune/positions-<seed>.txt; set SEED to vary the openings, and
# DATA to start from existing position files instead of playing new games (space-separated
# paths). LABEL_NODES (default 12000) is the search budget of each label, LAMBDA (default 1)
# the search's share of the label against the game result; LABEL_NODES=0 fits to the game
# results as they are.
set -eu
cd "$(dirname "$0")/.."
GAMES=${1:-1600}
NODES=${2:-8000}
EPOCHS=${3:-1500}
SEED=${SEED:-1}
THREADS=${THREADS:-2}
LABEL_NODES=${LABEL_NODES:-12000}
LAMBDA=${LAMBDA:-1}
cargo build --release --quiet
mkdir -p target/tune
if [ -z "${DATA:-}" ]; then
    DATA=target/tune/positions-$SEED.txt
    ./target/release/chariot tune gen --out "$DATA" --games "$GAMES" --nodes "$NODES" \
        --seed "$SEED" --threads "$THREADS"
fi
set=target/tune/set-$SEED.txt
if [ "$LABEL_NODES" -gt 0 ]; then
    # shellcheck disable=SC2086
    ./target/release/chariot tune label $DATA --out "$set" --nodes "$LABEL_NODES" \
        --lambda "$LAMBDA" --threads "$THREADS"
else
    # shellcheck disable=SC2086
    cat $DATA > "$set"
fi
# the last tenth (other games, but for one) checks the fit
total=$(wc -l < "$set")
valid=$((total / 10))
head -n $((total - valid)) "$set" > target/tune/train.txt
tail -n "$valid" "$set" > target/tune/valid.txt
./target/release/chariot tune fit target/tune/train.txt --valid target/tune/valid.txt \
    --epochs "$EPOCHS" --threads "$THREADS" --out target/tune/weights.rs
cp target/tune/weights.rs src/eval/weights.rs
cargo build --release --quiet
./target/release/chariot bench | tail -n 1
