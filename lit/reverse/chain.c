// A straight-line function with more calls than the (lowered) chain
// threshold: its augmented and reverse sweeps are cut into chains of
// internal noinline functions, each called once in order
// (src/ir/outline.rs, cpp/chain.cc). The gradient is checked against
// central finite differences at -O0 and -O2. (ENZYME_RS_CONST_ARGS=0: main's
// constant arguments would otherwise fold the augmented sweep to constants.)
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CONST_ARGS=0 ENZYME_RS_CHUNK_CALLS=8 %clang -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CONST_ARGS=0 %clang -O2 -fpass-plugin=%plugin -fplugin=%plugin -mllvm -enzyme-rs-chunk-calls=8 -S -emit-llvm %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CHUNK_CALLS=8 %clang -O2 -fpass-plugin=%plugin %s -lm -o %t.O2 && %t.O2
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CHUNK_CALLS=8 %clang -O0 -fpass-plugin=%plugin %s -lm -o %t.O0 && %t.O0
// Only at the end of the optimizer (ENZYME_RS_CHAIN_EARLY=0): same chain.
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CONST_ARGS=0 ENZYME_RS_CHAIN_EARLY=0 ENZYME_RS_CHUNK_CALLS=8 %clang -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CHAIN_EARLY=0 ENZYME_RS_CHUNK_CALLS=8 %clang -O2 -fpass-plugin=%plugin %s -lm -o %t.late && %t.late
// Off (0), and at the default threshold (512 calls): no chain.
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CHUNK_CALLS=0 %clang -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck --check-prefix=WHOLE %s
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck --check-prefix=WHOLE %s
// CHECK: define internal {{.*}} @enzyme_rs.aug.f(
// CHECK: call void @enzyme_rs.aug.f.chain{{[.0-9]*}}(
// CHECK: define internal {{.*}} @enzyme_rs.rev.f(
// CHECK: call void @enzyme_rs.rev.f.chain{{[.0-9]*}}(
// CHECK: call void @enzyme_rs.rev.f.chain{{[.0-9]*}}(
// CHECK: define internal void @enzyme_rs.{{aug|rev}}.f.chain{{[.0-9]*}}({{.*}}) #[[A:[0-9]+]]
// CHECK: attributes #[[A]] = { {{.*}}noinline
// WHOLE-NOT: .chain
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
#define S                                                                      \
  a = a * b + 0.25;                                                            \
  b = sin(a) + 0.5 * b;                                                        \
  c = exp(0.001 * c) * a;                                                      \
  d = d - 0.125 * a * d;
#define S4 S S S S
__attribute__((noinline)) double f(double a, double b, double c, double d) {
  S4 S4 S4 S4
  return a + b + c + d;
}
typedef struct {
  double da, db, dc, dd;
} G;
G __enzyme_autodiff_g(void *, ...);
int main(void) {
  double x[4] = {0.3, 0.7, -0.2, 0.9};
  G g = __enzyme_autodiff_g((void *)f, x[0], x[1], x[2], x[3]);
  double d[4] = {g.da, g.db, g.dc, g.dd};
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    double h = 1e-6, p[4], m[4];
    for (int j = 0; j < 4; j++)
      p[j] = m[j] = x[j];
    p[i] += h;
    m[i] -= h;
    double fd = (f(p[0], p[1], p[2], p[3]) - f(m[0], m[1], m[2], m[3])) / (2 * h);
    if (fabs(fd - d[i]) > 1e-5 * (1 + fabs(fd))) {
      printf("d%d: %g, finite differences %g\n", i, d[i], fd);
      bad = 1;
    }
  }
  return bad;
}
