// Reverse mode: a growable vector whose push (a function of its own)
// reallocates the block the vector holds: the old block is a loaded
// pointer no allocation of push names, so it and its shadow are freed
// after the gradient's reverse sweep (leak-checked under
// AddressSanitizer). Called repeatedly, so recycled heap blocks (whose
// bytes past the size asked for are not zero) become the shadows.
#include "check.h"

typedef struct {
  double *data;
  int len, cap;
} vec;

__attribute__((noinline)) static void push(vec *v, double x) {
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 3;
    v->data = (double *)realloc(v->data, v->cap * sizeof(double));
  }
  v->data[v->len++] = x;
}

static double f(const double *x, int n) {
  vec v = {0, 0, 0};
  for (int i = 0; i < n; i++)
    push(&v, x[i] * x[i] + (i ? 0.5 * v.data[i - 1] : 0));
  double s = 0;
  for (int i = 0; i < v.len; i++)
    s += v.data[i] * (i + 1);
  free(v.data);
  return s;
}

int main(void) {
  enum { N = 40 };
  double x[N], dx[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.05 * i - 1;
  for (int rep = 0; rep < 20; rep++) {
    int n = 10 + rep;
    for (int i = 0; i < N; i++)
      dx[i] = 0;
    __enzyme_autodiff((void *)f, x, dx, n);
    if (rep % 5 == 4)
      for (int i = 0; i < n; i++)
        CHECK("dvec fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
