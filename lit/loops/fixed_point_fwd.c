// Forward mode over __enzyme_fixed_point iterates the tangent at the
// converged state, calling the control function (enzyme_fp_control) as
// Enzyme does: no warning. Vector forward mode differentiates the
// iterations themselves: a control function is never called there, and
// the compiler says so (once, at the call) instead of dropping it
// silently. Without a control function: no warning.
// RUN: %clang -O1 -g -I%include -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <enzyme/enzyme.h>
#include <enzyme/fixed_point.h>
extern int enzyme_width;

static int step(int64_t i, double *x, double *a) {
  double next = 0.5 * (x[0] + a[0] / x[0]);
  int go = __builtin_fabs(next - x[0]) > 1e-15;
  x[0] = next;
  return go;
}
static int control(double *cumul, double *reduction) { return *cumul > *reduction; }

void root(double *x, double *a) {
  // CHECK: fixed_point_fwd.c:[[@LINE+1]]:{{[0-9]+}}: warning: vector forward mode of 'root': the fixed point's control function (enzyme_fp_control) is not called: vector forward mode differentiates the iterations themselves, and the tangents converge with them
  __enzyme_fixed_point((void *)step, enzyme_fp_state, x, (int64_t)sizeof(double),
                       enzyme_fp_control, control, x, a);
}
void plain_root(double *x, double *a) {
  __enzyme_fixed_point((void *)step, enzyme_fp_state, x, (int64_t)sizeof(double), x, a);
}
// CHECK-NOT: warning: {{.*}}forward mode
void d_root(double *x, double *dx, double *a, double *da) {
  __enzyme_fwddiff((void *)root, enzyme_dup, x, dx, enzyme_dup, a, da);
}
void d_root2(double *x, double *dx, double *dx2, double *a, double *da, double *da2) {
  __enzyme_fwddiff((void *)root, enzyme_width, 2, enzyme_dup, x, dx, dx2, enzyme_dup, a, da, da2);
  __enzyme_fwddiff((void *)root, enzyme_width, 2, enzyme_dup, x, dx, dx2, enzyme_dup, a, da, da2);
}
void d_plain(double *x, double *dx, double *a, double *da) {
  __enzyme_fwddiff((void *)plain_root, enzyme_dup, x, dx, enzyme_dup, a, da);
}
