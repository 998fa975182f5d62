// Vector reductions written with clang's vector extension:
// __builtin_reduce_max / __builtin_reduce_min over ext_vector_type
// doubles and floats (llvm.vector.reduce.fmax / fmin): the derivative goes
// to the selected lane (the first one at a tie), in forward mode, vector
// forward mode (enzyme_width 2) and reverse mode; every value checked
// against the one-hot analytic derivative and a central finite difference.
// (clang's __builtin_reduce_add/mul take integer vectors only: the fadd
// and fmul reductions are lit/vecintr's.)
// LEVELS: O0 O1 O2 O3
#include "check.h"

typedef double v4 __attribute__((ext_vector_type(4)));
typedef float v8f __attribute__((ext_vector_type(8)));

/* max(x) * min(x * x) + x[1]: the lanes picked by max and min get it. */
double spread(const double *x) {
  v4 v;
  __builtin_memcpy(&v, x, sizeof v);
  return __builtin_reduce_max(v) * __builtin_reduce_min(v * v) + x[1];
}

/* A float vector (8 lanes): 2 * max(x) - min(x). */
float spreadf(const float *x) {
  v8f v;
  __builtin_memcpy(&v, x, sizeof v);
  return 2.0f * __builtin_reduce_max(v) - __builtin_reduce_min(v);
}

typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_2(void *, ...);

int main(void) {
  double x[4] = {0.5, -1.25, 2.0, 0.75};
  /* max = x[2] = 2, min(x*x) = x[0]^2 = 0.25 */
  double want[4] = {2 * 2 * x[0], 1.0, x[0] * x[0], 0.0};
  double dx[4] = {0};
  __enzyme_autodiff((void *)spread, enzyme_dup, x, dx);
  for (int k = 0; k < 4; k++) {
    char n[32];
    snprintf(n, sizeof n, "rev dx[%d]", k);
    CHECK(n, dx[k], want[k], 1e-12);
    CHECK(n, dx[k], FD(x[k], spread(x), 1e-6), 1e-6);
  }
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1.0;
    double d = __enzyme_fwddiff((void *)spread, enzyme_dup, x, t);
    CHECK("fwd", d, want[k], 1e-12);
  }
  /* Two directions at once. */
  double t0[4] = {1, 2, 3, 4}, t1[4] = {0, 1, 0, -1};
  d2 r = __enzyme_fwddiff_2((void *)spread, enzyme_width, 2, enzyme_dup, x, t0, t1);
  double w0 = 0, w1 = 0;
  for (int k = 0; k < 4; k++) {
    w0 += want[k] * t0[k];
    w1 += want[k] * t1[k];
  }
  CHECK("fwd2 lane0", r.a, w0, 1e-12);
  CHECK("fwd2 lane1", r.b, w1, 1e-12);

  /* A tie: the first of the equal lanes gets the derivative. */
  double y[4] = {1.0, 3.0, 3.0, -2.0}, dy[4] = {0};
  __enzyme_autodiff((void *)spread, enzyme_dup, y, dy);
  /* max = y[1] (first of the tie), min(y*y) = y[0]^2 */
  CHECK("tie dy[0]", dy[0], 3.0 * 2 * y[0], 1e-12);
  CHECK("tie dy[1]", dy[1], y[0] * y[0] + 1.0, 1e-12);
  CHECK("tie dy[2]", dy[2], 0.0, 1e-12);
  CHECK("tie dy[3]", dy[3], 0.0, 1e-12);

  float xf[8] = {0.5f, -1.0f, 4.0f, 2.0f, -3.0f, 1.0f, 0.0f, 3.5f}, dxf[8] = {0};
  __enzyme_autodiff((void *)spreadf, enzyme_dup, xf, dxf);
  for (int k = 0; k < 8; k++) {
    double w = (k == 2 ? 2.0 : 0.0) - (k == 4 ? 1.0 : 0.0);
    CHECK("rev float", dxf[k], w, 1e-6);
    float tf[8] = {0};
    tf[k] = 1.0f;
    float d = __enzyme_fwddiff((void *)spreadf, enzyme_dup, xf, tf);
    CHECK("fwd float", d, w, 1e-6);
  }
  CHECK_DONE();
}
