// LAUNCH: grid=2 block=32 nin=64 nout=64 n=64
// Inclusive scan of x^2 within each block (Hillis-Steele, double-buffered
// in shared memory, __syncthreads at every step).
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double buf[2][32];
  int t = threadIdx.x, i = GTID_X, cur = 0;
  buf[0][t] = in[i] * in[i];
  __syncthreads();
  for (int k = 1; k < 32; k *= 2) {
    buf[1 - cur][t] = t >= k ? buf[cur][t] + buf[cur][t - k] : buf[cur][t];
    __syncthreads();
    cur = 1 - cur;
  }
  out[i] = buf[cur][t];
}
GPU_TEST(f)
