#include "types.h"
double kinetic(const particle *q);
double total_energy(const params *p, const particle *ps, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += kinetic(&ps[i]) + 0.5 * p->k * ps[i].x * ps[i].x + p->c * ps[i].x * ps[i].v * (ps[i].id + 1);
  return e;
}
