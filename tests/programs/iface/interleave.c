// Marker enzyme_interleave: all primal arguments (with their markers)
// first, then the shadows in the same order. Reverse mode with pointers,
// an active scalar (no shadow) and a constant pointer; forward mode with a
// float tangent; and a seed of the result after the shadows. Checked
// against analytic derivatives and central finite differences, and against
// the same calls with each shadow after its primal.
#include "check.h"
extern int enzyme_interleave;
static void f(const double *x, double *y, double s) { y[0] = x[0] * x[1] * s + sin(x[1]); }
static double g(const double *c, const double *x, double s) { return c[0] * x[0] * x[0] * s + c[1] * x[1]; }
static double h(const double *x, double s) { return x[0] * s * s + exp(x[1]); }
int main(void) {
  double x[2] = {1.5, -0.7}, dx[2] = {0}, y[1], dy[1] = {1}, s = 0.8;
  double ds = __enzyme_autodiff((void *)f, x, y, s, enzyme_interleave, dx, dy);
  CHECK("f dx0", dx[0], x[1] * s, 1e-12);
  CHECK("f dx1", dx[1], x[0] * s + cos(x[1]), 1e-12);
  CHECK("f ds", ds, x[0] * x[1], 1e-12);
  CHECK("f dy zeroed", dy[0], 0, 0);
  double c[2] = {2.0, 3.0}, ex[2] = {0}, ix[2] = {0};
  double es = __enzyme_autodiff((void *)g, enzyme_const, c, enzyme_dup, x, ex, enzyme_out, s);
  double is = __enzyme_autodiff((void *)g, enzyme_const, c, enzyme_dup, x, enzyme_out, s, enzyme_interleave, ix);
  for (int i = 0; i < 2; i++) {
    CHECK("g dx = plain", ix[i], ex[i], 0);
    CHECK("g dx fd", ix[i], FD(x[i], g(c, x, s), 1e-6), 1e-7);
  }
  CHECK("g ds", is, es, 0);
  CHECK("g ds fd", is, FD(s, g(c, x, s), 1e-6), 1e-7);
  // Seed of the result after the shadows.
  double sx[2] = {0};
  double ss = __enzyme_autodiff((void *)g, enzyme_const, c, x, s, enzyme_interleave, sx, 2.0);
  CHECK("g seeded", sx[0], 2 * ex[0], 1e-12);
  CHECK("g seeded s", ss, 2 * es, 1e-12);
  double tx[2] = {0.3, -1.1}, ts = 0.5;
  double t = __enzyme_fwddiff((void *)h, x, s, enzyme_interleave, tx, ts);
  double want = tx[0] * s * s + x[0] * 2 * s * ts + exp(x[1]) * tx[1];
  CHECK("h tangent", t, want, 1e-12);
  double t2 = __enzyme_fwddiff((void *)h, enzyme_dup, x, tx, enzyme_dup, s, ts);
  CHECK("h tangent = plain", t, t2, 0);
  CHECK_DONE();
}
