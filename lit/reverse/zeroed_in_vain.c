// A pair built for a call whose caller zeroes the shadow first
// (rev/shadowtape.rs) that keeps nothing in it is dropped for the plain
// pair; when that exists already, the variant gets no trial of a re-run
// (rerun.rs) or a move record: here `f`'s plain pair (grad) is built first,
// with its pick record (pickrec.rs) and its re-run dispatch; the variant
// for grad_zeroed shares the pick-record copy and builds neither a second
// copy nor a second re-run family. (The calls are processed last to first:
// grad's comes first.)
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include %s -c -o /dev/null 2>&1 | %FileCheck %s --implicit-check-not='records the pick'
// CHECK: picks: f records the pick of its loop
// CHECK: rerun: enzyme_rs.picks.f re-runs its loop
// CHECK: Reverse of 'f' in 'grad_zeroed'
// CHECK: zeroed pair of 'enzyme_rs.picks.f' keeps nothing: no trials
// CHECK: site in 'grad_zeroed'
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define D 24
static double f(const double *x, const double *m, int n) {
  double *w = malloc(sizeof(double) * D);
  double top = x[0], acc = 0;
  for (int i = 1; i < n * D; i++)
    if (x[i] > top) top = x[i];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < D; j++) w[j] = x[i * D + j] * m[j];
    for (int r = 0; r < D; r++) {
      double a = w[r];
      for (int c = 0; c < D; c++) a = tanh(a + w[c] * m[c]);
      acc += a * w[r];
    }
  }
  free(w);
  return acc + top;
}
void grad_zeroed(const double *x, double *dx, const double *m, int n) {
  memset(dx, 0, sizeof(double) * n * D);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
void grad(const double *x, double *dx, const double *m, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
