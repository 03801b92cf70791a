#!/usr/bin/env bash
# Perft speed of each variant with one or more chimera binaries, run pair by pair in one
# session: best of N runs of `chimera perft --variant V D`, nodes per second, and each
# variant's ratio to orthodox chess measured by the same binary.
#
#   tools/perft_speed.sh [-n RUNS] BINARY [BINARY ...]
#
# The variants and depths are chosen so that each run lasts about 0.1-1 s (the relocation
# and continuation variants of issues 11 and 12: at least 1 s). Chess is measured at depth 6.
set -euo pipefail
runs=3
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-n RUNS] BINARY [BINARY ...]" >&2; exit 2; }
cases="chess:6 007:6 007detente:6 balanced007detente:6 progressive007:6 espionage:5
kaleidoscope:5 hippophobic:5 torpedo-paletta:5 nonlinear:5 garrison:5 bracket:5 eviction:3
palace:5 haven:5 missingfile:5
bump:5 displacement:5 launch:5 carom:5 cascade:4 castlemania:6 catalyst:6 redeployment:5
trailer:5 triangulation:6
dominion:5 summit:5 crater:5 ridge:5 valley:5 explorer:5 wonderland:5 emissary:5"
best_nps() { # binary variant depth
  local best=0 nps
  for _ in $(seq "$runs"); do
    nps=$("$1" perft --variant "$2" "$3" | awk '/^NPS:/ {print $2}')
    [ "$nps" -gt "$best" ] && best=$nps
  done
  echo "$best"
}
printf '%-20s %5s' variant depth
for b in "$@"; do printf ' | %14s %7s' "$(basename "$b") M/s" "x chess"; done
echo
declare -A chess
for b in "$@"; do chess[$b]=$(best_nps "$b" chess 6); done
for c in $cases; do
  v=${c%%:*}; d=${c##*:}
  printf '%-20s %5s' "$v" "$d"
  for b in "$@"; do
    n=$(best_nps "$b" "$v" "$d")
    awk -v n="$n" -v c="${chess[$b]}" 'BEGIN {printf " | %14.1f %7.3f", n/1e6, n/c}'
  done
  echo
done
