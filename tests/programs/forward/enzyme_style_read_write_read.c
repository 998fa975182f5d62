// Enzyme-style: read, write back, read again through the same pointer,
// with dupnoneed on the output buffer.
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void rwr(double *restrict x, double *restrict out) {
  double a = x[0] * x[1];
  x[0] = a + sin(x[1]);
  x[1] = x[0] * x[0];
  *out = x[0] + x[1] * a;
}
static int fails;
static void approx(const char *w, double a, double b) {
  int ok = fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
  printf("%s %s %.17g %.17g\n", ok ? "ok  " : "FAIL", w, a, b);
  fails += !ok;
}
int main(void) {
  double x[2] = {0.5, 1.5}, dx[2] = {0, 1}, out = 0, dout = 0;
  __enzyme_fwddiff((void *)rwr, enzyme_dup, x, dx, enzyme_dupnoneed, &out, &dout);
  double x0 = 0.5, x1 = 1.5;
  double a = x0 * x1, da = x0;
  double y0 = a + sin(x1), dy0 = da + cos(x1);
  double y1 = y0 * y0, dy1 = 2 * y0 * dy0;
  approx("dx0", dx[0], dy0);
  approx("dx1", dx[1], dy1);
  approx("dout", dout, dy0 + dy1 * a + y1 * da);
  return fails != 0;
}
