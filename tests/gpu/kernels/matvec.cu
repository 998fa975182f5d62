// LAUNCH: grid=2 block=16 nin=1056 nout=32 n=32
// Dense matrix-vector product y = tanh(A x), one row per thread; in = [A, x].
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  if (i >= n) return;
  const double *A = in, *x = in + n * n;
  double s = 0;
  for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
  out[i] = MATH(tanh)(0.1 * s);
}
GPU_TEST(f)
