// LAUNCH: grid=4 block=32 nin=128 nout=128 n=32
// Softmax of each row (one block per row): the row's sum of exponentials
// through a shared-memory tree reduction with __syncthreads.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double s[32];
  int t = threadIdx.x, i = blockIdx.x * n + t;
  double e = MATH(exp)(in[i]);
  s[t] = e;
  __syncthreads();
  for (int k = 16; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  out[i] = e / s[0];
}
GPU_TEST(f)
