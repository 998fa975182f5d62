#!/bin/bash
# Per-call counts of one gradient tool of a bench program (fft.md):
#   fft_cg.sh BIN TOOL [valgrind options, e.g. --LL=4194304,16,64]
# Callgrind with the cache simulation (CGX=--simulate-wb=yes adds the
# dirty-eviction counts), collecting inside time_median only, at
# BENCH_REPEATS=9 and 3 (BENCH_MIN_TIME=0: one call per batch); prints the
# difference / 6. Output files in $CGOUT (default /tmp).
BIN=$1; TOOL=$2; shift 2
D=${CGOUT:-/tmp}
for R in 3 9; do
  BENCH_MIN_TIME=0 BENCH_REPEATS=$R nice valgrind --tool=callgrind --cache-sim=yes $CGX \
    --toggle-collect='time_median*' --callgrind-out-file="$D/cg.$TOOL.$R.out" "$@" \
    "$BIN" time "$TOOL" 65536 >"$D/cg.$TOOL.$R.log" 2>&1
done
grep -h "^events" "$D/cg.$TOOL.3.out"
python3 - "$D" "$TOOL" <<'P'
import sys
d, t = sys.argv[1], sys.argv[2]
def tot(r):
    for l in open(f"{d}/cg.{t}.{r}.out"):
        if l.startswith(("summary:", "totals:")):
            return [int(x) for x in l.split()[1:]]
a, b = tot(3), tot(9)
print(t, " ".join(f"{(y - x) / 6:,.0f}" for x, y in zip(a, b)))
P
