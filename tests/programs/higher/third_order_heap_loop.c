// Reverse mode three times over a function whose loop has a runtime trip
// count and goes through a heap array it frees, called many times: each
// order's tape grows (several times, past its first block) inside the
// order below's differentiated tape helpers, and every block those grow
// into, with its shadows, must be freed once the outer gradient is done
// (run leak-checked under AddressSanitizer). With s_i = x + i/100,
// f = sum sin(s_i)^2 = sum (1 - cos 2 s_i) / 2, so f' = sum sin 2 s_i,
// f'' = 2 sum cos 2 s_i, f''' = -4 sum sin 2 s_i.
#include "../check.h"
#include <stdlib.h>

static double f(double x, int n) {
  double *a = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    a[i] = sin(x + i / 100.0);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += a[i] * a[i];
  free(a);
  return r;
}
static double d1(double x, int n) { return __enzyme_autodiff((void *)f, x, n); }
static double d2(double x, int n) { return __enzyme_autodiff((void *)d1, x, n); }
static double d3(double x, int n) { return __enzyme_autodiff((void *)d2, x, n); }

static double sum_sin2(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(2 * (x + i / 100.0));
  return s;
}
static double sum_cos2(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cos(2 * (x + i / 100.0));
  return s;
}

volatile int base_n = 300;

int main(void) {
  double x = 0.7;
  int n = base_n;
  CHECK("first", d1(x, n), sum_sin2(x, n), 1e-10);
  CHECK("second", d2(x, n), 2 * sum_cos2(x, n), 1e-10);
  CHECK("third", d3(x, n), -4 * sum_sin2(x, n), 1e-10);
  // Many calls with varying trip counts: a block leaked per call would
  // add up (and LeakSanitizer names it).
  double got = 0, want = 0;
  for (int k = 0; k < 40; k++) {
    int m = base_n + 37 * (k % 7);
    double y = 0.3 + 0.01 * k;
    got += d3(y, m);
    want += -4 * sum_sin2(y, m);
  }
  CHECK("third, repeated", got, want, 1e-10);
  CHECK_DONE();
}
