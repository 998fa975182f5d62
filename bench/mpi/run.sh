#!/usr/bin/env bash
# The MPI benchmark (issue 13): distributed 1-D heat equation at -np 2,
# built with clang-16 -O2 and the plugin through mpicc (OpenMPI); prints
# primal/gradient times, their ratio, and the reverse-mode tape layout.
# The machine may be shared: the program interleaves primal and gradient
# in each repetition and prints the ratio of the fastest of each and of
# the medians; this script runs it RUNS times (default 3) for the spread.
# Usage: bench/mpi/run.sh [n per rank] [steps] [reps]
set -euo pipefail
cd "$(dirname "$0")/../.."
plugin=target/release/libenzyme_rs.so
[ -f "$plugin" ] || cargo build --release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ENZYME_PRINT_TAPE=1 OMPI_CC=clang-16 mpicc -O2 -fpass-plugin="$plugin" -Iinclude \
  bench/mpi/heat.c -o "$out/heat" -lm 2> "$out/tape.txt"
echo "== tape (bytes each block of the augmented sweep keeps)"
grep -A20 "tape: enzyme_rs.aug.heat" "$out/tape.txt" | grep -v "^--" | head -20 || true
echo "== run (-np 2), ${RUNS:-3} runs"
for r in $(seq "${RUNS:-3}"); do
  mpirun --allow-run-as-root --oversubscribe -np 2 "$out/heat" "${1:-5000}" "${2:-200}" "${3:-10}" \
    | if [[ $r == 1 ]]; then cat; else grep -E "^ratio|^median|MISMATCH"; fi
done
