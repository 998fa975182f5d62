// A custom gradient registered in another file (grad.c) for the function
// differentiated, whose body is in a third file (f.c); the counters show
// the custom functions ran.
#include "check.h"
double soft(double x);
extern int soft_augs, soft_revs;
int main(void) {
  double x = 0.8;
  double d = __enzyme_autodiff((void *)soft, x);
  CHECK("custom rev ran", soft_revs, 1, 0);
  CHECK("dsoft", d, 1.0 / (1.0 + exp(-x)), 1e-12);
  CHECK("dsoft fd", d, FD(x, soft(x), 1e-6), 1e-6);
  CHECK_DONE();
}
