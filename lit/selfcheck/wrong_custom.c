// Self-check mode catches a wrong custom gradient: sq's registered
// gradient returns 3*x*d instead of 2*x*d. The check of the derivative of
// 'energy' (which calls sq) reports a mismatch against finite differences
// and names the function and the line of the __enzyme_autodiff call; the
// forward-mode derivative (built from sq's body: no custom forward
// derivative is registered) disagrees with it too. With -enzyme-check-abort
// (or ENZYME_CHECK=abort at run time) the program aborts there.
// RUN: %clang -O0 -g -I%include -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-check %s -o %t0 -lm
// RUN: %t0 2>&1 | %FileCheck %s
// RUN: %clang -O2 -g -I%include -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-check %s -o %t2 -lm
// RUN: %t2 2>&1 | %FileCheck %s
// RUN: env ENZYME_CHECK=1 %clang -O3 -g -I%include -fpass-plugin=%plugin %s -o %t3 -lm
// RUN: %t3 2>&1 | %FileCheck %s
// RUN: not --crash env ENZYME_CHECK=abort %t2 2>&1 | %FileCheck --check-prefix=ABORT %s
// RUN: %clang -O2 -g -I%include -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-check-abort %s -o %ta -lm
// RUN: not --crash %ta 2>&1 | %FileCheck --check-prefix=ABORT %s
#include <stdio.h>
#include <enzyme/enzyme.h>

__attribute__((noinline)) double sq(double x) { return x * x; }
typedef struct { double tape, primal; } aug_t;
static aug_t sq_aug(double x) { aug_t r = {x, x * x}; return r; }
static double sq_rev(double x, double d, double tape) { return 3 * tape * d; } /* wrong: 2 */
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};

double energy(double x, double y) { return sq(x) + 0.5 * x * y; }
typedef struct { double dx, dy; } grad2;
extern grad2 __enzyme_autodiff_g(void *, ...);

int main(int argc, char **argv) {
  double x = 1.25, y = -0.5;
  grad2 g = {0, 0};
  for (int i = 0; i < argc + 2; i++) {
    // CHECK: enzyme-check: MISMATCH in the reverse-mode derivative of 'energy' (called at {{.*}}wrong_custom.c:[[@LINE+1]], call 1): along a random direction: the derivative gives {{.*}}, central finite differences give
    g = __enzyme_autodiff_g((void *)energy, x + i, y);
  }
  // CHECK: MISMATCH {{.*}}'energy' (called at {{.*}}wrong_custom.c:[[@LINE-2]], call 1): against the other mode: reverse mode gives {{.*}}, forward mode
  // CHECK: MISMATCH {{.*}}'energy' (called at {{.*}}wrong_custom.c:[[@LINE-3]], call 2): along a random direction
  // CHECK-NOT: call 3
  // CHECK: done 9.5 1.625
  // ABORT: enzyme-check: MISMATCH in the reverse-mode derivative of 'energy'
  // ABORT-NEXT: enzyme-check: aborting
  // ABORT-NOT: done
  fprintf(stderr, "done %g %g\n", g.dx, g.dy);
  return 0;
}
