// GEPs into structs and arrays of structs.
#include "check.h"
typedef struct { double x, y; int tag; double w[3]; } point;
double energy(const point *ps, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    const point *p = &ps[i];
    e += p->x * p->y + p->w[i % 3] * p->x + (p->tag ? p->y * p->y : 0.0);
  }
  return e;
}
double energy_ref(const point *ps, int n) { return energy(ps, n); }
int main(void) {
  point ps[3] = {{1, 2, 0, {0.5, 1, 2}}, {3, -1, 1, {1, 2, 3}}, {0.5, 0.25, 1, {4, 5, 6}}};
  point dps[3] = {0};
  /* seed d/d ps[1].y */
  dps[1].y = 1.0;
  double d = __enzyme_fwddiff((void *)energy, enzyme_dup, ps, dps, enzyme_const, 3);
  CHECK("dE/dp1.y", d, ps[1].x + 2 * ps[1].y, 1e-12);
  CHECK("dE/dp1.y fd", d, FD(ps[1].y, energy_ref(ps, 3), 1e-6), 1e-6);
  /* seed d/d ps[2].x and d/d ps[2].w[2] together */
  dps[1].y = 0; dps[2].x = 1.0; dps[2].w[2] = 1.0;
  d = __enzyme_fwddiff((void *)energy, enzyme_dup, ps, dps, enzyme_const, 3);
  CHECK("dE/d(p2.x + p2.w2)", d, ps[2].y + ps[2].w[2] + ps[2].x, 1e-12);
  double f1 = FD(ps[2].x, energy_ref(ps, 3), 1e-6);
  double f2 = FD(ps[2].w[2], energy_ref(ps, 3), 1e-6);
  CHECK("fd", d, f1 + f2, 1e-6);
  CHECK_DONE();
}
