// Reverse: in a loop, a noinline callee allocates a buffer and stores it
// into a struct field (a container), the loop reads it and frees it
// through the field. The derivative frees each block and its shadow once
// the reverse sweep is done (modes/reverse/freelist.rs): no leak and no
// use after free under ASan (tests/sanitize.sh), gradient checked.
#include "check.h"
typedef struct { double *data; int n; } Buf;
__attribute__((noinline)) static void make(Buf *b, const double *x, int n, int k) {
  b->data = (double *)malloc(n * sizeof(double));
  b->n = n;
  for (int i = 0; i < n; i++) b->data[i] = x[i] * (k + 1) + x[(i + k) % n];
}
double f(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 4; k++) {
    Buf b;
    make(&b, x, n, k);
    for (int i = 0; i < b.n; i++) s += b.data[i] * b.data[i] * 0.5;
    free(b.data);
  }
  return s;
}
int main(void) {
  double x[5] = {0.3, -0.6, 1.1, 0.4, -0.2}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
