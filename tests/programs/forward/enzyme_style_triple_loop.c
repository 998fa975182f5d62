// Enzyme-style: matrix-vector-like triple loop over a dup input with a
// duplicated output buffer.
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);
void tensor(const double *x, double *out, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = 0;
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) out[i] += x[i] * x[j] * x[k] / (1.0 + i + j + k);
  }
}
int main(void) {
  enum { N = 3 };
  double x[N] = {0.5, -1, 2}, dx[N] = {1, 0, 0}, out[N], dout[N];
  __enzyme_fwddiff((void *)tensor, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, N);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double h = 1e-6, p[N], m[N], xp[N], xm[N];
    for (int t = 0; t < N; t++) { xp[t] = x[t]; xm[t] = x[t]; }
    xp[0] += h; xm[0] -= h;
    tensor(xp, p, N); tensor(xm, m, N);
    double fd = (p[i] - m[i]) / (2 * h);
    double want = 0; /* analytic d out[i] / d x[0] */
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        want += ((i == 0) * x[j] * x[k] + (j == 0) * x[i] * x[k] + (k == 0) * x[i] * x[j]) / (1.0 + i + j + k);
    printf("dout[%d]=%.12g analytic=%.12g fd=%.12g\n", i, dout[i], want, fd);
    if (fabs(dout[i] - fd) > 1e-6 * (1 + fabs(fd))) bad = 1;
    if (fabs(dout[i] - want) > 1e-12 * (1 + fabs(want))) bad = 1;
  }
  return bad;
}
