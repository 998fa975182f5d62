// Vector forward mode over heap blocks made and freed in the function:
// odd sizes (3 and 5 doubles), memset/memcpy on a block, a block freed on
// one path only, a block handed to a callee that frees it; widths 2, 3
// and 8, every lane against central differences (ASan: each lane's shadow
// stays within its block and is freed once). Written for a trial that put
// all lanes of such a block in one allocation (bench/results/compile.md,
// "Round 3"), kept as a guard for the shadow heap of vector mode.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <string.h>

__attribute__((noinline)) double consume(double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i];
  free(p);
  return s;
}

double g(const double *x, int n) {
  double *a = malloc(3 * sizeof(double));
  double *f = malloc(5 * sizeof(double));
  double *b = malloc(n * sizeof(double));
  double *c = malloc(n * sizeof(double));
  memset(a, 0, 3 * sizeof(double));
  for (int i = 0; i < n; i++) a[i % 3] += x[i] * x[(i + 1) % n];
  for (int i = 0; i < 5; i++) f[i] = a[i % 3] * 0.5;
  memcpy(b, x, n * sizeof(double));
  for (int i = 0; i < n; i++) b[i] = sin(b[i]) + f[i % 5];
  for (int i = 0; i < n; i++) c[i] = b[i] * a[(i + 2) % 3];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(0.1 * b[i]) * c[n - 1 - i];
  if (s > 0) {
    free(a);
    a = 0;
  }
  s += consume(c, n);
  free(b);
  free(f);
  if (a) free(a);
  return s;
}

static double eval(double *x, int n) { return g(x, n); }

typedef struct { double d[2]; } v2;
typedef struct { double d[3]; } v3;
typedef struct { double d[8]; } v8;
v2 __enzyme_fwddiff_v2(void *, ...);
v3 __enzyme_fwddiff_v3(void *, ...);
v8 __enzyme_fwddiff_v8(void *, ...);

int main(void) {
  enum { n = 8 };
  double x[n] = {0.3, -0.2, 0.5, 0.9, -0.4, 0.7, 0.1, -0.6};
  double J[n];
  for (int j = 0; j < n; j++) J[j] = FD(x[j], eval(x, n), 1e-6);
  double d[8][n] = {{0}};
  for (int l = 0; l < 8; l++) d[l][l] = 1;
  {
    v2 r = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, enzyme_dup, x, d[0], d[1], enzyme_const, n);
    for (int l = 0; l < 2; l++) CHECK("w2", r.d[l], J[l], 1e-6);
  }
  {
    v3 r = __enzyme_fwddiff_v3((void *)g, enzyme_width, 3, enzyme_dup, x, d[0], d[3], d[5], enzyme_const, n);
    CHECK("w3 lane0", r.d[0], J[0], 1e-6);
    CHECK("w3 lane1", r.d[1], J[3], 1e-6);
    CHECK("w3 lane2", r.d[2], J[5], 1e-6);
  }
  {
    v8 r = __enzyme_fwddiff_v8((void *)g, enzyme_width, 8, enzyme_dup, x, d[0], d[1], d[2], d[3], d[4],
                               d[5], d[6], d[7], enzyme_const, n);
    for (int l = 0; l < 8; l++) CHECK("w8", r.d[l], J[l], 1e-6);
  }
  CHECK_DONE();
}
