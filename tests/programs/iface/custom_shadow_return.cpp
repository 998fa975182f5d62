// Custom gradients of functions returning a pointer whose shadow the
// derivative needs: the augmented forward function returns {result,
// shadow} (no tape) or {tape, result, shadow}. Here the pointer is to an
// object with virtual methods; its shadow is an object of the same class
// whose vtable pointer is __enzyme_virtualreverse of the primal's.
#include "check.h"
#include <cmath>
template <typename T> T __enzyme_virtualreverse(T);
double __enzyme_autodiff(void *, ...);
struct Model {
  virtual double eval(double x) const = 0;
  virtual ~Model() {}
};
struct Quad : Model {
  double a, b;
  Quad(double a, double b) : a(a), b(b) {}
  double eval(double x) const override { return a * x * x + b * x; }
};
struct Growth : Model {
  double k, unused;
  Growth(double k, double) : k(k), unused(0) {}
  double eval(double x) const override { return exp(k * x); }
};
static int augs = 0, revs = 0, augs3 = 0, revs3 = 0;
// Picks a model from a table (the derivative needs the shadow model).
__attribute__((noinline)) Model *pick(Model **table, int i) { return table[i]; }
struct RS {
  Model *result, *shadow;
};
static RS pick_aug(Model **table, Model **dtable, int i) {
  augs++;
  return RS{table[i], dtable[i]};
}
static void pick_rev(Model **, Model **, int) { revs++; }
void *__enzyme_register_gradient_pick[] = {(void *)pick, (void *)pick_aug, (void *)pick_rev};
// The same with a tape (the index, doubled).
__attribute__((noinline)) Model *pick3(Model **table, int i) { return table[i % 2]; }
struct TRS {
  long tape;
  Model *result, *shadow;
};
static TRS pick3_aug(Model **table, Model **dtable, int i) {
  augs3++;
  return TRS{2L * i, table[i % 2], dtable[i % 2]};
}
static void pick3_rev(Model **, Model **, int i, long tape) {
  if (tape == 2L * i) revs3++;
}
void *__enzyme_register_gradient_pick3[] = {(void *)pick3, (void *)pick3_aug, (void *)pick3_rev};
static double loss(Model **table, int i, double x) {
  Model *m = pick(table, i);
  double y = m->eval(x);
  return y * m->eval(0.5 * x);
}
static double loss3(Model **table, double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) s += pick3(table, i)->eval(x + i);
  return s;
}
template <typename C> C *shadow_of() {
  C *s = new C(0.0, 0.0);
  *(void **)s = __enzyme_virtualreverse(*(void **)s);
  return s;
}
int main() {
  Quad q(1.5, -0.5);
  Growth g(0.3, 0);
  Quad *dq = shadow_of<Quad>();
  Growth *dg = shadow_of<Growth>();
  Model *table[2] = {&q, &g}, *dtable[2] = {dq, dg};
  double x = 0.7;
  double d = __enzyme_autodiff((void *)loss, enzyme_dup, table, dtable, enzyme_const, 0, x);
  CHECK("quad dx", d, FD(x, loss(table, 0, x), 1e-6), 1e-6);
  CHECK("quad da", dq->a, FD(q.a, loss(table, 0, x), 1e-6), 1e-6);
  CHECK("quad db", dq->b, FD(q.b, loss(table, 0, x), 1e-6), 1e-6);
  d = __enzyme_autodiff((void *)loss, enzyme_dup, table, dtable, enzyme_const, 1, x);
  CHECK("growth dx", d, FD(x, loss(table, 1, x), 1e-6), 1e-6);
  CHECK("growth dk", dg->k, FD(g.k, loss(table, 1, x), 1e-6), 1e-6);
  CHECK("custom aug ran", augs, 2, 0);
  CHECK("custom rev ran", revs, 2, 0);
  dq->a = dq->b = dg->k = 0;
  d = __enzyme_autodiff((void *)loss3, enzyme_dup, table, dtable, x);
  CHECK("loss3 dx", d, FD(x, loss3(table, x), 1e-6), 1e-6);
  CHECK("loss3 da", dq->a, FD(q.a, loss3(table, x), 1e-6), 1e-6);
  CHECK("loss3 dk", dg->k, FD(g.k, loss3(table, x), 1e-6), 1e-6);
  CHECK("tape aug ran", augs3, 4, 0);
  CHECK("tape rev ran with its tape", revs3, 4, 0);
  delete dq;
  delete dg;
  CHECK_DONE();
}
