// Forward mode with enzyme_dupnoneed pointers: the primal memory behind
// them is not written when nothing needs it (a bogus pointer works: the
// writes are dropped, also inside calls, which are inlined first), and is
// written when the derivative reads the primal values back (here the
// tangent of p[0] * x needs p[0]): dropping those writes would give a
// wrong tangent.
#include "check.h"
#include <stdint.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;

__attribute__((noinline)) static void fill(double *out, const double *x, int n) {
  for (int i = 0; i < n; i++) out[i] = sin(x[i]) * x[i];
}
// Writes only: out's primal is not needed.
static void squares(const double *x, double *out, int n) {
  fill(out, x, n);
  out[0] += x[1] * x[1];
}
// Reads back what it wrote: the primal values are needed.
static double reread(double *p, double x) {
  p[0] = x * x;
  p[1] = p[0] * x;
  return p[1] * p[0];
}

int main(void) {
  double x[3] = {0.4, -1.3, 2.2}, dx[3] = {0, 1, 0}, dout[3] = {0};
  double *never = (double *)(uintptr_t)0x1000; // not memory
  __enzyme_fwddiff((void *)squares, enzyme_dup, x, dx, enzyme_dupnoneed, never, dout,
                   enzyme_const, 3);
  CHECK("d out0/d x1", dout[0], 2 * x[1], 1e-12);
  CHECK("d out1/d x1", dout[1], cos(x[1]) * x[1] + sin(x[1]), 1e-12);
  CHECK("d out2/d x1", dout[2], 0, 1e-12);

  double p[2] = {0}, dp[2] = {0}, y = 1.7;
  double t = __enzyme_fwddiff((void *)reread, enzyme_dupnoneed, p, dp, y, 1.0);
  // reread = x^5: d/dx 5x^4; p[1] = x^3: 3x^2.
  CHECK("d reread/dx", t, 5 * pow(y, 4), 1e-12);
  CHECK("d p1/dx", dp[1], 3 * y * y, 1e-12);
  CHECK("d reread fd", t, FD(y, reread(p, y), 1e-6), 1e-6);
  CHECK_DONE();
}
