// Pointer to pointer: rows of a matrix reached through double**.
#include "check.h"
double trace_sq(double **rows, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += rows[i][j] * rows[j][i];
  return s;
}
void scale_rows(double **rows, int n, double k) {
  for (int i = 0; i < n; i++) rows[i][i] *= k;
}
int main(void) {
  double m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 10}};
  double dm[3][3] = {{0}};
  double *rows[3] = {m[0], m[1], m[2]}, *drows[3] = {dm[0], dm[1], dm[2]};
  dm[0][1] = 1.0; /* d/dm01 */
  double d = __enzyme_fwddiff((void *)trace_sq, enzyme_dup, rows, drows, 3);
  CHECK("d/dm01", d, 2 * m[1][0], 1e-12);
  CHECK("d/dm01 fd", d, FD(m[0][1], trace_sq(rows, 3), 1e-6), 1e-6);
  /* tangent written through the shadow of a pointer-to-pointer */
  double dk = 1.0;
  dm[0][1] = 0;
  for (int i = 0; i < 3; i++) dm[i][i] = 0.5;
  __enzyme_fwddiff((void *)scale_rows, enzyme_dup, rows, drows, 3, 2.0, dk);
  for (int i = 0; i < 3; i++) {
    /* d(m_ii * k) = dm_ii * k + m_ii * dk, with the old m_ii */
    double old = m[i][i] / 2.0;
    CHECK("d diag", dm[i][i], 0.5 * 2.0 + old * dk, 1e-12);
  }
  CHECK_DONE();
}
