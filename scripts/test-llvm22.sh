#!/usr/bin/env bash
# The test suite against LLVM 22 (run by run-tests.sh after the LLVM 16 one):
# clang-22 / opt-22 with the LLVM 22 plugin -- lit, the examples, the LTO
# suite (tests/lto, with lld-22), the C/C++
# programs at -O0..-O3, windows of llvm-stress modules and of the random
# C programs (tests/fuzz),
# the benchmarks' gradient agreement -- and Rust
# through `rustc -Z llvm-plugins` (tests/rust/run.sh) and nightly's
# std::autodiff (tests/autodiff/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export ENZYME_RS_LLVM=22
. scripts/llvm-env.sh
enzyme_rs_build --quiet
echo "== LLVM 22: lit"
lit -sv lit
echo "== LLVM 22: examples"
./examples/run.sh
echo "== LLVM 22: lto (multi-file programs through lld-22)"
tests/lto/run.sh
echo "== LLVM 22: GPU kernels (NVPTX/AMDGPU with clang-22, host execution)"
bash tests/gpu/run.sh
echo "== LLVM 22: cargo test (C/C++ programs with clang-22)"
cargo test --release --test programs
echo "== LLVM 22: AddressSanitizer (-O0, -O2) on a subset of the programs"
ASAN_SUBSET=${LLVM22_ASAN_SUBSET:-reverse/it_,cpp/,cpplib/,forward/it_,higher/,vector/,custom/,iface/,loops/annotated} bash tests/sanitize.sh asan
echo "== LLVM 22: llvm-stress-22 modules through opt-22 (regression seeds, a fixed seed window)"
for args in "--regressions tests/stress/regressions.txt" "1 120 -s 300"; do
  # shellcheck disable=SC2086
  ENZYME_RS_PLUGIN=$ENZYME_RS_PLUGIN LLVM_STRESS=llvm-stress-22 OPT=opt-22 \
    python3 tests/stress/stress.py $args -j "$(nproc)"
done
echo "== LLVM 22: random C programs (tests/fuzz, a fixed seed window)"
bash tests/fuzz/ci.sh "${LLVM22_FUZZ_FIRST:-90001}" "${LLVM22_FUZZ_LAST:-90010}"
echo "== LLVM 22: benchmarks (gradient agreement)"
bash bench/ci-check.sh
if [ -x tests/rust/run.sh ]; then
  echo "== Rust: rustc -Z llvm-plugins with the LLVM 22 plugin"
  tests/rust/run.sh
fi
echo "== Rust nightly std::autodiff with the LLVM 22 plugin as its backend"
tests/autodiff/run.sh
