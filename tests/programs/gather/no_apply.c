// Where the gather form must not apply: (1) the stencil's input and
// output overlap (their shadows too: the run-time check sends the loop to
// its original form); (2) an in-place recurrence whose reverse reads the
// accumulated shadow (not applied at all). Against central finite
// differences.
#include "../check.h"
#include <string.h>

#define N 30

__attribute__((noinline)) static void stencil(const double *a, double *b, int n) {
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}

/* b = a + 2: the output overlaps the input */
static double overlap(const double *u) {
  double buf[N + 4];
  memset(buf, 0, sizeof buf);
  for (int i = 0; i < N; i++)
    buf[i] = u[i];
  stencil(buf, buf + 2, N);
  double r = 0;
  for (int i = 0; i < N + 4; i++)
    r += (1.0 + 0.1 * i) * buf[i] * buf[i];
  return r;
}

__attribute__((noinline)) static void recur(double *a, int n) {
  for (int i = 1; i < n - 1; i++)
    a[i] = a[i] + 0.5 * a[i - 1] - 0.25 * a[i + 1];
}

static double inplace(const double *u) {
  double a[N];
  for (int i = 0; i < N; i++)
    a[i] = u[i];
  recur(a, N);
  double r = 0;
  for (int i = 0; i < N; i++)
    r += (1.0 + 0.1 * i) * a[i] * a[i];
  return r;
}

int main(void) {
  double u[N], du[N];
  for (int i = 0; i < N; i++)
    u[i] = cos(0.4 * i);
  memset(du, 0, sizeof du);
  __enzyme_autodiff((void *)overlap, enzyme_dup, u, du);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "overlap du[%d]", i);
    CHECK(name, du[i], FD(u[i], overlap(u), 1e-6), 1e-6);
  }
  memset(du, 0, sizeof du);
  __enzyme_autodiff((void *)inplace, enzyme_dup, u, du);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "inplace du[%d]", i);
    CHECK(name, du[i], FD(u[i], inplace(u), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
