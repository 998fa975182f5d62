// EXPECT-ERROR: enzyme_buffer takes the stride in bytes (an integer) and one pointer to the buffer of all lanes: argument 1 of 'sq' is a double and the buffer given is a ptr; both must be pointers
// LEVELS: O0 O2
#include "check.h"
typedef struct { double a, b; } V2;
extern V2 __enzyme_batch(void *, ...);
extern int enzyme_buffer;
static double sq(double x) { return x * x; }
int main(void) {
  double xs[2] = {1.0, 2.0};
  V2 r = __enzyme_batch((void *)sq, enzyme_width, 2, enzyme_buffer, sizeof(double), xs);
  printf("%g %g\n", r.a, r.b);
  return 0;
}
