#!/usr/bin/env bash
# Instructions and simulated L1 data-cache misses per call of one xtensor function through
# ivy and natively (bench/layer_probe.cpp under callgrind's cache simulation, with this
# machine's L1d and L2 sizes read from lscpu). What the ivy call adds over the native one is
# the layer's own cost: at sizes whose data passes through L1 in one call, every cache line
# the layer touches is gone again by the next call.
# With --tree, also where the ivy call's instructions go: each function it runs, with its
# inclusive instructions per call (those above 1 % of the call).
#   bench/layer_probe.sh [--tree] <function> <elements> [reps]   (build first;
#   build/bench/layer_probe --list: the functions)
set -euo pipefail
tree=0
if [ "${1:-}" = --tree ]; then tree=1; shift; fi
fn=${1:?function}; n=${2:?elements}; reps=${3:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
probe=${LAYER_PROBE:-$here/build/bench/layer_probe}
command -v valgrind >/dev/null || { echo "layer_probe.sh: valgrind is not installed" >&2; exit 2; }
size_of() {  # one cache's bytes: lscpu prints the total, "96 KiB (2 instances)" or "2 MiB"
  lscpu | awk -F: -v k="$1" '$1 ~ k {v=$2; gsub(/^ +/, "", v); split(v, p, " "); m = p[2] ~ /MiB/ ? 1048576 : 1024
    n = 1; if (match(v, /\(([0-9]+) instance/)) { n = substr(v, RSTART + 1) + 0 }
    print int(p[1] * m / n); exit}'
}
l1d=$(size_of "L1d cache"); l2=$(size_of "L2 cache")
l1d=${l1d:-49152}; l2=${l2:-2097152}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --cache-sim=yes --D1="$l1d,12,64" --I1=32768,8,64 --LL="$l2,16,64" \
  --callgrind-out-file="$out" --toggle-collect='*probe_ivy*' --toggle-collect='*probe_native*' \
  "$probe" "$fn" "$n" "$reps" >/dev/null 2>&1
echo "$fn, $n elements, per call (L1d $((l1d / 1024)) KiB, L2 $((l2 / 1024)) KiB simulated):"
callgrind_annotate --inclusive=yes --show=Ir,D1mr,D1mw "$out" 2>/dev/null |
  awk -v reps="$reps" '/probe_(ivy|native)\(/ && !seen[$0 ~ /probe_ivy/]++ {
      gsub(/,/, ""); w = ($0 ~ /probe_ivy/) ? "ivy" : "native"
      ir[w] = $1; mr[w] = $3; mw[w] = $5 }
    END {
      for (w in ir) printf "  %-6s %9.0f instructions %7.1f L1d read misses %7.1f L1d write misses\n", w, ir[w] / reps, mr[w] / reps, mw[w] / reps
      printf "  added  %9.0f instructions %7.1f L1d read misses %7.1f L1d write misses\n", (ir["ivy"] - ir["native"]) / reps, (mr["ivy"] - mr["native"]) / reps, (mw["ivy"] - mw["native"]) / reps }'
if [ "$tree" = 1 ]; then
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*probe_ivy*' "$probe" "$fn" "$n" "$reps" >/dev/null 2>&1
  echo "  where the ivy call's instructions go (inclusive, per call):"
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
    awk -v reps="$reps" '/^ *[0-9,]+ +\([ 0-9.]+%\) +[^ ]/ && !/PROGRAM TOTALS/ {
        c = $1; gsub(/,/, "", c); pct = $2 $3; gsub(/[()%]/, "", pct)
        if (pct + 0 < 1) next
        line = $0; sub(/^ *[0-9,]+ +\([ 0-9.]+%\) +/, "", line); sub(/^[^:]*:/, "", line); sub(/ \[[^]]*\]$/, "", line)
        if (line ~ /^(main|\(below main\)|0x[0-9a-f]+|__libc_start)/ || line ~ /libc_start/) next
        if (length(line) > 150) line = substr(line, 1, 147) "..."
        printf "  %9.0f  %s\n", c / reps, line }'
fi
