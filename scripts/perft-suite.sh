#!/usr/bin/env bash
# Runs every count of engine-tests/perft.epd (or the file given) with the release CLI, at
# full depth, and reports each result. Exit status 1 if any count differs.
#   scripts/perft-suite.sh [EPD] [MAX_NODES]
# MAX_NODES (default: no limit) skips counts above it; the full suite, including the start
# position at depth 6 (5,392,831,844 leaves), takes a few minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
epd=${1:-engine-tests/perft.epd}
max=${2:-0}
threads=$(nproc 2>/dev/null || echo 1)
cargo build --release --quiet
bin=target/release/chariot
fail=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  fen=${line%% ;*}
  counts=${line#*;}
  IFS=';' read -ra items <<< "$counts"
  for item in "${items[@]}"; do
    read -r d n <<< "$item"
    depth=${d#D}
    if [ "$max" != 0 ] && [ "$n" -gt "$max" ]; then continue; fi
    out=$("$bin" perft "$depth" --fen "$fen" --threads "$threads" | tail -n 1)
    got=$(awk '{print $2}' <<< "$out")
    if [ "$got" = "$n" ]; then
      echo "ok   D$depth $n  ($out)  $fen"
    else
      echo "FAIL D$depth expected $n got $got  $fen"
      fail=1
    fi
  done
done < "$epd"
exit $fail
