// The main example: the derivative of a squared loss with respect to the
// prediction, in forward mode. loss(3, 1) = 4, d loss / d pred = 2 (3 - 1) = 4.
#include <enzyme/enzyme.h>
#include <stdio.h>

double loss(double pred, double target) {
  double e = pred - target;
  return e * e;
}

int main(void) {
  double pred = 3.0, target = 1.0;
  double dloss = __enzyme_fwddiff((void *)loss, pred, 1.0, enzyme_const, target);
  printf("loss(%g, %g) = %g\n", pred, target, loss(pred, target));
  printf("d loss / d pred = %g\n", dloss);
  return !(dloss == 4.0);
}
