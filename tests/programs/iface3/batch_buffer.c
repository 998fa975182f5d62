// __enzyme_batch with enzyme_buffer: `enzyme_buffer, stride, p` gives the N
// lanes of a pointer parameter in one buffer, lane k at (char *)p + k *
// stride (stride in bytes, a constant or a run-time value). Mixed with
// enzyme_vector / enzyme_scalar, with a void function writing through its
// lanes, and differentiated (reverse and forward) through the batch.
#include "check.h"
#include <stddef.h>
typedef struct { double a, b, c, d; } V4;
typedef struct { double a, b, c; } V3;
extern V4 __enzyme_batch(void *, ...);
extern V3 __enzyme_batch3(void *, ...) __asm__("__enzyme_batch");
extern void __enzyme_batchv(void *, ...) __asm__("__enzyme_batch");
extern int enzyme_vector, enzyme_scalar, enzyme_buffer;

// a 3-vector's weighted norm squared: lanes are rows of a 4x3 matrix.
static double wnorm(const double *x, double w) {
  return w * (x[0] * x[0] + 2 * x[1] * x[1] + 3 * x[2] * x[2]);
}
typedef struct {
  int id;
  double pos[2];
  double out;
} Particle;
static void radius(Particle *p, double s) {
  p->out = s * sqrt(p->pos[0] * p->pos[0] + p->pos[1] * p->pos[1]);
}
// lanes in a plain array of doubles with a stride of 2 elements.
static double cube(const double *x) { return x[0] * x[0] * x[0] - x[1]; }

// The batch inside a differentiated function: 3 lanes of cube over x
// (stride given at run time), weighted sum.
static double total(double *x, long stride) {
  V3 r = __enzyme_batch3((void *)cube, enzyme_width, 3, enzyme_buffer, stride, x);
  return r.a + 2 * r.b + 3 * r.c;
}
static double total_ref(double *x) {
  return cube(x) + 2 * cube(x + 2) + 3 * cube(x + 4);
}

int main(int argc, char **argv) {
  (void)argv;
  double m[12];
  for (int i = 0; i < 12; i++)
    m[i] = 0.5 + 0.25 * i;
  V4 r = __enzyme_batch((void *)wnorm, enzyme_width, 4, enzyme_buffer, 3 * sizeof(double), m,
                        enzyme_scalar, 2.0);
  CHECK("row 0", r.a, wnorm(m, 2.0), 1e-12);
  CHECK("row 1", r.b, wnorm(m + 3, 2.0), 1e-12);
  CHECK("row 2", r.c, wnorm(m + 6, 2.0), 1e-12);
  CHECK("row 3", r.d, wnorm(m + 9, 2.0), 1e-12);
  // buffer then per-lane values
  V4 q = __enzyme_batch((void *)wnorm, enzyme_width, 4, enzyme_buffer, 3 * sizeof(double), m,
                        enzyme_vector, 1.0, 2.0, 3.0, 4.0);
  CHECK("row 0 w", q.a, wnorm(m, 1.0), 1e-12);
  CHECK("row 3 w", q.d, wnorm(m + 9, 4.0), 1e-12);
  // a void function, lanes in an array of structs, run-time stride
  Particle ps[3] = {{1, {3.0, 4.0}, 0}, {2, {1.0, 1.0}, 0}, {3, {-6.0, 8.0}, 0}};
  long st = (long)sizeof(Particle) * (argc > 0 ? 1 : 2);
  __enzyme_batchv((void *)radius, enzyme_width, 3, enzyme_buffer, st, &ps[0], enzyme_scalar, 0.5);
  CHECK("particle 0", ps[0].out, 2.5, 1e-12);
  CHECK("particle 1", ps[1].out, 0.5 * sqrt(2.0), 1e-12);
  CHECK("particle 2", ps[2].out, 5.0, 1e-12);
  CHECK("id kept", ps[2].id, 3, 0);
  // stride 0: every lane reads the same memory
  V3 one = __enzyme_batch3((void *)cube, enzyme_width, 3, enzyme_buffer, 0L, m);
  CHECK("stride 0", one.c, cube(m), 1e-12);
  // differentiated through the batch: reverse and forward, against FD
  double x[6] = {1.1, -0.4, 0.7, 2.0, -1.3, 0.2}, dx[6] = {0};
  long stride = 2 * (long)sizeof(double) * (argc > 0 ? 1 : 3);
  CHECK("primal", total(x, stride), total_ref(x), 1e-12);
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_const, stride);
  double tx[6] = {0.3, -1.0, 0.5, 0.25, 2.0, -0.75};
  double t = __enzyme_fwddiff((void *)total, enzyme_dup, x, tx, enzyme_const, stride);
  double fd_dir = 0;
  for (int i = 0; i < 6; i++) {
    char name[32];
    snprintf(name, sizeof name, "dx[%d] fd", i);
    double fd = FD(x[i], total_ref(x), 1e-6);
    CHECK(name, dx[i], fd, 1e-6);
    fd_dir += tx[i] * fd;
  }
  CHECK("forward fd", t, fd_dir, 1e-6);
  CHECK("dx[0]", dx[0], 3 * 1.1 * 1.1, 1e-12);
  CHECK("dx[5]", dx[5], -3.0, 1e-12);
  CHECK_DONE();
}
