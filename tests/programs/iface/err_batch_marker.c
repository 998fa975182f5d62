// EXPECT-ERROR: marker enzyme_dup is not valid in __enzyme_batch (before argument 1 of 'sq'): use enzyme_vector, enzyme_scalar or enzyme_buffer
// LEVELS: O0 O2
#include "check.h"
typedef struct { double a, b; } V2;
extern V2 __enzyme_batch(void *, ...);
static double sq(double x) { return x * x; }
int main(void) {
  V2 r = __enzyme_batch((void *)sq, enzyme_width, 2, enzyme_dup, 1.0, 2.0);
  printf("%g %g\n", r.a, r.b);
  return 0;
}
