#!/usr/bin/env bash
# The hybrid MPI + OpenMP example: built with mpicc (OpenMPI) over the
# chosen clang and the plugin, run on 2 ranks with 1 and 2 threads each.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/llvm-env.sh"
plugin=$ENZYME_RS_PLUGIN
[ -f "$plugin" ] || enzyme_rs_build --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
OMPI_CC=$ENZYME_RS_CC mpicc -O2 -fopenmp -I"$root/include" -fpass-plugin="$plugin" \
  "$root/examples/hybrid/heat.c" -o "$out/heat" -lm
for t in 1 2; do
  echo "== hybrid heat: mpirun -np 2, OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t OMP_WAIT_POLICY=passive TMPDIR=$out \
    timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$out/heat"
done
