// LAUNCH: grid=1 block=16 nin=144 nout=16 n=8
// A dense layer y = relu(W x + b) followed by y*y; in = [W (16x8), b (16)... x (8)].
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = threadIdx.x;
  const double *W = in, *b = in + 16 * n, *x = in + 16 * n + 16 - n;
  double s = b[i] - 1.0;
  for (int j = 0; j < n; j++) s += W[i * n + j] * x[j];
  double y = s > 0 ? s : 0.01 * s;
  out[i] = y * y;
}
GPU_TEST(f)
