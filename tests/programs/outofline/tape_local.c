/* Sweeps left calls (shared derivatives, not inlined) keep the tape object
 * in a local copy (modes/reverse/tapelocal.rs): copied in on entry, back at
 * each return, and handed on around calls that take the tape. Each gradient
 * is taken at two call sites outside loops: the first is inlined, the
 * second calls the shared derivative (ENZYME_RS_INLINE_COPIES_BUDGET), and
 * both are checked against central finite differences.
 *
 * - insertion: insertion sort of a copy (a while loop with two exits whose
 *              reverse only moves the tape's top: the loop this is for).
 * - callee:    a loop calling a non-inlined function: the callee's sweeps
 *              push onto and pop from the same tape (the call gets the
 *              caller's object, synchronised around it).
 * - recur:     a recursive function: its own sweeps take the tape.
 * - split:     split mode (__enzyme_augmentfwd / __enzyme_reverse): the
 *              tape object is on the heap between the two calls. */
#include "../check.h"

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { N = 9 };
static double W[N];

double insertion(const double *x, int n) {
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
  for (int i = 0; i < n; i++) f += W[i] * s[i] + 0.05 * s[i] * s[i];
  free(s);
  return f;
}

__attribute__((noinline)) static double bump(double a, double b) {
  double t = a;
  int k = 0;
  while (t < 2.0 && k < 5) { t = t * 1.5 + 0.1 * b; k++; }
  return t * sin(b);
}

double callee(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) f += W[i] * bump(x[i], x[i + 1]);
  return f;
}

static double rec(const double *x, int n) {
  if (n == 1) return x[0];
  double h = rec(x + 1, n - 1);
  return x[0] > h ? x[0] * cos(h) : sin(h) + 0.5 * x[0];
}

double recur(const double *x, int n) { return rec(x, n); }

#define CHECK_AT(f, x, site)                                            \
  do {                                                                  \
    double dx_[N] = {0};                                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_, enzyme_const, N); \
    for (int i_ = 0; i_ < N; i_++) {                                    \
      char name_[64];                                                   \
      snprintf(name_, sizeof name_, "%s %s dx[%d]", #f, site, i_);      \
      CHECK(name_, dx_[i_], FD(x[i_], f(x, N), 1e-6), 1e-6);            \
    }                                                                   \
  } while (0)

int main(void) {
  /* distinct values, far apart against the step: no reordering under FD */
  static const int perm[N] = {4, 7, 1, 8, 0, 5, 3, 6, 2};
  double x[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.3 + 0.25 * perm[i] + 0.01 * i;
    W[i] = sin(1.3 * i + 0.4);
  }
  CHECK_AT(insertion, x, "first");
  CHECK_AT(callee, x, "first");
  CHECK_AT(recur, x, "first");
  CHECK_AT(insertion, x, "second");
  CHECK_AT(callee, x, "second");
  CHECK_AT(recur, x, "second");
  CHECK_AT(insertion, x, "third");

  /* split mode, twice (the tape object reused by a second sweep pair) */
  for (int r = 0; r < 2; r++) {
    double dx[N] = {0};
    void *t = __enzyme_augmentfwd((void *)insertion, enzyme_dup, x, dx, enzyme_const, N);
    __enzyme_reverse((void *)insertion, enzyme_dup, x, dx, enzyme_const, N, 1.0, t);
    for (int i = 0; i < N; i++) {
      char name[64];
      snprintf(name, sizeof name, "split %d dx[%d]", r, i);
      CHECK(name, dx[i], FD(x[i], insertion(x, N), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
