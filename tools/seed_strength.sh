#!/bin/bash
# Issue 45, point 3: the six seed games whose rules Fairy-Stockfish can play (interior,
# periphery, haven, palace, missingfile; jadoube against the older engine only: Fairy-Stockfish
# cannot bar a slider's adjacent captures, docs/variants/data-driven.md), each at 10+0.1 from
# balanced openings with both colours:
#   ENGINE against BASE (the engine of c0a0ab0, before the variants' nets)
#   ENGINE against FSF (Fairy-Stockfish built from current source, reading
#   tests/fairy-stockfish/variants.ini)
# Every match runs with -resume: run the same command again to go on. Afterwards it prints each
# match's score and how its games ended; an illegal-move forfeit by either engine is a
# difference between the two rules files, not a result (fix the file and play again).
#
#   tools/seed_strength.sh ENGINE BASE FSF OUT_DIR [GAME_PAIRS (50)] [VARIANTS]
#
# CONCURRENCY=1 plays one game at a time: a clean 10+0.1 on one core while a learn round,
# niced, has the other (the default, 2, wants both cores idle). OPPONENTS=base (or fsf) plays
# only those matches (default "base fsf").
set -u
here=$(cd "$(dirname "$0")" && pwd)
engine=$1
base=$2
fsf=$3
out=$4
pairs=${5:-50}
concurrency=${CONCURRENCY:-2}
opponents=${OPPONENTS:-base fsf}
variants=${6:-"interior periphery haven palace missingfile jadoube"}
mkdir -p "$out"
fsf_ini=$here/../tests/fairy-stockfish/variants.ini

play() { # NAME VARIANT OPPONENT-ARGS...
    local name=$1 v=$2 book=$out/$2.fen
    shift 2
    # Palace: Fairy-Stockfish lets the king castle kingside out of its palace (its king's
    # region does not bind castling), which our rules forbid (docs/variants/data-driven.md), so
    # the book takes the kingside rights away (they can never be used in our rules: nothing
    # changes for Chimera) and both engines play the same game
    local rights='{ print }'
    [ "$v" = palace ] && rights='{ gsub(/[Kk]/, "", $3); if ($3 == "") $3 = "-"; print }'
    [ -s "$book" ] || "$engine" "genfens $pairs seed 45 book None variant $v plies 6" quit |
        sed -n 's/^info string genfens //p' | awk "$rights" > "$book"
    "$engine" match -variant "$v" -engine cmd="$engine" name=chimera "$@" \
        -each tc=10+0.1 timemargin=100 option.Hash=64 -games 2 -rounds "$pairs" -repeat \
        -concurrency "$concurrency" -openings file="$book" order=sequential -maxmoves 300 -ratinginterval 20 \
        -pgnout "$out/$name.pgn" -resume > "$out/$name.log" 2>&1 ||
        echo "$name: the match stopped with an error (see $out/$name.log)"
}

for v in $variants; do
    if [[ " $opponents " == *" base "* ]]; then
        play "$v-base" "$v" -engine cmd="$base" name=c0a0ab0
    fi
    if [ "$v" != jadoube ] && [[ " $opponents " == *" fsf "* ]]; then
        play "$v-fsf" "$v" -engine cmd="$fsf" name=fairy-stockfish option.VariantPath="$fsf_ini"
    fi
done

echo "| match | games | score (chimera first) | how they ended |"
echo "| --- | --- | --- | --- |"
for f in "$out"/*.pgn; do
    name=$(basename "$f" .pgn)
    n=$(grep -c '^\[Result ' "$f")
    score=$(grep -h '^Score of\|Elo' "$out/$name.log" | tail -2 | tr '\n' ' ')
    how=$(grep -o 'Termination "[^"]*"' "$f" | cut -d'"' -f2 | sort | uniq -c | sort -rn |
        awk '{c=$1; $1=""; printf "%s%d%s", (NR>1?"; ":""), c, $0}')
    echo "| $name | $n | $score | $how |"
done
