#!/bin/sh
# How the files beside this script were written (by the build of commit 27375b3, as `chariot`
# on PATH, run from the repository root). Kept to show what they are, not to be rerun: they
# stand for files written by that build.
set -e
D=engine-tests/json-compat
for k in 0 1; do
  chariot match --engine cmd=chariot name=Strong tc=nodes=1200 --engine cmd=chariot name=Weak tc=nodes=300 \
    --openings engine-tests/match-openings.epd --order random --seed 7 --games 8 --quiet \
    --shard $k/2 --json $D/match-shard-$k.json >/dev/null
done
chariot match --engine cmd=chariot name=Chariot --engine cmd=chariot name=Lite tc=nodes=200 \
  --engine "cmd=sh engine-tests/faulty-engine.sh illegal" name=Faulty \
  --tc nodes=400 --games 2 --quiet --json $D/match-round-robin.json >/dev/null
chariot match merge $D/match-shard-0.json $D/match-shard-1.json --json $D/merged-shards.json > $D/merged-shards.txt
chariot match merge $D/match-shard-0.json $D/match-shard-1.json --sprt elo0=-5 elo1=5 --json $D/merged-shards-sprt.json > $D/merged-shards-sprt.txt
chariot match merge $D/match-round-robin.json > $D/merged-round-robin.txt
chariot tune spsa --engine "cmd=chariot --tunables" --params RfpMargin LmrBase NmpBase --iterations 3 --pairs 2 --tc nodes=300 --seed 4 \
  --openings engine-tests/openings.epd --state $D/spsa-paused.json --stop-after 2 > $D/spsa-paused.txt
chariot tune spsa --engine "cmd=chariot --tunables" --params RfpMargin LmrBase NmpBase --iterations 3 --pairs 2 --tc nodes=300 --seed 4 \
  --openings engine-tests/openings.epd --start RfpMargin=120 NmpBase=2 --state $D/spsa-start.json --stop-after 1 > $D/spsa-start.txt
