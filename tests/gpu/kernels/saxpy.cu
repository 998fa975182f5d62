// LAUNCH: grid=4 block=64 nin=257 nout=256 n=256
// y[i] = a * x[i] * x[i] + y[i], a = in[256] (active, read by every thread).
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double a = in[n];
  if (i < n) out[i] = a * in[i] * in[i] + out[i];
}
GPU_TEST(f)
