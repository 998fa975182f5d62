// Reverse: a user allocator registered with __enzyme_allocation_like
// (size argument 0, deallocator my_free) used for a temporary inside the
// differentiated function; its shadow comes from the same allocator.
#include "check.h"
static int live_blocks = 0;
__attribute__((noinline)) void *my_alloc(size_t n) {
  live_blocks++;
  return malloc(n);
}
__attribute__((noinline)) void my_free(void *p) {
  live_blocks--;
  free(p);
}
void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)"-1", (void *)my_free};
double f(const double *x, int n) {
  double *t = (double *)my_alloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[n - 1 - i];
  my_free(t);
  return s;
}
int main(void) {
  double x[5] = {0.1, -0.4, 0.6, 0.3, -0.2}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK("no leak", live_blocks, 0, 0);
  CHECK_DONE();
}
