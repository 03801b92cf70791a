#!/bin/sh
# cutechess-cli against our engine (issue 17): Chimera against fairymax and against Debian's
# fairy-stockfish in chess (the only variant cutechess-cli 1.4 and Chimera both play by the
# same rules: cutechess's variants and ours share no other name and rules), colours
# alternated over an opening book. cutechess-cli is built from source (tag v1.4.0, Qt 5.15,
# see docs/protocols.md); give its path.
#   tools/cutechess_games.sh CUTECHESS_CLI ENGINE OUT_DIR [GAME_PAIRS] [TC]
set -u
cli=$1
engine=$2
out=$3
pairs=${4:-10}
tc=${5:-10+0.1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for opp in fairymax fairy-stockfish; do
    case $opp in
    fairymax) other="cmd=/usr/games/fairymax proto=xboard name=fairymax" ;;
    *) other="cmd=/usr/games/fairy-stockfish proto=uci name=fairy-stockfish" ;;
    esac
    # shellcheck disable=SC2086
    "$cli" -engine cmd="$engine" proto=uci name=chimera -engine $other \
        -each tc="$tc" -games 2 -rounds "$pairs" -repeat -recover \
        -openings file="$here/openings/chess-8ply.pgn" format=pgn order=sequential \
        -pgnout "$out/cutechess-$opp.pgn" > "$out/cutechess-$opp.log" 2>&1
    grep -E "^Score of|^Elo difference" "$out/cutechess-$opp.log" | tail -2
done
