#!/bin/bash
# Carries a `chimera learn` round that is at its gate from one machine to the next through the
# repository. A new machine starts without the folder beside the checkout, and a 007 form's
# round (an hour of data, training, then a gate of up to 1,500 games) outlasts a session.
# `save` copies what the gate needs (the manifest, the opening book, the round's nets and the
# gate's games so far, each cut to the tags the resume reads) into nets/wip/V; the data stays
# behind (the manifest's commands rebuild it; the carried report.md still counts it).
# `restore` puts it back into WORK_ROOT/V, where `chimera learn` (or tools/learn_queue.sh)
# resumes the gate from the games already played. build.rs embeds only the nets directly in
# nets/, so nothing in nets/wip/ is built in. Delete nets/wip/V once its round is installed.
#   tools/learn_carry.sh save|restore WORK_ROOT VARIANT...
set -u
here=$(cd "$(dirname "$0")" && pwd)
wip=$here/../nets/wip
[ $# -ge 3 ] || { echo "usage: $0 save|restore WORK_ROOT VARIANT..." >&2; exit 2; }
action=$1
root=$2
shift 2
status=0
for v in "$@"; do
    from=$root/$v
    case $action in
    save)
        stage=$(sed -n 's/^stage = //p' "$from/learn.manifest" 2>/dev/null)
        if [ "$stage" != gate ]; then
            echo "$v: $from/learn.manifest is at stage '${stage:-none}', not 'gate': nothing to carry (only a gate resumes without its data)" >&2
            status=1
            continue
        fi
        rm -rf "${wip:?}/$v"
        mkdir -p "$wip/$v/nets" "$wip/$v/gates"
        cp "$from/learn.manifest" "$from/book.fen" "$wip/$v/"
        [ -f "$from/report.md" ] && cp "$from/report.md" "$wip/$v/"
        cp "$from"/nets/*.nnue "$wip/$v/nets/"
        # the gate resumes from each game's White, Black, Round and Result alone, so the
        # carried games are their tags (about 80 bytes a game, not 2,000)
        for pgn in "$from"/gates/*.pgn; do
            [ -f "$pgn" ] || continue
            awk '/^\[(Round|White|Black|Result) "/ { print }
                 /^\[Result "/ { r = $2; gsub(/["\]]/, "", r); print ""; print r; print "" }' \
                "$pgn" > "$wip/$v/gates/$(basename "$pgn")"
        done
        echo "$v: saved to nets/wip/$v ($(grep -c '^\[Result ' "$wip/$v"/gates/*.pgn 2>/dev/null | awk -F: '{s+=$NF} END {print s+0}') gate games)"
        ;;
    restore)
        if [ ! -f "$wip/$v/learn.manifest" ]; then
            echo "$v: nets/wip/$v holds no carried round" >&2
            status=1
            continue
        fi
        if [ -f "$from/learn.manifest" ]; then
            echo "$v: $from already has a work folder; left as it is" >&2
            status=1
            continue
        fi
        mkdir -p "$from/data"
        cp -r "$wip/$v"/. "$from/"
        echo "$v: restored to $from"
        ;;
    *)
        echo "$0: unknown action '$action' (save or restore)" >&2
        exit 2
        ;;
    esac
done
exit $status
