// FLAGS: -fplugin=%plugin
// C++ (mangled names): [[enzyme::inactive]] on a member function, a
// function-like allocator declared in a namespace, a shadowed
// namespace-scope global, [[enzyme::checkpoint]]. (clang 16 parses no
// arguments of a plugin's [[scoped::attribute(...)]]: the attributes that
// take one use the GNU spelling in C++ too.)
#include "../check.h"
#include <cstdlib>

namespace sim {
double d_k[1];
double k[1] __attribute__((enzyme_shadow(d_k))) = {0.5};
__attribute__((enzyme_function_like("malloc"))) void *grab(std::size_t n);
__attribute__((enzyme_function_like("free"))) void drop(void *p);
__attribute__((noinline)) void *grab(std::size_t n) { return std::malloc(n); }
__attribute__((noinline)) void drop(void *p) { std::free(p); }
struct Log {
  int n = 0;
  [[enzyme::inactive]] __attribute__((noinline)) double note(double v) {
    n++;
    return v * 1e-3;
  }
};
[[enzyme::checkpoint]] __attribute__((noinline)) double cube(double x) { return x * x * x; }
} // namespace sim

static sim::Log logger;

double f(double x) {
  double *buf = static_cast<double *>(sim::grab(sizeof(double)));
  buf[0] = sim::cube(x) * sim::k[0];
  double r = buf[0] + logger.note(x);
  sim::drop(buf);
  return r;
}

int main() {
  double x = 1.3;
  double d = __enzyme_autodiff((void *)f, x);
  CHECK("df/dx", d, 3 * x * x * sim::k[0], 1e-12);
  CHECK("d k", sim::d_k[0], x * x * x, 1e-12);
  CHECK_DONE();
}
