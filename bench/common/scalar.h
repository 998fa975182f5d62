/* bench/common/scalar.h -- hooks shared by every problem whose derivative is
 * the gradient of one scalar objective over a packed input vector x.
 * The problem defines ctx_t, objective(x, c), hand_grad(c, x, g),
 * prob_setup, prob_nin, prob_x, prob_size_str. */
#ifndef BENCH_SCALAR_H
#define BENCH_SCALAR_H
#define PROBLEM_SCALAR 1

static int prob_nout(const ctx_t *c) { return prob_nin(c); }
static int prob_units(const ctx_t *c) { return prob_nin(c); }

#ifndef ADOLC_BUILD
static double *scratch_dx;   /* unit tangent, all zero between sweeps */
static double *scratch_x;    /* perturbed copy for finite differences */

static void run_primal(const ctx_t *c) { bench_sink = objective(prob_x((ctx_t *)c), c); }
static void run_hand(const ctx_t *c, double *out) { hand_grad(c, prob_x((ctx_t *)c), out); }

/* enzyme-rs forward mode: one tangent sweep per unit direction e_j. */
static double fwd_sweep(const double *x, const double *dx, const ctx_t *c) {
  return __enzyme_fwddiff((void *)objective, enzyme_dup, x, dx, enzyme_const, c);
}
static void run_fwd(const ctx_t *c, double *out, int j0, int j1) {
  int n = prob_nin(c);
  const double *x = prob_x((ctx_t *)c);
  if (!scratch_dx) scratch_dx = (double *)calloc(n, sizeof(double));
  for (int j = j0; j < j1; j++) {
    scratch_dx[j] = 1.0;
    out[j] = fwd_sweep(x, scratch_dx, c);
    scratch_dx[j] = 0.0;
  }
}

#if HAVE_VECTOR_FWD
/* enzyme-rs vector forward mode: 8 tangents per sweep. */
typedef struct { double d[8]; } vec8_t;
vec8_t __enzyme_fwddiff_v8(void *, ...);
static double *scratch_vdx;
static void run_vfwd(const ctx_t *c, double *out, int j0, int j1) {
  int n = prob_nin(c);
  const double *x = prob_x((ctx_t *)c);
  if (!scratch_vdx) scratch_vdx = (double *)calloc((size_t)8 * n, sizeof(double));
  double *d = scratch_vdx;
  for (int j = j0; j < j1; j += 8) {
    int w = j1 - j < 8 ? j1 - j : 8;
    for (int l = 0; l < w; l++) d[(size_t)l * n + j + l] = 1.0;
    vec8_t r = __enzyme_fwddiff_v8((void *)objective, enzyme_width, 8, enzyme_dup, x,
                                   d, d + n, d + 2 * (size_t)n, d + 3 * (size_t)n, d + 4 * (size_t)n,
                                   d + 5 * (size_t)n, d + 6 * (size_t)n, d + 7 * (size_t)n,
                                   enzyme_const, c);
    for (int l = 0; l < w; l++) { out[j + l] = r.d[l]; d[(size_t)l * n + j + l] = 0.0; }
  }
}
#endif

#if HAVE_REVERSE
/* enzyme-rs reverse mode: one combined forward+reverse sweep. */
static void run_rev(const ctx_t *c, double *out) {
  int n = prob_nin(c);
  memset(out, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)objective, enzyme_dup, prob_x((ctx_t *)c), out, enzyme_const, c);
}
/* The same call without zeroing `out` first: the gradient is added to what
 * `out` holds (Enzyme's contract). Timed as `enzyme_rev_acc`, it is the
 * derivative's own cost, without the pass over `out` that the caller's
 * zeroing adds (a hand-written gradient writes `out` and needs none). */
#define HAVE_REV_ACC 1
static void run_rev_acc(const ctx_t *c, double *out) {
  __enzyme_autodiff((void *)objective, enzyme_dup, prob_x((ctx_t *)c), out, enzyme_const, c);
}
#endif

/* Rounding noise of a central difference relative to max|g|: about
 * eps |f| / h, which grows with the size of the sum (sumsq at 1e7). */
static double prob_fd_noise(const ctx_t *c, double gmax) {
  double f = fabs(objective(prob_x((ctx_t *)c), c));
  return 2.220446049250313e-16 * f / (6.0554544523933395e-06 * (gmax > 1e-300 ? gmax : 1e-300));
}

/* Central finite differences, step cbrt(eps) * max(1, |x_j|). */
static void run_fd(const ctx_t *c, double *out, int j0, int j1) {
  int n = prob_nin(c);
  const double *x = prob_x((ctx_t *)c);
  if (!scratch_x) { scratch_x = (double *)malloc(sizeof(double) * n); memcpy(scratch_x, x, sizeof(double) * n); }
  for (int j = j0; j < j1; j++) {
    double xj = x[j], h = 6.0554544523933395e-06 * (fabs(xj) > 1 ? fabs(xj) : 1.0);
    scratch_x[j] = xj + h;
    double fp = objective(scratch_x, c);
    scratch_x[j] = xj - h;
    double fm = objective(scratch_x, c);
    scratch_x[j] = xj;
    out[j] = (fp - fm) / (2 * h);
  }
}
#endif /* !ADOLC_BUILD */

#ifdef ADOLC_BUILD
/* ADOL-C: tape the adouble instantiation of objective, then gradient(). */
static double *adolc_xs;
static void adolc_tape(const ctx_t *c) {
  int n = prob_nin(c);
  const double *x = prob_x((ctx_t *)c);
  trace_on(1);
  adouble *ax = new adouble[n];
  for (int i = 0; i < n; i++) ax[i] <<= x[i];
  adouble y = objective(ax, c);
  double yv;
  y >>= yv;
  delete[] ax;
  trace_off();
  bench_sink = yv;
}
static void hand_for_adolc(const ctx_t *c, double *out) { hand_grad(c, prob_x((ctx_t *)c), out); }
static void adolc_eval(const ctx_t *c, double *out) {
  gradient(1, prob_nin(c), prob_x((ctx_t *)c), out);
}
#endif

#endif
