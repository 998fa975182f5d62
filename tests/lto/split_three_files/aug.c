#include <enzyme/enzyme.h>
void smooth(double *x, double *out, int n);
void *do_aug(double *x, double *dx, double *out, double *dout, int n) {
  return __enzyme_augmentfwd((void *)smooth, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, n);
}
