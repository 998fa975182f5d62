#!/usr/bin/env python3
"""gen_straightline.py N OUT.c -- a straight-line C function of N statements
(four scalars updated with sin/exp/products) differentiated in reverse mode;
the compile-time scaling input of bench/compile_scaling.sh."""
import random, sys
n, out = int(sys.argv[1]), sys.argv[2]
r = random.Random(n)
v = ["a", "b", "c", "d"]
lines = []
for i in range(n):
    t, x, y = r.choice(v), r.choice(v), r.choice(v)
    k = r.randrange(4)
    if k == 0:
        lines.append("  %s = %s * %s + 0.25;" % (t, x, y))
    elif k == 1:
        lines.append("  %s = sin(%s) + 0.5 * %s;" % (t, x, y))
    elif k == 2:
        lines.append("  %s = exp(0.001 * %s) * %s;" % (t, x, y))
    else:
        lines.append("  %s = %s - 0.125 * %s * %s;" % (t, x, y, t))
open(out, "w").write("""#include <math.h>
double __enzyme_autodiff(void *, ...);
double f(double a, double b, double c, double d) {
%s
  return a + b + c + d;
}
typedef struct { double da, db, dc, dd; } G;
G __enzyme_autodiff_g(void *, ...);
G grad(double a, double b, double c, double d) {
  return __enzyme_autodiff_g((void *)f, a, b, c, d);
}
""" % "\n".join(lines))
