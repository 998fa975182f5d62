/* Jacobian (2 x 15) of a bundle-adjustment reprojection residual: one
 * vector forward sweep (enzyme_width 15) against 15 scalar forward sweeps.
 * Prints both times per Jacobian and their ratio. See README.md. */
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* in: rotation (angle-axis, 3), translation (3), focal, k1, k2, cx, cy,
 * point (3), weight. */
static void residual(const double *in, const double *feat, double *err) {
  const double *r = in, *X = in + 11;
  double th = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  double c = cos(th), s = sin(th);
  double k[3] = {r[0] / th, r[1] / th, r[2] / th};
  double kx[3] = {k[1] * X[2] - k[2] * X[1], k[2] * X[0] - k[0] * X[2], k[0] * X[1] - k[1] * X[0]};
  double kd = k[0] * X[0] + k[1] * X[1] + k[2] * X[2];
  double p[3];
  for (int i = 0; i < 3; i++) p[i] = X[i] * c + kx[i] * s + k[i] * kd * (1 - c) + in[3 + i];
  double u = p[0] / p[2], v = p[1] / p[2];
  double r2 = u * u + v * v;
  double dist = 1 + in[7] * r2 + in[8] * r2 * r2;
  err[0] = in[14] * (in[6] * dist * u + in[9] - feat[0]);
  err[1] = in[14] * (in[6] * dist * v + in[10] - feat[1]);
}

#define N 15
#define L15(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]
static double seeds[N][N];

__attribute__((noinline)) void jac_vector(const double *in, const double *feat, double J[N][2]) {
  double err[2];
  __enzyme_fwddiff((void *)residual, enzyme_width, N, enzyme_dup, in, L15(seeds),
                   enzyme_const, feat, enzyme_dupnoneed, err, L15(J));
}

__attribute__((noinline)) void jac_scalar(const double *in, const double *feat, double J[N][2]) {
  double err[2];
  for (int j = 0; j < N; j++)
    __enzyme_fwddiff((void *)residual, enzyme_dup, in, seeds[j], enzyme_const, feat,
                     enzyme_dupnoneed, err, J[j]);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  long reps = argc > 1 ? atol(argv[1]) : 2000000;
  for (int j = 0; j < N; j++) seeds[j][j] = 1;
  double in[N] = {0.1, -0.2, 0.3, 0.5, -0.4, 4.0, 2.0, 0.01, -0.002, 0.3, -0.1, 0.7, 1.1, 2.3, 0.9};
  double feat[2] = {0.4, 0.6};
  double Jv[N][2], Js[N][2], sink = 0;
  jac_vector(in, feat, Jv);
  jac_scalar(in, feat, Js);
  for (int j = 0; j < N; j++)
    for (int o = 0; o < 2; o++)
      if (fabs(Jv[j][o] - Js[j][o]) > 1e-12 * (1 + fabs(Js[j][o]))) {
        printf("mismatch J[%d][%d]: %g vs %g\n", o, j, Jv[j][o], Js[j][o]);
        return 1;
      }
  double best_v = 1e9, best_s = 1e9;
  for (int round = 0; round < 5; round++) {
    double t0 = now();
    for (long k = 0; k < reps; k++) {
      in[14] = 0.9 + 1e-9 * (k & 7);
      jac_vector(in, feat, Jv);
      sink += Jv[k % N][k & 1];
    }
    double t1 = now();
    for (long k = 0; k < reps; k++) {
      in[14] = 0.9 + 1e-9 * (k & 7);
      jac_scalar(in, feat, Js);
      sink += Js[k % N][k & 1];
    }
    double t2 = now();
    if (t1 - t0 < best_v) best_v = t1 - t0;
    if (t2 - t1 < best_s) best_s = t2 - t1;
  }
  printf("vector width 15: %.1f ns/Jacobian\n", 1e9 * best_v / reps);
  printf("15 scalar sweeps: %.1f ns/Jacobian\n", 1e9 * best_s / reps);
  printf("time ratio (vector / scalar sweeps): %.3f  (speedup %.2fx)  [%g]\n", best_v / best_s,
         best_s / best_v, sink * 0);
  return 0;
}
