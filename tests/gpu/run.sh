#!/usr/bin/env bash
# GPU kernels without a GPU (see README, "GPU kernels"): every kernel in
# tests/gpu/kernels at -O0..-O3, compiled for NVPTX and AMDGPU with the
# plugin (llc must accept every derivative), run on the host by the
# execution harness and checked against finite differences (the IR-shape
# tests are lit/gpu, run with the other lit tests). ENZYME_RS_LLVM=22 uses
# clang-22 and the LLVM 22 plugin.
# GPU_FILTER=substr runs a subset.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/llvm-env.sh
[[ -f $ENZYME_RS_PLUGIN ]] || enzyme_rs_build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
ls tests/gpu/kernels/*.cu | grep -- "${GPU_FILTER:-}" | while read -r k; do
  levels=$(sed -n 's/^\/\/ LEVELS: //p' "$k"); levels=${levels:-O0 O1 O2 O3}
  for l in $levels; do echo "$k $l"; done
done | xargs -P"$jobs" -L1 bash -c 'bash tests/gpu/one.sh "$0" "$1" '"$work" | tee "$work/results"
pass=$(grep -c '^PASS' "$work/results" || true)
fail=$(grep -c '^FAIL' "$work/results" || true)
for l in O0 O1 O2 O3; do
  echo "  -$l: $(grep -c "^PASS .* $l\$" "$work/results" || true) passed, $(grep -c "^FAIL .* $l " "$work/results" || true) failed"
done
echo "GPU kernels: $pass passed, $fail failed"
[[ $fail -eq 0 ]] || exit 1
