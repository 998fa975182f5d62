// LAUNCH: grid=2 block=32 nin=64 nout=64 n=64
// A kernel calling __device__ helper functions (kept out of line).
#include "../gpu.h"
__device__ __noinline__ double sq(double x) { return x * x; }
__device__ __noinline__ double smooth(double x, double y) { return MATH(log)(1 + sq(x) + y); }
__device__ __noinline__ void store2(double *p, double a, double b) { p[0] = a * b + MATH(cos)(a); }
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  if (i >= n) return;
  double a = smooth(in[i], in[(i + 1) % n]);
  store2(out + i, a, sq(in[i]));
}
GPU_TEST(f)
