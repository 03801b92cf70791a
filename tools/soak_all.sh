#!/bin/bash
# The soak of issue 46 (point 3): the engine as it plays now (its nets, staged generation)
# against itself in every built-in variant at 1+0.01 through `chimera match -concurrency 2`,
# then tournaments (a round robin, a knockout, Foreign Policy trios), each stopped in the
# middle and resumed. A fault is a game not ended by the rules or by -maxmoves: a crash
# (abandoned), an illegal move, a time forfeit, a stall. A run stopped part-way continues
# where it stopped (every match runs with -resume). Afterwards replay the games through the
# independent models:
#   CHIMERA_SOAK_DIR=OUT_DIR/games cargo test --release --test suite soak_games -- --ignored
#
#   tools/soak_all.sh ENGINE OUT_DIR [GAMES_PER_VARIANT (98)] [TOURNAMENT_SCALE (1)]
# SOAK_VARIANTS="a b" limits the variants; TOURNAMENT_SCALE 0 skips the tournaments.
set -u
engine=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
games=${3:-98}
scale=${4:-1}
mkdir -p "$out/games" "$out/books" "$out/tournaments"
out=$(cd "$out" && pwd)
tc=1+0.01

# a book of balanced openings of the variant, six random plies from the start
book() {
    local v=$1 file="$out/books/$1.fen"
    [ -s "$file" ] || "$engine" "genfens $((games / 2 + 1)) seed 46 book None variant $v plies 6" quit |
        sed -n 's/^info string genfens //p' > "$file"
    echo "$file"
}

# the engine against itself in one variant
soak() {
    local v=$1 n=$2 b
    if [ "$v" = foreignpolicy ]; then
        # a trio plays six seatings a round
        "$engine" match -variant "$v" -engine cmd="$engine" name=a -engine cmd="$engine" name=b \
            -engine cmd="$engine" name=c -each tc=$tc -games 6 -rounds $(((n + 5) / 6)) \
            -concurrency 2 -pgnout "$out/games/$v.pgn" -resume >> "$out/games/$v.log" 2>&1
        return
    fi
    b=$(book "$v")
    "$engine" match -variant "$v" -engine cmd="$engine" name=chimera -engine cmd="$engine" \
        name=chimera2 -each tc=$tc -games 2 -rounds $((n / 2)) -repeat -concurrency 2 \
        -maxmoves 150 -openings file="$b" order=sequential -pgnout "$out/games/$v.pgn" -resume \
        >> "$out/games/$v.log" 2>&1 || echo "$v: the match stopped with an error (see $out/games/$v.log)"
}

# a tournament, killed once about half its games are in, then resumed to the end
stopped_and_resumed() {
    local name=$1 total=$2
    shift 2
    local pgn="$out/tournaments/$name.pgn"
    if ! [ -f "$out/tournaments/$name.resumed" ]; then
        "$engine" match "$@" -concurrency 2 -pgnout "$pgn" -resume >> "$out/tournaments/$name.log" 2>&1 &
        local pid=$!
        while kill -0 $pid 2>/dev/null; do
            if [ "$(grep -c '^\[Result ' "$pgn" 2>/dev/null || echo 0)" -ge $((total / 2)) ]; then
                kill -INT $pid
                break
            fi
            sleep 2
        done
        wait $pid
        echo "$name: stopped after $(grep -c '^\[Result ' "$pgn") games" >> "$out/tournaments/$name.log"
        touch "$out/tournaments/$name.resumed"
    fi
    "$engine" match "$@" -concurrency 2 -pgnout "$pgn" -resume >> "$out/tournaments/$name.log" 2>&1 ||
        echo "$name: the tournament stopped with an error (see $out/tournaments/$name.log)"
}

variants=${SOAK_VARIANTS:-$("$engine" variants | awk 'NR > 1 && $1 != "" {print $1}')}
for v in $variants; do
    soak "$v" "$games"
done

# tournaments: four engines of one binary with different settings
field=(-engine cmd="$engine" name=net -engine cmd="$engine" name=rules option.EvalFile="<none>"
    -engine cmd="$engine" name=hash1 option.Hash=1 -engine cmd="$engine" name=twothreads option.Threads=2)
[ "$scale" -gt 0 ] && stopped_and_resumed round-robin $((102 * scale)) -variant chess -tournament round-robin \
    "${field[@]:0:6}" -each tc=$tc -games 2 -rounds $((17 * scale)) -repeat \
    -openings file="$(book chess)" order=sequential -maxmoves 150
[ "$scale" -gt 0 ] && stopped_and_resumed knockout $((60 * scale)) -variant espionage -tournament knockout \
    "${field[@]}" -each tc=$tc -games $((20 * scale)) -repeat \
    -openings file="$(book espionage)" order=sequential -maxmoves 150
[ "$scale" -gt 0 ] && stopped_and_resumed trios $((144 * scale)) -variant foreignpolicy "${field[@]}" -each tc=$tc \
    -games 6 -rounds $((6 * scale))

# how every game ended, by variant
echo "| variant | games | how they ended |"
echo "| --- | --- | --- |"
for f in "$out"/games/*.pgn "$out"/tournaments/*.pgn; do
    [ -f "$f" ] || continue
    n=$(grep -c '^\[Result ' "$f")
    how=$(grep -o 'Termination "[^"]*"' "$f" | cut -d'"' -f2 | sort | uniq -c | sort -rn |
        awk '{c=$1; $1=""; printf "%s%d%s", (NR>1?"; ":""), c, $0}')
    echo "| $(basename "$f" .pgn) | $n | $how |"
done
echo "games: $(cat "$out"/games/*.pgn "$out"/tournaments/*.pgn 2>/dev/null | grep -c '^\[Result ')"
