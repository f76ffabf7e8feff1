#!/bin/sh
# Lazy SMP scaling on the bench positions: time to reach the same depth with T threads
# against 1 thread, position by position.
#   scripts/smp-scaling.sh [DEPTH] [THREADS]      (defaults: 19 2; shallower searches end in
# tens of milliseconds and their ratios measure thread start-up more than search)
# Prints each position's ratio T-threads/1-thread, their median, and the total-time ratio.
# Run it on an otherwise idle machine: the ratios are only as good as the quiet.
set -eu
cd "$(dirname "$0")/.."
DEPTH=${1:-19}
THREADS=${2:-2}
cargo build --release --quiet
one=$(mktemp)
many=$(mktemp)
./target/release/chariot bench --depth "$DEPTH" --threads 1 > "$one"
./target/release/chariot bench --depth "$DEPTH" --threads "$THREADS" > "$many"
grep '^position' "$one" | sed 's/.* time \([0-9]*\) ms.*/\1/' > "$one.t"
grep '^position' "$many" | sed 's/.* time \([0-9]*\) ms.*/\1/' > "$many.t"
paste "$one.t" "$many.t" | awk '{ r = ($1 > 0) ? $2 / $1 : 1
    printf "position %2d: %6d ms -> %6d ms  ratio %.2f\n", NR, $1, $2, r }'
paste "$one.t" "$many.t" | awk '{ print ($1 > 0) ? $2 / $1 : 1 }' | sort -g > "$one.r"
n=$(wc -l < "$one.r")
median=$(awk -v n="$n" '{ v[NR] = $1 } END { if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }' "$one.r")
total=$(paste "$one.t" "$many.t" | awk '{ a += $1; b += $2 } END { printf "%d ms -> %d ms (ratio %.2f)", a, b, b / a }')
printf 'median ratio %s threads / 1 thread: %.2f; total time %s\n' "$THREADS" "$median" "$total"
rm -f "$one" "$many" "$one.t" "$many.t" "$one.r"
