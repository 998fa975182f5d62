#!/usr/bin/env bash
# CI entry of the fuzzers (tests/stress/README.md): the llvm-stress
# regression seeds, a fixed window of llvm-stress seeds in all five modes,
# and a fixed window of the random C program generators (tests/fuzz). Needs
# the release plugin built. About 2-3 minutes on 2 cores.
#   STRESS_SEEDS=first:last (default 1:120, size 300)
#   STRESS_BIG_SEEDS=first:last (default 1:30, size 800)
#   FUZZ_SEEDS=first:last (default 90001:90003 per kind)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
J=${JOBS:-$(nproc)}
fail=0
S=${STRESS_SEEDS:-1:120}; B=${STRESS_BIG_SEEDS:-1:30}; F=${FUZZ_SEEDS:-90001:90003}
python3 "$ROOT/tests/stress/stress.py" --regressions "$ROOT/tests/stress/regressions.txt" -j "$J" || fail=1
python3 "$ROOT/tests/stress/stress.py" "${S%:*}" "${S#*:}" -s 300 -j "$J" || fail=1
python3 "$ROOT/tests/stress/stress.py" "${B%:*}" "${B#*:}" -s 800 -j "$J" || fail=1
JOBS=$J bash "$ROOT/tests/fuzz/ci.sh" "${F%:*}" "${F#*:}" || fail=1
exit $fail
