// Reverse mode (C++): a callee that is not inlined (dot) reads a stack
// temporary of its caller (d, c: locals of energy) and needs those values
// in its reverse sweep. That sweep runs after the caller's augmented sweep
// has returned, when the caller's frame is gone: the callee must keep what
// it reads on the tape, not read the dead slot again (where c, whose slot
// may be d's, was left: issue 18, a wrong
// gradient at -O1..-O3, and in itx_vec3_ops under
// -fsanitize=pointer-overflow, which kept dot from being inlined).
#include "check.h"
#include <cmath>
struct Vec3 {
  double v[3];
  Vec3() : v{0, 0, 0} {}
  Vec3(double a, double b, double c) : v{a, b, c} {}
  double operator[](int i) const { return v[i]; }
  Vec3 &operator+=(const Vec3 &o) {
    for (int i = 0; i < 3; i++) v[i] += o[i];
    return *this;
  }
  friend Vec3 operator-(const Vec3 &a, const Vec3 &b) { return Vec3(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }
  __attribute__((noinline)) friend double dot(const Vec3 &a, const Vec3 &b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  }
};
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
static double energy(const Vec3 *p, double k) {
  double e = 0;
  {
    Vec3 d = p[0] - p[1];  // d's lifetime ends here: c may reuse its slot
    double r = std::sqrt(dot(d, d));
    e += 0.5 * k * (r - 1) * (r - 1);
  }
  Vec3 c;
  c += p[2];
  return e + 0.1 * dot(c, c);
}
int main() {
  Vec3 p[3] = {Vec3(0, 0, 0), Vec3(1.2, 0.1, -0.3), Vec3(0.4, 0.9, 0.5)};
  Vec3 dp[3];
  double k = 2.5;
  double dk = __enzyme_autodiff((void *)energy, enzyme_dup, p, dp, k);
  CHECK("dk fd", dk, FD(k, energy(p, k), 1e-6), 1e-6);
  for (int i = 0; i < 3; i++)
    for (int c = 0; c < 3; c++) CHECK("dp fd", dp[i].v[c], FD(p[i].v[c], energy(p, k), 1e-6), 1e-6);
  CHECK_DONE();
}
