// FLAGS: -fsanitize=pointer-overflow -fno-sanitize-recover=pointer-overflow
// Reverse mode three times over a loop through a heap array,
// built with -fsanitize=pointer-overflow: its check of each &a[i] (the
// address as an integer, overflow intrinsics, a branch) keeps the
// element's address on the first order's tape, and the third order needs
// that address's shadow of a shadow. Once the tape grows past its first
// block, the second order's copy of the old block into the new one (its
// realloc lowering) must carry those shadows along in the third order
// (it once left them null: a SEGV in the third reverse sweep).
// f = n x^4: f' = 4 n x^3, f'' = 12 n x^2, f''' = 24 n x.
// (Fourth order: fourth_order_heap_growth.c.)
#include "../check.h"
#include <stdlib.h>

static double f(double x, int n) {
  double *a = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    a[i] = x * x;
  double r = 0;
  for (int i = 0; i < n; i++)
    r += a[i] * a[i];
  free(a);
  return r;
}
static double d1(double x, int n) { return __enzyme_autodiff((void *)f, x, n); }
static double d2(double x, int n) { return __enzyme_autodiff((void *)d1, x, n); }
static double d3(double x, int n) { return __enzyme_autodiff((void *)d2, x, n); }

volatile int base_n = 100;

int main(void) {
  double x = 0.7;
  // 100 fits the tapes' first blocks; the others grow them, 5000 many
  // times over.
  int ns[] = {base_n, 2 * base_n + 56, 10 * base_n, 50 * base_n};
  for (int k = 0; k < 4; k++) {
    int n = ns[k];
    CHECK("first", d1(x, n), 4 * n * x * x * x, 1e-9);
    CHECK("second", d2(x, n), 12 * n * x * x, 1e-9);
    CHECK("third", d3(x, n), 24 * n * x, 1e-9);
  }
  CHECK_DONE();
}
