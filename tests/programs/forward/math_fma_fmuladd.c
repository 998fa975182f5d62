// FLAGS: -ffp-contract=on
// fma (libm and builtin) and llvm.fmuladd (a*b+c contracted by clang).
#include "check.h"
double f_fma(double a, double b, double c) { return fma(a, b, c); }
double f_contract(double a, double b, double c) { return a * b + c; }
float f_fmaf(float a, float b, float c) { return fmaf(a, b, c); }
float __enzyme_fwddiff_f3(void *, float, float, float, float, float, float);
int main(void) {
  double a = 1.5, b = -2.0, c = 0.25;
  double da = __enzyme_fwddiff((void *)f_fma, a, 1.0, b, 0.0, c, 0.0);
  double db = __enzyme_fwddiff((void *)f_fma, a, 0.0, b, 1.0, c, 0.0);
  double dc = __enzyme_fwddiff((void *)f_fma, a, 0.0, b, 0.0, c, 1.0);
  CHECK("fma da", da, b, 1e-12);
  CHECK("fma db", db, a, 1e-12);
  CHECK("fma dc", dc, 1.0, 1e-12);
  CHECK("fma da fd", da, FD(a, f_fma(a, b, c), 1e-6), 1e-6);
  double dall = __enzyme_fwddiff((void *)f_contract, a, 1.0, b, 2.0, c, 3.0);
  CHECK("fmuladd dir", dall, b + 2 * a + 3, 1e-12);
  double fa = FD(a, f_contract(a, b, c), 1e-6), fb = FD(b, f_contract(a, b, c), 1e-6), fc = FD(c, f_contract(a, b, c), 1e-6);
  CHECK("fmuladd fd", dall, fa + 2 * fb + 3 * fc, 1e-6);
  float df = __enzyme_fwddiff_f3((void *)f_fmaf, 2.0f, 1.0f, 3.0f, 1.0f, 1.0f, 1.0f);
  CHECK("fmaf", df, 3 + 2 + 1, 1e-6);
  CHECK_DONE();
}
