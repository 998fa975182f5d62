// Markers enzyme_dupv / enzyme_dupnoneedv (vector-mode shadows at a byte
// stride in one buffer: lane k's shadow is (char *)dx + k * stride) and
// enzyme_byref (a value passed by pointer: an active scalar's primal, or
// the seed of __enzyme_reverse's result), forward and reverse mode,
// against analytic values and finite differences.
#include "check.h"
extern int enzyme_dupv, enzyme_dupnoneedv, enzyme_byref;
typedef struct { double d[3]; } D3;
D3 __enzyme_fwddiff_w3(void *, ...);
D3 __enzyme_autodiff_w3(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_reverse_d(void *, ...);

#define N 2
static void lin(const double *x, double *y) {
  y[0] = 2 * x[0] + sin(x[1]);
  y[1] = x[0] * x[1];
  y[2] = exp(x[0]) - x[1] * x[1];
}
static double quad(const double *x, double a) { return a * x[0] * x[0] + sin(a) * x[1]; }
static double g(double a, double b) { return a * a * b + cos(b); }

int main(void) {
  double x[N] = {0.4, -1.1}, y[3];
  double J[3][N] = {{2, cos(x[1])}, {x[1], x[0]}, {exp(x[0]), -2 * x[1]}};
  // Forward, width 3: the three tangent directions of x (the unit vectors
  // and their sum), interleaved in records of 4 doubles (stride 32 bytes).
  double tx[3][4] = {{1, 0, 99, 99}, {0, 1, 99, 99}, {1, 1, 99, 99}};
  double ty[3][4] = {{0}};
  __enzyme_fwddiff((void *)lin, enzyme_width, 3, enzyme_dupv, (long)sizeof(tx[0]), x, &tx[0][0],
                   enzyme_dupnoneedv, (long)sizeof(ty[0]), y, &ty[0][0]);
  for (int r = 0; r < 3; r++) {
    CHECK("fwd lane 0", ty[0][r], J[r][0], 1e-12);
    CHECK("fwd lane 1", ty[1][r], J[r][1], 1e-12);
    CHECK("fwd lane 2", ty[2][r], J[r][0] + J[r][1], 1e-12);
    CHECK("fwd untouched", ty[r][3], 0, 0);
  }
  // Reverse, width 3: the rows of the Jacobian, the seeds dy in one
  // buffer at a stride of 3 doubles, the adjoints dx at a stride of N.
  double dx[3 * N] = {0}, dy[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  __enzyme_autodiff((void *)lin, enzyme_width, 3, enzyme_dupv, (long)(N * sizeof(double)), x, dx,
                    enzyme_dupnoneedv, (long)(3 * sizeof(double)), y, dy);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < N; c++) CHECK("rev jacobian", dx[r * N + c], J[r][c], 1e-12);
  // Width 1: enzyme_dupv is enzyme_dup (the stride is unused).
  double dx1[N] = {0};
  double a = 0.7;
  double da = __enzyme_autodiff_d((void *)quad, enzyme_dupv, (long)0, x, dx1, enzyme_out, a);
  CHECK("dupv w1 dx0", dx1[0], 2 * a * x[0], 1e-12);
  CHECK("dupv w1 dx1", dx1[1], sin(a), 1e-12);
  CHECK("dupv w1 da", da, x[0] * x[0] + cos(a) * x[1], 1e-12);
  // enzyme_byref: the active scalar a passed by pointer.
  double dx2[N] = {0};
  double da2 = __enzyme_autodiff_d((void *)quad, enzyme_dup, x, dx2, enzyme_byref, (long)sizeof(double), &a);
  CHECK("byref da", da2, da, 1e-12);
  CHECK("byref dx", dx2[0], dx1[0], 1e-12);
  // enzyme_byref for both scalars (with and without enzyme_out after it).
  double p = 1.3, q = -0.6;
  double dp = __enzyme_autodiff_d((void *)g, enzyme_byref, (long)8, enzyme_out, &p, enzyme_const, q);
  CHECK("byref out", dp, 2 * p * q, 1e-12);
  CHECK("byref fd", dp, FD(p, g(p, q), 1e-6), 1e-6);
  // __enzyme_reverse with the seed of the result by pointer.
  double dx3[N] = {0};
  void *tape = __enzyme_augmentfwd((void *)quad, enzyme_dup, x, dx3, enzyme_const, a);
  double seed = 2.5;
  __enzyme_reverse_d((void *)quad, enzyme_dup, x, dx3, enzyme_const, a, enzyme_byref, (long)sizeof(double), &seed, tape);
  CHECK("reverse byref seed dx0", dx3[0], seed * 2 * a * x[0], 1e-12);
  CHECK("reverse byref seed dx1", dx3[1], seed * sin(a), 1e-12);
  CHECK("reverse fd", dx3[0], seed * FD(x[0], quad(x, a), 1e-6), 1e-6);
  CHECK_DONE();
}
