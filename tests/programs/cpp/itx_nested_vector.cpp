// Reverse mode (C++): a std::vector<std::vector<double>> built inside the
// differentiated function (temporaries placed into the outer vector), then
// reduced row by row.
#include "check.h"
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, int rows, int cols) {
  std::vector<std::vector<double>> m;
  for (int r = 0; r < rows; r++) {
    std::vector<double> row;
    for (int c = 0; c < cols; c++) row.push_back(x[r * cols + c] * (r + 1));
    m.push_back(row);
  }
  double s = 0;
  for (const auto &row : m) {
    double rs = 0;
    for (double v : row) rs += v;
    s += rs * rs;
  }
  return s;
}
int main() {
  const int R = 3, C = 4;
  double x[R * C], dx[R * C] = {0};
  for (int i = 0; i < R * C; i++) x[i] = 0.1 * i - 0.4;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, R, enzyme_const, C);
  for (int r = 0; r < R; r++) {
    double rs = 0;
    for (int c = 0; c < C; c++) rs += x[r * C + c] * (r + 1);
    for (int c = 0; c < C; c++) {
      CHECK("dx analytic", dx[r * C + c], 2 * rs * (r + 1), 1e-12);
      CHECK("dx fd", dx[r * C + c], FD(x[r * C + c], f(x, R, C), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
