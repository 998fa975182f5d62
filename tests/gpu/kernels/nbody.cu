// LAUNCH: grid=2 block=16 nin=96 nout=96 n=32
// Softened gravitational forces on n bodies (positions x,y,z interleaved),
// one body per thread, summed over all others.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double fx = 0, fy = 0, fz = 0;
  for (int j = 0; j < n; j++) {
    double dx = in[3 * j] - in[3 * i], dy = in[3 * j + 1] - in[3 * i + 1],
           dz = in[3 * j + 2] - in[3 * i + 2];
    double r2 = dx * dx + dy * dy + dz * dz + 0.01;
    double inv = 1.0 / (r2 * MATH(sqrt)(r2));
    fx += dx * inv, fy += dy * inv, fz += dz * inv;
  }
  out[3 * i] = fx, out[3 * i + 1] = fy, out[3 * i + 2] = fz;
}
GPU_TEST(f)
