// The f-suffixed libm functions on float.
#include "check.h"
float f_sinf(float x) { return sinf(x); }
float f_cosf(float x) { return cosf(x); }
float f_expf(float x) { return expf(x); }
float f_logf(float x) { return logf(x); }
float f_sqrtf(float x) { return sqrtf(x); }
float f_tanf(float x) { return tanf(x); }
float f_atanf(float x) { return atanf(x); }
float f_exp2f(float x) { return exp2f(x); }
float f_log10f(float x) { return log10f(x); }
float f_cbrtf(float x) { return cbrtf(x); }
float f_erff(float x) { return erff(x); }
float f_powf(float x, float y) { return powf(x, y); }
float __enzyme_fwddiff_f(void *, float, float);
float __enzyme_fwddiff_ff(void *, float, float, float, float);
#define T(fn, x, want)                                          \
  do {                                                          \
    float x_ = (x);                                             \
    float d_ = __enzyme_fwddiff_f((void *)fn, x_, 1.0f);        \
    CHECK(#fn, d_, (want), 1e-5);                               \
    CHECK(#fn " fd", d_, FD(x_, fn(x_), 1e-2), 1e-3);           \
  } while (0)
int main(void) {
  double x = 0.625; /* exactly representable */
  T(f_sinf, x, cos(x));
  T(f_cosf, x, -sin(x));
  T(f_expf, x, exp(x));
  T(f_logf, x, 1 / x);
  T(f_sqrtf, x, 0.5 / sqrt(x));
  T(f_tanf, x, 1 + tan(x) * tan(x));
  T(f_atanf, x, 1 / (1 + x * x));
  T(f_exp2f, x, exp2(x) * log(2.0));
  T(f_log10f, x, 1 / (x * log(10.0)));
  T(f_cbrtf, x, 1 / (3 * cbrt(x * x)));
  T(f_erff, x, 2 / sqrt(M_PI) * exp(-x * x));
  float dp = __enzyme_fwddiff_ff((void *)f_powf, 1.5f, 1.0f, 2.5f, 0.0f);
  CHECK("powf dx", dp, 2.5 * pow(1.5, 1.5), 1e-5);
  dp = __enzyme_fwddiff_ff((void *)f_powf, 1.5f, 0.0f, 2.5f, 1.0f);
  CHECK("powf dy", dp, pow(1.5, 2.5) * log(1.5), 1e-5);
  CHECK_DONE();
}
