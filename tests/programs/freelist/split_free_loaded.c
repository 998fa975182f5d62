// Split mode (__enzyme_augmentfwd + __enzyme_reverse) of a function that
// frees, through a struct field, blocks a noinline callee allocated: the
// augmented sweep defers those frees (modes/reverse/freelist.rs) and each
// tape carries its own; __enzyme_reverse frees them after its sweep.
// 1000 augment/reverse pairs, several tapes outstanding and reversed in
// another order: the heap does not grow (no leak, no use after free under
// ASan), gradient checked against finite differences.
#include "check.h"
#include "freelist/heap.h"
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
#define N 16
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
static void grad3(double *x, double (*dx)[N]) {
  void *t[3];
  for (int k = 0; k < 3; k++) t[k] = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx[k], enzyme_const, N);
  int order[3] = {1, 2, 0};
  for (int j = 0; j < 3; j++) {
    int k = order[j];
    __enzyme_reverse((void *)f, enzyme_dup, x, dx[k], enzyme_const, N, (double)(k + 1), t[k]);
  }
}
int main(void) {
  double x[N], dx[3][N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.7;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < N; i++) dx[k][i] = 0;
  grad3(x, dx);
  for (int i = 0; i < N; i += 5) {
    double want = FD(x[i], f(x, N), 1e-6);
    CHECK("dx fd (seed 1)", dx[0][i], want, 1e-6);
    CHECK("dx fd (seed 3)", dx[2][i], 3 * want, 1e-6);
  }
  size_t before = heap_bytes();
  for (int it = 0; it < 333; it++) grad3(x, dx);
  size_t after = heap_bytes();
  long grown = (long)after - (long)before;
  CHECK("heap growth over 1000 augment/reverse pairs < 16 KiB", grown < 16384, 1, 0);
  if (grown >= 16384) printf("grown %ld bytes\n", grown);
  CHECK_DONE();
}
