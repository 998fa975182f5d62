#!/usr/bin/env bash
# bench/compile_check.sh [N...] -- the compile-scaling inputs
# (bench/gen_straightline.py) checked numerically: each reverse-mode
# gradient, compiled with the plugin at -O0 and -O2, against forward mode
# (__enzyme_fwddiff, which keeps no tape) and central finite differences,
# at three points. The generator's products overflow to inf past a few
# hundred statements, so each N is checked twice: as generated (partials
# that stay finite) and damped (`t = x * y + 0.25` becomes
# `t = 0.25 * x * y + 0.25`: same code shape, finite values at any N).
# Prints one row per N, input and level; exits 1 on a mismatch. The
# compile times are bench/compile_scaling.sh's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLUGIN=${ENZYME_RS_PLUGIN:-$ROOT/target/release/libenzyme_rs.so}
CLANG=${CLANG:-clang-16}
[ -f "$PLUGIN" ] || (cd "$ROOT" && cargo build --release --quiet)
SIZES=${*:-100 1000 4000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat >"$T/main.c" <<'C'
#include <math.h>
#include <stdio.h>
double f(double, double, double, double);
double fwd(int, double, double, double, double);
typedef struct { double da, db, dc, dd; } G;
G grad(double, double, double, double);
int main(void) {
  const double pts[3][4] = {{0.3, 0.7, -0.4, 0.9}, {-0.2, 0.1, 0.5, -0.6},
                            {0.05, -0.3, 0.25, 0.4}};
  int bad = 0, finite = 0, fd_checked = 0;
  double big = 0;
  for (int p = 0; p < 3; p++) {
    double x[4];
    for (int k = 0; k < 4; k++) x[k] = pts[p][k];
    G g = grad(x[0], x[1], x[2], x[3]);
    double gv[4] = {g.da, g.db, g.dc, g.dd}, tv[4], scale = 0;
    for (int k = 0; k < 4; k++) {
      tv[k] = fwd(k, x[0], x[1], x[2], x[3]);
      if (isfinite(tv[k]) && fabs(tv[k]) > scale) scale = fabs(tv[k]);
    }
    for (int k = 0; k < 4; k++) {
      // Past an overflow the modes differ in how inf and nan combine
      // (0 against nan): nothing to compare.
      if (!isfinite(tv[k]) || !isfinite(gv[k])) continue;
      finite++;
      if (fabs(tv[k]) > big) big = fabs(tv[k]);
      if (!(fabs(gv[k] - tv[k]) <= 1e-9 * scale)) {
        printf("point %d d%d: reverse %.17g, forward %.17g\n", p, k, gv[k], tv[k]);
        bad = 1;
      }
      double h = 1e-6 * (1 + fabs(x[k])), s = x[k];
      x[k] = s + h;
      double fp = f(x[0], x[1], x[2], x[3]);
      x[k] = s - h;
      double fm = f(x[0], x[1], x[2], x[3]);
      x[k] = s;
      double fd = (fp - fm) / (2 * h);
      if (!isfinite(fd) || scale < 1e-6 || scale > 1e6) continue;
      fd_checked++;
      if (!(fabs(fd - gv[k]) <= 1e-4 * scale)) {
        printf("point %d d%d: reverse %.12g, finite differences %.12g\n", p, k, gv[k], fd);
        bad = 1;
      }
    }
  }
  printf("%d of 12 partials finite (= forward mode), %d = finite differences, largest %.3g\n",
         finite, fd_checked, big);
  return bad;
}
C
cat >"$T/fwd.c" <<'C'
double f(double, double, double, double);
double __enzyme_fwddiff(void *, ...);
double fwd(int k, double a, double b, double c, double d) {
  return __enzyme_fwddiff((void *)f, a, k == 0 ? 1.0 : 0.0, b, k == 1 ? 1.0 : 0.0,
                          c, k == 2 ? 1.0 : 0.0, d, k == 3 ? 1.0 : 0.0);
}
C
rc=0
"$CLANG" -O0 -w -c "$T/main.c" -o "$T/main.o"
for n in $SIZES; do
  python3 "$ROOT/bench/gen_straightline.py" "$n" "$T/plain.c"
  sed -E 's/^  ([abcd]) = ([abcd]) \* ([abcd]) \+ 0\.25;/  \1 = 0.25 * \2 * \3 + 0.25;/' "$T/plain.c" >"$T/damped.c"
  for input in plain damped; do
    for O in O0 O2; do
      cat "$T/$input.c" "$T/fwd.c" >"$T/s.c"
      "$CLANG" -"$O" -w -fpass-plugin="$PLUGIN" -c "$T/s.c" -o "$T/s.o"
      "$CLANG" "$T/s.o" "$T/main.o" -o "$T/run" -lm
      if out=$("$T/run" 2>&1); then res="ok: $(echo "$out" | tail -1)"; else res="FAIL: $out"; rc=1; fi
      printf "%6d %-6s %4s  %s\n" "$n" "$input" "-$O" "$res"
    done
  done
done
exit $rc
