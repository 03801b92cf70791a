#!/usr/bin/env bash
# Search speed of each variant from its start position: nodes per second of a fixed-time
# search (one thread), and the ratio to orthodox chess measured by the same binary.
#
#   tools/search_speed.sh [-t MILLISECONDS] BINARY [VARIANT ...]
set -euo pipefail
ms=3000
if [ "${1:-}" = "-t" ]; then ms=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-t MS] BINARY [VARIANT ...]" >&2; exit 2; }
bin=$1; shift
variants=${*:-"bump displacement launch carom cascade castlemania catalyst redeployment trailer triangulation"}
nps_of() { # variant
  { echo uci; echo "setoption name UCI_Variant value $1"; echo "position startpos";
    echo "go movetime $ms"; sleep $(( ms / 1000 + 2 )); echo quit; } | "$bin" |
    awk '/^info depth/ { for (i = 1; i < NF; i++) if ($i == "nps") n = $(i + 1) } END { print n + 0 }'
}
chess=$(nps_of chess)
printf '%-14s %12s %8s\n' variant nps "x chess"
printf '%-14s %12s %8s\n' chess "$chess" 1.000
for v in $variants; do
  n=$(nps_of "$v")
  awk -v v="$v" -v n="$n" -v c="$chess" 'BEGIN { printf "%-14s %12d %8.3f\n", v, n, n / c }'
done
