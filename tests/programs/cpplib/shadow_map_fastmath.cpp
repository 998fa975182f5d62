// FLAGS: -ffast-math
// Reverse mode (C++): a std::unordered_map<std::string, double> passed
// with a shadow map of the same keys (enzyme_dup), its values read and
// written through operator[], compiled with -ffast-math (which sets the
// CPU's denormals-are-zero mode). At -O0 the type analysis takes the
// map's integer fields for a float's bits; their zero adjoints used to be
// added to the shadow map's bucket count as a double, a denormal the CPU
// read as 0: the next lookup in the shadow map divided by zero. The
// shadow's integer fields must come back unchanged.
#include "check.h"
#include <cmath>
#include <string>
#include <unordered_map>
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
typedef std::unordered_map<std::string, double> Params;
// p["a"] <- p["a"]^2 * p["b"] + sin(p["b"])
static void step(Params &p) { p["a"] = p["a"] * p["a"] * p["b"] + std::sin(p["b"]); }
int main() {
  Params p, dp;
  p["a"] = 1.5;
  p["b"] = -0.4;
  dp["a"] = 1.0; // seed: the adjoint of the new p["a"]
  dp["b"] = 0.0;
  size_t buckets = dp.bucket_count(), size = dp.size();
  const double a = 1.5, b = -0.4;
  __enzyme_autodiff((void *)step, enzyme_dup, &p, &dp);
  CHECK("shadow bucket count", (double)dp.bucket_count(), (double)buckets, 0);
  CHECK("shadow size", (double)dp.size(), (double)size, 0);
  CHECK("primal a", p["a"], a * a * b + std::sin(b), 1e-12);
  CHECK("d/da", dp["a"], 2 * a * b, 1e-12);
  CHECK("d/db", dp["b"], a * a + std::cos(b), 1e-12);
  CHECK_DONE();
}
