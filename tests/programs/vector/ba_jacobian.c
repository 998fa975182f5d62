// Vector forward mode: the full 2x15 Jacobian of a bundle-adjustment-like
// reprojection residual (11 camera parameters, 3 point coordinates, 1
// weight) in one enzyme_width 15 sweep; each column checked against a
// central finite difference.
// LEVELS: O0 O1 O2 O3
#include "check.h"

/* cam: rotation (angle-axis, 3), translation (3), focal, k1, k2, cx, cy. */
__attribute__((noinline)) static void rotate(const double *r, const double *X, double *out) {
  double th2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double th = sqrt(th2);
  double c = cos(th), s = sin(th);
  double k0 = r[0] / th, k1 = r[1] / th, k2 = r[2] / th;
  double kx[3] = {k1 * X[2] - k2 * X[1], k2 * X[0] - k0 * X[2], k0 * X[1] - k1 * X[0]};
  double kd = k0 * X[0] + k1 * X[1] + k2 * X[2];
  double k[3] = {k0, k1, k2};
  for (int i = 0; i < 3; i++)
    out[i] = X[i] * c + kx[i] * s + k[i] * kd * (1 - c);
}

void residual(const double *cam, const double *X, double w, const double *feat, double *err) {
  double p[3];
  rotate(cam, X, p);
  for (int i = 0; i < 3; i++) p[i] += cam[3 + i];
  double u = p[0] / p[2], v = p[1] / p[2];
  double r2 = u * u + v * v;
  double dist = 1 + cam[7] * r2 + cam[8] * r2 * r2;
  err[0] = w * (cam[6] * dist * u + cam[9] - feat[0]);
  err[1] = w * (cam[6] * dist * v + cam[10] - feat[1]);
}

#define N 15
typedef struct { double d[2 * N]; } unused_t;

int main(void) {
  double cam[11] = {0.1, -0.2, 0.3, 0.5, -0.4, 4.0, 2.0, 0.01, -0.002, 0.3, -0.1};
  double X[3] = {0.7, 1.1, 2.3};
  double w = 0.9;
  double feat[2] = {0.4, 0.6};
  double err[2];
  /* Lane j seeds input j: cam[0..10], X[0..2], w. */
  double dcam[N][11] = {{0}}, dX[N][3] = {{0}}, dw[N] = {0}, derr[N][2];
  for (int j = 0; j < 11; j++) dcam[j][j] = 1;
  for (int j = 0; j < 3; j++) dX[11 + j][j] = 1;
  dw[14] = 1;
#define L15(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]
  __enzyme_fwddiff((void *)residual, enzyme_width, N,
                   enzyme_dup, cam, L15(dcam),
                   enzyme_dup, X, L15(dX),
                   enzyme_dup, w, L15(dw),
                   enzyme_const, feat,
                   enzyme_dupnoneed, err, L15(derr));
  for (int j = 0; j < N; j++) {
    double *in = j < 11 ? &cam[j] : j < 14 ? &X[j - 11] : &w;
    for (int o = 0; o < 2; o++) {
      char nm[32];
      snprintf(nm, sizeof nm, "J[%d][%d]", o, j);
      double fd = FD(*in, (residual(cam, X, w, feat, err), err[o]), 1e-6);
      CHECK(nm, derr[j][o], fd, 1e-6);
    }
  }
  CHECK_DONE();
}
