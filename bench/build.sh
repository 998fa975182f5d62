#!/usr/bin/env bash
# bench/build.sh -- build the plugin, probe which enzyme-rs modes compile,
# and build every benchmark program (clang-16 -O2) into bench/build/.
#   ENZYME_RS_LLVM=22       clang-22 and the LLVM 22 plugin, into bench/build22/
#   BENCH_FORCE_FORWARD=1   do not use reverse / vector forward mode even if
#                           the probes succeed
#   BENCH_DEFS="-D..."      extra flags for the C programs
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd .. && pwd)
. "$ROOT/scripts/llvm-env.sh"
PLUGIN=$ENZYME_RS_PLUGIN
PROBLEMS=${BENCH_PROBLEMS:-"sumsq dot logsumexp matvec ode fft sort stencil gmm lstm ba"}
CC=${CC_BENCH:-$ENZYME_RS_CC}
CXX=${CXX_BENCH:-$ENZYME_RS_CXX}
B=build; [ "$ENZYME_RS_LLVM" = 16 ] || B=build$ENZYME_RS_LLVM
mkdir -p $B

enzyme_rs_build --quiet

# --- probes: does reverse mode / vector forward mode compile and work? ---
cat > $B/probe_reverse.c <<'P'
#include <stdio.h>
#include <enzyme/enzyme.h>
static double sq(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
int main(void) {
  double x[3] = { 1, 2, 3 }, g[3] = { 0, 0, 0 };
  __enzyme_autodiff((void *)sq, enzyme_dup, x, g, enzyme_const, 3);
  return !(g[0] == 2 && g[1] == 4 && g[2] == 6);
}
P
cat > $B/probe_vector.c <<'P'
#include <stdio.h>
#include <enzyme/enzyme.h>
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
static double pr(const double *x) { return x[0] * x[1]; }
int main(void) {
  double x[2] = { 3, 5 }, d0[2] = { 1, 0 }, d1[2] = { 0, 1 };
  v2 r = __enzyme_fwddiff_v2((void *)pr, enzyme_width, 2, enzyme_dup, x, d0, d1);
  return !(r.d[0] == 5 && r.d[1] == 3);
}
P
probe() {
  "$CC" -O2 -I"$ROOT/include" -fpass-plugin="$PLUGIN" "$B/$1.c" -lm -o "$B/$1" >"$B/$1.log" 2>&1 && "./$B/$1"
}
HAVE_REVERSE=0; HAVE_VECTOR_FWD=0
if [ -z "${BENCH_FORCE_FORWARD:-}" ]; then
  probe probe_reverse && HAVE_REVERSE=1 || true
  probe probe_vector && HAVE_VECTOR_FWD=1 || true
fi
HAVE_ADOLC=0
# ADOL-C's programs do not depend on the plugin: built with LLVM 16 only.
if [ "$ENZYME_RS_LLVM" = 16 ] && [ -f /usr/include/adolc/adolc.h ] && echo 'int main(){}' | "$CXX" -x c++ - -ladolc -o $B/probe_adolc >/dev/null 2>&1; then
  HAVE_ADOLC=1
fi
cat > $B/config.env <<C
HAVE_REVERSE=$HAVE_REVERSE
HAVE_VECTOR_FWD=$HAVE_VECTOR_FWD
HAVE_ADOLC=$HAVE_ADOLC
C
echo "enzyme-rs reverse mode: $([ $HAVE_REVERSE = 1 ] && echo yes || echo 'no (see $B/probe_reverse.log)');" \
     "vector forward mode: $([ $HAVE_VECTOR_FWD = 1 ] && echo yes || echo no); ADOL-C: $([ $HAVE_ADOLC = 1 ] && echo yes || echo no)"

CFLAGS_C="-O2 -I$ROOT/include -Icommon -Iproblems -DHAVE_REVERSE=$HAVE_REVERSE -DHAVE_VECTOR_FWD=$HAVE_VECTOR_FWD ${BENCH_DEFS:-}"
CFLAGS_CXX="-O2 -Icommon -Iproblems ${BENCH_DEFS:-}"
export CC CXX PLUGIN CFLAGS_C CFLAGS_CXX HAVE_ADOLC B
build_one() {
  p=$1
  "$CC" $CFLAGS_C -DPROBLEM_HEADER="\"$p.h\"" -fpass-plugin="$PLUGIN" common/main.c -lm -o "$B/$p" || return 1
  if [ "$HAVE_ADOLC" = 1 ]; then
    "$CXX" $CFLAGS_CXX -DPROBLEM_HEADER="\"$p.h\"" common/main_adolc.cpp -ladolc -lm -o "$B/${p}_adolc" || return 1
  fi
}
export -f build_one
printf '%s\n' $PROBLEMS | xargs -P "${BENCH_JOBS:-2}" -I{} bash -c 'build_one {}'
echo "built: $PROBLEMS"
