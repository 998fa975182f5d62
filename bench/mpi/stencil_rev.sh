#!/usr/bin/env bash
# The stencil microbenchmark (bench/mpi/stencil_rev.c): clang-16 -O2 with
# the plugin, with the gather form of the reverse stencil and without
# (ENZYME_RS_NO_GATHER=1), run interleaved ROUNDS times (default 3).
# Usage: bench/mpi/stencil_rev.sh [n] [reps]
set -euo pipefail
cd "$(dirname "$0")/../.."
plugin=target/release/libenzyme_rs.so
[ -f "$plugin" ] || cargo build --release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang-16 -O2 -fpass-plugin="$plugin" -Iinclude bench/mpi/stencil_rev.c -o "$out/gather"
ENZYME_RS_NO_GATHER=1 clang-16 -O2 -fpass-plugin="$plugin" -Iinclude bench/mpi/stencil_rev.c \
  -o "$out/scatter"
for r in $(seq "${ROUNDS:-3}"); do
  echo "== gather form"
  "$out/gather" "${1:-10000}" "${2:-20000}"
  echo "== scatter form (ENZYME_RS_NO_GATHER=1)"
  "$out/scatter" "${1:-10000}" "${2:-20000}"
done
