#!/bin/sh
# Self-play shards for the next net, recorded in the manifest (nets/shards.tsv), one after
# another until COUNT shards are made (or forever with COUNT=0).
#   scripts/gen-data.sh
# Settings (environment):
#   SEED=4            the generation's seed (generation N+1 plays seed N+1 with net N)
#   FIRST=100         the first shard number to try; numbers the manifest lists are skipped,
#                     so give each machine its own range (the lent 16-core machine: 0-99,
#                     this 2-core machine: 100-199, a cluster's tasks: 1000 + task number)
#   COUNT=1           shards to make (0: until stopped)
#   SHARD_SECONDS=1200  each shard's time budget (no game starts after it; its row records
#                     the game count, so it is played again byte for byte from the seed)
#   UNTIL=            a deadline (anything `date -d` reads, e.g. 03:30 or "2026-12-07 03:30
#                     UTC"): no shard starts with less than MIN_SECONDS (300) before it, and
#                     the last one is cut to end MARGIN (60) seconds before it, so every
#                     shard is whole before a session ends
#   PROCS=1           generator processes at once: process w makes shards FIRST+w,
#                     FIRST+w+PROCS, ... (COUNT each), so no two try one number
#   NODES=3000 THREADS=(all cores / PROCS, each) NICE=19 EVAL=nnue
#   DATA_DIR=/work/data/gen$SEED   MANIFEST=nets/shards.tsv   BIN=target/release/chariot
# A shard is written as NAME.part and renamed when whole; then its row is added. Check the
# data against the manifest, and play lost shards again, with
#   chariot nnue shards --manifest nets/shards.tsv --dir DATA_DIR [--regenerate]
set -eu
cd "$(dirname "$0")/.."
SEED=${SEED:-4}
FIRST=${FIRST:-100}
COUNT=${COUNT:-1}
PROCS=${PROCS:-1}
SHARD_SECONDS=${SHARD_SECONDS:-1200}
NODES=${NODES:-3000}
THREADS=${THREADS:-$(($(nproc) / PROCS > 0 ? $(nproc) / PROCS : 1))}
NICE=${NICE:-19}
EVAL=${EVAL:-nnue}
DATA_DIR=${DATA_DIR:-/work/data/gen$SEED}
MANIFEST=${MANIFEST:-nets/shards.tsv}
BIN=${BIN:-target/release/chariot}
UNTIL=${UNTIL:-}
MIN_SECONDS=${MIN_SECONDS:-300}
MARGIN=${MARGIN:-60}
deadline=""
if [ -n "$UNTIL" ]; then
    deadline=$(date -d "$UNTIL" +%s) || { echo "gen-data.sh: UNTIL: not a date: $UNTIL" >&2; exit 2; }
    [ "$deadline" -gt "$(date +%s)" ] || { echo "gen-data.sh: UNTIL is not in the future: $UNTIL" >&2; exit 2; }
fi
[ -x "$BIN" ] || cargo build --release --quiet
mkdir -p "$DATA_DIR"

# one generator process: shards FIRST+w, FIRST+w+PROCS, ... not yet in the manifest
worker() {
    made=0
    shard=$((FIRST + $1))
    while [ "$COUNT" -eq 0 ] || [ "$made" -lt "$COUNT" ]; do
        name=$(printf "s%s-shard%03d.games" "$SEED" "$shard")
        if [ -f "$MANIFEST" ] && grep -q -P "^[^\t]+\t$SEED\t$shard\t" "$MANIFEST"; then
            shard=$((shard + PROCS))
            continue
        fi
        seconds=$SHARD_SECONDS
        if [ -n "$deadline" ]; then
            left=$((deadline - $(date +%s) - MARGIN))
            if [ "$left" -lt "$MIN_SECONDS" ]; then
                echo "gen-data.sh: $name not started: ${left}s left before $UNTIL" >&2
                break
            fi
            [ "$left" -lt "$seconds" ] && seconds=$left
        fi
        nice -n "$NICE" "$BIN" nnue gen --out "$DATA_DIR/$name" --seconds "$seconds" \
            --nodes "$NODES" --threads "$THREADS" --seed "$SEED" --shard "$shard" --eval "$EVAL" \
            --manifest "$MANIFEST"
        made=$((made + 1))
        shard=$((shard + PROCS))
    done
}

# stopping the script stops the workers (a shard in play finishes, as before: stop its
# `nnue gen` process too to end it at once)
pids=""
trap 'kill $pids 2>/dev/null; exit 143' TERM INT HUP
w=0
while [ "$w" -lt "$PROCS" ]; do
    worker "$w" &
    pids="$pids $!"
    w=$((w + 1))
done
wait
