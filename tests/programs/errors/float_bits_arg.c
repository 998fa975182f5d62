// EXPECT-ERROR: argument #1 of the call to 'store_bits' is the bits of an active floating-point value passed as an integer (i64); its derivative cannot cross the call that way
// A double's bits handed to a function as an integer (memcpy into a
// uint64_t, as Enzyme's subdoublestore test does): a callee's integer
// parameter has no derivative, so this is an error, not a silent zero.
#include "check.h"
#include <stdint.h>
#include <string.h>
__attribute__((noinline)) double *store_bits(uint64_t bits) {
  double *p = malloc(sizeof *p);
  memcpy(p, &bits, sizeof bits);
  return p;
}
double f(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  double *p = store_bits(bits);
  double r = *p * x;
  free(p);
  return r;
}
int main(void) { return (int)__enzyme_autodiff((void *)f, 0.5); }
