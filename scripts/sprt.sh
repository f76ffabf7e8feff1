#!/usr/bin/env bash
# "Is this change stronger?" An SPRT of two builds of Chariot: the working tree (new)
# against a git revision (base, default: main), until the test accepts H0 or H1.
#   scripts/sprt.sh [--base REF] [--new-bin PATH] [--base-bin PATH] [--tc TC]
#                   [--concurrency N] [--elo0 A] [--elo1 B] [--hash MB] [--games N]
#                   [-- MATCH ARGS...]
# Defaults: base main, tc 10+0.1, concurrency = cores / 2 (at least 1), elo0 0, elo1 5,
# alpha = beta = 0.05 (pentanomial), hash 16, openings engine-tests/match-openings.epd in a
# random order, at most 40,000 games (--games). Builds go to target/sprt/; games to
# target/sprt/games.pgn, results to target/sprt/result.json. Arguments after `--` go to
# `chariot match` as they are (e.g. `-- --rules axf`). Exit status 0 when H1 is accepted
# (the change gains), 1 when H0 is accepted, 2 on an error or when no decision was reached.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base_ref=main
new_bin=
base_bin=
tc=10+0.1
cores=$(nproc 2>/dev/null || echo 2)
concurrency=$(( cores / 2 > 0 ? cores / 2 : 1 ))
elo0=0
elo1=5
hash=16
games=40000
while [ $# -gt 0 ]; do
  case $1 in
    --base) base_ref=$2; shift 2 ;;
    --new-bin) new_bin=$2; shift 2 ;;
    --base-bin) base_bin=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
out=target/sprt
mkdir -p "$out"
if [ -z "$new_bin" ]; then
  cargo build --release --quiet
  cp target/release/chariot "$out/chariot-new"
  new_bin=$out/chariot-new
fi
if [ -z "$base_bin" ]; then
  rev=$(git rev-parse --verify "$base_ref^{commit}") || { echo "error: no revision '$base_ref'" >&2; exit 2; }
  tree=$(mktemp -d "${TMPDIR:-/tmp}/chariot-base.XXXXXX")
  trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
  git worktree add --detach --quiet "$tree" "$rev"
  (cd "$tree" && CARGO_TARGET_DIR="$root/$out/base-target" cargo build --release --quiet)
  cp "$out/base-target/release/chariot" "$out/chariot-base"
  base_bin=$out/chariot-base
  echo "base: $base_ref ($rev)"
fi
echo "new: $new_bin  base: $base_bin  tc $tc  concurrency $concurrency  SPRT [$elo0, $elo1]"
set +e
target/release/chariot match \
  --engine "cmd=$new_bin" name=new "option.Hash=$hash" \
  --engine "cmd=$base_bin" name=base "option.Hash=$hash" \
  --tc "$tc" --games "$games" --concurrency "$concurrency" \
  --openings engine-tests/match-openings.epd --order random \
  --sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05 \
  --pgn "$out/games.pgn" --json "$out/result.json" "$@"
status=$?
set -e
[ $status -eq 0 ] || exit 2
if grep -q '"state": "H1"' "$out/result.json"; then exit 0; fi
if grep -q '"state": "H0"' "$out/result.json"; then exit 1; fi
exit 2
