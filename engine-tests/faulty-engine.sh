#!/bin/sh
# A deliberately faulty engine for the match runner's tests (engine-tests/match.rs).
# POSIX sh only: it speaks just enough UCCI and UCI to get into a game, then fails in the
# way its first argument names:
#   illegal  answers every go with an illegal move (i9i0: a black rook through its own
#            pawns, or a red move of a black piece)
#   crash    exits with status 3 on go
#   hang     stops answering anything at go (not even stop or isready); must be killed
#   silent   never says anything, not even to ucci/uci
#   slow     sleeps 2 s on go, then answers (loses on any clock shorter than that)
#   nomove   answers go with nobestmove (UCCI) or bestmove (none) (UCI)
#   resign   answers go with bestmove ... resign
#   replay m1 m2 ...  plays the given moves: on `position ... moves` with k moves it
#            answers the (k+1)-th word; a word `m@S` first reports `info depth 1 score S`,
#            a word `m+draw` sends `bestmove m draw`, the word `resign` resigns; past the
#            end it has no move (nobestmove / bestmove (none)).
set -f
mode=${1:-illegal}
[ $# -gt 0 ] && shift
script="$*"
dialect=ucci
ply=0

say() { printf '%s\n' "$1"; }

count_moves() {
    ply=0
    seen=0
    for w in $1; do
        if [ $seen = 1 ]; then ply=$((ply + 1)); fi
        [ "$w" = moves ] && seen=1
    done
}

no_move() {
    if [ $dialect = uci ]; then say "bestmove (none)"; else say "nobestmove"; fi
}

replay() {
    i=0
    for w in $script; do
        if [ $i = "$ply" ]; then
            case $w in
            *@*)
                say "info depth 1 score ${w#*@} pv ${w%@*}"
                w=${w%@*}
                ;;
            esac
            case $w in
            resign) say "bestmove a0a1 resign" ;;
            *+draw) say "bestmove ${w%+draw} draw" ;;
            *) say "bestmove $w" ;;
            esac
            return
        fi
        i=$((i + 1))
    done
    no_move
}

ignore_all() {
    while IFS= read -r _; do :; done
    exit 0
}

[ "$mode" = silent ] && ignore_all

while IFS= read -r line; do
    set -- $line
    case $1 in
    ucci)
        dialect=ucci
        say "id name faulty-$mode"
        say "option usemillisec type check default true"
        say "ucciok"
        ;;
    uci)
        dialect=uci
        say "id name faulty-$mode"
        say "uciok"
        ;;
    isready) say "readyok" ;;
    position) count_moves "$line" ;;
    go)
        case $mode in
        illegal) say "bestmove i9i0" ;;
        crash) exit 3 ;;
        hang) ignore_all ;;
        slow)
            sleep 2
            say "bestmove i9i0"
            ;;
        nomove) no_move ;;
        resign) say "info depth 1 score -900 pv a0a1"; say "bestmove a0a1 resign" ;;
        replay) replay ;;
        *) say "info string unknown mode $mode"; exit 2 ;;
        esac
        ;;
    quit)
        [ $dialect = ucci ] && say "bye"
        exit 0
        ;;
    *) ;;
    esac
done
