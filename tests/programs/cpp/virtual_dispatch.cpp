// Virtual calls (unknown targets at -O0, and at -O2 where one function sees
// several dynamic types): objects passed as constants and as duplicated
// objects whose shadow is a zeroed copy (same vtable) accumulating the
// derivatives of the members.
#include "check.h"
#include <cstring>

struct Model {
  double w[2];
  virtual double eval(double x) const = 0;
  virtual ~Model() {}
};
struct Quad : Model {
  double eval(double x) const override { return w[0] * x * x + w[1] * x; }
};
struct Wave : Model {
  double eval(double x) const override { return w[0] * std::sin(w[1] * x); }
};

double loss(const Model *m, double x) { return m->eval(x) * m->eval(x + 1.0); }

double total(Model *const *ms, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; i++) s += ms[i]->eval(x) * (i + 1);
  return s;
}

int main() {
  Quad q; q.w[0] = 0.5; q.w[1] = -1.2;
  Wave v; v.w[0] = 1.3; v.w[1] = 0.8;
  double x = 0.6;
  // Constant objects: d/dx through either override.
  Model *ms[2] = { &q, &v };
  for (int k = 0; k < 2; k++) {
    Model *m = ms[k];
    double fd = FD(x, loss(m, x), 1e-6);
    CHECK("d/dx rev", __enzyme_autodiff((void *)loss, enzyme_const, m, x), fd, 1e-6);
    CHECK("d/dx fwd", __enzyme_fwddiff((void *)loss, enzyme_const, m, x, 1.0), fd, 1e-6);
  }
  // Duplicated objects: the shadow is a copy with zeroed members.
  Quad dq = q; dq.w[0] = dq.w[1] = 0;
  Wave dv = v; dv.w[0] = dv.w[1] = 0;
  Model *ds[2] = { &dq, &dv };
  for (int k = 0; k < 2; k++) {
    Model *m = ms[k];
    __enzyme_autodiff((void *)loss, enzyme_dup, m, ds[k], enzyme_const, x);
    for (int j = 0; j < 2; j++)
      CHECK("d/dw", ds[k]->w[j], FD(m->w[j], loss(m, x), 1e-6), 1e-6);
  }
  // An array of polymorphic pointers (constant objects), active x.
  double fd = FD(x, total(ms, 2, x), 1e-6);
  CHECK("total", __enzyme_autodiff((void *)total, enzyme_const, ms, enzyme_const, 2, x), fd, 1e-6);
  CHECK_DONE();
}
