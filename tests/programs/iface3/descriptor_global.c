// Shadows of globals initialised with pointers to other globals (a
// descriptor global pointing at a data global): the shadow of `p` points
// at the shadow of `a`, so derivative code writing and reading through p
// and through a sees the same shadow memory, in reverse and forward mode.
#include "check.h"
static double a[4];
static double *p = a;
typedef struct {
  double *data;
  int n;
  double *mid;
} Desc;
static double b[3];
static Desc d = {b, 3, &b[1]};
static Desc *dp = &d;

// writes through p, reads through a and p
static double f(double x) {
  p[0] = x;
  p[1] = x * x;
  for (int i = 2; i < 4; i++)
    p[i] = sin(x * i);
  return a[0] * p[1] + a[1] + a[2] * p[3];
}
static double f_ref(double x) {
  return x * x * x + x * x + sin(2 * x) * sin(3 * x);
}

// a struct descriptor, reached through a pointer global
static double g(double x, double y) {
  Desc *q = dp;
  for (int i = 0; i < q->n; i++)
    q->data[i] = x * (i + 1) + y;
  *q->mid *= y;                      // b[1] = (2x + y) * y
  return b[0] * q->data[1] + q->mid[1]; // (x+y)(2x+y)y + 3x + y
}
static double g_ref(double x, double y) {
  return (x + y) * (2 * x + y) * y + 3 * x + y;
}

int main(void) {
  double x = 0.7;
  double dx = __enzyme_autodiff((void *)f, x);
  CHECK("f primal", f(x), f_ref(x), 1e-12);
  CHECK("f reverse fd", dx, FD(x, f_ref(x), 1e-6), 1e-6);
  CHECK("f reverse", dx, 3 * x * x + 2 * x + 2 * cos(2 * x) * sin(3 * x) + 3 * sin(2 * x) * cos(3 * x), 1e-12);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("f forward fd", t, FD(x, f_ref(x), 1e-6), 1e-6);
  CHECK("f forward", t, dx, 1e-12);
  double y = -1.3;
  CHECK("g primal", g(x, y), g_ref(x, y), 1e-12);
  typedef struct { double dx, dy; } G2;
  extern G2 __enzyme_autodiff2(void *, ...) __asm__("__enzyme_autodiff");
  G2 r = __enzyme_autodiff2((void *)g, x, y);
  CHECK("g dx fd", r.dx, FD(x, g_ref(x, y), 1e-6), 1e-6);
  CHECK("g dy fd", r.dy, FD(y, g_ref(x, y), 1e-6), 1e-6);
  double tx = __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0);
  double ty = __enzyme_fwddiff((void *)g, x, 0.0, y, 1.0);
  CHECK("g forward x fd", tx, FD(x, g_ref(x, y), 1e-6), 1e-6);
  CHECK("g forward y fd", ty, FD(y, g_ref(x, y), 1e-6), 1e-6);
  CHECK("g forward x", tx, r.dx, 1e-9);
  CHECK("g forward y", ty, r.dy, 1e-9);
  // vector forward mode: each lane's descriptor shadow points at its own
  typedef struct { double t1, t2; } T2;
  extern T2 __enzyme_fwddiff2(void *, ...) __asm__("__enzyme_fwddiff");
  T2 v = __enzyme_fwddiff2((void *)g, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  CHECK("g vector lane 0", v.t1, r.dx, 1e-9);
  CHECK("g vector lane 1", v.t2, r.dy, 1e-9);
  // twice more: the shadows are reset between calls
  double dx2 = __enzyme_autodiff((void *)f, x);
  CHECK("f reverse again", dx2, dx, 1e-12);
  G2 r2 = __enzyme_autodiff2((void *)g, x, y);
  CHECK("g dx again", r2.dx, r.dx, 1e-12);
  CHECK_DONE();
}
