#!/bin/sh
# The strength measurements of docs/strength.md, each a `chimera match` at 10+0.1 with openings
# played with both colours. Usage:
#   tools/strength.sh fsf|fairymax|base|fsf-variant ENGINE [GAME_PAIRS] [CONCURRENCY] [OUT_DIR]
# ENGINE is the Chimera binary to measure; `base` needs BASE=path/to/pre-issue-15-binary.
# RESUME=1 continues an interrupted run: the games already in OUT_DIR's PGN are kept and only
# the missing ones are played.
set -e
what=$1
engine=$2
pairs=${3:-50}
conc=${4:-2}
out=${5:-.}
here=$(cd "$(dirname "$0")" && pwd)
book=$here/openings/chess-8ply
common="-games 2 -rounds $pairs -repeat -concurrency $conc -maxmoves 300 -ratinginterval 10 ${RESUME:+-resume}"
case $what in
fsf)
    exec "$engine" match -engine cmd="$engine" name=chimera \
        -engine cmd=/usr/games/fairy-stockfish name=fairy-stockfish \
        -each tc=10+0.1 timemargin=100 $common -openings file=$book.epd \
        -pgnout "$out/fsf.pgn" ;;
fairymax)
    exec "$engine" match -engine cmd="$engine" name=chimera \
        -engine cmd=/usr/games/fairymax name=fairymax proto=xboard \
        -each tc=10+0.1 timemargin=100 $common -openings file=$book.pgn \
        -pgnout "$out/fairymax.pgn" ;;
base)
    exec "$engine" match -engine cmd="$engine" name=chimera \
        -engine cmd="${BASE:?set BASE to the pre-issue-15 binary}" name=pre-issue-15 \
        -each tc=10+0.1 timemargin=100 $common -openings file=$book.epd \
        -pgnout "$out/base.pgn" ;;
fsf-variant)
    # missingfile, the same rules in both engines: Fairy-Stockfish reads
    # tests/fairy-stockfish/variants.ini. Debian's 11.1 plays other rules there (docs/strength.md),
    # so FSF= names a Fairy-Stockfish built from current source.
    exec "$engine" match -variant missingfile \
        -engine cmd="$engine" name=chimera \
        -engine cmd="${FSF:?set FSF to a Fairy-Stockfish built from source}" name=fairy-stockfish \
          option.VariantPath="$here/../tests/fairy-stockfish/variants.ini" \
        -each tc=10+0.1 timemargin=100 $common -openings file=$here/openings/missingfile-6ply.fen \
        -pgnout "$out/fsf-missingfile.pgn" ;;
*)
    echo "usage: $0 fsf|fairymax|base|fsf-variant ENGINE [GAME_PAIRS] [CONCURRENCY] [OUT_DIR]" >&2
    exit 1 ;;
esac
