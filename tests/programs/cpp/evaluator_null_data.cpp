// Forward and reverse mode (C++): an Eigen-style evaluator of a product.
// The evaluator's data (a `const double*` and an integer stride, stored by
// a constructor into a struct passed by pointer) is first built from
// (nullptr, 0) by the default constructor, then rebuilt in place over the
// product's result (Eigen's product_evaluator and
// plainobjectbase_evaluator_data, CoreEvaluators.h:140). At -O0 the null
// pointer is a constant argument beside the shadowed `this`.
#include "check.h"
#include <new>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);

struct EvalData {
  const double *data;
  long stride;
  EvalData(const double *p, long s) : data(p), stride(s) {}
};
struct Evaluator {
  EvalData d;
  Evaluator() : d(nullptr, 0) {}
  explicit Evaluator(const double *p, long s = 1) : d(p, s) {}
  double coeff(long i) const { return d.data[i * d.stride]; }
};
// A 3x3 matrix times a vector, evaluated into `result`; the evaluator base
// is default-constructed, then placement-new'd over the result.
struct ProductEvaluator : Evaluator {
  double result[3];
  ProductEvaluator(const double *a, const double *x) : Evaluator() {
    for (int r = 0; r < 3; r++) {
      double s = 0;
      for (int c = 0; c < 3; c++) s += a[3 * r + c] * x[c];
      result[r] = s;
    }
    ::new (static_cast<Evaluator *>(this)) Evaluator(result);
  }
};
static double f(const double *a, const double *x) {
  ProductEvaluator ev(a, x);
  double s = 0;
  for (long i = 0; i < 3; i++) s += ev.coeff(i) * ev.coeff(i);
  return s;
}
int main() {
  double a[9], x[3] = {0.4, -1.3, 0.8}, da[9] = {0}, dx[3] = {0};
  for (int i = 0; i < 9; i++) a[i] = __builtin_sin(i + 1.0);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, x, dx);
  for (int i = 0; i < 9; i++) {
    CHECK("da fd", da[i], FD(a[i], f(a, x), 1e-6), 1e-6);
    double ta[9] = {0}, tx[3] = {0};
    ta[i] = 1;
    CHECK("fwd a", __enzyme_fwddiff((void *)f, enzyme_dup, a, ta, enzyme_dup, x, tx), da[i], 1e-10);
  }
  for (int i = 0; i < 3; i++) {
    CHECK("dx fd", dx[i], FD(x[i], f(a, x), 1e-6), 1e-6);
    double ta[9] = {0}, tx[3] = {0};
    tx[i] = 1;
    CHECK("fwd x", __enzyme_fwddiff((void *)f, enzyme_dup, a, ta, enzyme_dup, x, tx), dx[i], 1e-10);
  }
  CHECK_DONE();
}
