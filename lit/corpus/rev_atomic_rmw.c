// Reverse mode: an atomic read-modify-write of active memory whose old value is used (atomic capture; plain += is supported): exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: atomicrmw
#include <enzyme/enzyme.h>
float f(float *acc, float x) { return __atomic_fetch_add(acc, x * x, __ATOMIC_RELAXED); } // error-here
int main(void) {
  float a = 0, da = 1;
  __enzyme_autodiff((void *)f, enzyme_dup, &a, &da, 2.0f);
  return 0;
}
