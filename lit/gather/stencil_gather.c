// The reverse of a 3-point stencil in gather form (src/modes/reverse/
// gather.rs): a run-time check in the preheader chooses between the
// original scatter loop and the gather loop over the output index (edge
// points guarded, interior plain: no select) followed by the rest of the loop (the
// shadow of b zeroed). -O1: no vectorizer, the shape stays readable.
// ENZYME_RS_NO_GATHER keeps the scatter loop only.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O1 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_NO_GATHER=1 %clang -O1 -fno-discard-value-names -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck --check-prefix=OFF %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s -lm -o %t.O2 && %t.O2
// CHECK-LABEL: define internal void @enzyme_rs.rev.step(
// CHECK: br i1 %{{.*}}, label %gather.left, label %[[SCATTER:[a-z0-9.]+]]
// CHECK: [[SCATTER]]:
// CHECK: load double, ptr %{{.*}}
// CHECK: fadd double
// CHECK: store double
// CHECK: gather.left:
// CHECK: gather:
// CHECK-NEXT: phi i64
// CHECK-NOT: select
// CHECK: br i1 %{{.*}}, label %gather.done, label %gather
// CHECK: gather.done:
// CHECK: store double
// CHECK: gather.rest:
// CHECK-NOT: fadd
// CHECK: store double 0.000000e+00
// CHECK-NOT: fadd
// CHECK: br i1 %{{.*}}, label %rev.exit, label %gather.rest
// OFF-LABEL: define internal void @enzyme_rs.rev.step(
// OFF-NOT: gather
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 32
static int n;
__attribute__((noinline)) static void step(const double *a, double *b, int n) {
  for (int i = 1; i <= n; i++)
    b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}

static double f(const double *a) {
  double b[N + 2] = {0};
  step(a, b, n);
  double r = 0;
  for (int i = 1; i <= N; i++)
    r += b[i] * b[i];
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  n = argc > 8 ? N - 1 : N;
  double a[N + 2], da[N + 2] = {0};
  for (int i = 0; i < N + 2; i++)
    a[i] = sin(0.3 * i);
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  int bad = 0;
  for (int i = 0; i < N + 2; i++) {
    double h = 1e-6, s = a[i];
    a[i] = s + h;
    double fp = f(a);
    a[i] = s - h;
    double fm = f(a);
    a[i] = s;
    double fd = (fp - fm) / (2 * h);
    if (fabs(da[i] - fd) > 1e-6 * fmax(1.0, fabs(fd))) {
      printf("FAIL da[%d] = %.12g, fd %.12g\n", i, da[i], fd);
      bad = 1;
    }
  }
  return bad;
}
