// Reverse mode (C++): a std::vector of particles (struct of doubles)
// filled with emplace_back and updated through iterators; a time loop of
// explicit Euler steps with pairwise forces.
#include "check.h"
#include <cmath>
#include <vector>
struct Particle {
  double x, v, m;
  Particle(double x_, double v_, double m_) : x(x_), v(v_), m(m_) {}
};
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x0, const double *m, int n) {
  std::vector<Particle> ps;
  ps.reserve(2);  // grows while filling
  for (int i = 0; i < n; i++) ps.emplace_back(x0[i], 0.0, m[i]);
  const double h = 0.01;
  for (int step = 0; step < 20; step++) {
    for (auto &p : ps) {
      double fsum = 0;
      for (const auto &q : ps)
        if (&p != &q) fsum += q.m * (q.x - p.x) / (1 + (q.x - p.x) * (q.x - p.x));
      p.v += h * fsum;
    }
    for (auto it = ps.begin(); it != ps.end(); ++it) it->x += h * it->v;
  }
  double e = 0;
  for (const auto &p : ps) e += p.m * p.x * p.x;
  return e;
}
int main() {
  const int n = 5;
  double x0[n] = {0.0, 0.5, 1.1, -0.7, 1.6}, dx0[n] = {0};
  double m[n] = {1.0, 2.0, 0.5, 1.5, 1.0}, dm[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x0, dx0, enzyme_dup, m, dm, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    CHECK("dx0 fd", dx0[i], FD(x0[i], f(x0, m, n), 1e-6), 1e-6);
    CHECK("dm fd", dm[i], FD(m[i], f(x0, m, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
