/* A C model whose exact gradients Python uses (fit.py, torch_function.py).
 * Build it as a shared library with the plugin:
 *   enzyme-clang -O2 -shared -fPIC model.c -o libmodel.so -lm
 *
 * The model: y(x) = p0 exp(-p1 x) + p2 sin(p3 x), fitted by least squares. */
#include <enzyme/enzyme.h>
#include <math.h>

enum { NP = 4 };

static double model(const double *p, double x) { return p[0] * exp(-p[1] * x) + p[2] * sin(p[3] * x); }

/* The residuals r_i = y(x_i) - ys_i. */
void residuals(const double *p, const double *xs, const double *ys, int n, double *r) {
  for (int i = 0; i < n; i++) r[i] = model(p, xs[i]) - ys[i];
}

/* The loss 1/2 sum r_i^2. */
double loss(const double *p, const double *xs, const double *ys, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = model(p, xs[i]) - ys[i];
    s += r * r;
  }
  return 0.5 * s;
}

/* The loss and its gradient dp (reverse mode: one sweep for all four
 * parameters). Returns the loss. */
double loss_grad(const double *p, double *dp, const double *xs, const double *ys, int n) {
  for (int k = 0; k < NP; k++) dp[k] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, xs, enzyme_const, ys, enzyme_const, n);
  return loss(p, xs, ys, n);
}

/* The Jacobian of the residuals, row-major n x NP (forward mode: one sweep
 * per parameter, each a column). */
void residuals_jacobian(const double *p, const double *xs, const double *ys, int n, double *jac, double *r,
                        double *dr) {
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    __enzyme_fwddiff((void *)residuals, enzyme_dup, p, dp, enzyme_const, xs, enzyme_const, ys, enzyme_const, n,
                     enzyme_dup, r, dr);
    for (int i = 0; i < n; i++) jac[i * NP + k] = dr[i];
  }
}
