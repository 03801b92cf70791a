#!/bin/bash
# Refits each variant's wdlModel to 100 self-play games with the evaluation it plays with
# (docs/analysis.md, "Fitting a variant's model"): ENGINE must be a build with the variant's
# net built in. Writes OUT/V.bin and OUT/V.fit; the last line of V.fit is the wdlModel line
# (set it with tools/install_net.py --wdl V A B).
#   tools/refit_wdl.sh ENGINE OUT V...
set -u
engine=$1
out=$2
shift 2
mkdir -p "$out"
for v in "$@"; do
    "$engine" datagen --variant "$v" --games 100 --nodes 5000 --threads 1 --seed 77 \
        --balance 1000 --out "$out/$v.bin" > "$out/$v.log" 2>&1 &&
        "$engine" fitwdl --variant "$v" --data "$out/$v.bin" > "$out/$v.fit" 2>&1
    echo "$v: $(tail -1 "$out/$v.fit")"
done
