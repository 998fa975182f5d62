// The Vec3 value type and the energy function shared by
// cpp/itx_vec3_ops.cpp and selfcheck/vec3.cpp (operator overloading,
// values returned by value, compound assignment, friend operators).
#pragma once
#include <cmath>
struct Vec3 {
  double v[3];
  Vec3() : v{0, 0, 0} {}
  Vec3(double a, double b, double c) : v{a, b, c} {}
  double &operator[](int i) { return v[i]; }
  double operator[](int i) const { return v[i]; }
  Vec3 &operator+=(const Vec3 &o) {
    for (int i = 0; i < 3; i++) v[i] += o[i];
    return *this;
  }
  Vec3 operator-() const { return Vec3(-v[0], -v[1], -v[2]); }
  friend Vec3 operator*(double s, const Vec3 &a) { return Vec3(s * a[0], s * a[1], s * a[2]); }
  friend Vec3 operator-(const Vec3 &a, const Vec3 &b) { return Vec3(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
  friend double dot(const Vec3 &a, const Vec3 &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  double norm() const { return std::sqrt(dot(*this, *this)); }
};
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
// Potential energy of three particles with springs.
static double energy(const Vec3 *p, double k) {
  double e = 0;
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++) {
      Vec3 d = p[i] - p[j];
      double r = d.norm();
      e += 0.5 * k * (r - 1) * (r - 1);
    }
  Vec3 c;
  for (int i = 0; i < 3; i++) c += (1.0 / 3) * p[i];
  Vec3 m = -c;
  return e + 0.1 * dot(m, m);
}
int main() {
  Vec3 p[3] = {Vec3(0, 0, 0), Vec3(1.2, 0.1, -0.3), Vec3(0.4, 0.9, 0.5)};
  Vec3 dp[3];
  double k = 2.5;
  double dk = __enzyme_autodiff((void *)energy, enzyme_dup, p, dp, k);
  CHECK("dk fd", dk, FD(k, energy(p, k), 1e-6), 1e-6);
  for (int i = 0; i < 3; i++)
    for (int c = 0; c < 3; c++) CHECK("dp fd", dp[i][c], FD(p[i].v[c], energy(p, k), 1e-6), 1e-6);
  CHECK_DONE();
