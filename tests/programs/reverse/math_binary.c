// Reverse mode: binary math calls (pow atan2 hypot fmax fmin fmod copysign)
// with both arguments active; results returned as a struct.
#include "check.h"
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
#define BIN(NAME, EXPR)                                                     \
  static double NAME(double x, double y) { return EXPR; }                   \
  static void test_##NAME(double x, double y) {                             \
    R2 r = __enzyme_autodiff2((void *)NAME, x, y);                          \
    CHECK(#NAME " dx fd", r.a, FD(x, NAME(x, y), 1e-6), 1e-6);              \
    CHECK(#NAME " dy fd", r.b, FD(y, NAME(x, y), 1e-6), 1e-6);              \
  }
BIN(f_pow, pow(x, y))
BIN(f_atan2, atan2(x, y))
BIN(f_hypot, hypot(x, y))
BIN(f_fmax, fmax(x, y) * 2)
BIN(f_fmin, fmin(x, y) * 3)
BIN(f_fmod, fmod(x, y))
BIN(f_copysign, copysign(x, y))
BIN(f_mix, pow(x, 3.0) * exp(y) + sqrt(x * y))
int main(void) {
  double xs[3] = {1.3, 0.4, 2.2}, ys[3] = {0.7, 1.9, 0.35};
  for (int k = 0; k < 3; k++) {
    double x = xs[k], y = ys[k];
    test_f_pow(x, y); test_f_atan2(x, y); test_f_atan2(-x, y); test_f_hypot(x, y);
    test_f_fmax(x, y); test_f_fmin(x, y); test_f_fmod(x, y); test_f_copysign(x, y);
    test_f_copysign(x, -y); test_f_mix(x, y);
  }
  R2 r = __enzyme_autodiff2((void *)f_pow, 2.0, 3.0);
  CHECK("pow dx", r.a, 3 * 4.0, 1e-12);
  CHECK("pow dy", r.b, 8 * log(2.0), 1e-12);
  CHECK_DONE();
}
