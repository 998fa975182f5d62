#!/usr/bin/env python3
"""gen_shapes.py KIND N OUT.c -- resource-limit inputs (issue 18, item 5),
each a program whose main() checks its gradient against central finite
differences (exit 1 on a mismatch):
  chain N  one expression chain of N dependent cheap operations
           (x = x * c + d), differentiated in reverse mode (deep def-use
           chains: recursion in the plugin would overflow)
  nest  D  a loop nest of depth D (2 iterations per level) around an
           accumulation, reverse mode
  calls K  K distinct functions, each differentiated by its own
           __enzyme_autodiff call"""
import sys
kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
head = """#include <math.h>
#include <stdio.h>
#include <stdlib.h>
double __enzyme_autodiff(void *, ...);
static int bad = 0;
static void check(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-5 * (1 + fabs(want))) {
    printf("FAIL %s: got %.12g want %.12g\\n", what, got, want);
    bad = 1;
  }
}
"""
if kind == "chain":
    body = "\n".join("  x = x * %s + %s;" % (1.0 + ((i * 7) % 13 - 6) * 1e-5, ((i * 5) % 11 - 5) * 1e-3)
                     for i in range(n))
    src = head + """
__attribute__((noinline)) double f(double x) {
%s
  return x;
}
int main(void) {
  double x = 0.7, h = 1e-6;
  double d = __enzyme_autodiff((void *)f, x);
  check("chain", d, (f(x + h) - f(x - h)) / (2 * h));
  if (!bad) printf("ok chain %d\\n", %d);
  return bad;
}
""" % (body, n, n)
elif kind == "nest":
    idx = ["i%d" % k for k in range(n)]
    loops = "".join("  " * (k + 1) + "for (int %s = 0; %s < 2; %s++)\n" % (v, v, v) for k, v in enumerate(idx))
    src = head + """
__attribute__((noinline)) double f(double x) {
  double s = 0;
%s%s  s = s * 0.5 + sin(x * (1 + %s));
  return s;
}
int main(void) {
  double x = 0.3, h = 1e-6;
  double d = __enzyme_autodiff((void *)f, x);
  check("nest", d, (f(x + h) - f(x - h)) / (2 * h));
  if (!bad) printf("ok nest %d\\n", %d);
  return bad;
}
""" % (loops, "  " * (n + 1), " + ".join(idx), n, n)
elif kind == "calls":
    fns = "\n".join("""__attribute__((noinline)) double f%d(double x) { return sin(%d.0 * x) + x * x * %d.0; }
double g%d(double x) { return __enzyme_autodiff((void *)f%d, x); }""" % (k, k % 7 + 1, k % 5, k, k) for k in range(n))
    checks = "\n".join("  check(\"f%d\", g%d(0.4), %d.0 * cos(%d.0 * 0.4) + 2 * 0.4 * %d.0);" % (k, k, k % 7 + 1, k % 7 + 1, k % 5)
                       for k in range(n))
    src = head + fns + """
int main(void) {
%s
  if (!bad) printf("ok calls %d\\n");
  return bad;
}
""" % (checks, n)
else:
    sys.exit("unknown kind " + kind)
open(out, "w").write(src)
