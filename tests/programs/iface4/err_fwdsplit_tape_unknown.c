// EXPECT-ERROR: the function overwrites what it reads, so the split forward mode reads the primal values from the tape of __enzyme_augmentfwd, but it calls ext_update
// LEVELS: O0 O2
// Reading the tape needs a function whose every call can run again with
// the recorded values; an unknown external function cannot: a clear
// compile error naming it.
#include "check.h"
double __enzyme_fwdsplit(void *, ...);
void ext_update(double *x);
static void f(double *x) {
  x[0] = x[0] * x[1];
  ext_update(x);
}
int main(void) {
  double x[2] = {3, 2}, dx[2] = {0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  double tx[2] = {1, 0};
  __enzyme_fwdsplit((void *)f, x, tx, tape);
  printf("%g\n", tx[0]);
  return 0;
}
