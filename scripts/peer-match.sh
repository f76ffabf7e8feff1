#!/usr/bin/env bash
# "How strong are we against a peer?" A fixed number of games between Chariot (this working
# tree, release build) and another UCCI/UCI engine, reported as W-D-L, Elo with its 95%
# interval (per game and per game pair), LOS and the end reasons.
#   scripts/peer-match.sh PEER_COMMAND [--name NAME] [--proto auto|ucci|uci] [--games N]
#                         [--tc TC] [--concurrency N] [--hash MB] [-- MATCH ARGS...]
# Defaults: name from the command, proto auto, 200 games, tc 10+0.1, concurrency = cores / 2
# (at least 1), hash 16, openings engine-tests/match-openings.epd in order. Fairy-Stockfish
# works with proto auto (it answers `ucci`, and then uses ranks 0-9 as Chariot does); in UCI
# mode it numbers ranks 1-10, which the runner would take for illegal moves.
# Games go to target/peer/games.pgn, results to target/peer/result.json.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then sed -n '2,12p' "$0"; exit 0; fi
peer=$1; shift
name=
proto=auto
games=200
tc=10+0.1
cores=$(nproc 2>/dev/null || echo 2)
concurrency=$(( cores / 2 > 0 ? cores / 2 : 1 ))
hash=16
while [ $# -gt 0 ]; do
  case $1 in
    --name) name=$2; shift 2 ;;
    --proto) proto=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
peer_args=("cmd=$peer" "proto=$proto")
[ -n "$name" ] && peer_args+=("name=$name")
out=target/peer
mkdir -p "$out"
cargo build --release --quiet
exec target/release/chariot match \
  --engine cmd=target/release/chariot name=Chariot "option.Hash=$hash" \
  --engine "${peer_args[@]}" \
  --tc "$tc" --games "$games" --concurrency "$concurrency" \
  --openings engine-tests/match-openings.epd \
  --pgn "$out/games.pgn" --json "$out/result.json" "$@"
