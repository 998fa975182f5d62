// Reverse mode: structs with mixed int/double fields copied by assignment
// (memcpy of whole records), then reduced.
#include "check.h"
typedef struct { double x; int tag; double w; } Rec;
double f(const Rec *in, int n) {
  Rec tmp[4];
  for (int i = 0; i < n; i++) tmp[n - 1 - i] = in[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += tmp[i].x * tmp[i].w * (tmp[i].tag + i);
  return s;
}
int main(void) {
  Rec r[4], dr[4];
  for (int i = 0; i < 4; i++) {
    r[i].x = 0.5 * i + 1; r[i].w = 2 - 0.25 * i; r[i].tag = i * 3;
    dr[i].x = dr[i].w = 0; dr[i].tag = 0;
  }
  __enzyme_autodiff((void *)f, r, dr, 4);
  for (int i = 0; i < 4; i++) {
    CHECK("dx fd", dr[i].x, FD(r[i].x, f(r, 4), 1e-6), 1e-6);
    CHECK("dw fd", dr[i].w, FD(r[i].w, f(r, 4), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
