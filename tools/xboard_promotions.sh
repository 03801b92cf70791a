#!/bin/sh
# Espionage's promotions in real XBoard (issue 46, point 1): XBoard 4.9 under Xvfb, two
# scripted engines (tools/scripted_xboard_engine.py) playing a line in which each side
# promotes to each man it may choose (q r s b c n, every one on the second-last rank, where
# all of Espionage's promotions happen). Twice: with XBoard's legality testing on (its
# default), which refuses the first promotion (XBoard lets a pawn promote only on the last
# rank, docs/protocols.md), and off, which accepts the whole line; then XBoard's final position
# (-savePositionFile) is compared with Chimera's. Last, Chimera itself as the first engine, to
# keep a screenshot of the popup it shows at `variant espionage`.
# Needs Debian's xboard and xvfb.
#   tools/xboard_promotions.sh ENGINE OUT_DIR
set -u
engine=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
fen='6k/7/PPPPPP1/7/pppppp1/7/6K w - - 0 1'
line='a5a6q a3a2q b5b6r b3b2r c5c6s c3c2s d5d6b d3d2b e5e6c e3e2c f5f6n f3f2n'
echo "$fen" > "$out/start.fen"
# Chimera's position after the line, the FEN's board and side to move
expected=$(printf 'setoption name UCI_Variant value espionage\nposition fen %s moves %s\nd\nquit\n' \
    "$fen" "$line" | "$engine" | sed -n 's/^FEN: \([^ ]* [wb]\).*/\1/p')
scripted="python3 $here/scripted_xboard_engine.py $engine espionage $line"
failures=0

# run NAME XBOARD-ARGS...: one game on a fresh virtual screen, the last frame kept
run() {
    name=$1
    shift
    fb=$(mktemp -d)
    rm -f "$out/$name.pgn" "$out/$name.fen"
    # a fresh HOME: XBoard keeps its settings (legality testing too) in ~/.xboardrc
    HOME=$fb xvfb-run -a -s "-screen 0 1024x768x24 -fbdir $fb" \
        /usr/games/xboard -mg 1 -sgf "$out/$name.pgn" -spf "$out/$name.fen" -tc 0:30 -inc 1 \
        -xponder -xexit -variant espionage -lpf "$out/start.fen" "$@" > "$out/$name.log" 2>&1 &
    pid=$!
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "${XBOARD_WAIT:-60}" ]; do
        [ -f "$fb/Xvfb_screen0" ] && cp "$fb/Xvfb_screen0" "$fb/last.xwd" 2>/dev/null
        sleep 1
        waited=$((waited + 1))
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ -f "$fb/last.xwd" ] && python3 "$here/xwd2png.py" "$fb/last.xwd" "$out/$name.png"
    rm -rf "$fb"
}

# the game's moves and the reason XBoard gave, from its PGN
summary() {
    moves=$(grep -v '^\[' "$out/$1.pgn" 2>/dev/null | tr '\n' ' ' | sed 's/{[^}]*}//g; s/  */ /g')
    reason=$(tr '\n' ' ' < "$out/$1.pgn" 2>/dev/null | grep -o '{[^}]*}' | tail -1)
    printf '| %s | %s | %s |' "$1" "${moves:-none}" "${reason:-none}"
}

echo "| run | moves XBoard recorded | XBoard's reason | check |"
echo "| --- | --- | --- | --- |"
run legality-on -fcp "$scripted" -scp "$scripted" -fn White -sn Black
summary legality-on
# expected: the first promotion forfeited as an illegal move (XBoard saves no game of no move)
if grep -q 'Illegal move "a5a6q"' "$out/legality-on.log"; then
    echo " refused, as expected |"
else
    echo " FAIL: XBoard accepted it |"; failures=$((failures + 1))
fi
run legality-off -fcp "$scripted" -scp "$scripted" -fn White -sn Black -testLegality false
summary legality-off
got=$(cut -d' ' -f1,2 "$out/legality-off.fen" 2>/dev/null)
if [ "$got" = "$expected" ] && ! grep -q 'Forfeit\|[Ii]llegal' "$out/legality-off.pgn"; then
    echo " all twelve accepted; final position $got as Chimera's |"
else
    echo " FAIL: final position '$got', Chimera's '$expected' |"; failures=$((failures + 1))
fi
# Chimera as the first engine: its popup at `variant espionage` (kept as a screenshot)
XBOARD_WAIT=8 run told -fcp "$engine" -scp "$scripted" -fn Chimera -sn Black
echo "screenshots: $out/legality-off.png, $out/told.png"
echo "failures: $failures"
[ "$failures" -eq 0 ]
