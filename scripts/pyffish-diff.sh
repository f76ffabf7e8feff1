#!/usr/bin/env bash
# Differential test of `chariot judge --rules axf` against Fairy-Stockfish (PyPI pyffish):
# thousands of repetition cycles from varied positions, both verdicts compared where a
# position occurs for the third time (issue 24).
#
# Usage: scripts/pyffish-diff.sh [pyffish-diff.py options]
#   e.g. scripts/pyffish-diff.sh --cycles 5000 --seed 1 --jobs 2
#   (--out FILE: the disagreements, JSON lines, default target/pyffish-diff/disagreements.jsonl;
#    --all-out FILE: every cycle; --chariot PATH: another binary; --self-test: only the checks
#    of the notation conversion and of pyffish)
#
# Environment:
#   PYFFISH_VENV=DIR   the virtual environment (default ~/.cache/chariot-pyffish), made on first
#                      use with python3 -m venv; pyffish is pinned to PYFFISH_VERSION
#   PYFFISH_VERSION    default 0.0.90
#   NICE=19            niceness of the build and the run
#   NO_BUILD=1         do not run cargo build --release (give --chariot PATH or have
#                      target/release/chariot, or $CARGO_TARGET_DIR/release/chariot)
#
# Needs network access to PyPI the first time (pip install pyffish==PYFFISH_VERSION).
set -eu

case "${1:-}" in
-h | --help)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${PYFFISH_VENV:-$HOME/.cache/chariot-pyffish}
VERSION=${PYFFISH_VERSION:-0.0.90}
NICE=${NICE:-19}

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import pyffish, sys; sys.exit(pyffish.version() != tuple(int(x) for x in '$VERSION'.split('.')))" 2>/dev/null; then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "pyffish==$VERSION"
fi

args=("$@")
if [ -z "${NO_BUILD:-}" ]; then
    (cd "$ROOT" && nice -n "$NICE" cargo build --release --quiet)
fi
has_chariot=0
for a in "$@"; do
    [ "$a" = "--chariot" ] && has_chariot=1
done
if [ "$has_chariot" = 0 ]; then
    args+=(--chariot "${CARGO_TARGET_DIR:-$ROOT/target}/release/chariot")
fi
exec nice -n "$NICE" "$VENV/bin/python" "$ROOT/scripts/pyffish-diff.py" "${args[@]}"
