// Enzyme-style: three nested loops with run-time bounds writing into an
// output array in place.
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void triple(double *out, const double *in, int n, int m, int k) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int l = 0; l < k; l++) out[i] += in[(i + j + l) % 5] * in[j % 5] * (l + 1);
}
int main() {
  double in[5] = {1, 2, 3, 4, 5}, din[5] = {0}, out[3] = {0}, dout[3] = {1, 1, 1};
  __enzyme_autodiff((void *)triple, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, 3,
                    enzyme_const, 4, enzyme_const, 2);
  double want[5] = {0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < 2; l++) {
        want[(i + j + l) % 5] += in[j % 5] * (l + 1);
        want[j % 5] += in[(i + j + l) % 5] * (l + 1);
      }
  for (int i = 0; i < 5; i++) {
    printf("din[%d] = %f want %f\n", i, din[i], want[i]);
    if (fabs(din[i] - want[i]) > 1e-12) return 1;
  }
  for (int i = 0; i < 3; i++) if (dout[i] != 1) return 2; /* += keeps the seed */
  return 0;
}
