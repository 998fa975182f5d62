#!/usr/bin/env bash
# tests/fuzz/run.sh KIND FIRST LAST -- random-program differential testing
# of the plugin (not part of the test command: run by hand).
#   KIND: loops (gen_loops.py) | calls | memory | scalars | vector
#         (gen_helpers.py)
# Each seed generates a C program whose main() checks the reverse-mode
# gradient against central finite differences (where two step sizes agree)
# and against forward mode (to 1e-9), compiled at -O0..-O3. Prints one line
# per failing seed and level; the programs stay in $OUT (default
# /tmp/enzyme-rs-fuzz). Overflowing or chaotic programs can disagree with
# finite differences without a bug: check fwd/rev mismatches first.
# ENZYME_RS_LLVM=22: clang-22 and the LLVM 22 plugin (scripts/llvm-env.sh);
# ENZYME_RS_PLUGIN overrides the plugin.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KIND=$1; FIRST=$2; LAST=$3
OUT=${OUT:-/tmp/enzyme-rs-fuzz}
GIVEN_PLUGIN=${ENZYME_RS_PLUGIN:-}
. "$ROOT/scripts/llvm-env.sh"
PLUGIN=${GIVEN_PLUGIN:-$ENZYME_RS_PLUGIN}
CC=$ENZYME_RS_CC
mkdir -p "$OUT"
[ -f "$PLUGIN" ] || enzyme_rs_build --quiet
for s in $(seq "$FIRST" "$LAST"); do
  src=$OUT/${KIND}_$s.c
  if [ "$KIND" = loops ]; then
    python3 "$ROOT/tests/fuzz/gen_loops.py" "$s" "$src"
  else
    python3 "$ROOT/tests/fuzz/gen_helpers.py" "$KIND" "$s" "$src"
  fi
  for O in O0 O1 O2 O3; do
    exe=$OUT/${KIND}_${s}_$O
    if ! "$CC" -$O -I"$ROOT/include" -fpass-plugin="$PLUGIN" "$src" -lm -o "$exe" 2>"$exe.err"; then
      echo "$KIND seed $s -$O: compile failed: $(head -c 300 "$exe.err")"
      continue
    fi
    out=$(timeout 20 "$exe" 2>&1) || echo "$KIND seed $s -$O: $(echo "$out" | head -2 | tr '\n' ' ')"
  done
done
