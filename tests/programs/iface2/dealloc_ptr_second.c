// __enzyme_allocation_like with a deallocator whose pointer argument is
// not its first ("0,-1": release(pool, p)): shadows come from the
// allocator and go back through the deallocator, in reverse and forward
// mode; the pool's counters show every block returned.
#include "check.h"
typedef struct {
  long live, allocs, frees;
} Pool;
static Pool pool;
__attribute__((noinline)) void *pool_alloc(Pool *p, size_t n) {
  p->live++;
  p->allocs++;
  return malloc(n);
}
__attribute__((noinline)) void pool_release(Pool *p, void *ptr) {
  p->live--;
  p->frees++;
  free(ptr);
}
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"0,-1",
                                     (void *)pool_release};

__attribute__((noinline)) double total(const double *t, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

double f(double x, int n) {
  double *t = pool_alloc(&pool, n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = sin(x * (i + 1));
  double r = total(t, n);
  pool_release(&pool, t);
  return r;
}

static double want(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += 2.0 * sin(x * (i + 1)) * cos(x * (i + 1)) * (i + 1);
  return s;
}

int main(void) {
  double x = 0.7;
  double d = __enzyme_autodiff((void *)f, x, enzyme_const, 5);
  CHECK("reverse", d, want(x, 5), 1e-12);
  CHECK("reverse fd", d, FD(x, f(x, 5), 1e-6), 1e-6);
  double t = __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, 5);
  CHECK("forward", t, want(x, 5), 1e-12);
  CHECK("pool live", pool.live, 0, 0);
  CHECK("pool balanced", pool.allocs, pool.frees, 0);
  printf("allocations %ld, frees %ld\n", pool.allocs, pool.frees);
  CHECK_DONE();
}
