// Reverse mode: pointer to pointer (rows of a matrix).
#include "check.h"
double frob(double **rows, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++) s += rows[i][j] * rows[i][j] * (i + j + 1);
  return s;
}
int main(void) {
  double a[3][2] = {{1, 2}, {3, 4}, {5, 6}}, da[3][2] = {{0}};
  double *rows[3] = {a[0], a[1], a[2]}, *drows[3] = {da[0], da[1], da[2]};
  __enzyme_autodiff((void *)frob, rows, drows, 3, 2);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK("dptrptr", da[i][j], 2 * a[i][j] * (i + j + 1), 1e-12);
  CHECK_DONE();
}
