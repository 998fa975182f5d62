// Enzyme-style: sum of an array until a running total passes a bound
// (a loop with a data-dependent break), declared without the header.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double sumtil(double *vec, int size) {
  double ret = 0.0;
  for (int i = 0; i < size; i++) {
    ret += vec[i];
    if (ret > 2.5) break;
  }
  return ret;
}
int main() {
  double vec[] = {1, 0.5, 0.75, 0.5, 1, 2};
  double d_vec[] = {0, 0, 0, 0, 0, 0};
  __enzyme_autodiff((void *)sumtil, enzyme_dup, vec, d_vec, enzyme_const, 6);
  double want[] = {1, 1, 1, 1, 0, 0};
  for (int i = 0; i < 6; i++) {
    printf("d_vec[%d] = %f\n", i, d_vec[i]);
    if (fabs(d_vec[i] - want[i]) > 1e-12) return 1;
  }
  return 0;
}
