// LAUNCH: grid=4 block=32 nin=128 nout=128 n=128
// 1-D stencil through a shared-memory tile with halo cells and __syncthreads.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double tile[34];
  int t = threadIdx.x, i = GTID_X;
  tile[t + 1] = in[i];
  if (t == 0) tile[0] = i > 0 ? in[i - 1] : 0.0;
  if (t == blockDim.x - 1) tile[t + 2] = i < n - 1 ? in[i + 1] : 0.0;
  __syncthreads();
  double c = tile[t + 1];
  out[i] = c * c * (tile[t] - 2 * c + tile[t + 2]) + MATH(exp)(-c);
}
GPU_TEST(f)
