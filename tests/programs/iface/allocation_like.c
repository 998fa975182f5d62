// User allocators: __enzyme_allocation_like = {alloc, (void *)SIZE_ARG,
// "DEALLOC_ARGS", dealloc} declares `alloc` to behave like malloc (its
// argument SIZE_ARG is the size in bytes) and `dealloc` to free what it
// returns, called with DEALLOC_ARGS (-1: the allocation, k: argument k of
// the allocation call). Shadows of such allocations come from the same
// allocator and go back through the same deallocator, in forward, reverse
// and split mode; the pool's counters show every block returned to it.
#include "check.h"
typedef struct {
  long live, allocs, frees;
} Pool;
static Pool pool_a, pool_b;
__attribute__((noinline)) void *pool_alloc(Pool *pool, size_t n) {
  pool->live++;
  pool->allocs++;
  return malloc(n);
}
__attribute__((noinline)) void pool_free(void *p, Pool *pool) {
  pool->live--;
  pool->frees++;
  free(p);
}
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,0", (void *)pool_free};
// A second allocator whose deallocator takes the pointer alone.
static long plain_live = 0;
__attribute__((noinline)) void *grab(size_t n, int zeroed) {
  plain_live++;
  return zeroed ? calloc(1, n) : malloc(n);
}
__attribute__((noinline)) void release(void *p) {
  plain_live--;
  free(p);
}
void *__enzyme_allocation_like_grab[4] = {(void *)grab, (void *)0, (void *)"-1", (void *)release};
static double f(const double *x, int n, Pool *pool) {
  double *t = (double *)pool_alloc(pool, n * sizeof(double));
  double *u = (double *)grab(n * sizeof(double), 0);
  for (int i = 0; i < n; i++) t[i] = sin(x[i]) * x[(i + 1) % n];
  for (int i = 0; i < n; i++) u[i] = t[i] * t[n - 1 - i];
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * x[i];
  release(u);
  pool_free(t, pool);
  return s;
}
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
int main(void) {
  enum { N = 5 };
  double x[N] = {0.1, -0.4, 0.6, 0.3, -0.2}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, &pool_a);
  for (int i = 0; i < N; i++) CHECK("reverse dx", dx[i], FD(x[i], f(x, N, &pool_a), 1e-6), 1e-6);
  CHECK("pool a: every block freed", pool_a.live, 0, 0);
  CHECK("pool a: shadows from the pool", pool_a.allocs >= 2, 1, 0);
  CHECK("grab: every block released", plain_live, 0, 0);
  // Forward mode: the tangent allocation comes from the pool too.
  double v[N] = {1, 0.5, -1, 2, 0.25}, dir = 0;
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, N, enzyme_const, &pool_b);
  for (int i = 0; i < N; i++) dir += v[i] * FD(x[i], f(x, N, &pool_a), 1e-6);
  CHECK("forward", t, dir, 1e-6);
  CHECK("pool b: every block freed", pool_b.live, 0, 0);
  CHECK("pool b: the tangent from the pool", pool_b.allocs, 2, 0);
  // Split mode.
  double dx2[N] = {0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx2, enzyme_const, N, enzyme_const, &pool_b);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx2, enzyme_const, N, enzyme_const, &pool_b, 1.0, tape);
  for (int i = 0; i < N; i++) CHECK("split dx", dx2[i], dx[i], 1e-12);
  CHECK("pool b: freed after split", pool_b.live, 0, 0);
  CHECK("grab: released after split", plain_live, 0, 0);
  CHECK_DONE();
}
