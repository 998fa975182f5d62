// Reverse mode: a two-layer perceptron (struct holding weight arrays),
// tanh hidden layer, squared loss; gradients of all weights.
#include "check.h"
enum { IN = 3, HID = 4 };
typedef struct { double W1[HID][IN]; double b1[HID]; double W2[HID]; double b2; } Net;
double loss(const Net *net, const double *x, double target) {
  double h[HID];
  for (int j = 0; j < HID; j++) {
    double z = net->b1[j];
    for (int k = 0; k < IN; k++) z += net->W1[j][k] * x[k];
    h[j] = tanh(z);
  }
  double out = net->b2;
  for (int j = 0; j < HID; j++) out += net->W2[j] * h[j];
  return (out - target) * (out - target);
}
int main(void) {
  Net n, dn;
  double *p = (double *)&n, *dp = (double *)&dn;
  int np = sizeof(Net) / sizeof(double);
  for (int i = 0; i < np; i++) { p[i] = 0.3 * sin(1.7 * i + 0.2); dp[i] = 0; }
  double x[IN] = {0.5, -1, 2}, dx[IN] = {0};
  __enzyme_autodiff((void *)loss, &n, &dn, x, dx, 0.7);
  for (int i = 0; i < np; i++) CHECK("dW fd", dp[i], FD(p[i], loss(&n, x, 0.7), 1e-6), 1e-6);
  for (int i = 0; i < IN; i++) CHECK("dx fd", dx[i], FD(x[i], loss(&n, x, 0.7), 1e-6), 1e-6);
  CHECK_DONE();
}
