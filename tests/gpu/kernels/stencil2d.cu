// LAUNCH: grid=4,4 block=8,8 nin=1024 nout=1024 n=32
// AMDGPU-LEVELS: O1 O2 O3
// (AMDGPU -O0: the lambda captures stack slots through addrspacecast from
// addrspace(5), which the reverse mode does not give shadows yet.)
// 2-D five-point stencil (a nonlinear diffusion step) over a 32x32 grid.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int x = GTID_X, y = GTID_Y;
  if (x >= n || y >= n) return;
  auto at = [&](int a, int b) {
    a = a < 0 ? 0 : a >= n ? n - 1 : a;
    b = b < 0 ? 0 : b >= n ? n - 1 : b;
    return in[b * n + a];
  };
  double c = at(x, y);
  double lap = at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * c;
  out[y * n + x] = c + 0.1 * (1 + c * c) * lap;
}
GPU_TEST(f)
