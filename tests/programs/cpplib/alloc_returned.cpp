// Reverse and forward mode (C++): a callee with no pointer argument
// returns fresh memory (malloc / operator new[], through two levels of
// helpers, as Eigen's conditional_aligned_new_auto does), and the caller
// stores that pointer into its own (duplicated) object and fills the
// memory with active data. The callee's augmented sweep must return the
// allocation's shadow although none of its arguments has one.
#include "check.h"
#include <cmath>
#include <cstdlib>
#include <new>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
template <class T> __attribute__((noinline)) T *raw_alloc(long n) {
  return static_cast<T *>(std::malloc(sizeof(T) * n));
}
template <class T> __attribute__((noinline)) T *new_auto(long n, bool heap_new) {
  if (heap_new)
    return new T[n];
  return raw_alloc<T>(n);
}
struct Buf {
  double *data = nullptr;
  long n = 0;
  bool arr = false;
  __attribute__((noinline)) void resize(long m, bool heap_new) {
    release();
    data = new_auto<double>(m, heap_new);
    n = m;
    arr = heap_new;
  }
  void release() {
    if (arr)
      delete[] data;
    else
      std::free(data);
    data = nullptr;
  }
  ~Buf() { release(); }
};
static double f(const double *x, long n) {
  double s = 0;
  for (int k = 0; k < 2; k++) {
    Buf b;
    b.resize(n, k == 1);
    for (long i = 0; i < n; i++)
      b.data[i] = std::sin(x[i]) * (k + 1);
    for (long i = 0; i < n; i++)
      s += b.data[i] * b.data[(i + 1) % n];
  }
  return s;
}
int main() {
  const long n = 5;
  double x[n], dx[n] = {0};
  for (long i = 0; i < n; i++)
    x[i] = 0.3 * i - 0.4;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (long i = 0; i < n; i++) {
    long p = (i + n - 1) % n, q = (i + 1) % n;
    double want = 5 * std::cos(x[i]) * (std::sin(x[p]) + std::sin(x[q]));
    CHECK("dx", dx[i], want, 1e-12);
    CHECK("fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
    double tx[n] = {0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, n);
    CHECK("fwd", t, dx[i], 1e-12);
  }
  CHECK_DONE();
}
