#!/bin/sh
# Lazy SMP scaling on the bench positions: time to reach the same depth with T threads
# against 1 thread, position by position.
#   scripts/smp-scaling.sh [DEPTH] [THREADS] [ROUNDS] [HASH]     (defaults: 19 2 3 16)
# Each round runs the bench once with 1 thread and once with T threads, back to back, so a
# slow spell of a shared machine hits both sides of a ratio alike. A position's ratio is the
# median over the rounds (a multi-threaded search takes a different path every time: one
# run's ratio for one position can be anywhere from 0.3 to 2). Positions the 1-thread search
# finishes in under 100 ms are shown but left out of the summary: their times measure thread
# start-up and the clock's resolution more than search.
# Prints each position's ratios, the median of the per-position ratios, and the total-time
# ratio. Run it on an otherwise idle machine: the ratios are only as good as the quiet.
set -eu
cd "$(dirname "$0")/.."
DEPTH=${1:-19}
THREADS=${2:-2}
ROUNDS=${3:-3}
HASH=${4:-16}
cargo build --release --quiet
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ms_column() { grep '^position' | sed 's/.* time \([0-9]*\) ms.*/\1/'; }
r=1
while [ "$r" -le "$ROUNDS" ]; do
    ./target/release/chariot bench --depth "$DEPTH" --threads 1 --hash "$HASH" | ms_column > "$dir/one.$r"
    ./target/release/chariot bench --depth "$DEPTH" --threads "$THREADS" --hash "$HASH" | ms_column > "$dir/many.$r"
    r=$((r + 1))
done
# one line per position: the 1-thread times of every round, then the T-thread times
paste "$dir"/one.* "$dir"/many.* | awk -v R="$ROUNDS" -v T="$THREADS" '
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
        ones = 0; manys = 0; shown = ""
        for (k = 1; k <= R; k++) {
            o = $k; m = $(k + R); ones += o; manys += m
            rat[k] = (o > 0) ? m / o : 1
            shown = shown sprintf(" %5.2f", rat[k])
        }
        r = median(rat, R)
        used = (ones / R >= 100)
        printf "position %2d: %6d ms -> %6d ms  ratios%s  median %.2f%s\n", NR, ones / R, manys / R, shown, r, used ? "" : "  (under 100 ms: left out)"
        if (used) { n++; med[n] = r; a += ones; b += manys }
    }
    END {
        printf "median ratio %d threads / 1 thread over %d positions, %d rounds: %.2f; total time %d ms -> %d ms (ratio %.2f)\n", T, n, R, median(med, n), a / R, b / R, b / a
    }'
