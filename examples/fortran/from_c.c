/* Differentiate the Fortran kernels of kernels.f90 from C. Fortran passes
 * every argument by reference, and flang names an external procedure
 * `name_`, so `subroutine energy(n, x, e)` is, for C,
 *   void energy_(int *n, double *x, double *e);
 * The plugin needs the kernel's body in the module it differentiates, so
 * the C and Fortran files are compiled to LLVM bitcode (-flto) and the
 * plugin runs at link time:
 *   flang-new-16 -O2 -flto -c kernels.f90
 *   clang-16 -O2 -flto -c -Iinclude from_c.c
 *   enzyme-clang -O2 -flto -fuse-ld=lld from_c.o kernels.o \
 *     -L/usr/lib/llvm-16/lib -lFortranRuntime -lFortranDecimal -lm
 * (the Fortran runtime for the kernels' PRINT statement).
 * Checked against central finite differences. */
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>

void energy_(int *n, double *x, double *e);
double rosen_(int *n, double *x);
void advect_(int *n, double *u, double *c, double *dt, double *unew);

/* Typed entry points (any suffix is accepted). */
void __enzyme_autodiff_energy(void *, int, int *, int, double *, double *, int, double *, double *);
double __enzyme_fwddiff_rosen(void *, int, int *, int, double *, double *);
void __enzyme_fwddiff_advect(void *, int, int *, int, double *, double *, int, double *, int, double *, int,
                             double *, double *);

enum { N = 6 };
static int checks, failures;

static void check(const char *what, double got, double want) {
  checks++;
  if (fabs(got - want) > 1e-5 * fmax(1.0, fabs(want))) {
    failures++;
    printf("%s: got %.16g want %.16g\n", what, got, want);
  }
}

int main(void) {
  int n = N;
  double x[N] = {0.3, -0.7, 1.1, 0.5, -1.3, 0.9}, dx[N] = {0}, e, de = 1, h = 1e-6;
  double v[N] = {1, 0.5, -0.25, 2, 0.1, -1};

  /* Reverse mode: the gradient of the energy. */
  __enzyme_autodiff_energy((void *)energy_, enzyme_const, &n, enzyme_dup, x, dx, enzyme_dup, &e, &de);
  for (int i = 0; i < N; i++) {
    double xp[N], ep, em;
    for (int j = 0; j < N; j++) xp[j] = x[j];
    xp[i] = x[i] + h;
    energy_(&n, xp, &ep);
    xp[i] = x[i] - h;
    energy_(&n, xp, &em);
    check("energy reverse", dx[i], (ep - em) / (2 * h));
  }

  /* Forward mode of a Fortran function: the directional derivative. */
  double df = __enzyme_fwddiff_rosen((void *)rosen_, enzyme_const, &n, enzyme_dup, x, v);
  double xp[N], xm[N];
  for (int j = 0; j < N; j++) xp[j] = x[j] + h * v[j], xm[j] = x[j] - h * v[j];
  check("rosen forward", df, (rosen_(&n, xp) - rosen_(&n, xm)) / (2 * h));

  /* Forward mode through the stencil: a Jacobian-vector product. */
  double u[N] = {0.2, 0.4, 0.9, 0.6, -0.3, 0.1}, c[N] = {1, -0.5, 0.8, -1.2, 0.3, 0.6}, dt = 0.05;
  double un[N], dun[N] = {0}, up[N], um[N], us[N];
  __enzyme_fwddiff_advect((void *)advect_, enzyme_const, &n, enzyme_dup, u, v, enzyme_const, c, enzyme_const, &dt,
                          enzyme_dup, un, dun);
  for (int j = 0; j < N; j++) us[j] = u[j] + h * v[j];
  advect_(&n, us, c, &dt, up);
  for (int j = 0; j < N; j++) us[j] = u[j] - h * v[j];
  advect_(&n, us, c, &dt, um);
  for (int i = 0; i < N; i++) check("advect forward", dun[i], (up[i] - um[i]) / (2 * h));

  printf("c calling fortran: %d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
