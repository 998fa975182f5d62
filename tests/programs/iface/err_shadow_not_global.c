// EXPECT-ERROR: __enzyme_shadow(p, width, lane): p must be the address of a global (or of a part of one)
// LEVELS: O0 O2
#include "check.h"
extern void *__enzyme_shadow(void *, int, int);
double g = 1.0;
double f(double x) { return g * x; }
int main(int argc, char **argv) {
  double local[2] = {1, 2};
  double *p = argc > 5 ? &g : local;
  double *s = (double *)__enzyme_shadow(p, 1, 0);
  printf("%g %g\n", *s, __enzyme_autodiff((void *)f, 2.0));
  return 0;
}
