#!/usr/bin/env bash
# bench/resource_limits.sh -- the resource-limit inputs of issue 18 (item 5)
# from bench/gen_shapes.py, each compiled with the plugin at -O0 and -O2
# and run (the program checks its gradient against finite differences).
# Prints CPU seconds and peak memory of each compile. Shapes (kind and size)
# default to: a loop nest of depth 8, 1,000 differentiation calls in one
# module, and a dependent chain of 5,000 operations.
#   bench/resource_limits.sh ["kind N" ...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=${ENZYME_RS_PLUGIN:-$ROOT/target/release/libenzyme_rs.so}
[ -f "$PLUGIN" ] || (cd "$ROOT" && cargo build --release --quiet)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- "nest 8" "calls 1000" "chain 5000"
rc=0
printf "%-12s %5s %9s %9s  %s\n" shape level cpu_s peak_MB run
for spec in "$@"; do
  read -r kind n <<<"$spec"
  python3 "$ROOT/bench/gen_shapes.py" "$kind" "$n" "$T/$kind.c"
  for O in O0 O2; do
    /usr/bin/time -f "%U %S %M" -o "$T/time" clang-16 -"$O" -w -fpass-plugin="$PLUGIN" "$T/$kind.c" -o "$T/$kind" -lm
    read -r u s m <"$T/time"
    if out=$("$T/$kind" 2>&1); then res=ok; else res="FAIL: $(echo "$out" | head -1)"; rc=1; fi
    printf "%-12s %5s %9.2f %9.0f  %s\n" "$kind $n" "-$O" "$(python3 -c "print($u + $s)")" "$((m / 1024))" "$res"
  done
done
exit $rc
