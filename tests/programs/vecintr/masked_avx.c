// Masked loads and stores from AVX code: _mm256_maskload_pd and
// _mm256_maskstore_pd with a comparison's mask, which InstCombine turns
// into llvm.masked.load / llvm.masked.store before the pass runs (-O1 and
// above; at -O0 they stay x86 intrinsics). The kernels carry
// target("avx2,fma") and main checks the CPU first: on a CPU without
// AVX2 the program says so and passes. A conditional update y[k] = x[k]^3
// where c[k] > 0 over a local array (its other elements keep 2 x[k]), in
// forward, vector forward (enzyme_width 2) and reverse mode, against
// analytic derivatives and central finite differences.
// LEVELS: O1 O2 O3
#include "check.h"
#include <immintrin.h>

#define AVX __attribute__((target("avx2,fma")))

AVX static void cube_where(const double *x, double *y, const double *c, int n) {
  for (int k = 0; k + 4 <= n; k += 4) {
    __m256d m = _mm256_cmp_pd(_mm256_loadu_pd(c + k), _mm256_setzero_pd(), _CMP_GT_OQ);
    __m256i mi = _mm256_castpd_si256(m);
    __m256d v = _mm256_maskload_pd(x + k, mi);
    _mm256_maskstore_pd(y + k, mi, _mm256_mul_pd(v, _mm256_mul_pd(v, v)));
  }
}

AVX double loss(const double *x, const double *c, const double *w) {
  double y[8];
  for (int k = 0; k < 8; k++) y[k] = 2 * x[k];
  cube_where(x, y, c, 8);
  double s = 0;
  for (int k = 0; k < 8; k++) s += w[k] * y[k];
  return s;
}

/* y (an output) written under the mask, read back and squared. */
AVX void update(const double *x, double *y, const double *c) {
  cube_where(x, y, c, 8);
  for (int k = 0; k < 8; k++) y[k] = y[k] * y[k];
}

typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_2(void *, ...);

int main(void) {
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    printf("skip: this CPU has no AVX2/FMA\n");
    return 0;
  }
  double x[8] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5, -2.0, 0.25};
  double c[8] = {1, -1, 1, 1, -1, -1, 1, 0};
  double w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  double want[8];
  for (int k = 0; k < 8; k++) want[k] = c[k] > 0 ? 3 * w[k] * x[k] * x[k] : 2 * w[k];

  double dx[8] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, w);
  for (int k = 0; k < 8; k++) {
    CHECK("rev", dx[k], want[k], 1e-12);
    double t[8] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff((void *)loss, enzyme_dup, x, t, enzyme_const, c, enzyme_const, w);
    CHECK("fwd", d, want[k], 1e-12);
    CHECK("fd", d, FD(x[k], loss(x, c, w), 1e-6), 1e-6);
  }
  double t0[8] = {1, 1, 0, 0, 1, 0, 1, 0}, t1[8] = {0, 0, 1, 1, 0, 1, 0, 1};
  d2 r = __enzyme_fwddiff_2((void *)loss, enzyme_width, 2, enzyme_dup, x, t0, t1, enzyme_const, c,
                            enzyme_const, w);
  double w0 = 0, w1 = 0;
  for (int k = 0; k < 8; k++) {
    w0 += want[k] * t0[k];
    w1 += want[k] * t1[k];
  }
  CHECK("fwd2 lane0", r.a, w0, 1e-12);
  CHECK("fwd2 lane1", r.b, w1, 1e-12);

  /* update: y[k] = (c[k] > 0 ? x[k]^3 : y0[k])^2; dy0 flows only where the
   * mask is off, dx only where it is on. */
  double y[8], y0[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dy[8], dxu[8] = {0};
  for (int k = 0; k < 8; k++) {
    y[k] = y0[k];
    dy[k] = 1;
  }
  __enzyme_autodiff((void *)update, enzyme_dup, x, dxu, enzyme_dup, y, dy, enzyme_const, c);
  for (int k = 0; k < 8; k++) {
    double x3 = x[k] * x[k] * x[k];
    CHECK("update dx", dxu[k], c[k] > 0 ? 2 * x3 * 3 * x[k] * x[k] : 0.0, 1e-12);
    CHECK("update dy", dy[k], c[k] > 0 ? 0.0 : 2 * y0[k], 1e-12);
  }
  CHECK_DONE();
}
