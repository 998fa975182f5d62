// Vector forward mode through memory: widths 2, 4 and 16 with pointer
// arguments (shadow arrays per lane), heap memory, memcpy and a global.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <string.h>

double scale = 1.5;
__attribute__((noinline)) void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

void g(int n, const double *x, double *out) {
  double *tmp = malloc(n * sizeof(double));
  memcpy(tmp, x, n * sizeof(double));
  for (int i = 0; i < n; i++) tmp[i] = tmp[i] * tmp[i] * scale;
  axpy(n, x[0], x, tmp);
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(tmp[i]);
  out[0] = s;
  out[1] = tmp[n - 1] * s;
  free(tmp);
}

static double eval(int n, double *x, int o) {
  double out[2];
  g(n, x, out);
  return out[o];
}

int main(void) {
  enum { n = 5 };
  double x[n] = {0.3, -0.2, 0.5, 0.9, -0.4}, out[2];
  double J[2][n];
  for (int o = 0; o < 2; o++)
    for (int j = 0; j < n; j++) J[o][j] = FD(x[j], eval(n, x, o), 1e-6);
  /* width 2: lanes seed x[0] and x[1]+x[2] */
  {
    double d0[n] = {1, 0, 0, 0, 0}, d1[n] = {0, 1, 1, 0, 0}, o0[2], o1[2];
    __enzyme_fwddiff((void *)g, enzyme_width, 2, enzyme_const, n, enzyme_dup, x, d0, d1,
                     enzyme_dup, out, o0, o1);
    for (int o = 0; o < 2; o++) {
      CHECK("w2 lane0", o0[o], J[o][0], 1e-6);
      CHECK("w2 lane1", o1[o], J[o][1] + J[o][2], 1e-6);
    }
  }
  /* width 4: lanes seed x[1..4] */
  {
    double d[4][n] = {{0}}, od[4][2];
    for (int l = 0; l < 4; l++) d[l][l + 1] = 1;
    __enzyme_fwddiff((void *)g, enzyme_width, 4, enzyme_const, n, enzyme_dup, x, d[0], d[1], d[2], d[3],
                     enzyme_dup, out, od[0], od[1], od[2], od[3]);
    for (int l = 0; l < 4; l++)
      for (int o = 0; o < 2; o++) CHECK("w4", od[l][o], J[o][l + 1], 1e-6);
  }
  /* width 16: lane l seeds x[l % n] with weight (l + 1) */
  {
    double d[16][n] = {{0}}, od[16][2];
    for (int l = 0; l < 16; l++) d[l][l % n] = l + 1;
#define L16(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]
    __enzyme_fwddiff((void *)g, enzyme_width, 16, enzyme_const, n, enzyme_dup, x, L16(d),
                     enzyme_dup, out, L16(od));
    for (int l = 0; l < 16; l++)
      for (int o = 0; o < 2; o++) CHECK("w16", od[l][o], (l + 1) * J[o][l % n], 1e-6);
  }
  CHECK_DONE();
}
