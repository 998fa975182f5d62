// Reverse mode (C++): a solver class hierarchy without virtual calls
// (a base class with state and a derived class adding a member function),
// objects created on the stack and heap inside the differentiated function,
// an explicit Euler loop writing the trajectory into an output array.
#include "check.h"
#include <cmath>
struct System {
  double k;
  explicit System(double k_) : k(k_) {}
  double rhs(double y, double t) const { return -k * y + std::sin(t); }
};
struct Integrator : System {
  double h;
  Integrator(double k_, double h_) : System(k_), h(h_) {}
  void run(double y0, double *traj, int n) const {
    double y = y0, t = 0;
    for (int i = 0; i < n; i++) {
      traj[i] = y;
      y += h * rhs(y, t);
      t += h;
    }
  }
};
static void simulate(const double *params, double *traj, int n) {
  Integrator *it = new Integrator(params[0], 0.05);
  it->run(params[1], traj, n);
  delete it;
}
extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff_void(void *, ...);
int main() {
  const int n = 30;
  double p[2] = {0.7, 1.5}, dp[2] = {0, 0};
  double traj[n], dtraj[n];
  for (int i = 0; i < n; i++) dtraj[i] = (i == n - 1) ? 1.0 : 0.1;  // seeds
  __enzyme_autodiff_void((void *)simulate, enzyme_dup, p, dp, enzyme_dup, traj, dtraj, enzyme_const, n);
  double t2[n];
  auto obj = [&]() {
    simulate(p, t2, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += t2[i] * ((i == n - 1) ? 1.0 : 0.1);
    return s;
  };
  CHECK("dk fd", dp[0], FD(p[0], obj(), 1e-6), 1e-6);
  CHECK("dy0 fd", dp[1], FD(p[1], obj(), 1e-6), 1e-6);
  CHECK_DONE();
}
