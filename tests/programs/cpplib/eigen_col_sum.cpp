// Eigen 3.4: (A * B.col(1)).sum() -- a product with a column block of
// another matrix, reduced (fixed 3x3 and dynamic sizes), reverse and
// forward mode.
// FLAGS: -I/usr/include/eigen3
// LEVELS: O0 O1 O2 O3
// SANITIZE-SKIP-LLVM22: with clang-22 and -fsanitize=address at -O2 the
// inlined DenseStorage::resize stores conditional_aligned_new_auto's pointer
// through an inttoptr (ASan's instrumentation), a clean "shadow is unknown"
// refusal: a pointer laundered through an integer by the sanitizer, which
// the derivative cannot follow (a known limit, not a wrong derivative).
// (-O0: the "no shadow" case -- DenseStorage::resize stores the pointer
// conditional_aligned_new_auto returns into the matrix -- is fixed
// (Key::ret_shadow, cpplib/alloc_returned.cpp); the forward-mode "no
// shadow" error in plainobjectbase_evaluator_data's constructor (the
// default evaluator's null data pointer) is fixed (forward mode passes
// null pointers beside shadowed arguments with a null shadow, as the
// augmented sweep does: cpp/evaluator_null_data.cpp). The gradient `fd`
// crashed (SIGSEGV in the reverse of ploadu<Packet2d>): the type analysis
// mixed the fields of the objects whose variable_if_dynamic members share
// one constructor, so the Map copy constructor's 24-byte memcpy read as
// floats and the shadow data pointer was not copied. A dereferenceable(N)
// parameter now gives its callers back only its N bytes
// (cpplib/shared_member_ctor.cpp); the -O0 compile takes about a minute.)
#include "check.h"
#include <Eigen/Dense>
#include <cmath>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
static double f(const double *a, const double *b) {
  Eigen::Matrix3d A, B;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      A(i, j) = a[3 * i + j];
      B(i, j) = b[3 * i + j];
    }
  return (A * B.col(1)).sum();
}
static double fd(const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd> A(a, n, n), B(b, n, n);
  Eigen::VectorXd v = A * B.col(1);
  return v.sum() + (A * B.col(0)).squaredNorm();
}
int main() {
  double a[9], b[9], da[9] = {0}, db[9] = {0};
  for (int i = 0; i < 9; i++) {
    a[i] = std::sin(i + 1.0);
    b[i] = std::cos(0.5 * i);
  }
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, b, db);
  for (int i = 0; i < 9; i++) {
    // d/dA(r,c) = B(c,1); d/dB(r,1) = sum_k A(k,r)
    int r = i / 3, c = i % 3;
    CHECK("da", da[i], b[3 * c + 1], 1e-12);
    CHECK("db", db[i], c == 1 ? a[r] + a[3 + r] + a[6 + r] : 0.0, 1e-12);
    double ta[9] = {0}, tb[9] = {0};
    ta[i] = 1;
    CHECK("fwd a", __enzyme_fwddiff((void *)f, enzyme_dup, a, ta, enzyme_dup, b, tb), da[i], 1e-12);
  }
  const int n = 4;
  double a4[16], b4[16], da4[16] = {0}, db4[16] = {0};
  for (int i = 0; i < 16; i++) {
    a4[i] = std::sin(0.3 * i + 1.0);
    b4[i] = std::cos(0.7 * i);
  }
  __enzyme_autodiff((void *)fd, enzyme_dup, a4, da4, enzyme_dup, b4, db4, enzyme_const, n);
  for (int i = 0; i < 16; i++) {
    CHECK("da4 fd", da4[i], FD(a4[i], fd(a4, b4, n), 1e-6), 1e-6);
    CHECK("db4 fd", db4[i], FD(b4[i], fd(a4, b4, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
