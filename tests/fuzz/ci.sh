#!/usr/bin/env bash
# tests/fuzz/ci.sh FIRST LAST -- the random C program generators in CI:
# every kind (loops calls memory scalars vector) for seeds FIRST..LAST, plus
# the seeds in tests/fuzz/regressions.txt, each at -O0..-O3, JOBS at a time.
# Each program checks reverse mode against central finite differences and
# against forward mode. Prints the failing seeds; exits 1 if any.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FIRST=$1; LAST=$2
J=${JOBS:-$(nproc)}
OUT=${OUT:-$(mktemp -d /tmp/enzyme-rs-fuzz.XXXXXX)}
mkdir -p "$OUT"
export OUT
{
  for k in loops calls memory scalars vector; do
    for s in $(seq "$FIRST" "$LAST"); do echo "$k $s"; done
  done
  sed -e 's/#.*//' "$ROOT/tests/fuzz/regressions.txt" | awk 'NF == 2'
} | sort -u | xargs -P "$J" -L 1 sh -c 'bash "$0/tests/fuzz/run.sh" "$1" "$2" "$2"' "$ROOT" >"$OUT/failures.txt"
n=$( (for k in loops calls memory scalars vector; do seq "$FIRST" "$LAST"; done; sed -e 's/#.*//' "$ROOT/tests/fuzz/regressions.txt" | awk 'NF == 2') | wc -l)
if [ -s "$OUT/failures.txt" ]; then
  cat "$OUT/failures.txt"
  echo "random programs: $(wc -l <"$OUT/failures.txt") failing runs (programs kept in $OUT)"
  exit 1
fi
echo "random programs: about $n programs x 4 levels, 0 failures"
rm -rf "$OUT"
