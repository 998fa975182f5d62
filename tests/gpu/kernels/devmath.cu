// LAUNCH: grid=2 block=32 nin=64 nout=64 n=64
// Device math library functions (libdevice __nv_*, OCML __ocml_*).
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double x = in[i];
  out[i] = MATH(pow)(x, 1.5) + MATH(tanh)(x) * MATH(atan)(x) + MATH(erf)(x - 1) +
           MATH(cbrt)(x) * MATH(log1p)(x) + MATH(expm1)(0.5 * x) + MATH(hypot)(x, 2.0) +
           MATH(sinh)(x) / MATH(cosh)(x) + MATH(log2)(x) + MATH(exp2)(x) + MATH(tan)(0.3 * x);
}
GPU_TEST(f)
