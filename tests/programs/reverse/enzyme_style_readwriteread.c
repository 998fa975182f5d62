// Enzyme-style: read, overwrite, read again of the same argument memory.
#include <stdio.h>
#include <math.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double f_read(double *x) { return *x * *x; }
void g_write(double *x, double v) { *x = v; }
double h_read(double *x) { return *x * 3; }
double rwr(double *x) {
  double a = f_read(x);
  g_write(x, a);
  return h_read(x) + a;
}
int main() {
  double x = 2, dx = 0;
  __enzyme_autodiff((void *)rwr, enzyme_dup, &x, &dx);
  /* x0 = 2: a = 4, x = 4 afterwards; result = 3a + a = 4 x0^2 -> 8 x0 */
  printf("x=%f dx=%f\n", x, dx);
  return !(fabs(dx - 16) < 1e-12 && fabs(x - 4) < 1e-12);
}
