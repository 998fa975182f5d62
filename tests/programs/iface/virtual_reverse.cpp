// __enzyme_virtualreverse: a shadow object for a class with virtual
// methods gets its vtable pointer from __enzyme_virtualreverse of the
// primal's (as Enzyme's documentation does it), and the gradient through a
// virtual call on it lands in the shadow object's fields. Two dynamic types
// through one call site; also __enzyme_virtualreverse of a function.
#include "check.h"
#include <cmath>
#include <new>
template <typename T> T __enzyme_virtualreverse(T);
double __enzyme_autodiff(void *, ...);
struct Function {
  virtual double operator()(double x) const = 0;
  virtual ~Function() {}
};
struct Square : Function {
  double c;
  explicit Square(double c) : c(c) {}
  double operator()(double x) const override { return c * x * x; }
};
struct Wave : Function {
  double k;
  explicit Wave(double k) : k(k) {}
  double operator()(double x) const override { return sin(k * x); }
};
__attribute__((noinline)) double model(double x, const Function *f) { return x * (*f)(x) + (*f)(0.5 * x); }
static double sq(double x) { return x * x; }
__attribute__((noinline)) double apply(double (*g)(double), double x) { return g(x) * x; }
// A shadow of the same class with zero fields and the vtable pointer given
// by __enzyme_virtualreverse.
template <typename C> C *shadow_of(const C *) {
  C *s = new C(0.0);
  *(void **)s = __enzyme_virtualreverse(*(void **)s);
  return s;
}
int main() {
  Square sq3(3.0);
  Wave w(1.3);
  Square *dsq = shadow_of(&sq3);
  Wave *dw = shadow_of(&w);
  for (double x = 0.25; x < 2; x += 0.5) {
    dsq->c = 0;
    double d = __enzyme_autodiff((void *)model, x, enzyme_dup, (const Function *)&sq3, (const Function *)dsq);
    CHECK("square dx", d, FD(x, model(x, &sq3), 1e-6), 1e-6);
    CHECK("square dc", dsq->c, FD(sq3.c, model(x, &sq3), 1e-6), 1e-6);
    dw->k = 0;
    d = __enzyme_autodiff((void *)model, x, enzyme_dup, (const Function *)&w, (const Function *)dw);
    CHECK("wave dx", d, FD(x, model(x, &w), 1e-6), 1e-6);
    CHECK("wave dk", dw->k, FD(w.k, model(x, &w), 1e-6), 1e-6);
    // The shadow of a function pointer.
    double (*dsqf)(double) = __enzyme_virtualreverse(&sq);
    d = __enzyme_autodiff((void *)apply, enzyme_dup, &sq, dsqf, x);
    CHECK("fnptr dx", d, 3 * x * x, 1e-12);
  }
  delete dsq;
  delete dw;
  CHECK_DONE();
}
