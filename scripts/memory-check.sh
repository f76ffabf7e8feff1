#!/bin/sh
# Resident memory of Chariot with a given Hash size after a search:
#   scripts/memory-check.sh [HASH_MIB] [THREADS] [DEPTH]     (defaults 256 1 14)
# Builds the release binary, runs `go depth D` through UCI, then prints VmRSS and VmHWM
# (peak) from /proc and the budget Hash + 32 MiB; exit status 1 if the peak is over it.
set -eu
cd "$(dirname "$0")/.."
HASH=${1:-256}
THREADS=${2:-1}
DEPTH=${3:-14}
cargo build --release --quiet
FIFO=$(mktemp -u)
mkfifo "$FIFO"
./target/release/chariot < "$FIFO" > /dev/null &
PID=$!
exec 3> "$FIFO"
printf 'uci\nsetoption name Hash value %s\nsetoption name Threads value %s\nisready\nposition startpos\ngo depth %s\n' \
    "$HASH" "$THREADS" "$DEPTH" >&3
# wait for the search to finish: poll until the CPU time stops growing
last=-1
while :; do
    sleep 1
    now=$(awk '{print $14 + $15}' "/proc/$PID/stat")
    [ "$now" = "$last" ] && break
    last=$now
done
rss=$(awk '/^VmRSS/ {print $2}' "/proc/$PID/status")
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$PID/status")
printf 'quit\n' >&3
exec 3>&-
wait "$PID" || true
rm -f "$FIFO"
budget=$(( (HASH + 32) * 1024 ))
echo "Hash $HASH MiB, $THREADS thread(s), depth $DEPTH: VmRSS $((rss / 1024)) MiB, peak VmHWM $((hwm / 1024)) MiB, budget $((budget / 1024)) MiB"
[ "$hwm" -le "$budget" ]
