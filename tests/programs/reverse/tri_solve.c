// Reverse mode: forward substitution L y = b in place (overwrites b).
#include "check.h"
enum { N = 4 };
void solve(const double *L, double *b) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) b[i] -= L[i * N + j] * b[j];
    b[i] /= L[i * N + i];
  }
}
double f(const double *L, const double *b0) {
  double b[N];
  for (int i = 0; i < N; i++) b[i] = b0[i];
  solve(L, b);
  double s = 0;
  for (int i = 0; i < N; i++) s += b[i] * b[i];
  return s;
}
int main(void) {
  double L[N * N] = {2, 0, 0, 0, 0.5, 3, 0, 0, -1, 0.25, 1.5, 0, 0.3, 0.2, -0.4, 2.5};
  double b[N] = {1, -1, 2, 0.5}, dL[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)f, L, dL, b, db);
  for (int i = 0; i < N; i++) CHECK("db fd", db[i], FD(b[i], f(L, b), 1e-6), 1e-6);
  for (int i = 0; i < N * N; i++) CHECK("dL fd", dL[i], FD(L[i], f(L, b), 1e-6), 1e-6);
  CHECK_DONE();
}
