#!/usr/bin/env bash
# One GPU kernel test at one optimization level (tests/gpu/run.sh runs them
# all): KERNEL.cu LEVEL WORKDIR. Prints "PASS|FAIL kernel level what".
#  1. CUDA device code for NVPTX (sm_80) with the plugin; llc-N for nvptx64
#     must accept the derivatives; no thread-local storage, no realloc.
#  2. The same source as HIP for AMDGPU (gfx90a); llc-N for amdgcn.
#  3. The NVPTX IR, and the AMDGPU IR, each retargeted to the host
#     (retarget.py), linked with host.c, run: gradients against central
#     finite differences.
set -uo pipefail
src=$1 lvl=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/llvm-env.sh"
P=$ENZYME_RS_PLUGIN
LLC=$ENZYME_RS_LLVM_BIN/llc
k=$(basename "$src" .cu)
w=$work/$k.$lvl
mkdir -p "$w"
fail() { echo "FAIL $k $lvl $1"; sed 's/^/    /' "$w/log" | head -20; exit 1; }
launch=$(grep -m1 '^// LAUNCH:' "$src" | sed 's/^\/\/ LAUNCH://')
get() { echo "$launch" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
grid=$(get grid) block=$(get block)
defs="-DGRID_X=${grid%%,*} -DBLOCK_X=${block%%,*} -DNIN=$(get nin) -DNOUT=$(get nout) -DNPARAM=$(get n)"
[[ $grid == *,* ]] && defs+=" -DGRID_Y=${grid##*,}"
[[ $block == *,* ]] && defs+=" -DBLOCK_Y=${block##*,}"
tol=$(get tol); [[ -n $tol ]] && defs+=" -DTOL=$tol"
plug=(-fplugin="$P" -fpass-plugin="$P")
$ENZYME_RS_CXX -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -$lvl \
  -emit-llvm -S "${plug[@]}" "$src" -o "$w/nvptx.ll" >"$w/log" 2>&1 || fail "nvptx compile"
grep -q 'thread_local\|@realloc' "$w/nvptx.ll" && { echo "thread-local or realloc in device IR" >"$w/log"; fail "nvptx: TLS/realloc"; }
$LLC -march=nvptx64 -mcpu=sm_80 "$w/nvptx.ll" -o "$w/k.ptx" >"$w/log" 2>&1 || fail "llc nvptx64"
amd_levels=$(sed -n 's/^\/\/ AMDGPU-LEVELS: //p' "$src")
if [[ -z $amd_levels || " $amd_levels " == *" $lvl "* ]]; then
$ENZYME_RS_CXX -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx90a -$lvl \
  -emit-llvm -S "${plug[@]}" "$src" -o "$w/amdgpu.ll" >"$w/log" 2>&1 || fail "amdgpu compile"
$LLC -march=amdgcn -mcpu=gfx90a "$w/amdgpu.ll" -o "$w/k.s" >"$w/log" 2>&1 || fail "llc amdgcn"
grep -q 'thread_local\|@realloc' "$w/amdgpu.ll" && { echo "thread-local or realloc in device IR" >"$w/log"; fail "amdgpu: TLS/realloc"; }
fi
python3 "$here/retarget.py" "$w/nvptx.ll" "$w/host.ll" >"$w/log" 2>&1 || fail "retarget"
$ENZYME_RS_CC -c -O1 -w "$w/host.ll" -o "$w/k.o" >"$w/log" 2>&1 || fail "host compile of the retargeted IR"
$ENZYME_RS_CC -O1 $defs "$here/host.c" "$w/k.o" -lm -lpthread -o "$w/run" >"$w/log" 2>&1 || fail "host link"
timeout 120 "$w/run" >"$w/log" 2>&1 || fail "host run of the NVPTX IR (gradients vs finite differences)"
if [[ -f $w/amdgpu.ll ]]; then
  python3 "$here/retarget.py" "$w/amdgpu.ll" "$w/host-amd.ll" >"$w/log" 2>&1 || fail "retarget (AMDGPU)"
  $ENZYME_RS_CC -c -O1 -w "$w/host-amd.ll" -o "$w/k-amd.o" >"$w/log" 2>&1 || fail "host compile of the retargeted AMDGPU IR"
  $ENZYME_RS_CC -O1 $defs "$here/host.c" "$w/k-amd.o" -lm -lpthread -o "$w/run-amd" >"$w/log" 2>&1 || fail "host link (AMDGPU)"
  timeout 120 "$w/run-amd" >"$w/log" 2>&1 || fail "host run of the AMDGPU IR (gradients vs finite differences)"
fi
echo "PASS $k $lvl"
