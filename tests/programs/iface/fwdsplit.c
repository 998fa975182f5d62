// Split forward mode: __enzyme_augmentfwd runs the primal and returns a
// tape; __enzyme_fwdsplit(f, args..., tape) then gives the tangents (and
// frees the tape). Also with a null tape, with enzyme_tape /
// enzyme_allocated (caller's tape memory) and with a split derivative
// registered by __enzyme_register_splitderivative (used by forward mode
// for calls to that function). Checked against analytic values and
// finite differences.
#include "check.h"
double __enzyme_fwdsplit(void *, ...);
extern int enzyme_tape, enzyme_allocated;

static void lin(const double *x, double *y, double a) {
  y[0] = a * x[0] + sin(x[1]);
  y[1] = x[0] * x[1] * a;
  y[2] = exp(x[0]) - x[1] * x[1];
}
static double sq(double x) { return x * sin(x) + x * x; }

// A split derivative: mul_aug runs the primal and keeps its operands on
// its own tape; mul_fwd reads them back.
static int augs = 0, fwds = 0;
__attribute__((noinline)) double mul(double a, double b) { return a * b; }
typedef struct {
  void *tape;
  double primal;
} AugRet;
static AugRet mul_aug(double a, double b) {
  augs++;
  double *t = (double *)malloc(2 * sizeof(double));
  t[0] = a;
  t[1] = b;
  AugRet r = {t, a * b};
  return r;
}
typedef struct {
  double primal, tangent;
} Dual;
static Dual mul_fwd(double a, double da, double b, double db, void *tape) {
  fwds++;
  double *t = (double *)tape;
  Dual r = {t[0] * t[1], da * t[1] + t[0] * db};
  free(tape);
  return r;
}
void *__enzyme_register_splitderivative_mul[] = {(void *)mul, (void *)mul_aug, (void *)mul_fwd};
static double h(double x) { return mul(x, sin(x)) * x; }

int main(void) {
  double x[2] = {0.4, -1.1}, y[3], a = 1.7;
  double J[3][2] = {{a, cos(x[1])}, {x[1] * a, x[0] * a}, {exp(x[0]), -2 * x[1]}};
  for (int c = 0; c < 2; c++) {
    double dx[2] = {0}, dy[3] = {0};
    void *tape = __enzyme_augmentfwd((void *)lin, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, a);
    CHECK("primal y0", y[0], a * x[0] + sin(x[1]), 1e-15);
    double tx[2] = {0, 0}, ty[3] = {0, 0, 0};
    tx[c] = 1;
    __enzyme_fwdsplit((void *)lin, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, a, tape);
    for (int r = 0; r < 3; r++) CHECK("tangent", ty[r], J[r][c], 1e-12);
    CHECK("primal unchanged", y[2], exp(x[0]) - x[1] * x[1], 1e-15);
  }
  // The tape in the caller's memory (enzyme_allocated, enzyme_tape).
  enum { n = 64 };
  void *mem = malloc(n);
  double dx[2] = {0}, dy[3] = {0}, tx[2] = {1, 1}, ty[3] = {0};
  __enzyme_augmentfwd((void *)lin, enzyme_allocated, n, enzyme_tape, mem, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, a);
  __enzyme_fwdsplit((void *)lin, enzyme_allocated, n, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, a,
                    enzyme_tape, mem);
  for (int r = 0; r < 3; r++) CHECK("allocated tape", ty[r], J[r][0] + J[r][1], 1e-12);
  free(mem);
  // A scalar function and a null tape (nothing was taped).
  double s = 0.9;
  double ds = __enzyme_fwdsplit((void *)sq, s, 1.0, (void *)0);
  CHECK("scalar", ds, sin(s) + s * cos(s) + 2 * s, 1e-12);
  CHECK("scalar fd", ds, FD(s, sq(s), 1e-6), 1e-6);
  // The split derivative of mul, in split and plain forward mode.
  double t = 0.6;
  double dh = __enzyme_fwdsplit((void *)h, t, 1.0, (void *)0);
  double want = 2 * t * sin(t) + t * t * cos(t);
  CHECK("split derivative", dh, want, 1e-12);
  CHECK("split derivative fd", dh, FD(t, h(t), 1e-6), 1e-6);
  CHECK("used once", augs * 10 + fwds, 11, 0);
  CHECK("fwddiff uses it too", __enzyme_fwddiff((void *)h, t, 1.0), want, 1e-12);
  CHECK("used twice", augs * 10 + fwds, 22, 0);
  CHECK_DONE();
}
