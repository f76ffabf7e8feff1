#!/bin/sh
# One generation of the net, end to end: build, play self-play games (shards of SHARD_GAMES
# games, seed SEED, shards FIRST..LAST) with the evaluation TEACHER, train a net on them and
# print the bench of the engine with it. Data stays outside the repository (DATA_DIR).
#   scripts/train-net.sh OUT.nnue
# Settings (environment; the defaults reproduce generation 1; the shipped net, generation 3, is
#   TEACHER=gen2.nnue SEED=3 LAST=25 EPOCHS=20 BATCH=16384 LR=0.0005 PATIENCE=3
#   EXTRA_DATA=<generation 2's data>, see scripts/README.md):
#   TEACHER=hce        evaluation of the self-play: hce, nnue (the embedded net) or a net file
#   SEED=1 FIRST=0 LAST=29 SHARD_GAMES=500 NODES=3000 RANDOM_PLIES=6-10 MAX_PLIES=400
#   THREADS=(all cores)  DATA_DIR=$HOME/chariot-data/gen-$TEACHER-s$SEED
#   HIDDEN=128 EPOCHS=6 BATCH=4096 LR=0.001 WDL=0.25 VALID=0.05 PATIENCE=0 TRAIN_SEED=1
#   EXTRA_DATA=""      more directories of .games files trained on with this run's own (an
#                      earlier generation's data: generation 3 adds generation 2's)
#   (training is deterministic for a given TRAIN_SEED and THREADS: the shipped net was trained
#   with THREADS=2)
# Shards already present in DATA_DIR are kept (a run can be resumed, or spread over machines:
# give each machine its own FIRST..LAST and copy the .games files together before training).
# Every game follows from (SEED, shard, game number), so the same settings give the same files,
# and training with the same TRAIN_SEED and THREADS gives the same net.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/train-net.sh OUT.nnue}
TEACHER=${TEACHER:-hce}
SEED=${SEED:-1}
FIRST=${FIRST:-0}
LAST=${LAST:-29}
SHARD_GAMES=${SHARD_GAMES:-500}
NODES=${NODES:-3000}
RANDOM_PLIES=${RANDOM_PLIES:-6-10}
MAX_PLIES=${MAX_PLIES:-400}
THREADS=${THREADS:-$(nproc)}
DATA_DIR=${DATA_DIR:-$HOME/chariot-data/gen-$(basename "$TEACHER" .nnue)-s$SEED}
HIDDEN=${HIDDEN:-128}
EPOCHS=${EPOCHS:-6}
BATCH=${BATCH:-4096}
LR=${LR:-0.001}
WDL=${WDL:-0.25}
VALID=${VALID:-0.05}
PATIENCE=${PATIENCE:-0}
TRAIN_SEED=${TRAIN_SEED:-1}
EXTRA_DATA=${EXTRA_DATA:-}
for d in $EXTRA_DATA; do
    ls "$d"/*.games > /dev/null || { echo "EXTRA_DATA: no .games files in $d" >&2; exit 1; }
done
cargo build --release --quiet
BIN=./target/release/chariot
mkdir -p "$DATA_DIR"
echo "data: teacher $TEACHER, seed $SEED, shards $FIRST..$LAST of $SHARD_GAMES games, $NODES nodes a move -> $DATA_DIR"
shard=$FIRST
while [ "$shard" -le "$LAST" ]; do
    f=$(printf "%s/s%s-shard%03d" "$DATA_DIR" "$SEED" "$shard")
    if [ ! -f "$f.games" ]; then
        "$BIN" nnue gen --out "$f.tmp" --games "$SHARD_GAMES" --nodes "$NODES" \
            --threads "$THREADS" --seed "$SEED" --shard "$shard" --eval "$TEACHER" \
            --random-plies "$RANDOM_PLIES" --max-plies "$MAX_PLIES"
        mv "$f.tmp" "$f.games"
    fi
    shard=$((shard + 1))
done
echo "train: hidden $HIDDEN, $EPOCHS epochs, batch $BATCH, lr $LR, wdl $WDL, valid $VALID, seed $TRAIN_SEED, $THREADS threads${EXTRA_DATA:+, with $EXTRA_DATA}"
extra=""
for d in $EXTRA_DATA; do
    extra="$extra $(ls "$d"/*.games)"
done
# shellcheck disable=SC2046,SC2086
"$BIN" nnue train $(ls "$DATA_DIR"/*.games) $extra --out "$OUT" --hidden "$HIDDEN" --epochs "$EPOCHS" \
    --batch "$BATCH" --lr "$LR" --wdl "$WDL" --valid "$VALID" --patience "$PATIENCE" --seed "$TRAIN_SEED" \
    --threads "$THREADS"
"$BIN" bench --eval "$OUT" | tail -1
"$BIN" bench --eval hce | tail -1
