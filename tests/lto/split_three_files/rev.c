#include <enzyme/enzyme.h>
void smooth(double *x, double *out, int n);
void do_rev(double *x, double *dx, double *out, double *dout, int n, void *tape) {
  __enzyme_reverse((void *)smooth, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, n, tape);
}
