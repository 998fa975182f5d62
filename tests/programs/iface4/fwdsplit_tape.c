// Split forward mode reading the tape: for functions that overwrite what
// they read, __enzyme_augmentfwd records the values read from outside
// memory and __enzyme_fwdsplit replays them (instead of refusing). The
// tangents are those at the inputs the augmented forward saw, and the
// memory stays as the augmented forward left it. Checked against analytic
// values and central finite differences of the primal on copies.
#include "check.h"
#include <string.h>
double __enzyme_fwdsplit(void *, ...);
extern int enzyme_tape, enzyme_nofree;

// In place through a callee (the case fwdsplit.c's error used to refuse).
__attribute__((noinline)) static void sub(double *x) { x[0] = x[0] * x[0]; }
static void f(double *x) {
  sub(x);
  x[1] = 2 * x[0];
}

// A loop updating an array in place, a global overwritten, a result.
double scale = 1.5;
static double g(double *x, int n) {
  double s = 0;
  for (int i = 1; i < n; i++) {
    x[i] = sin(x[i]) * x[i - 1] + scale * x[i];
    s += x[i] * x[i];
  }
  scale = scale * 2;
  return s;
}

// Copies of the inputs for finite differences.
static double g_out(const double *x0, double sc, int n, int k) {
  double x[8];
  memcpy(x, x0, n * sizeof(double));
  double saved = scale;
  scale = sc;
  double s = g(x, n);
  scale = saved;
  return k < 0 ? s : x[k];
}

// Pointers loaded from outside memory, used in place.
typedef struct {
  double *a, *b;
} Pair;
static void h(Pair *p) {
  p->a[0] = p->a[0] * p->b[0];
  p->b[0] = exp(p->a[0]);
}

int main(void) {
  {
    double x[2] = {3, 0}, dx[2] = {0};
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
    CHECK("f primal", x[1], 18, 0);
    double tx[2] = {1, 0};
    __enzyme_fwdsplit((void *)f, enzyme_dup, x, tx, tape);
    CHECK("f tangent 0", tx[0], 6, 1e-14);
    CHECK("f tangent 1", tx[1], 12, 1e-14);
    CHECK("f memory kept", x[0] * 100 + x[1], 918, 0);
  }
  {
    const int n = 5;
    double x0[5] = {0.3, -0.7, 1.1, 0.4, 2.0};
    for (int c = 0; c < n; c++) {
      double x[5], dx[5] = {0};
      memcpy(x, x0, sizeof x);
      scale = 1.5;
      void *tape = __enzyme_augmentfwd((void *)g, enzyme_dup, x, dx, enzyme_const, n);
      CHECK("g scale doubled", scale, 3, 0);
      double tx[5] = {0};
      tx[c] = 1;
      double ds = __enzyme_fwdsplit((void *)g, enzyme_dup, x, tx, enzyme_const, n, tape);
      double xc[5];
      memcpy(xc, x0, sizeof xc);
      CHECK("g result tangent fd", ds, FD(xc[c], g_out(xc, 1.5, n, -1), 1e-6), 1e-6);
      for (int k = 0; k < n; k++)
        CHECK("g tangent fd", tx[k], FD(xc[c], g_out(xc, 1.5, n, k), 1e-6), 1e-6);
      CHECK("g memory kept", x[4], g_out(x0, 1.5, n, 4), 1e-15);
      CHECK("g global kept", scale, 3, 0);
    }
  }
  {
    double a = 0.5, b = 1.25, da = 0, db = 0;
    Pair p = {&a, &b}, dp = {&da, &db};
    void *tape = __enzyme_augmentfwd((void *)h, enzyme_dup, &p, &dp);
    CHECK("h primal", b, exp(0.625), 1e-15);
    da = 1;
    db = 0;
    __enzyme_fwdsplit((void *)h, enzyme_dup, &p, &dp, enzyme_nofree, tape);
    CHECK("h tangent a", da, 1.25, 1e-14);
    CHECK("h tangent b", db, exp(0.625) * 1.25, 1e-14);
    // enzyme_nofree: the tape is still there; free it as Enzyme's users do.
    free(*(void **)tape);
    free(tape);
  }
  CHECK_DONE();
}
