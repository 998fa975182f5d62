// A table reached through a loaded pointer (c->w) and read after a call to
// a helper that fills a fresh block from the argument: the helper's
// augmented sweep only passes the argument's shadow along, so once it is
// complete its parameters are marked read-only / not captured
// (modes/reverse/distinct.rs, mark_finished_aug) and the call cannot write
// the table. The kept shadow's take (keep.rs) writes only its own slot.
// The reverse sweep then reads c->w[k] again: nothing is taped per
// iteration. ENZYME_RS_MARK_AUG_PARAMS=0 tapes it (8 bytes).
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: env ENZYME_RS_MARK_AUG_PARAMS=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK: reverse mode of 'objective': tape 0 bytes per iteration in loops (0 loops)
// OFF: reverse mode of 'objective': tape 8 bytes per iteration in loops (1 loop)
#include <stdlib.h>
#include <enzyme/enzyme.h>
typedef struct {
  int n;
  double *w;
} ctx_t;
__attribute__((noinline)) static void fill(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] * in[i];
}
static double objective(const double *x, const ctx_t *c) {
  int n = c->n;
  double *X = malloc(sizeof(double) * n);
  fill(x, X, n);
  double f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * X[k] * X[k];
  free(X);
  return f;
}
void grad(const double *x, double *dx, const ctx_t *c) {
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, c);
}
