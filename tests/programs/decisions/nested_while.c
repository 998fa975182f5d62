// Nested data-dependent loops: for each row a while loop walks right while
// the values decrease, and an outer while loop stops once enough has been
// collected. f = sum over the visited entries of a[r][c] * a[r][c+1].
#include "../check.h"

#define R 6
#define C 9

static double f(const double *a, double enough) {
  double total = 0;
  int r = 0;
  while (r < R && total < enough) {
    int c = 0;
    while (c + 1 < C && a[r * C + c + 1] < a[r * C + c]) {
      total += a[r * C + c] * a[r * C + c + 1];
      c++;
    }
    total += a[r * C + c];
    r++;
  }
  return total;
}

int main(void) {
  double a[R * C];
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) a[r * C + c] = 3.0 - 0.3 * c + 0.5 * ((r * 5 + c * 3) % 4) + 0.01 * r;
  double enoughs[] = {0.0, 10.0, 1e9};
  for (int ei = 0; ei < 3; ei++) {
    double da[R * C] = {0}, enough = enoughs[ei];
    __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, enough);
    // analytic: by walking the same way
    double want[R * C] = {0}, total = 0;
    for (int r = 0; r < R && total < enough; r++) {
      int c = 0;
      while (c + 1 < C && a[r * C + c + 1] < a[r * C + c]) {
        total += a[r * C + c] * a[r * C + c + 1];
        want[r * C + c] += a[r * C + c + 1];
        want[r * C + c + 1] += a[r * C + c];
        c++;
      }
      total += a[r * C + c];
      want[r * C + c] += 1.0;
    }
    char name[64];
    for (int k = 0; k < R * C; k++) {
      snprintf(name, sizeof name, "enough=%g da[%d]", enough, k);
      CHECK(name, da[k], want[k], 1e-12);
    }
    for (int k = 0; k < R * C; k += 5) {
      snprintf(name, sizeof name, "enough=%g da[%d] fd", enough, k);
      CHECK(name, da[k], FD(a[k], f(a, enough), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
