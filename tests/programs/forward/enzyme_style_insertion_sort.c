// Enzyme-style: insertion sort of active values (swaps move tangents), then
// a weighted sum of the sorted array.
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
static void isort(double *a, int n) {
  for (int i = 1; i < n; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
}
double sorted_weighted(double *a, int n) {
  isort(a, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * a[i] * (i + 1);
  return s;
}
int main(void) {
  double a[5] = {3, -1, 4, 1.5, 2}, da[5] = {1, 2, 3, 4, 5};
  double d = __enzyme_fwddiff((void *)sorted_weighted, enzyme_dup, a, da, enzyme_const, 5);
  /* sorted: -1(da 2), 1.5(4), 2(5), 3(1), 4(3) */
  double want = 2 * -1 * 2 * 1 + 2 * 1.5 * 4 * 2 + 2 * 2 * 5 * 3 + 2 * 3 * 1 * 4 + 2 * 4 * 3 * 5;
  printf("d=%g want=%g sorted=%g %g %g %g %g tangents=%g %g %g %g %g\n", d, want, a[0], a[1], a[2], a[3], a[4], da[0], da[1], da[2], da[3], da[4]);
  if (fabs(d - want) > 1e-9) return 1;
  if (da[0] != 2 || da[1] != 4 || da[2] != 5 || da[3] != 1 || da[4] != 3) return 1;
  return 0;
}
