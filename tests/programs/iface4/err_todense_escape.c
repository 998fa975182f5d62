// EXPECT-ERROR: the pointer __enzyme_todense returns reaches
// LEVELS: O0 O2
// A todense pointer given to a function without a body cannot have its
// loads and stores turned into calls: a clear compile error.
#include "check.h"
double *__enzyme_todense(void *, void *, ...);
void consume(double *p);
static double ld(long off) { return off; }
static void st(double v, long off) { (void)v, (void)off; }
int main(void) {
  double *p = __enzyme_todense((void *)ld, (void *)st);
  consume(p);
  return 0;
}
