#!/bin/sh
# fastchess (the match runner OpenBench and fishtest use) against our engine (issue 27):
# Chimera against Debian's fairy-stockfish 11.1 in chess, colours reversed over an opening
# book, with a count of the games that did not end by the rules. fastchess is built from
# source outside the repository (`make` in a checkout of Disservin/fastchess; g++ only); give
# the binary's path. fastchess's own state (config.json) goes to OUT_DIR too.
#   tools/fastchess_games.sh FASTCHESS ENGINE OUT_DIR [GAME_PAIRS] [TC] [CONCURRENCY]
set -u
fc=$1
engine=$2
out=$3
pairs=${4:-10}
tc=${5:-10+0.1}
conc=${6:-1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$fc" -engine cmd="$engine" name=chimera -engine cmd=/usr/games/fairy-stockfish name=fairy-stockfish \
    -each tc="$tc" proto=uci -rounds "$pairs" -games 2 -repeat -concurrency "$conc" \
    -openings file="$here/openings/chess-8ply.epd" format=epd order=sequential \
    -pgnout file="$out/fastchess-fsf.pgn" -config outname="$out/fastchess-config.json" \
    > "$out/fastchess-fsf.log" 2>&1
grep -A4 "^Results of" "$out/fastchess-fsf.log" | tail -4
echo "how the games ended:"
grep "^Finished game" "$out/fastchess-fsf.log" | sed 's/.*{//; s/}$//' | sort | uniq -c
echo "faults (illegal move, time loss, disconnect, stall):"
grep -ciE "illegal|loses on time|disconnect|stall|crash" "$out/fastchess-fsf.log"
