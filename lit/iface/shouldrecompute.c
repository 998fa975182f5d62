// __enzyme_shouldrecompute: the result of a registered function that the
// reverse sweep needs is computed again there (a call of the primal in the
// reverse function) instead of taped; the same function unregistered
// (`plain`) has its result taped per iteration.
// RUN: %clang -g -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=IR
// CHECK-DAG: remark: reverse mode of 'loss': nothing taped
// CHECK-DAG: remark: reverse mode of 'loss_plain': tape 8 bytes per iteration in loops (1 loop)
// CHECK-DAG: loop at {{.*}} tapes 8 bytes per iteration: the call to 'enzyme_rs.aug.plain'
// The derivatives are inlined into g: its reverse loop calls heavy, never
// plain.
// IR-LABEL: define {{.*}}void @g(
// IR-NOT: call {{.*}}@plain(
// IR: call double @heavy(double
// IR-NOT: call {{.*}}@plain(
// IR: ret void
#include <enzyme/enzyme.h>
#include <math.h>
__attribute__((noinline)) double heavy(double x) { return exp(x) * x + sin(x); }
__attribute__((noinline)) double plain(double x) { return exp(x) * x + sin(x); }
void *__enzyme_shouldrecompute[] = {(void *)heavy};
double loss(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double h = heavy(x[i]);
    s += h * h * x[i];
  }
  return s;
}
double loss_plain(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double h = plain(x[i]);
    s += h * h * x[i];
  }
  return s;
}
void g(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)loss_plain, enzyme_dup, x, dx, enzyme_const, n);
}
