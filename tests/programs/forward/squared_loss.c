#include "check.h"
double loss(double pred, double target) { return (pred - target) * (pred - target); }
int main(void) {
  double pred = 3, target = 1;
  double d = __enzyme_fwddiff((void *)loss, pred, 1.0, enzyme_const, target);
  CHECK("dloss/dpred analytic", d, 2 * (pred - target), 1e-12);
  CHECK("dloss/dpred fd", d, FD(pred, loss(pred, target), 1e-6), 1e-6);
  CHECK_DONE();
}
