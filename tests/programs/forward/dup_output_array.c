// enzyme_dup on a pointer output: the function writes results into an
// array and the shadow array receives their tangents.
#include "check.h"
void polar_to_cart(double r, double t, double *out) {
  out[0] = r * cos(t);
  out[1] = r * sin(t);
  out[2] = r * r;
}
void prefix_sums(const double *in, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { s += in[i] * in[i]; out[i] = s; }
}
int main(void) {
  double r = 2.0, t = 0.6, out[3], dout[3] = {-1, -1, -1};
  __enzyme_fwddiff((void *)polar_to_cart, r, 0.0, t, 1.0, enzyme_dup, out, dout);
  CHECK("out0", out[0], r * cos(t), 1e-12);
  CHECK("dout0/dt", dout[0], -r * sin(t), 1e-12);
  CHECK("dout1/dt", dout[1], r * cos(t), 1e-12);
  CHECK("dout2/dt", dout[2], 0.0, 0);
  double tmp[3];
  CHECK("dout1/dt fd", dout[1], FD(t, (polar_to_cart(r, t, tmp), tmp[1]), 1e-6), 1e-6);
  __enzyme_fwddiff((void *)polar_to_cart, r, 1.0, t, 0.0, enzyme_dup, out, dout);
  CHECK("dout2/dr", dout[2], 2 * r, 1e-12);
  CHECK("dout0/dr", dout[0], cos(t), 1e-12);
  double in[4] = {1, 2, 3, 4}, din[4] = {0, 1, 0, 0}, po[4], dpo[4];
  __enzyme_fwddiff((void *)prefix_sums, enzyme_dup, in, din, enzyme_dup, po, dpo, enzyme_const, 4);
  CHECK("dpo0", dpo[0], 0, 0);
  CHECK("dpo1", dpo[1], 4, 1e-12);
  CHECK("dpo3", dpo[3], 4, 1e-12);
  CHECK("po3", po[3], 30, 1e-12);
  CHECK_DONE();
}
