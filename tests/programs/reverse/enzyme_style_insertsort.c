// Enzyme-style: insertion sort of the argument array in place, then a sum
// of the first half (gradient 1 for the smallest elements).
#include <stdio.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void insertsort(double *a, int n) {
  for (int i = 1; i < n; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
}
double sorted_half_sum(double *a, int n) {
  insertsort(a, n);
  double s = 0;
  for (int i = 0; i < n / 2; i++) s += a[i] * a[i];
  return s;
}
int main() {
  double a[6] = {5, 2, 9, 1, 7, 3}, orig[6] = {5, 2, 9, 1, 7, 3}, da[6] = {0};
  __enzyme_autodiff((void *)sorted_half_sum, enzyme_dup, a, da, enzyme_const, 6);
  /* three smallest: 1, 2, 3 at original positions 3, 1, 5 */
  double want[6] = {0, 2 * 2, 0, 2 * 1, 0, 2 * 3};
  for (int i = 0; i < 6; i++) {
    printf("da[%d] = %f (orig %f)\n", i, da[i], orig[i]);
    if (fabs(da[i] - want[i]) > 1e-12) return 1;
  }
  return 0;
}
