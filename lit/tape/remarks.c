// -Rpass=enzyme says per differentiated function and loop what is taped and
// how many bytes per iteration; -Rpass-missed=enzyme names each taped value
// and why it is not recomputed (here: x[i] is overwritten at line 19).
// RUN: %clang -g -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PASS
// RUN: %clang -g -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MISSED
// RUN: %clang -g -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
// PASS-DAG: remarks.c:15:1: remark: reverse mode of 'reset': tape 8 bytes per iteration in loops (1 loop), 0 bytes outside loops [-Rpass=enzyme]
// PASS-DAG: remarks.c:18:{{[0-9]+}}: remark: reverse mode of 'reset': loop at {{.*}}remarks.c:{{1[78]}} tapes 8 bytes per iteration: a 'load' (double, 8 bytes, {{.*}}remarks.c:18): the memory it loads is overwritten at {{.*}}remarks.c:19 [-Rpass=enzyme]
// PASS-DAG: remarks.c:24:1: remark: reverse mode of 'readonly': nothing taped [-Rpass=enzyme]
// MISSED: remarks.c:18:16: remark: reverse mode of 'reset': a 'load' (double, 8 bytes, {{.*}}remarks.c:18) is taped per iteration of the loop at {{.*}}remarks.c:{{1[78]}}, not recomputed: the memory it loads is overwritten at {{.*}}remarks.c:19 [-Rpass-missed=enzyme]
// MISSED-NOT: readonly
// QUIET-NOT: remark
#include <enzyme/enzyme.h>
#include <math.h>
double reset(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i];
    x[i] = 0;
    s += sin(t) * t;
  }
  return s;
}
double readonly(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - x[0]) * x[i];
  return s;
}
void g(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)reset, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)readonly, enzyme_dup, x, dx, enzyme_const, n);
}
