#!/bin/bash
# A queue of SPRTs for the search (issue 48, point 3), one after another, each resumable: a test
# whose log already has a verdict (H0 or H1 accepted) or reached its cap is skipped, one stopped
# part-way goes on from its PGN (`-resume`). Start it again at each session's start.
#
#   tools/sprt_queue.sh QUEUE_FILE OUT_DIR
#
# QUEUE_FILE has a test a line (blank lines and '#' lines skipped), fields split by '|':
#   NAME | NEW engine words | BASE engine words | TC | ELO1 | MAX_GAMES
# e.g. (a branch's binary against main; an option against the defaults of one binary):
#   corrmat | cmd=/work/nnue/bin/chimera-corrmat | cmd=/work/nnue/bin/chimera-main | 3+0.03 | 5 | 4000
#   hard3 | cmd=/work/nnue/bin/chimera-main option.TimeHardFactor=3 | cmd=/work/nnue/bin/chimera-main | 10+0.1 | 5 | 2000
# Each test: chess, both colours of tools/openings/chess-8ply.epd in random order, elo0 0,
# alpha = beta = 0.05, concurrency 2, Hash 16; OUT_DIR/NAME.pgn and NAME.log.
set -u
# the engines offer their tunable constants, so a line may set one (option.TimeHardFactor=3)
export CHIMERA_TUNE=1
queue=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
book=$here/openings/chess-8ply.epd
trim() { sed 's/^ *//; s/ *$//' <<< "$1"; }
while IFS='|' read -r name new base tc elo1 max; do
    name=$(trim "$name")
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    log=$out/$name.log
    if [ -f "$log" ] && grep -q "was accepted" "$log"; then
        echo "$name: decided ($(grep -o 'H[01] was accepted' "$log" | tail -1))"
        continue
    fi
    games=$(trim "$max")
    # shellcheck disable=SC2086
    "$here/../target/release/chimera" match \
        -engine $(trim "$new") name="$name" \
        -engine $(trim "$base") name=base \
        -each tc="$(trim "$tc")" timemargin=200 option.Hash=16 \
        -games 2 -rounds $((games / 2)) -repeat -concurrency 2 \
        -openings file="$book" order=random -srand 48 \
        -sprt elo0=0 elo1="$(trim "$elo1")" alpha=0.05 beta=0.05 \
        -ratinginterval 20 -pgnout "$out/$name.pgn" -resume < /dev/null >> "$log" 2>&1
    echo "$name: $(grep 'llr' "$log" | tail -1)"
done < "$queue"
