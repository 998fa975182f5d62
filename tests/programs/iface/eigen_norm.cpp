// Eigen 3.4: Vector3d returned by value, norm, normalized, dot, cross.
// FLAGS: -I/usr/include/eigen3
#include <Eigen/Dense>
#include <cstdio>
#include <cmath>
extern double __enzyme_autodiff(void *, ...);
using Eigen::Vector3d;
static Vector3d make(double x, double y, double z) { return Vector3d(x * y, y + z, z * x); }
double f(double x, double y, double z) {
  Vector3d v = make(x, y, z);
  Vector3d w = v.normalized();
  return v.norm() + w.dot(Vector3d(1, 2, 3)) + v.cross(w).squaredNorm();
}
int main() {
  double x = 0.7, y = -1.3, z = 2.1;
  struct R { double dx, dy, dz; };
  R r = ((R(*)(void *, double, double, double))__enzyme_autodiff)((void *)f, x, y, z);
  double h = 1e-6;
  double fx = (f(x + h, y, z) - f(x - h, y, z)) / (2 * h);
  double fy = (f(x, y + h, z) - f(x, y - h, z)) / (2 * h);
  double fz = (f(x, y, z + h) - f(x, y, z - h)) / (2 * h);
  printf("%g %g | %g %g | %g %g\n", r.dx, fx, r.dy, fy, r.dz, fz);
  int bad = fabs(r.dx - fx) > 1e-6 || fabs(r.dy - fy) > 1e-6 || fabs(r.dz - fz) > 1e-6;
  return bad;
}
