#!/bin/sh
# A long `chariot match` on one machine, played shard after shard so that it can stop and go
# on later (another session, after a reboot) without losing or repeating a game, merged after
# every shard, and ended as soon as its SPRT decides.
#
#   scripts/shards.sh --dir DIR --shards N [--from K] [--to K] [--bin PATH]
#                     [--sprt "elo0=A elo1=B [alpha=X beta=Y model=M]"] -- <chariot match args>
#
# Shard K (K = --from .. --to - 1, default 0 .. N-1, in order) runs
#   chariot match <args> --shard K/N --json DIR/shard-K.json --pgn DIR/shard-K.pgn
# (written under a temporary name and renamed when whole; its progress in DIR/shard-K.log).
# A shard whose DIR/shard-K.json exists is not played again: run the same command to go on.
# After every shard all of DIR's shards are merged:
#   chariot match merge DIR/shard-*.json --json DIR/merged.json --pgn DIR/merged.pgn [--sprt ...]
# with the report in DIR/report.txt and its score lines printed. With --sprt the run stops
# once the merged games accept H0 or H1 (the shards are merged in the order they were
# played, so this is the sequential test of the games so far). With --order random, give the
# match a --seed (the runner refuses shards otherwise), and keep every argument the same
# from one call to the next (merge refuses shards of different runs).
#
# `touch DIR/stop` ends the run after the shard under way; to end it at once, stop this
# script and its `chariot match` (the shard under way is played again next time).
# Exit status: 0 when every shard is played or the SPRT accepts H1, 1 when it accepts H0,
# 3 when stopped by DIR/stop, 2 on an error. The script's PID is in DIR/run.pid.
set -eu

usage() {
    sed -n '6,7p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "(see the comments at the top of $0)" >&2
    exit 2
}

die() {
    echo "shards: $*" >&2
    exit 2
}

here=$(cd "$(dirname "$0")/.." && pwd)
dir='' count='' from=0 to='' sprt=''
bin="$here/target/release/chariot"
while [ $# -gt 0 ]; do
    case $1 in
        --dir) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
        --shards) [ $# -ge 2 ] || usage; count=$2; shift 2 ;;
        --from) [ $# -ge 2 ] || usage; from=$2; shift 2 ;;
        --to) [ $# -ge 2 ] || usage; to=$2; shift 2 ;;
        --bin) [ $# -ge 2 ] || usage; bin=$2; shift 2 ;;
        --sprt) [ $# -ge 2 ] || usage; sprt=$2; shift 2 ;;
        --) shift; break ;;
        -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -n "$dir" ] || die "--dir is required"
[ -n "$count" ] || die "--shards is required"
[ $# -gt 0 ] || die "no match arguments after --"
is_number() { case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }
is_number "$count" && [ "$count" -ge 1 ] || die "--shards must be a positive number, not '$count'"
[ -n "$to" ] || to=$count
is_number "$from" || die "--from must be a number, not '$from'"
is_number "$to" || die "--to must be a number, not '$to'"
[ "$to" -le "$count" ] || die "--to $to is past the last shard (--shards $count)"
if [ ! -x "$bin" ]; then
    [ "$bin" = "$here/target/release/chariot" ] || die "no executable runner at $bin"
    (cd "$here" && cargo build --release --quiet) || die "the build failed"
fi
mkdir -p "$dir" || die "cannot make $dir"
echo $$ >"$dir/run.pid"

# merges every shard of DIR; prints the score lines; returns 0 (go on), 10 (H1), 11 (H0)
merge() {
    set -- "$dir"/shard-*.json
    [ -e "$1" ] || return 0
    pgns=''
    for j in "$@"; do pgns="$pgns ${j%.json}.pgn"; done
    # shellcheck disable=SC2086 # the SPRT's words and the PGN list split on spaces
    "$bin" match merge "$@" --json "$dir/merged.json" --pgn "$dir/merged.pgn" \
        --pgn-in $pgns ${sprt:+--sprt $sprt} >"$dir/report.txt" 2>&1 ||
        { cat "$dir/report.txt" >&2; die "the merge failed (its report: $dir/report.txt)"; }
    grep -E '^ +shards|[0-9]+ games, W-D-L|^  Elo|^SPRT' "$dir/report.txt" || true
    if grep -q '"state": "H1"' "$dir/merged.json"; then return 10; fi
    if grep -q '"state": "H0"' "$dir/merged.json"; then return 11; fi
    return 0
}

decided() {
    case $1 in
        10) echo "shards: the SPRT accepted H1"; exit 0 ;;
        11) echo "shards: the SPRT accepted H0"; exit 1 ;;
    esac
}

# a run that already decided (an earlier call) plays nothing more
status=0
merge || status=$?
decided "$status"
k=$from
while [ "$k" -lt "$to" ]; do
    if [ -e "$dir/shard-$k.json" ]; then
        k=$((k + 1))
        continue
    fi
    if [ -e "$dir/stop" ]; then
        echo "shards: $dir/stop found; shard $k and later not played"
        exit 3
    fi
    echo "shard $k/$count start $(date -u '+%Y-%m-%d %H:%M:%S')"
    "$bin" match "$@" --shard "$k/$count" --json "$dir/tmp-$k.json" --pgn "$dir/tmp-$k.pgn" \
        >"$dir/shard-$k.log" 2>&1 || { tail -n 3 "$dir/shard-$k.log" >&2; die "shard $k failed (its log: $dir/shard-$k.log)"; }
    mv "$dir/tmp-$k.pgn" "$dir/shard-$k.pgn"
    mv "$dir/tmp-$k.json" "$dir/shard-$k.json"
    echo "shard $k/$count end $(date -u '+%Y-%m-%d %H:%M:%S')"
    status=0
    merge || status=$?
    decided "$status"
    k=$((k + 1))
done
