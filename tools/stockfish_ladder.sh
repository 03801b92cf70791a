#!/bin/bash
# The Stockfish ladder of issue 48 (point 6): Chimera at 10+0.1 against Debian's stockfish 15.1
# given a fraction of that clock (its base and increment both scaled), one match a rung, from
# the 400 eight-ply openings of tools/openings/chess-8ply.epd with both colours, then the
# fraction at which Chimera scores 50 %, interpolated between the two rungs around it on a log
# scale of the fraction. Every rung resumes from its PGN, so a stopped ladder goes on where it
# stopped when started again with the same arguments.
#
#   tools/stockfish_ladder.sh ENGINE OUT_DIR [GAME_PAIRS (50)] [FRACTIONS ("1/4 1/8 1/16 1/32")]
# STOCKFISH=path (default /usr/games/stockfish); TC=base+inc for Chimera (default 10+0.1).
set -u
engine=$1
out=$2
pairs=${3:-50}
fractions=${4:-"1/4 1/8 1/16 1/32"}
stockfish=${STOCKFISH:-/usr/games/stockfish}
tc=${TC:-10+0.1}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
base=${tc%+*}
inc=${tc#*+}
[ "$inc" = "$tc" ] && inc=0
summary=$out/ladder.txt
: > "$summary"
for f in $fractions; do
    name=${f/\//-}
    sf_tc=$(awk -v b="$base" -v i="$inc" -v f="$f" 'BEGIN {
        split(f, p, "/"); x = p[1] / (p[2] ? p[2] : 1); printf "%.4g+%.4g", b * x, i * x }')
    "$engine" match -engine cmd="$engine" name=chimera tc="$tc" \
        -engine cmd="$stockfish" name="stockfish@$f" tc="$sf_tc" \
        -each timemargin=100 option.Hash=64 option.Threads=1 \
        -games 2 -rounds "$pairs" -repeat -concurrency 2 -maxmoves 300 -ratinginterval 20 \
        -openings file="$here/openings/chess-8ply.epd" order=random -srand 486 \
        -pgnout "$out/rung-$name.pgn" -resume < /dev/null >> "$out/rung-$name.log" 2>&1
    score=$(grep '^Score of ' "$out/rung-$name.log" | tail -1)
    echo "$f $sf_tc $score" | tee -a "$summary"
done
# Chimera's share of the points at each fraction, and where it crosses one half
awk '{
    n = split($0, w, " "); frac = w[1]; split(frac, p, "/"); x = p[1] / (p[2] ? p[2] : 1)
    for (i = 1; i <= n; i++) if (w[i] ~ /^\[/) { s = w[i]; gsub(/[\[\]]/, "", s) }
    xs[NR] = x; ss[NR] = s + 0; printf "fraction %s: Chimera scores %.1f %%\n", frac, 100 * s
}
END {
    for (i = 1; i < NR; i++) {
        a = ss[i] - 0.5; b = ss[i + 1] - 0.5
        if (a * b <= 0 && a != b) {
            t = a / (a - b); lx = log(xs[i]) + t * (log(xs[i + 1]) - log(xs[i]))
            printf "50 %% at about 1/%.1f of Chimera'\''s clock\n", 1 / exp(lx); found = 1
        }
    }
    if (!found) print "no rung pair brackets 50 %: widen the fractions"
}' "$summary"
