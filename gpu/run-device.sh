#!/usr/bin/env bash
# GPU kernels on a real NVIDIA GPU (not run in CI; needs the CUDA toolkit
# and driver). Builds every kernel of tests/gpu/kernels for sm_90 with
# clang-16 and the enzyme-rs plugin, links libdevice, makes PTX with llc,
# loads it through the CUDA driver API (gpu/device_driver.c), checks the
# forward and reverse kernels against central finite differences on the
# device, and prints primal / gradient / forward times per launch.
# Results: bench/results/gpu-<date>.txt.
#
# Environment: CUDA_HOME (default /usr/local/cuda), SM (default 90),
# LEVELS (default "O1 O3"), GPU_FILTER (substring of kernel names).
# Runs well under 10 minutes (18 kernels x 2 levels, a few seconds each).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/llvm-env.sh
CUDA=${CUDA_HOME:-/usr/local/cuda}
SM=${SM:-90}
LEVELS=${LEVELS:-O1 O3}
BIN=$ENZYME_RS_LLVM_BIN
libdevice=$(ls "$CUDA"/nvvm/libdevice/libdevice*.bc 2>/dev/null | head -1)
for need in "$CUDA/include/cuda.h" "$libdevice" "$BIN/llc" "$BIN/llvm-link" "$BIN/opt"; do
  [[ -n $need && -e $need ]] || { echo "run-device.sh: missing $need (CUDA toolkit at CUDA_HOME=$CUDA?)" >&2; exit 2; }
done
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
[[ -f $ENZYME_RS_PLUGIN ]] || enzyme_rs_build
P=$ENZYME_RS_PLUGIN
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bench/results
out=bench/results/gpu-$(date +%Y-%m-%d).txt
{
  echo "# enzyme-rs GPU kernels on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), sm_$SM, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
  echo "# times: mean per launch over 2000 launches of tiny grids (launch latency dominates)"
} >"$out"
pass=0 fail=0
for src in tests/gpu/kernels/*.cu; do
  k=$(basename "$src" .cu)
  [[ -z ${GPU_FILTER:-} || $k == *$GPU_FILTER* ]] || continue
  launch=$(grep -m1 '^// LAUNCH:' "$src" | sed 's/^\/\/ LAUNCH://')
  get() { echo "$launch" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  grid=$(get grid) block=$(get block)
  defs="-DGRID_X=${grid%%,*} -DBLOCK_X=${block%%,*} -DNIN=$(get nin) -DNOUT=$(get nout) -DNPARAM=$(get n)"
  [[ $grid == *,* ]] && defs+=" -DGRID_Y=${grid##*,}"
  [[ $block == *,* ]] && defs+=" -DBLOCK_Y=${block##*,}"
  tol=$(get tol); [[ -n $tol ]] && defs+=" -DTOL=$tol"
  levels=$(sed -n 's/^\/\/ LEVELS: //p' "$src")
  for l in $LEVELS; do
    [[ -z $levels || " $levels " == *" $l "* ]] || continue
    w=$work/$k.$l
    mkdir -p "$w"
    if ! { $ENZYME_RS_CXX -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_$SM \
             -Xclang -target-feature -Xclang +ptx78 -$l -emit-llvm -c \
             -fplugin="$P" -fpass-plugin="$P" "$src" -o "$w/k.bc" &&
           "$BIN/llvm-link" --only-needed "$w/k.bc" "$libdevice" -o "$w/linked.bc" &&
           "$BIN/opt" -passes='internalize,default<O3>' -internalize-public-api-list=primal,grad,fwd \
             "$w/linked.bc" -o "$w/opt.bc" &&
           "$BIN/llc" -march=nvptx64 -mcpu=sm_$SM -mattr=+ptx78 -O3 "$w/opt.bc" -o "$w/k.ptx" &&
           cc -O2 -I"$CUDA/include" $defs gpu/device_driver.c -o "$w/run" \
             -L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -lcuda -lm; } >"$w/log" 2>&1; then
      echo "$k $l BUILD FAILED" | tee -a "$out"; sed 's/^/    /' "$w/log" | head -15
      fail=$((fail + 1)); continue
    fi
    if timeout 60 "$w/run" "$w/k.ptx" "$k" "$l" >"$w/res" 2>"$w/err"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); sed 's/^/    /' "$w/err" | head -10
    fi
    cat "$w/res" | tee -a "$out"
  done
done
echo "GPU kernels on the device: $pass passed, $fail failed" | tee -a "$out"
echo "results: $out"
[[ $fail -eq 0 ]]
