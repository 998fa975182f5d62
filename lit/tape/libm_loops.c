// A libm result in a loop is kept on the tape when recomputing it would
// need a value only the tape has (here h[j], overwritten by the loop) or
// more than one libm call (tanh of exp); it is recomputed when it depends on
// read-only memory and invariants alone (logsumexp's exp(x[i] - m)), and so
// is sin (it pairs with the derivative's cos into sincos).
// ENZYME_RS_TAPE_LIBM_LOOPS=0 recomputes them all.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REC
// RUN: env ENZYME_RS_TAPE_LIBM_LOOPS=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK-DAG: reverse mode of 'gate': the call to 'exp' {{.*}} is taped per iteration of the loop {{.*}}: it is a libm result
// CHECK-DAG: reverse mode of 'gate': the call to 'tanh' {{.*}} is taped per iteration of the loop {{.*}}: it is a libm result
// CHECK-DAG: reverse mode of 'chain': the call to 'tanh' {{.*}} is taped per iteration of the loop {{.*}}: it is a libm result
// REC-NOT: reverse mode of 'lse': the call
// REC-NOT: reverse mode of 'wave': the call
// OFF-NOT: it is a libm result
#include <enzyme/enzyme.h>
#include <math.h>
double gate(const double *x, const double *w, double *h, int n) {
  double s = 0;
  for (int j = 0; j < n; j++) {
    double f = 1.0 / (1.0 + exp(-(h[j] * w[j] + x[j])));
    double g = tanh(h[j] + x[j]);
    h[j] = f * g;
    s += h[j];
  }
  return s;
}
double chain(const double *x, const double *w, double *h, int n) {
  double s = 0;
  for (int j = 0; j < n; j++) s += tanh(exp(x[j]) * w[j]);
  return s;
}
double lse(const double *x, const double *w, double *h, int n) {
  double m = x[0], s = 0;
  for (int j = 1; j < n; j++)
    if (x[j] > m) m = x[j];
  for (int j = 0; j < n; j++) s += exp(x[j] - m);
  return m + log(s);
}
double wave(const double *x, const double *w, double *h, int n) {
  double s = 0;
  for (int j = 0; j < n; j++) {
    double t = h[j];
    h[j] = 0;
    s += sin(t) * w[j];
  }
  return s;
}
void grads(double *x, double *dx, double *w, double *dw, double *h, double *dh, int n) {
  __enzyme_autodiff((void *)gate, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, h, dh, enzyme_const, n);
  __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, h, dh, enzyme_const, n);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, h, dh, enzyme_const, n);
  __enzyme_autodiff((void *)wave, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, h, dh, enzyme_const, n);
}
