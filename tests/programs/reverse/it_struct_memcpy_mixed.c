// Reverse: an array of structs mixing an int id, a double, a float and a
// pointer to a double, copied with memcpy and by struct assignment, then
// reduced through both the fields and the pointers; an array of pointers
// copied with memcpy and shifted with an overlapping memmove.
#include "check.h"
#include <string.h>
typedef struct {
  int id;
  double v;
  float w;
  double *ref;
} Item;
__attribute__((noinline)) double f(Item *items, int n) {
  Item copy[8];
  memcpy(copy, items, n * sizeof(Item));
  Item last = items[n - 1];
  double s = 0;
  for (int i = 0; i < n; i++) s += copy[i].v * copy[i].w * (copy[i].id + 1) + *copy[i].ref * copy[i].v;
  return s + last.v * *last.ref;
}
/* an array of pointers copied with memcpy, then shifted with memmove */
__attribute__((noinline)) double g(double **rows, int n) {
  double *tmp[8];
  memcpy(tmp, rows, n * sizeof(double *));
  memmove(tmp + 1, tmp, (n - 1) * sizeof(double *));
  double s = 0;
  for (int i = 0; i < n; i++) s += tmp[i][0] * tmp[i][1] * (i + 1);
  return s;
}
int main(void) {
  double ext[3] = {0.5, -1.5, 2.0}, dext[3] = {0};
  Item it[3] = {{0, 0.3, 1.5f, &ext[0]}, {1, -0.7, 0.25f, &ext[1]}, {2, 1.2, -2.0f, &ext[2]}};
  Item dit[3] = {{0, 0, 0, &dext[0]}, {1, 0, 0, &dext[1]}, {2, 0, 0, &dext[2]}};
  __enzyme_autodiff((void *)f, enzyme_dup, it, dit, enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    double wv = it[i].v, ww = it[i].w, e = ext[i];
    double want_v = ww * (i + 1) + e + (i == 2 ? e : 0);
    double want_w = wv * (i + 1);
    double want_e = wv + (i == 2 ? wv : 0);
    CHECK("dv", dit[i].v, want_v, 1e-12);
    CHECK("dw", dit[i].w, want_w, 1e-6);
    CHECK("dext", dext[i], want_e, 1e-12);
  }
  double r0[2] = {0.5, 2.0}, r1[2] = {-1.0, 0.25}, r2[2] = {1.5, 3.0};
  double q0[2] = {0}, q1[2] = {0}, q2[2] = {0};
  double *rows[3] = {r0, r1, r2}, *drows[3] = {q0, q1, q2};
  __enzyme_autodiff((void *)g, enzyme_dup, rows, drows, enzyme_const, 3);
  /* tmp = {r0, r0, r1}: weights 1 + 2 for r0, 3 for r1, 0 for r2 */
  CHECK("dr0[0]", q0[0], 3 * r0[1], 1e-12);
  CHECK("dr0[1]", q0[1], 3 * r0[0], 1e-12);
  CHECK("dr1[0]", q1[0], 3 * r1[1], 1e-12);
  CHECK("dr1[1]", q1[1], 3 * r1[0], 1e-12);
  CHECK("dr2", q2[0] + q2[1], 0, 0);
  CHECK_DONE();
}
