// A recorded running selection carries the picked index when every value
// it selects, the entry value too, is loaded from one array and nothing is
// written between the entry value's load and the loop
// (modes/reverse/pickrec.rs `IndexPick`): the augmented max loop selects
// an i64 per element, no address (primal or shadow), and the element is
// reloaded at that index after the loop. Must not: values from two arrays,
// or a store into the array after the entry value's load (addresses kept,
// with the null test for the entry value). ENZYME_RS_PICK_INDEX=0 keeps
// addresses everywhere.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_PICK_INDEX=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.enzyme_rs.picks.overwritten(
// CHECK: select i1 {{.*}}, ptr
// CHECK: {{^}}}
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.enzyme_rs.picks.two(
// CHECK: select i1 {{.*}}, ptr
// CHECK: {{^}}}
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.enzyme_rs.picks.vmax(
// CHECK-NOT: select i1 {{.*}}, ptr
// CHECK: select i1 {{.*}}, i64
// CHECK-NOT: select i1 {{.*}}, ptr
// CHECK: {{^}}}
// OFF-LABEL: define internal {{.*}}@enzyme_rs.aug.enzyme_rs.picks.vmax(
// OFF: select i1 {{.*}}, ptr
// OFF: {{^}}}
#include <enzyme/enzyme.h>
#include <stdlib.h>
double vmax(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m * m;
}
double two(const double *x, const double *y, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) {
    if (x[i] > m) m = x[i];
    if (y[i] > m) m = y[i];
  }
  return m * m;
}
double overwritten(const double *x, int n) {
  double *t = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) t[i] = 2.0 * x[i];
  double m = t[0];
  t[0] = -100.0;
  for (int i = 0; i < n; i++)
    if (t[i] > m) m = t[i];
  free(t);
  return m * m;
}
void grad(const double *x, double *g, const double *y, double *gy, int n) {
  __enzyme_autodiff((void *)vmax, enzyme_dup, x, g, enzyme_const, n);
  __enzyme_autodiff((void *)two, enzyme_dup, x, g, enzyme_dup, y, gy, enzyme_const, n);
  __enzyme_autodiff((void *)overwritten, enzyme_dup, x, g, enzyme_const, n);
}
