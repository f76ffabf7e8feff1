#!/bin/sh
# Calibrates the Skill Level ladder by matches: adjacent levels of LEVELS against each other
# (so each step is measured where it is small), then each level of ANCHOR_LEVELS against
# ElephantEye, and the lowest level against ElephantEye at its weakest settings.
#   scripts/skill-ladder.sh ELEEYE_PATH
# Settings (environment):
#   LEVELS="0 4 8 12 16 20"   ANCHOR_LEVELS="8 12 16"   GAMES=20 (per pair, both colours)
#   TC=10+0.1  CONCURRENCY=2  HASH=16  NICE=10  SEED=51
#   OPENINGS=engine-tests/openings.epd (shuffled by SEED)
#   EE_WEAK="option.knowledge=none option.pruning=none option.randomness=huge option.idle=large"
#   BIN=target/release/chariot   OUT_DIR=target/skill-ladder
# Prints one line a pair (W-D-L from the first engine's side, Elo ± 95 %), then each level's
# Elo against level 20 summed along the ladder (errors added in quadrature). The JSON and PGN
# of every pair stay in OUT_DIR.
set -eu
cd "$(dirname "$0")/.."
EE=${1:?usage: scripts/skill-ladder.sh ELEEYE_PATH}
LEVELS=${LEVELS:-0 4 8 12 16 20}
ANCHOR_LEVELS=${ANCHOR_LEVELS:-8 12 16}
GAMES=${GAMES:-20}
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-2}
HASH=${HASH:-16}
NICE=${NICE:-10}
SEED=${SEED:-51}
OPENINGS=${OPENINGS:-engine-tests/openings.epd}
EE_WEAK=${EE_WEAK:-option.knowledge=none option.pruning=none option.randomness=huge option.idle=large}
BIN=${BIN:-target/release/chariot}
OUT_DIR=${OUT_DIR:-target/skill-ladder}
[ -x "$BIN" ] || cargo build --release --quiet
mkdir -p "$OUT_DIR"
ROUNDS=$((GAMES / 2))
# pair NAME ENGINE-ARGS...: one match, its JSON in OUT_DIR/NAME.json (kept if already there)
pair() {
    name=$1
    shift
    if [ ! -f "$OUT_DIR/$name.json" ]; then
        nice -n "$NICE" "$BIN" match "$@" --each "option.Hash=$HASH" --tc "$TC" \
            --games 2 --rounds "$ROUNDS" --concurrency "$CONCURRENCY" --openings "$OPENINGS" \
            --order random --seed "$SEED" --quiet --json "$OUT_DIR/$name.json.tmp" \
            --pgn "$OUT_DIR/$name.pgn" > "$OUT_DIR/$name.txt"
        mv "$OUT_DIR/$name.json.tmp" "$OUT_DIR/$name.json"
    fi
}
prev=""
for l in $LEVELS; do
    if [ -n "$prev" ]; then
        pair "L$prev-L$l" --engine "cmd=$BIN" "name=L$prev" "option.Skill Level=$prev" \
            --engine "cmd=$BIN" "name=L$l" "option.Skill Level=$l"
    fi
    prev=$l
done
for l in $ANCHOR_LEVELS; do
    pair "L$l-ee" --engine "cmd=$BIN" "name=L$l" "option.Skill Level=$l" \
        --engine "cmd=$EE" name=ElephantEye
done
low=$(echo "$LEVELS" | awk '{print $1}')
# shellcheck disable=SC2086
pair "L$low-ee-weakest" --engine "cmd=$BIN" "name=L$low" "option.Skill Level=$low" \
    --engine "cmd=$EE" name=ElephantEye-weakest $EE_WEAK
python3 - "$OUT_DIR" "$LEVELS" <<'PY'
import json, math, os, sys
out, levels = sys.argv[1], sys.argv[2].split()
def row(name):
    p = json.load(open(os.path.join(out, name + ".json")))["pairs"][0]
    e = p["elo"]
    print(f"{p['first']:>8} vs {p['second']:<20} {p['games']:4} games  W-D-L {p['wins']}-{p['draws']}-{p['losses']}  Elo {e['elo']:+7.1f} ± {e['error']:.1f}")
    return e["elo"], e["error"]
steps = [row(f"L{a}-L{b}") for a, b in zip(levels, levels[1:])]
for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith("-ee.json") or f.endswith("-weakest.json")):
    row(name)
print("level  Elo against level " + levels[-1] + " (summed along the ladder)")
for i, l in enumerate(levels[:-1]):
    elo = sum(s[0] for s in steps[i:])
    err = math.sqrt(sum(s[1] ** 2 for s in steps[i:]))
    print(f"{l:>5}  {elo:+7.0f} ± {err:.0f}")
PY
