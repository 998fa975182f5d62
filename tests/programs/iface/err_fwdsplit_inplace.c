// EXPECT-ERROR: __enzyme_fwdsplit of 'f': enzyme-rs's split forward mode runs the primal again
// LEVELS: O0 O2
// A function that overwrites what it reads cannot have its primal run
// again, and without the tape of an __enzyme_augmentfwd of it (here a
// null tape) there are no recorded values to read: a clear compile error.
// (With the tape, see iface4/fwdsplit_tape.c.)
#include "check.h"
double __enzyme_fwdsplit(void *, ...);
__attribute__((noinline)) static void sub(double *x) { x[0] = x[0] * x[0]; }
static void f(double *x) {
  sub(x);
  x[1] = 2 * x[0];
}
int main(void) {
  double x[2] = {3, 0}, dx[2] = {0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  (void)tape;
  double tx[2] = {1, 0};
  __enzyme_fwdsplit((void *)f, x, tx, (void *)0);
  printf("%g\n", tx[1]);
  return 0;
}
