#!/usr/bin/env bash
# Per-call instruction counts (Ir) of the hand-written and the enzyme-rs
# reverse gradient of each benchmark problem: callgrind collecting inside
# time_median only, BENCH_MIN_TIME=0 (one call per batch), the difference
# between BENCH_REPEATS=9 and 3 divided by 6 (warm-up calls cancel).
# Deterministic where wall times on a shared host are not.
#   bench/ir_ratio.sh [BUILD_DIR] [problem:size ...]
# BUILD_DIR defaults to bench/build (bench/build.sh). Without problems:
# every problem at its largest size, gmm/lstm/ba at their middle sizes
# (the largest take minutes under valgrind).
set -euo pipefail
cd "$(dirname "$0")"
B=${1:-build}
shift || true
if [ $# -eq 0 ]; then
  set -- "sumsq:10000000" "dot:10000000" "logsumexp:1000000" "matvec:1000" "ode:100000" \
    "fft:65536" "sort:2000" "stencil:10000000" "gmm:10 25 1000" "lstm:4 1024 14" "ba:64 8000 32000"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
per_call() { # problem tool size...
  local p=$1 t=$2; shift 2
  for R in 3 9; do
    BENCH_MIN_TIME=0 BENCH_REPEATS=$R valgrind --tool=callgrind --toggle-collect='time_median*' \
      --callgrind-out-file="$T/$p.$t.$R" "$B/$p" time "$t" "$@" >/dev/null 2>&1
  done
  python3 - "$T/$p.$t.3" "$T/$p.$t.9" <<'P'
import sys
def tot(f):
    for l in open(f):
        if l.startswith(("summary:", "totals:")):
            return int(l.split()[1])
print((tot(sys.argv[2]) - tot(sys.argv[1])) // 6)
P
}
printf '| problem | size | hand Ir/call | enzyme_rev Ir/call | ratio |\n|---|---|---:|---:|---:|\n'
for ps in "$@"; do
  p=${ps%%:*}
  s=${ps#*:}
  # shellcheck disable=SC2086
  h=$(per_call "$p" hand $s)
  # shellcheck disable=SC2086
  e=$(per_call "$p" enzyme_rev $s)
  python3 -c "print(f'| $p | $s | {$h:,} | {$e:,} | {$e/$h:.3f} |')"
done
