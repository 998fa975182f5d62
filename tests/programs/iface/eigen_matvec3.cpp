// Eigen 3.4: Map<Matrix3d> * Map<Vector3d>, squared norm (reverse mode,
// unaligned 2-wide vector loads: the adjoint store keeps the load's alignment).
// FLAGS: -I/usr/include/eigen3
#include <Eigen/Dense>
#include <cstdio>
#include <cmath>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
using Eigen::Matrix3d; using Eigen::Vector3d;
double f(const double *a, const double *x) {
  Eigen::Map<const Matrix3d> A(a);
  Eigen::Map<const Vector3d> v(x);
  Vector3d y = A * v;
  return y.squaredNorm();
}
int main() {
  double a[9], x[3], da[9] = {0}, dx[3] = {0};
  for (int i = 0; i < 9; i++) a[i] = 0.1 * (i + 1) - 0.3 * (i % 2);
  for (int i = 0; i < 3; i++) x[i] = 0.5 + i;
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, x, dx);
  int bad = 0;
  for (int i = 0; i < 3; i++) {
    double s = x[i]; double h = 1e-6;
    x[i] = s + h; double fp = f(a, x); x[i] = s - h; double fm = f(a, x); x[i] = s;
    double fd = (fp - fm) / (2 * h);
    printf("dx[%d] %g fd %g\n", i, dx[i], fd); if (fabs(fd - dx[i]) > 1e-5) bad++;
  }
  for (int i = 0; i < 9; i++) {
    double s = a[i]; double h = 1e-6;
    a[i] = s + h; double fp = f(a, x); a[i] = s - h; double fm = f(a, x); a[i] = s;
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - da[i]) > 1e-5) { bad++; printf("da[%d] %g fd %g\n", i, da[i], fd); }
  }
  printf("bad %d\n", bad);
  return bad;
}
