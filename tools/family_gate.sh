#!/bin/bash
# Gates a net made for one variant in another of its family (issue 45, point 2: "a family may
# share a net"), as learn gates its own nets: ENGINE with the net against ENGINE as it plays
# VARIANT today, an SPRT [0, 10] over game pairs at 3+0.03 from 200 balanced openings.
# A net's header names the variant it was made for, and a user variants.ini may not redefine
# a built-in section, so the candidate plays OUT/family.nnue: the same weights with VARIANT's
# name in the header (and the header's hash recomputed). If it passes, give VARIANT's section
# in variants.ini `nnueFile = NET's built-in name` and `nnueVariant = the net's variant`.
#   tools/family_gate.sh ENGINE NET VARIANT OUT [MAX_GAMES]
# e.g. tools/family_gate.sh target/release/chimera nets/007.nnue 007-kingcapture /tmp/fg
set -eu
if [ $# -lt 4 ]; then
    echo "usage: tools/family_gate.sh ENGINE NET VARIANT OUT [MAX_GAMES]" >&2
    exit 2
fi
engine=$(realpath "$1")
net=$2
variant=$3
out=$4
max_games=${5:-1500}
mkdir -p "$out"
out=$(realpath "$out")
python3 - "$net" "$variant" "$out/family.nnue" <<'EOF'
import sys
src, variant, dst = sys.argv[1:]
data = open(src, "rb").read()
if data[:8] != b"CHIMNNUE":
    sys.exit(f"family_gate: {src} is not a net (magic {data[:8]!r})")
n = data[12]
name = variant.encode()
body = data[:12] + bytes([len(name)]) + name + data[13 + n:-8]
h = 0xCBF29CE484222325
for b in body:
    h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
open(dst + ".tmp", "wb").write(body + h.to_bytes(8, "little"))
print(f"family_gate: {src} (made for {data[13:13 + n].decode()}) relabelled for {variant}")
EOF
mv "$out/family.nnue.tmp" "$out/family.nnue"
if [ ! -s "$out/book.fen" ]; then
    "$engine" "genfens 200 seed 1 book None variant $variant plies 8 nodes 1000" quit |
        sed -n 's/^info string genfens //p' > "$out/book.fen.tmp"
    mv "$out/book.fen.tmp" "$out/book.fen"
fi
exec "$engine" match -variant "$variant" \
    -engine cmd="$engine" name=family-net option.EvalFile="$out/family.nnue" \
    -engine cmd="$engine" name=current \
    -each tc=3+0.03 timemargin=100 option.Hash=16 \
    -games 2 -rounds $(((max_games + 1) / 2)) -repeat \
    -openings file="$out/book.fen" format=fen order=random -srand 1 \
    -concurrency 2 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -ratinginterval 10 \
    -pgnout "$out/gate.pgn" -resume
