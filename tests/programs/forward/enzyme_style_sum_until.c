// LEVELS: O0 O1 O2 O3
// Enzyme-style program: declares the entry point and markers itself (no
// enzyme-rs header); running sum with a data-dependent break.
#include <math.h>
#include <stdio.h>
extern int enzyme_dup;
extern int enzyme_const;
extern int enzyme_dupnoneed;
extern double __enzyme_fwddiff(void *, ...);
#define APPROX(a, b)                                                                    \
  do {                                                                                  \
    double a_ = (a), b_ = (b);                                                          \
    if (fabs(a_ - b_) > 1e-9) { printf("FAIL %s=%f %s=%f\n", #a, a_, #b, b_); return 1; } \
  } while (0)
double partial_sum(double *v, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    acc += v[i] * (i + 1);
    if (acc > 4.0) break;
  }
  return acc;
}
int main(void) {
  double v[5] = {1, 0.5, 0.5, 2, 3};
  double dv[5] = {1, 1, 1, 1, 1};
  /* acc: 1, 2, 3.5, 11.5 -> stops after i = 3 */
  double d = __enzyme_fwddiff((void *)partial_sum, enzyme_dup, v, dv, enzyme_const, 5);
  APPROX(d, 1 + 2 + 3 + 4);
  dv[3] = 0;
  d = __enzyme_fwddiff((void *)partial_sum, enzyme_dup, v, dv, 5);
  APPROX(d, 1 + 2 + 3);
  printf("ok\n");
  return 0;
}
