#!/bin/sh
# Rebuilds the shipped opening book and the balanced match openings from book/openings.txt:
#   1. chariot book build   the move lines -> a book weighted by how many lines play each move
#   2. chariot book grow    every move checked by a depth-8 search (kept within 60 cp of the
#                           best), each line extended 5 plies by the search's best moves
#                           (up to 3 a position, within 30 cp of the best)
#   3. chariot book export  positions at plies 6..12 whose depth-10 score is within 40 cp
# Every search runs on one thread with a cleared table, so the output does not depend on
# THREADS (default 2) or on timing: the same inputs give the same files, byte for byte.
set -eu
cd "$(dirname "$0")/.."
THREADS="${THREADS:-2}"
cargo build --release --quiet
CHARIOT=target/release/chariot
mkdir -p target/book
$CHARIOT book build --from book/openings.txt --max-ply 40 --min-games 1 -o target/book/source.book
$CHARIOT book grow --book target/book/source.book --depth 8 --margin 60 --add-margin 30 \
    --width 3 --extend 5 --max-ply 40 --hash 8 --threads "$THREADS" -o book/chariot.book
$CHARIOT book stats --book book/chariot.book
$CHARIOT book export --book book/chariot.book --balanced --plies 6..12 --depth 10 \
    --max-score 40 --count 200 --seed 1 --hash 16 --threads "$THREADS" -o engine-tests/openings.epd
