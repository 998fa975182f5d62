// Reverse and forward mode (C++): iostreams and file streams inside the
// differentiated function: values written to std::cout, a std::ofstream
// (opened, written, closed there), a std::ostringstream; none carries a
// derivative, the file holds the primal values.
#include "check.h"
#include <cmath>
#include <cstdio>
#include <unistd.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
static double f(const double *x, int n, const char *path) {
  std::ofstream out(path);
  std::ostringstream msg;
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = std::exp(0.5 * x[i]) * x[i];
    out << i << " " << v << "\n";
    msg << v << ";";
    s += v;
  }
  out.close();
  std::cout << "f: s=" << s << " " << msg.str().size() << " chars" << std::endl;
  return s * s;
}
int main() {
  const int n = 4;
  double x[n] = {0.5, -0.2, 1.1, 0.3}, dx[n] = {0};
  char path[64];
  snprintf(path, sizeof path, "/tmp/enzyme_rs_streams_%d.txt", (int)getpid());
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, path);
  std::ifstream in(path);
  int lines = 0, idx;
  double v;
  while (in >> idx >> v) {
    CHECK("file value", v, std::exp(0.5 * x[idx]) * x[idx], 1e-5);
    lines++;
  }
  CHECK("file lines", lines, n, 0);
  double s = 0;
  for (int i = 0; i < n; i++) s += std::exp(0.5 * x[i]) * x[i];
  for (int i = 0; i < n; i++) {
    double dv = std::exp(0.5 * x[i]) * (1 + 0.5 * x[i]);
    CHECK("dx analytic", dx[i], 2 * s * dv, 1e-12);
    double tx[n] = {0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, n, enzyme_const, path);
    CHECK("fwd", t, 2 * s * dv, 1e-12);
  }
  remove(path);
  CHECK_DONE();
}
