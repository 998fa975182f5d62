// LAUNCH: grid=4 block=32 nin=256 nout=1 n=128
// LEVELS: O1 O2 O3
// (-O0 keeps the value __atomic_fetch_add returns: a captured atomic of active
// memory, which the modes reject with a compile error.)
// Dot product x.y: per-block partial sums in shared memory, thread 0 of
// each block adds its block's sum into out[0] with an atomic add.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double s[32];
  int t = threadIdx.x, i = GTID_X;
  s[t] = in[i] * in[n + i];
  __syncthreads();
  for (int k = 16; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) __atomic_fetch_add(out, s[0], __ATOMIC_RELAXED);
}
GPU_TEST(f)
