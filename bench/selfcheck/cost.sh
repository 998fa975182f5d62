#!/usr/bin/env bash
# bench/selfcheck/cost.sh -- what self-check mode (-enzyme-check) costs:
# compile time of the selfcheck test programs, and run time of a gradient
# over N doubles called CALLS times (the first two calls are checked),
# with and without the check. Usage: cost.sh [N] [CALLS]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/llvm-env.sh 2>/dev/null || true
CLANG=${CLANG:-${ENZYME_RS_CC:-clang-16}}
P=${ENZYME_RS_PLUGIN:-$PWD/target/release/libenzyme_rs.so}
N=${1:-100000}
CALLS=${2:-100}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CHK="-fplugin=$P -mllvm -enzyme-check"
echo "== compile time (-O2), without / with -enzyme-check"
for f in tests/programs/selfcheck/buffers.c tests/programs/selfcheck/scalars.c bench/selfcheck/cost.c; do
  a=$( { /usr/bin/time -f %e $CLANG -O2 -Iinclude -Itests/programs -fpass-plugin="$P" "$f" -lm -o "$T/a" 2>&1 >/dev/null; } | tail -1)
  b=$( { /usr/bin/time -f %e $CLANG -O2 -Iinclude -Itests/programs -fpass-plugin="$P" $CHK "$f" -lm -o "$T/b" 2>&1 >/dev/null; } | tail -1)
  echo "$f: ${a}s / ${b}s"
done
echo "== run time (-O2), N=$N, CALLS=$CALLS"
$CLANG -O2 -Iinclude -fpass-plugin="$P" bench/selfcheck/cost.c -lm -o "$T/plain"
$CLANG -O2 -Iinclude -fpass-plugin="$P" $CHK bench/selfcheck/cost.c -lm -o "$T/checked"
echo -n "without: "; "$T/plain" "$N" "$CALLS"
echo -n "with:    "; "$T/checked" "$N" "$CALLS"
