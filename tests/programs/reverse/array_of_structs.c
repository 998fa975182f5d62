// Reverse mode: array of structs (particles), energy of pairs.
#include "check.h"
typedef struct { double x, y, m; int id; } P;
double energy(const P *p, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
      e += p[i].m * p[j].m / sqrt(dx * dx + dy * dy);
    }
  return e;
}
int main(void) {
  enum { N = 4 };
  P p[N], dp[N];
  for (int i = 0; i < N; i++) {
    p[i].x = cos(i * 1.3); p[i].y = sin(i * 0.9) + i; p[i].m = 1 + 0.5 * i; p[i].id = i;
    dp[i].x = dp[i].y = dp[i].m = 0; dp[i].id = 0;
  }
  __enzyme_autodiff((void *)energy, p, dp, N);
  for (int i = 0; i < N; i++) {
    CHECK("dx", dp[i].x, FD(p[i].x, energy(p, N), 1e-6), 1e-6);
    CHECK("dy", dp[i].y, FD(p[i].y, energy(p, N), 1e-6), 1e-6);
    CHECK("dm", dp[i].m, FD(p[i].m, energy(p, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
