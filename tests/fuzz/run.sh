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
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KIND=$1; FIRST=$2; LAST=$3
OUT=${OUT:-/tmp/enzyme-rs-fuzz}
PLUGIN=${ENZYME_RS_PLUGIN:-$ROOT/target/release/libenzyme_rs.so}
mkdir -p "$OUT"
[ -f "$PLUGIN" ] || (cd "$ROOT" && cargo build --release --quiet)
for s in $(seq "$FIRST" "$LAST"); do
  src=$OUT/${KIND}_$s.c
  if [ "$KIND" = loops ]; then
    python3 "$ROOT/tests/fuzz/gen_loops.py" "$s" "$src"
  else
    python3 "$ROOT/tests/fuzz/gen_helpers.py" "$KIND" "$s" "$src"
  fi
  for O in O0 O1 O2 O3; do
    exe=$OUT/${KIND}_${s}_$O
    if ! clang-16 -$O -I"$ROOT/include" -fpass-plugin="$PLUGIN" "$src" -lm -o "$exe" 2>"$exe.err"; then
      echo "$KIND seed $s -$O: compile failed: $(head -c 300 "$exe.err")"
      continue
    fi
    out=$(timeout 20 "$exe" 2>&1) || echo "$KIND seed $s -$O: $(echo "$out" | head -2 | tr '\n' ' ')"
  done
done
