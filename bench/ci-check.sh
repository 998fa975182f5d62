#!/usr/bin/env bash
# bench/ci-check.sh -- build every benchmark once and check, at its smallest
# size, that all derivatives agree (enzyme-rs vs hand-written vs ADOL-C vs
# central differences). No timing; well under 2 minutes. Exit 1 on any
# disagreement or build failure. Installs ADOL-C if missing (skips its part
# with a message when that is impossible). ENZYME_RS_LLVM=22: with clang-22
# and the LLVM 22 plugin (programs in bench/build22/).
set -uo pipefail
cd "$(dirname "$0")"
. ./deps.sh
./build.sh || { echo "ci-check: build failed"; exit 1; }
B=build; [ "${ENZYME_RS_LLVM:-16}" = 16 ] || B=build$ENZYME_RS_LLVM
. $B/config.env
fail=0
check() { # prog args...
  out=$("./$B/$1" check "${@:2}" 2>&1); rc=$?
  echo "$out" | grep -v "modes built" || true
  if [ $rc -ne 0 ]; then echo "ci-check: FAILED $*"; fail=1; fi
}
while read -r p args; do
  [ -z "$p" ] && continue
  check "$p" $args
  if [ "$HAVE_ADOLC" = 1 ]; then check "${p}_adolc" $args; fi
done <<'SIZES'
sumsq 10000
dot 10000
logsumexp 10000
matvec 100
ode 1000
fft 1024
sort 500
stencil 10000
gmm 2 5 1000
lstm 2 1024 14
ba 16 2000 8000
SIZES
[ "$HAVE_ADOLC" = 1 ] || echo "ci-check: ADOL-C not available (or not LLVM 16), its checks were skipped"
echo "ci-check: enzyme-rs reverse=$HAVE_REVERSE vector-forward=$HAVE_VECTOR_FWD adolc=$HAVE_ADOLC"
if [ $fail -ne 0 ]; then echo "ci-check: derivatives DISAGREE"; exit 1; fi
echo "ci-check: all derivatives agree"
