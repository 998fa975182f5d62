// The gather form is exact: the same contributions added into each element
// in the same order as the scatter loop (only the loop shape changes), so
// the gradients are bit for bit those of ENZYME_RS_NO_GATHER=1 (printed
// as hexadecimal floats and compared). Stencils up and down, double and
// float, a register-carried adjoint (restrict), a seed already non-zero.
// down5's indices are 32-bit wrapping at -O2 (`(x + 0xffffffff) &
// 0xffffffff`: a run-time range condition).
// RUN: %clang -O2 -fpass-plugin=%plugin %s -lm -o %t.gather
// RUN: env ENZYME_RS_NO_GATHER=1 %clang -O2 -fpass-plugin=%plugin %s -lm -o %t.scatter
// RUN: %t.gather > %t.gather.out
// RUN: %t.scatter > %t.scatter.out
// RUN: diff %t.gather.out %t.scatter.out
// RUN: %FileCheck %s < %t.gather.out
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin %s -c -o /dev/null 2>&1 | %FileCheck --check-prefix=LOG %s
// CHECK: n=37 da[36]
// LOG-DAG: gather form for a loop in enzyme_rs.rev.up3:
// LOG-DAG: gather form for a loop in enzyme_rs.rev.down5:
// LOG-DAG: gather form for a loop in enzyme_rs.rev.upf:
// LOG-DAG: gather form for a loop in enzyme_rs.rev.carried:{{.*}} 1 carried
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define MAXN 64
static int n;

__attribute__((noinline)) static void up3(const double *a, double *b) {
  for (int i = 1; i < n - 1; i++)
    b[i] = 0.3 * a[i - 1] + 0.9 * a[i] - 0.7 * a[i + 1];
}
__attribute__((noinline)) static void down5(const double *a, double *b) {
  for (int i = n - 3; i >= 2; i--)
    b[i] = 0.1 * a[i - 2] - 1.3 * a[i - 1] + 0.77 * a[i] + 0.31 * a[i + 1] - 0.05 * a[i + 2];
}
__attribute__((noinline)) static void upf(const float *a, float *b) {
  for (int i = 1; i < n - 1; i++)
    b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.125f * a[i + 1];
}
__attribute__((noinline)) static void carried(const double *restrict a, double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i] + 0.2 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}

static double f(const double *u) {
  double a[MAXN] = {0}, b[MAXN] = {0}, c[MAXN] = {0}, d[MAXN] = {0};
  float x[MAXN] = {0}, y[MAXN] = {0};
  up3(u, a);
  down5(a, b);
  for (int i = 0; i < n; i++)
    x[i] = (float)b[i];
  upf(x, y);
  for (int i = 0; i < n; i++)
    c[i] = y[i] + b[i];
  carried(c, d);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += (1.0 + 0.01 * i) * d[i] * d[i] + sin(a[i]);
  return r;
}

int main(void) {
  int sizes[] = {3, 4, 5, 6, 7, 37};
  for (int t = 0; t < 6; t++) {
    n = sizes[t];
    double u[MAXN], du[MAXN];
    for (int i = 0; i < n; i++) {
      u[i] = cos(0.37 * i + 0.1);
      du[i] = 0.001 * i;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, u, du);
    for (int i = 0; i < n; i++)
      printf("n=%d da[%d] %a\n", n, i, du[i]);
  }
  return 0;
}
