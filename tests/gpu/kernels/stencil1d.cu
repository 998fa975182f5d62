// LAUNCH: grid=4 block=32 nin=128 nout=128 n=128
// 1-D three-point stencil with nonlinear terms, clamped at the ends.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  if (i >= n) return;
  int l = i > 0 ? i - 1 : 0, r = i < n - 1 ? i + 1 : n - 1;
  out[i] = 0.25 * in[l] * in[l] + 0.5 * MATH(sin)(in[i]) + 0.25 * in[r] * in[i];
}
GPU_TEST(f)
