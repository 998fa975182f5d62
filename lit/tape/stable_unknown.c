// Memory reached through a pointer loaded from memory (a context's
// weights) may be read again by the reverse sweep when nothing can write
// it before then. A `free` in the function is no captured object (it
// classifies as an allocation call, but makes none): `sorted_dot`'s
// weights are read again, not taped (its move record's tape keeps 20
// bytes per iteration, none for the weights loop). A recursive function
// that never touches such memory gets one pair, whether its caller knows
// such memory stable or not (`rec`: no second augmented copy for its own
// recursive calls, reverse/memory.rs `reaches_unknown_memory`).
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=SORT
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REC
// SORT-NOT: stable_unknown.c:35:{{[0-9]+}}: remark: {{.*}}tapes
// SORT: remark: reverse mode of 'enzyme_rs.moves.sorted_dot': tape 20 bytes per iteration in loops (2 loops)
// SORT-NOT: stable_unknown.c:35:{{[0-9]+}}: remark: {{.*}}tapes
// REC-NOT: enzyme_rs.aug.rec.{{[0-9]+}}
// REC: enzyme-rs tape: enzyme_rs.aug.rec
// REC-NOT: enzyme_rs.aug.rec.{{[0-9]+}}
#include <enzyme/enzyme.h>
#include <stdlib.h>
typedef struct { int n; const double *w; const double *tw; } ctx_t;
double sorted_dot(const double *x, const ctx_t *c) {
  int n = c->n;
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double f = 0;
  for (int i = 0; i < n; i++) f += c->w[i] * s[i];
  free(s);
  return f;
}
// out[0..m) <- a butterfly recursion over in[0], in[s], ...
static void rec(const double *in, int s, double *out, int m, const double *tw) {
  if (m == 1) {
    out[0] = in[0];
    return;
  }
  int h = m / 2;
  rec(in, 2 * s, out, h, tw);
  rec(in + s, 2 * s, out + h, h, tw);
  for (int k = 0; k < h; k++) {
    double e = out[k], o = tw[k] * out[k + h];
    out[k] = e + o;
    out[k + h] = e - o;
  }
}
double butterfly(const double *x, const ctx_t *c) {
  double *X = malloc(sizeof(double) * c->n);
  rec(x, 1, X, c->n, c->tw);
  double f = 0;
  for (int k = 0; k < c->n; k++) f += c->w[k] * X[k] * X[k];
  free(X);
  return f;
}
void g1(const double *x, double *dx, const ctx_t *c) {
  __enzyme_autodiff((void *)sorted_dot, enzyme_dup, x, dx, enzyme_const, c);
}
void g2(const double *x, double *dx, const ctx_t *c) {
  __enzyme_autodiff((void *)butterfly, enzyme_dup, x, dx, enzyme_const, c);
}
