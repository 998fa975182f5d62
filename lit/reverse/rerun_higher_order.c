// A module whose derivatives are differentiated again (here forward over
// reverse: tests/programs/higher/hvp_costly_loop.c) gets no automatic
// re-run: reverse mode cannot go through the re-run's loop runtime, and
// forward mode may lack the tangent of a pointer its step keeps (an error
// the user did not ask for). The same function's loop is
// re-run in a first-order module (the FIRST prefix: this file, whose program's
// main is an unused static function that -O2 deletes before the pass).
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %S/../../tests/programs/higher/hvp_costly_loop.c -c -o /dev/null 2>&1 | %FileCheck %s --implicit-check-not='re-runs its loop'
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %s -c -o /dev/null 2>&1 | %FileCheck %s --check-prefix=FIRST
// CHECK: derivatives are differentiated again: no automatic re-run
// CHECK: Reverse of 'energy' in 'grad'
// CHECK: Forward of 'grad' in 'main'
// FIRST-NOT: differentiated again
// FIRST: rerun: energy re-runs its loop
#define main static hvp_main
#include "higher/hvp_costly_loop.c"
#undef main
void first_order(const double *x, double *gx, const double *m, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, gx, enzyme_const, m, enzyme_const, n);
}
