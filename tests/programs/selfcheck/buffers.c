// Self-check mode (-enzyme-check): duplicated buffers (local arrays, a
// global array, malloc'd blocks, a struct of doubles) that the function
// reads, overwrites and accumulates into, and a constant integer array:
// the check runs on copies, so the program's values, shadows and results
// are exactly those of a run without it (checked here against finite
// differences), and correct derivatives report no mismatch.
// FLAGS: -fplugin=%plugin -mllvm -enzyme-check -mllvm -enzyme-check-abort
#include "check.h"

#define N 4
static double G[N] = {0.5, -0.25, 1.5, 0.75};

/* out[i] = x[i]^2 * w[idx[i]] (written), acc[0] += sum(out) (accumulated);
 * returns a smooth function of x and the global weights. */
static double k(const double *x, double *out, double *acc, const int *idx, const double *w) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    out[i] = x[i] * x[i] * w[idx[i]];
    acc[0] += out[i];
    s += sin(x[i]) * w[i];
  }
  return s + acc[0] * acc[0];
}

typedef struct { double a, b, c; } abc;
static void scale(abc *p, double t) {
  p->a *= t;
  p->b = p->a * p->c + t;
  p->c = exp(p->b * 0.1);
}

int main(void) {
  double x[N] = {0.3, -0.6, 0.9, 1.2}, dx[N] = {0};
  double out[N] = {0}, dout[N] = {1, 0, 0, 0};
  double acc[1] = {0.25}, dacc[1] = {0.5};
  int idx[N] = {3, 2, 1, 0};
  double r = __enzyme_autodiff((void *)k, enzyme_dup, x, dx, enzyme_dup, out, dout,
                               enzyme_dup, acc, dacc, enzyme_const, idx, enzyme_dup, G,
                               (double[N]){0});
  (void)r;
  /* acc was 0.25: the derivative ran exactly once on the program's memory. */
  double want_acc = 0.25;
  for (int i = 0; i < N; i++) want_acc += x[i] * x[i] * G[idx[i]];
  CHECK("acc updated once", acc[0], want_acc, 1e-12);
  for (int i = 0; i < N; i++) {
    /* d/dx[i] of: ret + dout.out + dacc*acc (out, acc as outputs) */
    double w = G[idx[i]];
    double want = cos(x[i]) * G[i] + 2 * want_acc * 2 * x[i] * w + (i == 0) * 2 * x[i] * w +
                  0.5 * 2 * x[i] * w;
    CHECK("dk/dx", dx[i], want, 1e-9);
  }

  /* Heap blocks, in a loop (the first two calls are checked). */
  double *y = malloc(N * sizeof(double)), *dy = malloc(N * sizeof(double));
  double *o = malloc(N * sizeof(double)), *dO = malloc(N * sizeof(double));
  double a1 = 0, da1 = 0;
  for (int rep = 0; rep < 3; rep++) {
    for (int i = 0; i < N; i++) y[i] = 0.1 * i + rep, dy[i] = 0, o[i] = 0, dO[i] = 0;
    a1 = 0, da1 = 0;
    __enzyme_autodiff((void *)k, enzyme_dup, y, dy, enzyme_dup, o, dO, enzyme_dup, &a1, &da1,
                      enzyme_const, idx, enzyme_const, G);
    for (int i = 0; i < N; i++)
      CHECK("heap dk/dy", dy[i], cos(y[i]) * G[i] + 2 * a1 * 2 * y[i] * G[idx[i]], 1e-9);
  }
  /* Forward mode on the same function. */
  double t[N] = {1, 0, 0, 0}, dot[N] = {0}, acc2 = 0, dacc2 = 0;
  for (int i = 0; i < N; i++) y[i] = x[i];
  double tk = __enzyme_fwddiff((void *)k, enzyme_dup, y, t, enzyme_dup, o, dot, enzyme_dup, &acc2,
                               &dacc2, enzyme_const, idx, enzyme_const, G);
  CHECK("fwd dk", tk, cos(y[0]) * G[0] + 2 * acc2 * 2 * y[0] * G[idx[0]], 1e-9);
  CHECK("fwd dout", dot[0], 2 * y[0] * G[idx[0]], 1e-12);
  free(y), free(dy), free(o), free(dO);

  abc p = {1.5, 0.2, -0.4}, dp = {1, 1, 1};
  abc p0 = p;
  __enzyme_autodiff((void *)scale, enzyme_dup, &p, &dp, 1.3);
  CHECK("struct primal", p.a, p0.a * 1.3, 1e-12);
  CHECK_DONE();
}
