// Eigen 3.4: fixed 4x4 products (C = A*A, D = C^T*A); at -O2 a Transpose
// expression is copied as an i64 and made a pointer again (inttoptr).
// FLAGS: -I/usr/include/eigen3
#include <Eigen/Dense>
#include <cstdio>
#include <cmath>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
using Eigen::Matrix4d;
double f(const double *a) {
  Matrix4d A;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) A(i, j) = a[4 * i + j];
  Matrix4d C = A * A;
  Matrix4d D = C.transpose() * A;
  return D(1,2);
}
int main() {
  double a[16], da[16] = {0};
  for (int i = 0; i < 16; i++) { a[i] = sin(i + 1.0); }
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  int bad = 0;
  for (int i = 0; i < 16; i++) {
    double h = 1e-6, s = a[i];
    a[i] = s + h; double fp = f(a); a[i] = s - h; double fm = f(a); a[i] = s;
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - da[i]) > 1e-5 * (1 + fabs(fd))) { bad++; printf("da[%d] %g fd %g\n", i, da[i], fd); }
  }
  printf("bad %d\n", bad);
  return bad;
}
