#!/usr/bin/env bash
# tests/sanitize.sh [all] -- the program suite under sanitizers, in CI.
# 1. AddressSanitizer: every program of tests/programs built with the plugin
#    and -fsanitize=address at -O0 and -O2 (ENZYME_RS_SANITIZE in
#    tests/programs.rs) and run; any report fails it -- overflows, use after
#    free, and leaks (the known ones are listed in tests/sanitize.supp).
# 2. UndefinedBehaviorSanitizer (no recovery) on a representative subset
#    (UBSAN_SUBSET, comma-separated path substrings; `all` runs everything),
#    without the vptr, alignment, bounds and pointer-overflow checks (see
#    tests/programs.rs: they route pointers through integers).
# About 3 CPU-minutes for ASan and 1 for UBSan (2 cores: ~2 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1"
SUBSET=${UBSAN_SUBSET:-reverse/it_,reverse/split,vector/,custom/,higher/,cpp/,forward/it_}
if [ "${1:-}" = all ]; then SUBSET=""; fi
summary() { grep -E "FAILED|^-O|^test result|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error|SUMMARY" || true; }
rc=0
echo "== AddressSanitizer (-O0, -O2): all programs"
ENZYME_RS_SANITIZE=address cargo test --release --test programs >"${TMPDIR:-/tmp}/enzyme-rs-asan.log" 2>&1 || rc=1
summary <"${TMPDIR:-/tmp}/enzyme-rs-asan.log"
echo "== UndefinedBehaviorSanitizer (-O0, -O2)${SUBSET:+: $SUBSET}"
ENZYME_RS_SANITIZE=undefined ENZYME_RS_TEST_FILTER="$SUBSET" cargo test --release --test programs >"${TMPDIR:-/tmp}/enzyme-rs-ubsan.log" 2>&1 || rc=1
summary <"${TMPDIR:-/tmp}/enzyme-rs-ubsan.log"
exit $rc
