/* ode: explicit Euler, T steps over t in [0, 5], of the Lotka-Volterra system
 *   u' = a u - b u v,   v' = d u v - c v
 * f = u(T) + v(T). Gradient w.r.t. x = [u0, v0, a, b, c, d] (6 inputs, so
 * forward mode is the natural enzyme-rs entry). A reverse gradient has to
 * keep the trajectory: its memory grows with T. Size: T. */
#define PROBLEM_NAME "ode"
#define PROB_FD_TOL 1e-4
typedef struct { int T; double dt; double x[6]; double *traj; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  REAL u = x[0], v = x[1];
  const REAL a = x[2], b = x[3], cc = x[4], d = x[5];
  double dt = c->dt;
  for (int t = 0; t < c->T; t++) {
    REAL uv = u * v;
    REAL un = u + dt * (a * u - b * uv);
    REAL vn = v + dt * (d * uv - cc * v);
    u = un;
    v = vn;
  }
  return u + v;
}

/* Adjoint of the Euler recursion over the stored trajectory. */
static void hand_grad(const ctx_t *c, const double *x, double *g) {
  double *tr = c->traj, a = x[2], b = x[3], cc = x[4], d = x[5], dt = c->dt;
  double u = x[0], v = x[1];
  for (int t = 0; t < c->T; t++) {
    tr[2 * t] = u; tr[2 * t + 1] = v;
    double uv = u * v;
    double un = u + dt * (a * u - b * uv), vn = v + dt * (d * uv - cc * v);
    u = un; v = vn;
  }
  double ub = 1, vb = 1, ga = 0, gb = 0, gc = 0, gd = 0;
  for (int t = c->T - 1; t >= 0; t--) {
    u = tr[2 * t]; v = tr[2 * t + 1];
    double uv = u * v;
    ga += ub * dt * u;
    gb -= ub * dt * uv;
    gc -= vb * dt * v;
    gd += vb * dt * uv;
    double nub = ub * (1 + dt * (a - b * v)) + vb * dt * d * v;
    double nvb = -ub * dt * b * u + vb * (1 + dt * (d * u - cc));
    ub = nub; vb = nvb;
  }
  g[0] = ub; g[1] = vb; g[2] = ga; g[3] = gb; g[4] = gc; g[5] = gd;
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->T = argc > 0 ? atoi(argv[0]) : 1000;
  c->dt = 5.0 / c->T;
  double x0[6] = { 1.0, 0.8, 1.5, 1.0, 3.0, 1.0 };
  memcpy(c->x, x0, sizeof x0);
  c->traj = (double *)malloc(sizeof(double) * 2 * c->T);
  snprintf(c->size, sizeof c->size, "T=%d", c->T);
}
static int prob_nin(const ctx_t *c) { (void)c; return 6; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
