#!/bin/bash
# Readies a new two-core machine for the long runs of docs/status.md ("Next"): Debian's peers
# and clients, python's chess and scipy, a release build copied to ROOT/bin/chimera-main, the
# engine of c0a0ab0 (issue 45's baseline) and Fairy-Stockfish from current source in PEERS,
# and the learn rounds carried in nets/wip put back under ROOT/learn (tools/learn_carry.sh).
# Each step is skipped when its result is already there, so it can be run again.
#   tools/machine_setup.sh [ROOT (/work/nnue)] [PEERS (/work/peers)] [FSF_SOURCE]
# FSF_SOURCE is a clone of Fairy-Stockfish (default: the mirror that `fetch
# github:fairy-stockfish/Fairy-Stockfish` leaves in /work/.mirror).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/work/nnue}
peers=${2:-/work/peers}
fsf_source=${3:-/work/.mirror/fairy-stockfish+Fairy-Stockfish/repo}
mkdir -p "$root/bin" "$root/learn" "$peers"

step() { echo "machine_setup: $*"; }

if [ ! -x /usr/games/fairy-stockfish ] || [ ! -x /usr/games/xboard ]; then
    step "Debian packages"
    apt-get install -y fairy-stockfish stockfish xboard xvfb polyglot fairymax > "$root/apt.log" 2>&1 ||
        step "apt-get failed (see $root/apt.log)"
fi
python3 -c "import chess, scipy" 2>/dev/null || {
    step "python packages"
    pip install chess scipy > "$root/pip.log" 2>&1 || step "pip failed (see $root/pip.log)"
}

step "release build"
(cd "$here" && cargo build --release 2>&1 | tail -1)
cp "$here/target/release/chimera" "$root/bin/chimera-main.new" &&
    mv "$root/bin/chimera-main.new" "$root/bin/chimera-main"

if [ ! -x "$peers/chimera-c0a0ab0" ]; then
    step "the engine of c0a0ab0"
    (cd "$here" && git worktree add -f "$peers/c0a0ab0" c0a0ab0 > /dev/null 2>&1) &&
        (cd "$peers/c0a0ab0" && CARGO_TARGET_DIR="$peers/c0a0ab0-target" cargo build --release 2>&1 | tail -1) &&
        cp "$peers/c0a0ab0-target/release/chimera" "$peers/chimera-c0a0ab0"
    (cd "$here" && git worktree remove --force "$peers/c0a0ab0" 2> /dev/null; git worktree prune)
fi

if [ ! -x "$peers/fsf/src/stockfish" ]; then
    if [ -d "$fsf_source" ]; then
        step "Fairy-Stockfish from $fsf_source"
        [ -d "$peers/fsf" ] || git clone -q "$fsf_source" "$peers/fsf"
        (cd "$peers/fsf/src" && make -j2 build ARCH=x86-64-bmi2 largeboards=yes > "$root/fsf-build.log" 2>&1) ||
            step "Fairy-Stockfish did not build (see $root/fsf-build.log)"
    else
        step "no Fairy-Stockfish source at $fsf_source (fetch github:fairy-stockfish/Fairy-Stockfish first)"
    fi
fi

carried=$(cd "$here/nets/wip" 2> /dev/null && ls)
if [ -n "$carried" ]; then
    step "restoring carried learn rounds: $carried"
    # shellcheck disable=SC2086
    "$here/tools/learn_carry.sh" restore "$root/learn" $carried
fi

for tool in "$root/bin/chimera-main" "$peers/chimera-c0a0ab0" "$peers/fsf/src/stockfish" \
    /usr/games/fairy-stockfish /usr/games/stockfish /usr/games/xboard /usr/games/polyglot; do
    [ -x "$tool" ] && echo "ready: $tool" || echo "MISSING: $tool"
done
