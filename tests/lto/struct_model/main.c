// Structs across files: the function differentiated (body.c) takes a
// struct of parameters and an array of particles, built and read here;
// shadows of both are duplicated.
#include "check.h"
#include "types.h"
double total_energy(const params *p, const particle *ps, int n);
int main(void) {
  enum { N = 4 };
  params p = {1.5, 0.2}, dp = {0, 0};
  particle ps[N], dps[N];
  for (int i = 0; i < N; i++) {
    ps[i].x = 0.3 * i + 0.1, ps[i].v = 0.5 - 0.2 * i, ps[i].id = i;
    dps[i].x = dps[i].v = 0, dps[i].id = 0;
  }
  __enzyme_autodiff((void *)total_energy, enzyme_dup, &p, &dp, enzyme_dup, ps, dps, enzyme_const, N);
  CHECK("dk fd", dp.k, FD(p.k, total_energy(&p, ps, N), 1e-6), 1e-6);
  CHECK("dc fd", dp.c, FD(p.c, total_energy(&p, ps, N), 1e-6), 1e-6);
  for (int i = 0; i < N; i++) {
    CHECK("dx fd", dps[i].x, FD(ps[i].x, total_energy(&p, ps, N), 1e-6), 1e-6);
    CHECK("dv fd", dps[i].v, FD(ps[i].v, total_energy(&p, ps, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
