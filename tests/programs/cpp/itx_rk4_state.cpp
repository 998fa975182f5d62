// Reverse mode (C++): an RK4 integrator over a small state struct with
// operator overloading (a damped pendulum), differentiated w.r.t. the
// initial state and the damping parameter.
#include "check.h"
#include <cmath>
struct State {
  double th, om;
  State operator+(const State &o) const { return {th + o.th, om + o.om}; }
  State operator*(double s) const { return {th * s, om * s}; }
};
struct Pendulum {
  double g, damp;
  State deriv(const State &s) const { return {s.om, -g * std::sin(s.th) - damp * s.om}; }
  State step(const State &s, double h) const {
    State k1 = deriv(s);
    State k2 = deriv(s + k1 * (h / 2));
    State k3 = deriv(s + k2 * (h / 2));
    State k4 = deriv(s + k3 * h);
    return s + (k1 + k2 * 2 + k3 * 2 + k4) * (h / 6);
  }
};
static double simulate(State *s0, double damp) {
  Pendulum p{9.81, damp};
  State s = *s0;
  for (int i = 0; i < 50; i++) s = p.step(s, 0.02);
  return s.th * s.th + 0.1 * s.om * s.om;
}
extern int enzyme_dup, enzyme_out;
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  State s0{0.8, -0.3}, ds0{0, 0};
  double damp = 0.4;
  double dd = __enzyme_autodiff((void *)simulate, enzyme_dup, &s0, &ds0, enzyme_out, damp);
  CHECK("ddamp fd", dd, FD(damp, simulate(&s0, damp), 1e-6), 1e-6);
  CHECK("dth fd", ds0.th, FD(s0.th, simulate(&s0, damp), 1e-6), 1e-6);
  CHECK("dom fd", ds0.om, FD(s0.om, simulate(&s0, damp), 1e-6), 1e-6);
  CHECK_DONE();
}
