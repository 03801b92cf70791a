#!/bin/sh
# The soak of issue 17: 1,000 games at 1+0.01 over chess and six variants, the engine against
# itself and against fairymax in chess, then a count of how every game ended. A fault is any
# game not ended by the rules or by -maxmoves: a crash (abandoned), an illegal move, a time
# forfeit, a stalled connection. A run stopped part-way continues where it stopped
# (`-resume`: the games already in OUT_DIR's PGN files are kept).
#   tools/soak.sh ENGINE OUT_DIR [CONCURRENCY]
engine=$1
out=$2
conc=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
run() { # NAME VARIANT GAMES OPPONENT-ARGS...
    name=$1 variant=$2 games=$3
    shift 3
    book=""
    [ -f "$here/openings/$variant-6ply.fen" ] && book="-openings file=$here/openings/$variant-6ply.fen"
    [ "$variant" = chess ] && book="-openings file=$here/openings/chess-8ply.epd"
    # fairymax cannot set up positions: openings as moves
    [ "$name" = chess-fairymax ] && book="-openings file=$here/openings/chess-8ply.pgn"
    "$engine" match -variant "$variant" -engine cmd="$engine" name=chimera "$@" \
        -each tc=1+0.01 -games 2 -rounds $((games / 2)) -repeat -concurrency "$conc" \
        -maxmoves 150 $book -pgnout "$out/$name.pgn" -resume >> "$out/$name.log" 2>&1 ||
        echo "$name: the match stopped with an error (see $out/$name.log)"
}
self="-engine cmd=$engine name=chimera2"
run chess-self chess 150 $self
run chess-fairymax chess 150 -engine cmd=/usr/games/fairymax name=fairymax proto=xboard
for v in espionage 007detente progressive007 bracket eviction garrison; do
    run "$v" "$v" 118 $self
done
echo "games and how they ended:"
cat "$out"/*.pgn | grep -o 'Termination "[^"]*"' | sort | uniq -c
echo "games: $(cat "$out"/*.pgn | grep -c '^\[Result ')"
