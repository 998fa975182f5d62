// FLAGS: -fplugin=%plugin -std=c++17
// LLVM16-EXPECT-ERROR: enzyme_checkpoint on a loop needs clang 20 or newer
// Checkpoint annotations in C++: [[enzyme::checkpoint(...)]] on a loop in
// a function template (instantiated after the annotation is read), on a
// range-for over a std::array, and `#pragma enzyme checkpoint` in a
// member function; with [[enzyme::function_like("malloc")]] on an
// allocator (clang 22 reads a scoped attribute's arguments). Value and
// gradient must equal the unannotated loop's, and central differences.
#include "../check.h"
#include "annotated.h"
#include <array>
#include <cstdlib>

extern "C" double __enzyme_autodiff(void *, ...);

[[enzyme::function_like("malloc")]] __attribute__((noinline)) void *grab(size_t n) {
  return std::malloc(n);
}

static double plain(double x, long n) {
  double s[3] = {x, 2 * x, 3 * x};
  for (long i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      s[k] = std::sin(s[k]) * 0.9 + 0.1 * s[(k + 1) % 3] * x;
  return s[0] + s[1] * s[2];
}

template <int M> double templated(double x, long n) {
  double s[3] = {x, 2 * x, 3 * x};
  [[enzyme::checkpoint("binomial", M)]] for (long i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++)
      s[k] = std::sin(s[k]) * 0.9 + 0.1 * s[(k + 1) % 3] * x;
  }
  return s[0] + s[1] * s[2];
}

// The steps are a std::array of iteration indices (a range-for).
static double ranged(double x, long n) {
  std::array<long, 20> idx{};
  for (long i = 0; i < 20; i++)
    idx[i] = i;
  double s[3] = {x, 2 * x, 3 * x};
  long left = n;
  [[enzyme::checkpoint("store_all")]] for (long i : idx) {
    if (left-- <= 0)
      break;
    (void)i;
    for (int k = 0; k < 3; k++)
      s[k] = std::sin(s[k]) * 0.9 + 0.1 * s[(k + 1) % 3] * x;
  }
  return s[0] + s[1] * s[2];
}

struct Model {
  double scale;
  double run(double x, long n) const {
    double *s = static_cast<double *>(grab(3 * sizeof(double)));
    s[0] = x, s[1] = 2 * x, s[2] = 3 * x;
#pragma enzyme checkpoint("revolve", 2)
    for (long i = 0; i < n; i++)
      for (int k = 0; k < 3; k++)
        s[k] = std::sin(s[k]) * scale + 0.1 * s[(k + 1) % 3] * x;
    double r = s[0] + s[1] * s[2];
    std::free(s);
    return r;
  }
};

static double member(double x, long n) { return Model{0.9}.run(x, n); }

int main() {
  for (long n : {0L, 1L, 3L, 11L, 20L}) {
    CHECK_ONE(templated<1>, 0.4, n);
    CHECK_ONE(templated<3>, 0.4, n);
    CHECK_ONE(ranged, 0.4, n);
    CHECK_ONE(member, 0.4, n);
  }
  return check_failures != 0;
}
