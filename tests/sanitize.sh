#!/usr/bin/env bash
# tests/sanitize.sh [all] -- the program suite under sanitizers, in CI.
# Builds the C/C++ programs with the plugin and -fsanitize=address at -O0
# and -O2 (ENZYME_RS_SANITIZE in tests/programs.rs) and runs them: any
# AddressSanitizer report (heap/stack overflow, use after free, leak in a
# derivative's tape or shadow memory) fails the program. Then
# -fsanitize=undefined (no recovery) on the same subset.
# CI runs a representative subset (SANITIZE_SUBSET, comma-separated path
# substrings: every directory's programs that exercise memory -- tapes,
# shadows, split mode, recursion, C++ containers); `tests/sanitize.sh all`
# runs the whole suite (about 600 builds; ~15 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
SUBSET=${SANITIZE_SUBSET:-reverse/it_,reverse/split,reverse/enzyme_style,vector/,custom/,higher/,cpp/,forward/it_}
if [ "${1:-}" = all ]; then SUBSET=""; fi
echo "== AddressSanitizer (-O0, -O2)${SUBSET:+: $SUBSET}"
ENZYME_RS_SANITIZE=address ENZYME_RS_TEST_FILTER="$SUBSET" cargo test --release --test programs 2>&1 | grep -E "FAILED|^-O|test result|ERROR: AddressSanitizer|SUMMARY" 
echo "== UndefinedBehaviorSanitizer (-O0, -O2)${SUBSET:+: $SUBSET}"
ENZYME_RS_SANITIZE=undefined ENZYME_RS_TEST_FILTER="$SUBSET" cargo test --release --test programs 2>&1 | grep -E "FAILED|^-O|test result|runtime error|SUMMARY"
