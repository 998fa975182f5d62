// LAUNCH: grid=2,2 block=8,8 nin=256 nout=256 n=16
// Tiled transpose through shared memory (with a nonlinearity on the way).
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double tile[8][9];
  int x = GTID_X, y = GTID_Y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  int tx = blockIdx.y * 8 + threadIdx.x, ty = blockIdx.x * 8 + threadIdx.y;
  double v = tile[threadIdx.x][threadIdx.y];
  out[ty * n + tx] = v * v + MATH(sin)(v);
}
GPU_TEST(f)
