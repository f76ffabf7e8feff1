#!/bin/bash
# One `chariot match` run as a Slurm array job of N shards, then a merge job.
#
#   scripts/slurm-match.sh --shards N --out DIR [--partition P] [--time T] [--account A]
#                          [--chariot PATH] [--wait] -- <chariot match args>
#
# Task K of the array (K = 0 .. N-1) runs
#   chariot match <args> --shard K/N --json DIR/shard-K.json --pgn DIR/shard-K.pgn
# with --cpus-per-task = the match's --concurrency (log: DIR/shard-K.log); a merge job that
# waits for every task to succeed (--dependency=afterok:<array job>) runs
#   chariot match merge DIR/shard-*.json --json DIR/all.json --pgn DIR/all.pgn --pgn-in DIR/shard-*.pgn
# and writes the report to DIR/report.txt (log: DIR/merge.log). If a task fails, the merge
# job is cancelled (--kill-on-invalid-dep=yes).
#
# Every task must see the same absolute paths (a shared filesystem: DIR, the chariot binary,
# the engines, the openings), and the engine commands are compared as typed when merging, so
# give absolute paths. With --order random, give --seed (the runner refuses otherwise).
#
# --chariot PATH  the runner (default: this repository's target/release/chariot)
# --wait          stay until the merge job has ended, then print DIR/report.txt
#                 (exit status 1 if the merge did not produce it)
# NICE=19         (environment) run the games under `nice -n 19` (for a shared machine)
# SBATCH_EXTRA    (environment) more sbatch options for every job, split on spaces
set -eu

usage() {
    sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "(see the comments at the top of $0)" >&2
    exit "${1:-2}"
}

die() {
    echo "slurm-match: $*" >&2
    exit 2
}

here=$(cd "$(dirname "$0")/.." && pwd)
shards='' out='' partition='' time_limit='' account='' wait=0
chariot="$here/target/release/chariot"
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards=${2:?--shards needs N}; shift 2 ;;
    --out) out=${2:?--out needs DIR}; shift 2 ;;
    --partition) partition=${2:?--partition needs a name}; shift 2 ;;
    --time) time_limit=${2:?--time needs a limit}; shift 2 ;;
    --account) account=${2:?--account needs a name}; shift 2 ;;
    --chariot) chariot=${2:?--chariot needs a path}; shift 2 ;;
    --wait) wait=1; shift ;;
    -h | --help) usage 0 ;;
    --) shift; break ;;
    *) echo "slurm-match: unknown option '$1' (the match's own arguments go after --)" >&2; usage ;;
    esac
done
if [ -z "$shards" ] || [ -z "$out" ]; then usage; fi
[ $# -gt 0 ] || die "no match arguments after --"
case "$shards" in
'' | *[!0-9]*) die "--shards '$shards' is not a number" ;;
esac
[ "$shards" -ge 1 ] || die "--shards must be at least 1"
command -v sbatch >/dev/null || die "no sbatch: not on a Slurm cluster (scripts/slurm-local.sh starts one here)"

# The match's own arguments: the script sets --shard, --json and --pgn; read --concurrency.
concurrency=1
prev=
for a in "$@"; do
    case "$a" in
    --shard | --shard=* | --json | --json=* | --pgn | --pgn=*)
        die "'$a' is set by this script (DIR/shard-K.json, DIR/shard-K.pgn); leave it out" ;;
    --concurrency=*) concurrency=${a#--concurrency=} ;;
    esac
    [ "$prev" = --concurrency ] && concurrency=$a
    prev=$a
done
case "$concurrency" in
'' | *[!0-9]*) die "--concurrency '$concurrency' is not a number" ;;
esac

case "$chariot" in
/*) ;;
*) chariot="$(pwd)/$chariot" ;;
esac
[ -x "$chariot" ] || die "$chariot is not an executable (build it: cargo build --release, or give --chariot)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
for f in "$out"/shard-* "$out"/all.json "$out"/report.txt; do
    [ -e "$f" ] && die "$out already holds results ($f): give an empty or new --out"
done

nice_prefix=
if [ -n "${NICE:-}" ]; then
    case "$NICE" in
    *[!0-9-]*) die "NICE='$NICE' is not a number" ;;
    esac
    nice_prefix="nice -n $NICE "
fi

# The job scripts, with every argument quoted for bash.
quoted=$(printf ' %q' "$@")
qc=$(printf '%q' "$chariot")
qo=$(printf '%q' "$out")
cat >"$out/shard.sh" <<EOF
#!/bin/bash
# Task K of the array: shard K/$shards of the match (written by scripts/slurm-match.sh).
set -eu
k=\${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}
exec $nice_prefix$qc match$quoted \\
    --shard "\$k/$shards" --json $qo/"shard-\$k.json" --pgn $qo/"shard-\$k.pgn"
EOF
jsons='' pgns=''
for ((k = 0; k < shards; k++)); do
    jsons="$jsons $qo/shard-$k.json"
    pgns="$pgns $qo/shard-$k.pgn"
done
cat >"$out/merge.sh" <<EOF
#!/bin/bash
# Merge the $shards shards into all.json, all.pgn and report.txt (written by scripts/slurm-match.sh).
set -eu
$nice_prefix$qc match merge$jsons --json $qo/all.json --pgn $qo/all.pgn --pgn-in$pgns >$qo/report.txt.tmp
mv $qo/report.txt.tmp $qo/report.txt
cat $qo/report.txt
EOF
chmod +x "$out/shard.sh" "$out/merge.sh"

common=()
[ -n "$partition" ] && common+=(--partition="$partition")
[ -n "$time_limit" ] && common+=(--time="$time_limit")
[ -n "$account" ] && common+=(--account="$account")
if [ -n "${SBATCH_EXTRA:-}" ]; then
    read -r -a extra <<<"$SBATCH_EXTRA"
    common+=("${extra[@]}")
fi

array=$(sbatch --parsable "${common[@]}" --job-name=chariot-match --array="0-$((shards - 1))" \
    --ntasks=1 --cpus-per-task="$concurrency" --chdir="$out" --output="$out/shard-%a.log" \
    "$out/shard.sh")
array=${array%%;*}
echo "slurm-match: array job $array: $shards shards, $concurrency CPUs each, logs $out/shard-K.log"
merge_args=(--parsable "${common[@]}" --job-name=chariot-merge --dependency="afterok:$array"
    --kill-on-invalid-dep=yes --ntasks=1 --cpus-per-task=1 --chdir="$out" --output="$out/merge.log")
if [ "$wait" = 0 ]; then
    merge=$(sbatch "${merge_args[@]}" "$out/merge.sh")
    merge=${merge%%;*}
    echo "slurm-match: merge job $merge (after $array succeeds): $out/report.txt, all.json, all.pgn"
    echo "slurm-match: watch with: squeue -j $array,$merge"
    exit 0
fi
echo "slurm-match: waiting for the merge job (after $array succeeds) ..."
sbatch --wait "${merge_args[@]}" "$out/merge.sh" >/dev/null || true
if [ -s "$out/report.txt" ]; then
    cat "$out/report.txt"
    exit 0
fi
echo "slurm-match: no report: a shard or the merge failed; see $out/shard-*.log and $out/merge.log" >&2
exit 1
