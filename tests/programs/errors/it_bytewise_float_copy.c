// EXPECT-ERROR: copied through 8-bit integers
// LEVELS: O0
// A double copied byte by byte through unsigned char (at -O0 the loop
// stays): the adjoint cannot follow the bytes, so this must be a clear
// error, never a silent zero derivative. (At -O1+ clang turns the loop
// into a whole-double copy, which differentiates.)
#include "check.h"
__attribute__((noinline)) double f(double *x) {
  double b;
  unsigned char *src = (unsigned char *)x, *dst = (unsigned char *)&b;
  for (int k = 0; k < 8; k++) dst[k] = src[k];
  return b * b;
}
int main(void) {
  double x = 0.7, dx = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx);
  return dx != 1.4;
}
