// Reverse: stack arrays filled then reduced, with memset, memcpy and an
// overlapping memmove inside the differentiated function.
#include "check.h"
#include <string.h>
__attribute__((noinline)) double f(const double *x, int n) {
  double buf[16], tmp[16];
  memset(buf, 0, sizeof buf);
  for (int i = 0; i < n; i++) buf[i + 2] = x[i] * x[i];
  memcpy(tmp, buf, sizeof buf);
  memmove(buf + 1, buf + 2, n * sizeof(double)); /* overlap: shift left by one */
  double s = 0;
  for (int i = 0; i < n + 2; i++) s += buf[i] * tmp[i] + buf[i];
  return s;
}
int main(void) {
  double x[5] = {0.5, -1.0, 1.5, 0.25, 2.0}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
