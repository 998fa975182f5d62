// LAUNCH: grid=2 block=16 nin=256 nout=256 n=8
// Softmax of each row of length n, one row per thread (max-shifted).
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int r = GTID_X;
  const double *x = in + r * n;
  double m = x[0];
  for (int j = 1; j < n; j++) m = MATH(fmax)(m, x[j]);
  double s = 0;
  for (int j = 0; j < n; j++) s += MATH(exp)(x[j] - m);
  for (int j = 0; j < n; j++) out[r * n + j] = MATH(exp)(x[j] - m) / s;
}
GPU_TEST(f)
