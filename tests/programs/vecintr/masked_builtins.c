// Masked memory through clang 22's vector builtins: __builtin_masked_load,
// __builtin_masked_store, __builtin_masked_gather, __builtin_masked_scatter
// (llvm.masked.load/store/gather/scatter, any CPU: the backend expands
// them), and __builtin_reduce_maximum / _minimum (llvm.vector.reduce.
// fmaximum / fminimum). Gather and scatter with repeated indices: a
// gathered element's derivative sums over the lanes that read it; of the
// lanes scattering to one element only the last one's value stays, and
// only it gets the derivative. Forward, vector forward and reverse mode,
// checked against analytic derivatives and central finite differences.
// clang 16 has none of these builtins.
// LLVM16-EXPECT-ERROR: use of unknown builtin '__builtin_masked_load'
// LEVELS: O0 O1 O2 O3
#include "check.h"

typedef double v4 __attribute__((ext_vector_type(4)));
typedef _Bool m4 __attribute__((ext_vector_type(4)));
typedef long i4 __attribute__((ext_vector_type(4)));

/* y[k] = x[k]^3 where c[k] > 0 (masked load and store), the other
 * elements of y keep 2 x[k]; then sum(w * y). */
double cube_where(const double *x, const double *c, const double *w) {
  double y[4];
  for (int k = 0; k < 4; k++) y[k] = 2 * x[k];
  v4 cv;
  __builtin_memcpy(&cv, c, sizeof cv);
  m4 m = cv > 0;
  v4 pass = {10, 10, 10, 10};
  v4 v = __builtin_masked_load(m, x, pass);
  __builtin_masked_store(m, v * v * v, y);
  /* The passthru lanes carry x[3] where the mask is off. */
  v4 q = __builtin_masked_load(m, x, (v4){x[3], x[3], x[3], x[3]});
  double s = 0;
  for (int k = 0; k < 4; k++) s += w[k] * y[k] + q[k];
  return s;
}

/* sum_k g_k^2 for g = gather(x, idx) under a mask, idx with repeats. */
double gather_sq(const double *x, const long *idx, const double *c) {
  v4 cv;
  __builtin_memcpy(&cv, c, sizeof cv);
  m4 m = cv > 0;
  i4 iv;
  __builtin_memcpy(&iv, idx, sizeof iv);
  v4 g = __builtin_masked_gather(m, iv, x, (v4){0, 0, 0, 0});
  v4 sq = g * g;
  return sq[0] + sq[1] + sq[2] + sq[3];
}

/* y[idx[k]] = 3 x[k] under a mask (idx with repeats: the last lane wins),
 * then sum(w * y). */
double scatter_sum(const double *x, const long *idx, const double *c, const double *w) {
  double y[6] = {0, 0, 0, 0, 0, 0};
  v4 cv, xv;
  __builtin_memcpy(&cv, c, sizeof cv);
  __builtin_memcpy(&xv, x, sizeof xv);
  m4 m = cv > 0;
  i4 iv;
  __builtin_memcpy(&iv, idx, sizeof iv);
  __builtin_masked_scatter(m, iv, 3 * xv, y);
  double s = 0;
  for (int k = 0; k < 6; k++) s += w[k] * y[k];
  return s;
}

/* maximum(x) - 2 minimum(x) (NaN-propagating reductions). */
double maxmin(const double *x) {
  v4 v;
  __builtin_memcpy(&v, x, sizeof v);
  return __builtin_reduce_maximum(v) - 2 * __builtin_reduce_minimum(v);
}

typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_2(void *, ...);

static void check_grad(const char *what, const double *x, const double *want, int n) {
  for (int k = 0; k < n; k++) {
    char name[64];
    snprintf(name, sizeof name, "%s dx[%d]", what, k);
    CHECK(name, x[k], want[k], 1e-12);
  }
}

int main(void) {
  double x[4] = {0.5, -1.25, 2.0, 0.75}, c[4] = {1, -1, 1, 1}, w[6] = {1, 2, 3, 4, 5, 6};
  long idx[4] = {1, 3, 1, 0};

  /* cube_where: lanes 0, 2, 3 cube, lane 1 keeps 2 x[1]; q adds x[0], x[2],
   * x[3] (loaded) and x[3] once more (lane 1's passthru). */
  double want_c[4];
  for (int k = 0; k < 4; k++)
    want_c[k] = (c[k] > 0 ? w[k] * 3 * x[k] * x[k] + 1 : w[k] * 2);
  want_c[3] += 1;
  double dx[4] = {0};
  __enzyme_autodiff((void *)cube_where, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, w);
  check_grad("cube_where rev", dx, want_c, 4);
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff((void *)cube_where, enzyme_dup, x, t, enzyme_const, c, enzyme_const, w);
    CHECK("cube_where fwd", d, want_c[k], 1e-12);
    CHECK("cube_where fd", d, FD(x[k], cube_where(x, c, w), 1e-6), 1e-6);
  }
  double t0[4] = {1, 0, 0, 1}, t1[4] = {0, 1, 1, 0};
  d2 r = __enzyme_fwddiff_2((void *)cube_where, enzyme_width, 2, enzyme_dup, x, t0, t1,
                            enzyme_const, c, enzyme_const, w);
  CHECK("cube_where fwd2 lane0", r.a, want_c[0] + want_c[3], 1e-12);
  CHECK("cube_where fwd2 lane1", r.b, want_c[1] + want_c[2], 1e-12);

  /* gather_sq: lanes 0 (x[1]), 2 (x[1]), 3 (x[0]); lane 1 (x[3]) is off. */
  double want_g[4] = {2 * x[0], 4 * x[1], 0, 0};
  double dg[4] = {0};
  __enzyme_autodiff((void *)gather_sq, enzyme_dup, x, dg, enzyme_const, idx, enzyme_const, c);
  check_grad("gather rev", dg, want_g, 4);
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff((void *)gather_sq, enzyme_dup, x, t, enzyme_const, idx, enzyme_const, c);
    CHECK("gather fwd", d, want_g[k], 1e-12);
    CHECK("gather fd", d, FD(x[k], gather_sq(x, idx, c), 1e-6), 1e-6);
  }

  /* scatter_sum: lanes 0 and 2 write y[1] (lane 2 wins), lane 3 writes
   * y[0]; lane 1 is off. */
  double want_s[4] = {0, 0, 3 * w[1], 3 * w[0]};
  double ds[4] = {0};
  __enzyme_autodiff((void *)scatter_sum, enzyme_dup, x, ds, enzyme_const, idx, enzyme_const, c,
                    enzyme_const, w);
  check_grad("scatter rev", ds, want_s, 4);
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff((void *)scatter_sum, enzyme_dup, x, t, enzyme_const, idx,
                                enzyme_const, c, enzyme_const, w);
    CHECK("scatter fwd", d, want_s[k], 1e-12);
    CHECK("scatter fd", d, FD(x[k], scatter_sum(x, idx, c, w), 1e-6), 1e-6);
  }

  /* maxmin: maximum is x[2], minimum x[1]. */
  double want_m[4] = {0, -2, 1, 0};
  double dm[4] = {0};
  __enzyme_autodiff((void *)maxmin, enzyme_dup, x, dm);
  check_grad("maxmin rev", dm, want_m, 4);
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1;
    double d = __enzyme_fwddiff((void *)maxmin, enzyme_dup, x, t);
    CHECK("maxmin fwd", d, want_m[k], 1e-12);
  }
  CHECK_DONE();
}
