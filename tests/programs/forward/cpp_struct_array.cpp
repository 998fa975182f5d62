// C++: std::array-like struct of particles, member loops, new/delete.
#include "check.h"
struct Particle { double pos[2]; double mass; };
struct System {
  Particle *ps;
  int n;
  double potential() const {
    double e = 0;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double dx = ps[i].pos[0] - ps[j].pos[0], dy = ps[i].pos[1] - ps[j].pos[1];
        e += ps[i].mass * ps[j].mass / std::sqrt(dx * dx + dy * dy);
      }
    return e;
  }
};
static double energy_of(double shift) {
  Particle *ps = new Particle[3];
  for (int i = 0; i < 3; i++) { ps[i].pos[0] = i * shift; ps[i].pos[1] = i * i * 0.5; ps[i].mass = 1.0 + i; }
  System s{ps, 3};
  double e = s.potential();
  delete[] ps;
  return e;
}
int main() {
  double x = 1.2;
  double d = __enzyme_fwddiff((void *)energy_of, x, 1.0);
  CHECK("dE/dshift fd", d, FD(x, energy_of(x), 1e-6), 1e-6);
  double want = 0;
  double m[3] = {1, 2, 3};
  for (int i = 0; i < 3; i++)
    for (int j = i + 1; j < 3; j++) {
      double dx = (i - j) * x, dy = (i * i - j * j) * 0.5, r = std::sqrt(dx * dx + dy * dy);
      want += -m[i] * m[j] * dx * (i - j) / (r * r * r);
    }
  CHECK("dE/dshift", d, want, 1e-12);
  CHECK_DONE();
}
