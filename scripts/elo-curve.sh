#!/bin/sh
# The Elo-against-time curve (issue 39): Chariot against a peer (Pikafish-HCE by default) at
# several time controls, the same openings at each, so a change is judged at the control it
# is meant for and a search that loses ground as time grows shows it.
#   scripts/elo-curve.sh PEER_COMMAND
# Settings (environment):
#   TCS="5+0.05 10+0.1 20+0.2 40+0.4"   (base + 1 % increment, as the issue asks)
#   GAMES=60 (per control: each opening twice, colours swapped)   CONCURRENCY=2
#   HASH=64  THREADS=1  OPENINGS=engine-tests/match-openings.epd (30 named openings, in order)
#   SHARD=0/1 (K/N: this machine plays game pairs i with i % N == K of each control; merge the
#   shards' JSON with `chariot match merge`)   BIN=target/release/chariot
#   OUT_DIR=target/elo-curve   PEER_NAME=Pikafish-HCE   PEER_PROTO=uci
# Each control's JSON and PGN go to OUT_DIR/TC[-shardK].json|pgn; a control already there
# is kept, so an interrupted run goes on where it stopped. Then one line per control:
# W-D-L and Elo ± 95 % (per game pair) from the JSONs present.
set -eu
cd "$(dirname "$0")/.."
PEER=${1:?usage: scripts/elo-curve.sh PEER_COMMAND}
TCS=${TCS:-5+0.05 10+0.1 20+0.2 40+0.4}
GAMES=${GAMES:-60}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-64}
THREADS=${THREADS:-1}
OPENINGS=${OPENINGS:-engine-tests/match-openings.epd}
SHARD=${SHARD:-0/1}
BIN=${BIN:-target/release/chariot}
OUT_DIR=${OUT_DIR:-target/elo-curve}
PEER_NAME=${PEER_NAME:-Pikafish-HCE}
PEER_PROTO=${PEER_PROTO:-uci}
[ -x "$BIN" ] || cargo build --release --quiet
mkdir -p "$OUT_DIR"
suffix=
[ "$SHARD" = 0/1 ] || suffix="-shard${SHARD%/*}"
for tc in $TCS; do
    out="$OUT_DIR/$tc$suffix"
    if [ ! -f "$out.json" ]; then
        "$BIN" match --engine "cmd=$BIN" name=Chariot \
            --engine "cmd=$PEER" "name=$PEER_NAME" "proto=$PEER_PROTO" \
            --each "option.Hash=$HASH" "option.Threads=$THREADS" \
            --tc "$tc" --games "$GAMES" --concurrency "$CONCURRENCY" --openings "$OPENINGS" \
            --shard "$SHARD" --quiet --json "$out.json.tmp" --pgn "$out.pgn" > "$out.txt"
        mv "$out.json.tmp" "$out.json"
    fi
    w=$(grep -m1 -o 'games, W-D-L [0-9-]*' "$out.txt" || true)
    e=$(grep -m1 -o 'Elo .*' "$out.txt" || true)
    printf '%-9s %s; %s\n' "$tc" "$w" "$e"
done
