// Self-check mode's messages for correct derivatives: with
// ENZYME_CHECK=verbose at run time each check says ok (first two calls per
// site by default, ENZYME_CHECK_CALLS=n to change); a site whose pointer
// argument has no known size says once that it is not checked;
// ENZYME_CHECK=0 at run time turns the checks off; without -enzyme-check
// nothing is added.
// RUN: %clang -O1 -g -I%include -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-check %s -o %t -lm
// RUN: env ENZYME_CHECK=verbose %t 2>&1 | %FileCheck %s
// RUN: env ENZYME_CHECK=verbose %t 2>&1 | %FileCheck --check-prefix=NC %s
// RUN: env ENZYME_CHECK=verbose ENZYME_CHECK_CALLS=1 %t 2>&1 | %FileCheck --check-prefix=ONE %s
// RUN: env ENZYME_CHECK=0 %t 2>&1 | %FileCheck --check-prefix=OFF %s
// RUN: %t 2>&1 | %FileCheck --check-prefix=QUIET %s
// RUN: %clang -O1 -g -I%include -fpass-plugin=%plugin %s -o %t.plain -lm
// RUN: env ENZYME_CHECK=verbose %t.plain 2>&1 | %FileCheck --check-prefix=OFF %s
#include <math.h>
#include <stdio.h>
#include <enzyme/enzyme.h>

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(0.1 * x[i]) * x[i];
  return s;
}

/* x and dx come from the caller: their size is unknown here. */
__attribute__((noinline)) void grad(const double *x, double *dx, int n) {
  // NC: enzyme-check: 'f' (called at {{.*}}report.c:[[@LINE+2]]): not checked: pointer argument 1 points to memory of unknown size
  // QUIET: not checked
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

int main(int argc, char **argv) {
  double x[5] = {1, 2, 3, 4, 5}, dx[5] = {0};
  for (int k = 0; k < argc + 2; k++) {
    // CHECK: enzyme-check: ok: 'f' (called at {{.*}}report.c:[[@LINE+3]], call 1): derivative [[V:.*]], finite differences
    // CHECK: enzyme-check: ok: 'f' (called at {{.*}}report.c:[[@LINE+2]], call 2)
    // ONE: ok: 'f' {{.*}} call 1
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
    grad(x, dx, 5);
  }
  // CHECK-NOT: call 3
  // NC-NOT: not checked
  // CHECK-NOT: MISMATCH
  // ONE-NOT: call 2
  // QUIET-NOT: ok:
  // QUIET-NOT: MISMATCH
  // OFF-NOT: enzyme-check
  printf("%g\n", dx[0]);
  return 0;
}
