// LAUNCH: grid=4 block=64 nin=256 nout=4 n=256
// Block reduction of sin(x)^2 through shared memory with __syncthreads.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double s[64];
  unsigned t = threadIdx.x, i = GTID_X;
  double v = i < n ? MATH(sin)(in[i]) : 0.0;
  s[t] = v * v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
GPU_TEST(f)
