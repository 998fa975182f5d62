// Forward mode over __enzyme_fixed_point: the iteration runs to its end,
// then the tangent is iterated at the converged state until it stops
// changing. (1) A contraction z = 0.3 cos(M z) + q^3 with an output the
// step writes: the state's and the output's tangents equal those through
// every iteration of the plain loop (and central differences of the
// converged state), whatever tangent the state starts with, and the
// primal state is bit for bit the plain loop's. (2) Heron's iteration for
// the fourth root with a control function: the tangent is exact after one
// pass, so the control is called three times (the start, and after each of
// two passes), as in Enzyme.
#include "check.h"
#include <enzyme/fixed_point.h>
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;

enum { K = 3 };
static const double M[K][K] = {{0.9, -0.4, 0.2}, {0.3, 0.8, -0.5}, {-0.6, 0.1, 1.0}};

__attribute__((noinline)) static int contract(int64_t i, double *z, const double *q, double *out,
                                              const double *tol) {
  (void)i;
  double next[K], change = 0;
  for (int r = 0; r < K; r++) {
    double s = 0;
    for (int c = 0; c < K; c++) s += M[r][c] * z[c];
    next[r] = 0.3 * cos(s) + q[r] * q[r] * q[r];
  }
  for (int r = 0; r < K; r++) {
    out[r] = next[r] * next[r] + q[r];
    change += fabs(next[r] - z[r]);
    z[r] = next[r];
  }
  return change > *tol;
}
static void by_loop(double *z, const double *q, double *out, const double *tol) {
  int64_t i = 0;
  while (contract(i++, z, q, out, tol))
    ;
}
static void by_fixed_point(double *z, const double *q, double *out, const double *tol) {
  __enzyme_fixed_point((void *)contract, enzyme_fp_state, z, (int64_t)sizeof(double) * K,
                       enzyme_fp_reduction, 1e-28, z, q, out, tol);
}
static double converged(const double *q0, int r) {
  double z[K] = {0}, out[K], tol = 1e-15;
  by_loop(z, q0, out, &tol);
  return z[r];
}

// r <- (3 r + a / r^3) / 4: the fourth root of a.
__attribute__((noinline)) static int heron4(int64_t i, double *r, const double *a, const double *tol) {
  (void)i;
  double next = (3 * r[0] + a[0] / (r[0] * r[0] * r[0])) / 4;
  int go = fabs(next - r[0]) > *tol;
  r[0] = next;
  return go;
}
static int calls;
static double first_change = -1;
static int control(double *cumul, double *reduction) {
  calls++;
  if (*cumul < 0) {
    first_change = -1;
    return 1;
  }
  if (first_change < 0) {
    first_change = *cumul;
    return *cumul > 0;
  }
  return *cumul > *reduction * first_change;
}
static void fourth_root(double *r, const double *a, const double *tol) {
  __enzyme_fixed_point((void *)heron4, enzyme_fp_state, r, (int64_t)sizeof(double),
                       enzyme_fp_reduction, 1e-20, enzyme_fp_control, control, r, a, tol);
}

int main(void) {
  const double tol = 1e-15;
  double q[K] = {0.5, -0.3, 0.4}, dq[K] = {1.0, -2.0, 0.5};
  double z0[K] = {0}, dz0[K] = {0}, out0[K] = {0}, dout0[K] = {0};
  __enzyme_fwddiff((void *)by_loop, enzyme_dup, z0, dz0, enzyme_const, q, enzyme_dup, out0, dout0,
                   enzyme_const, &tol);
  double z[K] = {0}, dz[K] = {7, 7, 7}, out[K] = {0}, dout[K] = {0};
  __enzyme_fwddiff((void *)by_fixed_point, enzyme_dup, z, dz, enzyme_const, q, enzyme_dup, out,
                   dout, enzyme_const, &tol);
  CHECK("primal state as the plain loop's", memcmp(z, z0, sizeof z) == 0, 1, 0);
  // With respect to q0 only (dq as a direction needs q active).
  double zq[K] = {0}, dzq[K] = {0}, oq[K] = {0}, doq[K] = {0};
  double qq[K] = {0.5, -0.3, 0.4};
  __enzyme_fwddiff((void *)by_fixed_point, enzyme_dup, zq, dzq, enzyme_dup, qq, dq, enzyme_dup, oq,
                   doq, enzyme_const, &tol);
  double zl[K] = {0}, dzl[K] = {0}, ol[K] = {0}, dol[K] = {0};
  __enzyme_fwddiff((void *)by_loop, enzyme_dup, zl, dzl, enzyme_dup, qq, dq, enzyme_dup, ol, dol,
                   enzyme_const, &tol);
  for (int r = 0; r < K; r++) {
    CHECK("dz (q constant)", dz[r], dz0[r], 1e-12);
    CHECK("dout (q constant)", dout[r], dout0[r], 1e-12);
    CHECK("dz along dq vs the plain loop", dzq[r], dzl[r], 1e-10);
    CHECK("dout along dq vs the plain loop", doq[r], dol[r], 1e-10);
    double fd = 0;
    for (int c = 0; c < K; c++) fd += dq[c] * FD(qq[c], converged(qq, r), 1e-6);
    CHECK("dz along dq vs central differences", dzq[r], fd, 1e-6);
  }

  double root = 1.0, droot = 0, a = 5.0, da = 1.0;
  __enzyme_fwddiff((void *)fourth_root, enzyme_dup, &root, &droot, enzyme_dup, &a, &da,
                   enzyme_const, &tol);
  CHECK("fourth root", root, pow(a, 0.25), 1e-14);
  CHECK("d fourth root / da", droot, 0.25 * pow(a, -0.75), 1e-12);
  CHECK("control calls", calls, 3, 0);
  CHECK_DONE();
}
