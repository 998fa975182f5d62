// EXPECT-LINK-ERROR: no derivative known for external function 'ext'
// The function differentiated (f.c) calls a function no file defines:
// the link stops with the error at its call (never a program with a
// dangling __enzyme_autodiff call or a silent zero).
#include "check.h"
double f(double x);
int main(void) {
  double d = __enzyme_autodiff((void *)f, 1.0);
  CHECK("unreachable", d, 0, 0);
  CHECK_DONE();
}
