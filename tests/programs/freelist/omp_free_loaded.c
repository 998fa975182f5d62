// FLAGS: -fopenmp
// THREADS: 1 2 4
// Reverse mode of a parallel region whose iterations free, through a
// struct field, blocks a noinline callee allocated: each thread's
// augmented worker defers those frees (modes/reverse/freelist.rs) and
// carries them on its own tape; the region's reverse hands them to the
// forking thread, and the gradient frees them at its end. 300 gradients:
// the heap does not grow (the worker threads' lists included), no use
// after free under ASan, gradient checked against finite differences.
#include "check.h"
#include "freelist/heap.h"
#define N 16
#define K 8
typedef struct { double *data; int n; } Buf;
__attribute__((noinline)) static void make(Buf *b, const double *x, int n, int k) {
  b->data = (double *)malloc(n * sizeof(double));
  b->n = n;
  for (int i = 0; i < n; i++) b->data[i] = x[i] * (k + 1) + x[(i + k) % n];
}
double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int k = 0; k < K; k++) {
    Buf b;
    make(&b, x, n, k);
    double t = 0;
    for (int i = 0; i < b.n; i++) t += b.data[i] * b.data[i] * 0.5;
    free(b.data);
    s += t;
  }
  return s;
}
int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.7;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i += 3) CHECK("dx fd", dx[i], FD(x[i], f(x, N), 1e-6), 1e-6);
  size_t before = heap_bytes();
  for (int it = 0; it < 300; it++) __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  size_t after = heap_bytes();
  long grown = (long)after - (long)before;
  CHECK("heap growth over 300 gradients < 16 KiB", grown < 16384, 1, 0);
  if (grown >= 16384) printf("grown %ld bytes\n", grown);
  CHECK_DONE();
}
