#!/usr/bin/env bash
# The whole test suite: build once, then the lit tests (IR shape, printers,
# diagnostics), the cargo tests (C/C++ programs at -O0..-O3 checked against
# analytic values and finite differences), and the benchmark agreement check
# (every benchmark at its smallest size; no timing).
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh
echo "== lit"
lit -sv lit
echo "== the plugin with debug assertions, lit under a leak check"
bash tests/plugin-checked.sh
echo "== examples"
./examples/run.sh
echo "== fuzzers: llvm-stress and random programs, fixed seed windows"
bash tests/stress/run.sh
echo "== sanitizers: the programs under ASan (all) and UBSan (subset) at -O0 and -O2"
bash tests/sanitize.sh
echo "== lto (multi-file programs, full LTO and ThinLTO through lld)"
tests/lto/run.sh
echo "== cargo test"
cargo test --release
echo "== packaging: wrappers, install + CMake + pkg-config, Debian package, Fortran, Python, the guide's examples"
bash tests/packaging/run.sh
echo "== benchmarks: build each once at its smallest size, check all gradients agree"
bash bench/ci-check.sh
echo "== the same suite against LLVM 22 (clang-22, the LLVM 22 plugin), and Rust"
scripts/test-llvm22.sh
