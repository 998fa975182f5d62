// Reverse: a void function writing its scalar result through an output
// pointer; the output's shadow is seeded with 1.0 and receives 0 after.
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
void energy(const double *pos, int n, double k, double *out) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = pos[i] - pos[j];
      e += k / (d * d + 1.0);
    }
  *out = e;
}
int main(void) {
  double pos[4] = {0.0, 0.7, -1.1, 2.3}, dpos[4] = {0};
  double out = 0, dout = 1.0, k = 2.0;
  __enzyme_autodiff((void *)energy, enzyme_dup, pos, dpos, enzyme_const, 4, enzyme_const, k, enzyme_dup,
                    &out, &dout);
  int bad = dout != 0.0;
  for (int p = 0; p < 4; p++) {
    double want = 0;
    for (int j = 0; j < 4; j++)
      if (j != p) {
        double d = pos[p] - pos[j];
        want += -k * 2 * d / ((d * d + 1) * (d * d + 1));
      }
    printf("dpos[%d] = %.15g want %.15g\n", p, dpos[p], want);
    if (fabs(dpos[p] - want) > 1e-12) bad = 1;
  }
  return bad;
}
