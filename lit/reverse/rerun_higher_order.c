// The automatic re-run under higher order. Forward over reverse keeps it
// (tests/programs/higher/hvp_costly_loop.c: the tangent drivers of
// modes/loops/tangent.rs run the re-run's runtime). Reverse mode over a
// derivative turns it off for the module (prefix SECOND, reverse over reverse; the
// re-run pair calls the loop runtime through function pointers, which
// reverse mode cannot go through). The same function's loop is re-run in a
// first-order module (prefix FIRST, this file, whose program's main is an unused
// static function that -O2 deletes before the pass).
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %S/../../tests/programs/higher/hvp_costly_loop.c -c -o /dev/null 2>&1 | %FileCheck %s
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %s -c -o /dev/null 2>&1 | %FileCheck %s --check-prefix=FIRST
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -DSECOND -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %s -c -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SECOND --implicit-check-not='re-runs its loop'
// CHECK-NOT: differentiated again
// CHECK: rerun: energy re-runs its loop
// CHECK: Forward of 'grad' in 'main'
// FIRST-NOT: differentiated again
// FIRST: rerun: energy re-runs its loop
// SECOND: derivatives are differentiated again: no automatic re-run
// SECOND: Reverse of 'energy' in 'gnorm'
// SECOND: Reverse of 'gnorm' in 'second'
#define main static hvp_main
#include "higher/hvp_costly_loop.c"
#undef main
void first_order(const double *x, double *gx, const double *m, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, gx, enzyme_const, m, enzyme_const, n);
}
#ifdef SECOND
// The squared norm of the gradient, and its gradient.
static double gnorm(const double *x, const double *m, int n) {
  double gx[NPTS * D] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, gx, enzyme_const, m, enzyme_const, n);
  double s = 0;
  for (int i = 0; i < NPTS * D; i++)
    s += gx[i] * gx[i];
  return s;
}
void second(const double *x, double *dx, const double *m, int n) {
  __enzyme_autodiff((void *)gnorm, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
#endif
