#!/usr/bin/env bash
# tests/sanitize.sh [all|asan] -- the program suite under sanitizers, in CI.
# 1. AddressSanitizer: every program of tests/programs (or those matching
#    ASAN_SUBSET, comma-separated path substrings) built with the plugin and
#    -fsanitize=address at -O0 and -O2 (ENZYME_RS_SANITIZE in
#    tests/programs.rs) and run; any report fails it -- overflows, use after
#    free, reads of dead stack frames (detect_stack_use_after_return, e.g.
#    a reverse sweep reading through a taped pointer into the returned
#    augmented sweep's frame), and leaks (the known ones are listed in
#    tests/sanitize.supp). The harness builds ASAN_OPTIONS (asan_options in
#    tests/programs.rs); a caller's ASAN_OPTIONS is appended there and wins.
# 2. UndefinedBehaviorSanitizer (no recovery) on a representative subset
#    (UBSAN_SUBSET, comma-separated path substrings; `all` runs everything),
#    without the vptr, alignment, bounds and pointer-overflow checks (see
#    tests/programs.rs: they route pointers through integers). `asan` skips
#    it.
# ENZYME_RS_LLVM=22 runs it with clang-22 and the LLVM 22 plugin
# (scripts/llvm-env.sh; the harness builds the plugin); CI runs an ASan
# subset that way from scripts/test-llvm22.sh (LLVM22_ASAN_SUBSET there).
# ASan on LLVM 16, all programs: about 9 CPU-minutes (520 CPU-s on
# 2026-12-03, derivatives instrumented; 21 minutes wall on 2 shared cores);
# the LLVM 22 subset about 5 (295 CPU-s). UBSan about 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/llvm-env.sh
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize.supp:print_suppressions=0"
# Symbolized reports (the suppressions match source file names).
if [ -x "$ENZYME_RS_LLVM_BIN/llvm-symbolizer" ]; then
  export ASAN_SYMBOLIZER_PATH="$ENZYME_RS_LLVM_BIN/llvm-symbolizer"
fi
SUBSET=${UBSAN_SUBSET:-reverse/it_,reverse/split,vector/,custom/,higher/,cpp/,forward/it_,iface4/todense,iface4/sparse_hessian,cpp_enzyme/lambda_plus}
ASUBSET=${ASAN_SUBSET:-}
if [ "${1:-}" = all ]; then SUBSET=""; ASUBSET=""; fi
summary() { grep -E "FAILED|^-O|^test result|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error|SUMMARY" || true; }
log=${TMPDIR:-/tmp}/enzyme-rs-llvm$ENZYME_RS_LLVM
rc=0
echo "== AddressSanitizer, LLVM $ENZYME_RS_LLVM (-O0, -O2): ${ASUBSET:-all programs}"
ENZYME_RS_SANITIZE=address ENZYME_RS_TEST_FILTER="$ASUBSET" cargo test --release --test programs >"$log-asan.log" 2>&1 || rc=1
summary <"$log-asan.log"
if [ "${1:-}" != asan ]; then
  echo "== UndefinedBehaviorSanitizer, LLVM $ENZYME_RS_LLVM (-O0, -O2)${SUBSET:+: $SUBSET}"
  ENZYME_RS_SANITIZE=undefined ENZYME_RS_TEST_FILTER="$SUBSET" cargo test --release --test programs >"$log-ubsan.log" 2>&1 || rc=1
  summary <"$log-ubsan.log"
fi
exit $rc
