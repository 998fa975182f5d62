// Printing inside a differentiated function (std::cout/std::cerr with
// doubles, std::string, printf, fprintf, assert) carries no derivative.
#include "check.h"
#include <cassert>
#include <iostream>
#include <sstream>
#include <string>

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i] * x[i];
    std::cout << "step " << i << ": x = " << x[i] << ", s = " << s << std::endl;
  }
  std::string label = "sum";
  std::cerr << label << " " << s << "\n";
  printf("%s = %f\n", label.c_str(), s);
  fprintf(stderr, "%g\n", s);
  assert(s == s);
  return std::sin(s);
}

int main() {
  double x[3] = { 0.5, -0.3, 0.8 }, dx[3] = { 0, 0, 0 };
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) CHECK("rev", dx[i], FD(x[i], f(x, 3), 1e-6), 1e-6);
  double t[3] = { 0, 1, 0 };
  CHECK("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 3), dx[1], 1e-10);
  CHECK_DONE();
}
