// LAUNCH: grid=2,2 block=8,8 nin=256 nout=256 n=16
// 2-D stencil through a shared-memory tile (interior cells of each tile use
// the tile, its border cells global memory), with __syncthreads.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double tile[8][8];
  int tx = threadIdx.x, ty = threadIdx.y, x = GTID_X, y = GTID_Y;
  tile[ty][tx] = MATH(sqrt)(in[y * n + x]);
  __syncthreads();
  double c = tile[ty][tx];
  double l = tx > 0 ? tile[ty][tx - 1] : c, r = tx < 7 ? tile[ty][tx + 1] : c;
  double u = ty > 0 ? tile[ty - 1][tx] : c, d = ty < 7 ? tile[ty + 1][tx] : c;
  out[y * n + x] = c * (l + r + u + d) - 3 * c * c;
}
GPU_TEST(f)
