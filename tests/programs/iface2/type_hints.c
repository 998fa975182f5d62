// Enzyme's type annotations (__enzyme_double / __enzyme_float /
// __enzyme_integer / __enzyme_pointer: what memory holds, for type
// analysis; erased after differentiation, so no definition is needed) and
// the __enzyme_shouldrecompute / __enzyme_no_escaping_allocation
// registrations (accepted hints), in a program differentiated in both
// modes.
#include "check.h"
#include <string.h>
void __enzyme_double(void *, size_t);
void __enzyme_float(void *, size_t);
void __enzyme_integer(void *, size_t);
void __enzyme_pointer(void *);

__attribute__((noinline)) double scale(double v) { return 1.5 * v; }
__attribute__((noinline)) void *scratch(size_t n) { return malloc(n); }
void *__enzyme_shouldrecompute[] = {(void *)scale};
void *__enzyme_no_escaping_allocation[] = {(void *)scratch};

typedef struct {
  int idx[2];
  float w;
} Item;

double f(const double *x, int n) {
  Item it;
  double *data = malloc(n * sizeof(double));
  int *marks = scratch(n * sizeof(int)); /* integers only */
  for (int i = 0; i < n; i++)
    marks[i] = i;
  __enzyme_pointer(&data);
  __enzyme_double(data, n * sizeof(double));
  __enzyme_integer(it.idx, sizeof it.idx);
  __enzyme_float(&it.w, sizeof it.w);
  memcpy(data, x, n * sizeof(double));
  it.idx[0] = n - 1, it.idx[1] = 0;
  it.w = 2.0f;
  double r = scale(data[it.idx[0]]) * data[it.idx[1]] * it.w;
  free(data);
  r += 0.0 * marks[n - 1];
  free(marks);
  return r;
}

int main(void) {
  double x[3] = {2.0, 3.0, 5.0}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  CHECK("dx0", dx[0], 3.0 * 5.0, 1e-12);
  CHECK("dx1", dx[1], 0.0, 1e-12);
  CHECK("dx2", dx[2], 3.0 * 2.0, 1e-12);
  double tx[3] = {1.0, 0.5, -1.0};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, 3);
  CHECK("forward", t, 15.0 * 1.0 + 6.0 * -1.0, 1e-12);
  CHECK_DONE();
}
