// Host execution harness for GPU kernels (see README, "GPU kernels"): the
// device IR of a test, differentiated and retargeted to the host by
// retarget.py, is linked with this driver, which runs a grid as blocks one
// after another, each block's threads as host threads (pthreads) with a
// barrier for __syncthreads, and checks the gradient kernels against
// central finite differences of the primal kernel:
//   forward:  fwd's dout = J v            (every element)
//   reverse:  grad's din . v = dout . J v (for random v, dout)
// Configuration from -D: GRID_X GRID_Y BLOCK_X BLOCK_Y NIN NOUT NPARAM.
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GRID_Y
#define GRID_Y 1
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 1
#endif
#ifndef TOL
#define TOL 1e-6
#endif

void primal(double *in, double *out, int n);
void grad(double *in, double *din, double *out, double *dout, int n);
void fwd(double *in, double *din, double *out, double *dout, int n);

// ---- the device's view: indices, sizes, barrier ---------------------------
static __thread unsigned t_tid[3], t_ctaid[3];
static const unsigned t_ntid[3] = {BLOCK_X, BLOCK_Y, 1};
static const unsigned t_nctaid[3] = {GRID_X, GRID_Y, 1};
static pthread_barrier_t block_barrier;

#define AXES(f)                                                                \
  unsigned gpuhost_##f##_x(void) { return t_##f[0]; }                        \
  unsigned gpuhost_##f##_y(void) { return t_##f[1]; }                        \
  unsigned gpuhost_##f##_z(void) { return t_##f[2]; }
AXES(tid)
AXES(ntid)
AXES(ctaid)
AXES(nctaid)
unsigned gpuhost_warpsize(void) { return 32; }
void gpuhost_barrier(void) { pthread_barrier_wait(&block_barrier); }
void gpuhost_barrier_n(unsigned id) { (void)id, pthread_barrier_wait(&block_barrier); }
// AMDGPU's dispatch packet: workgroup sizes (u16) at bytes 4, 6, 8; grid
// sizes (u32, in work-items) at 12, 16, 20.
static __thread unsigned char t_packet[64];
void *gpuhost_dispatch_ptr(void) {
  unsigned short ws[3] = {BLOCK_X, BLOCK_Y, 1};
  unsigned gs[3] = {GRID_X * BLOCK_X, GRID_Y * BLOCK_Y, 1};
  memcpy(t_packet + 4, ws, 6);
  memcpy(t_packet + 12, gs, 12);
  return t_packet;
}

// Code object v5's implicit kernel arguments (clang-22's HIP): block counts
// (u32) at bytes 0, 4, 8; workgroup sizes (u16) at 12, 14, 16.
static __thread unsigned char t_implicit[256];
void *gpuhost_implicitarg_ptr(void) {
  unsigned bc[3] = {GRID_X, GRID_Y, 1};
  unsigned short ws[3] = {BLOCK_X, BLOCK_Y, 1};
  memcpy(t_implicit, bc, 12);
  memcpy(t_implicit + 12, ws, 6);
  return t_implicit;
}

// ---- libdevice / OCML math on the host --------------------------------------
#define M1(F)                                                                  \
  double __nv_##F(double x) { return F(x); }                                   \
  float __nv_##F##f(float x) { return F##f(x); }                               \
  double __ocml_##F##_f64(double x) { return F(x); }                           \
  float __ocml_##F##_f32(float x) { return F##f(x); }
#define M2(F)                                                                  \
  double __nv_##F(double x, double y) { return F(x, y); }                      \
  float __nv_##F##f(float x, float y) { return F##f(x, y); }                   \
  double __ocml_##F##_f64(double x, double y) { return F(x, y); }              \
  float __ocml_##F##_f32(float x, float y) { return F##f(x, y); }
M1(sin) M1(cos) M1(tan) M1(exp) M1(log) M1(sqrt) M1(tanh) M1(sinh) M1(cosh)
M1(exp2) M1(log2) M1(log10) M1(fabs) M1(atan) M1(asin) M1(acos) M1(cbrt)
M1(erf) M1(log1p) M1(expm1) M1(asinh) M1(acosh) M1(atanh)
M2(pow) M2(fmax) M2(fmin) M2(hypot) M2(atan2)
double __nv_rsqrt(double x) { return 1.0 / sqrt(x); }
float __nv_rsqrtf(float x) { return 1.0f / sqrtf(x); }

// ---- launching a grid -------------------------------------------------------
enum kind { PRIMAL, GRAD, FWD };
struct launch {
  enum kind k;
  double *in, *din, *out, *dout;
  unsigned tid[3], ctaid[3];
};

static void *thread_main(void *p) {
  struct launch *l = p;
  memcpy(t_tid, l->tid, sizeof t_tid);
  memcpy(t_ctaid, l->ctaid, sizeof t_ctaid);
  switch (l->k) {
  case PRIMAL: primal(l->in, l->out, NPARAM); break;
  case GRAD: grad(l->in, l->din, l->out, l->dout, NPARAM); break;
  case FWD: fwd(l->in, l->din, l->out, l->dout, NPARAM); break;
  }
  return NULL;
}

static void run(enum kind k, double *in, double *din, double *out, double *dout) {
  enum { T = BLOCK_X * BLOCK_Y };
  static struct launch ls[T];
  static pthread_t th[T];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  for (unsigned by = 0; by < GRID_Y; by++)
    for (unsigned bx = 0; bx < GRID_X; bx++) {
      pthread_barrier_init(&block_barrier, NULL, T);
      for (unsigned t = 0; t < T; t++) {
        ls[t] = (struct launch){k, in, din, out, dout,
                                {t % BLOCK_X, t / BLOCK_X, 0}, {bx, by, 0}};
        if (pthread_create(&th[t], &attr, thread_main, &ls[t])) {
          perror("pthread_create");
          exit(2);
        }
      }
      for (unsigned t = 0; t < T; t++)
        pthread_join(th[t], NULL);
      pthread_barrier_destroy(&block_barrier);
    }
  pthread_attr_destroy(&attr);
}

// ---- checks -----------------------------------------------------------------
static double rnd(void) { return (double)rand() / RAND_MAX; }
static int failures;

static void close_to(const char *what, int i, double got, double want) {
  if (!(fabs(got - want) <= TOL * (1 + fabs(want)))) {
    if (failures++ < 10)
      fprintf(stderr, "FAIL %s[%d]: got %.12g, finite differences %.12g\n", what, i, got, want);
  }
}

int main(void) {
  static double in0[NIN], out0[NOUT], v[NIN], w[NOUT], x[NIN], jv[NOUT], fp[NOUT], fm[NOUT];
  static double din[NIN], dout[NOUT], out[NOUT], base[NOUT];
  srand(12345);
  for (int i = 0; i < NIN; i++) in0[i] = 0.5 + rnd();
  for (int i = 0; i < NOUT; i++) out0[i] = rnd() - 0.5;
  memcpy(base, out0, sizeof out0);
  memcpy(x, in0, sizeof x);
  run(PRIMAL, x, NULL, base, NULL);
  const double h = 1e-6;
  for (int dir = 0; dir < 2; dir++) {
    for (int i = 0; i < NIN; i++) v[i] = 2 * rnd() - 1;
    for (int i = 0; i < NOUT; i++) w[i] = 2 * rnd() - 1;
    for (int i = 0; i < NIN; i++) x[i] = in0[i] + h * v[i];
    memcpy(fp, out0, sizeof fp);
    run(PRIMAL, x, NULL, fp, NULL);
    for (int i = 0; i < NIN; i++) x[i] = in0[i] - h * v[i];
    memcpy(fm, out0, sizeof fm);
    run(PRIMAL, x, NULL, fm, NULL);
    for (int i = 0; i < NOUT; i++) jv[i] = (fp[i] - fm[i]) / (2 * h);
    // forward
    memcpy(x, in0, sizeof x);
    memcpy(out, out0, sizeof out);
    memcpy(din, v, sizeof din);
    memset(dout, 0, sizeof dout);
    run(FWD, x, din, out, dout);
    for (int i = 0; i < NOUT; i++) {
      close_to("forward: primal out", i, out[i], base[i]);
      close_to("forward: tangent of out", i, dout[i], jv[i]);
    }
    // reverse
    memcpy(out, out0, sizeof out);
    memcpy(dout, w, sizeof dout);
    memset(din, 0, sizeof din);
    run(GRAD, x, din, out, dout);
    double lhs = 0, rhs = 0, scale = 0;
    for (int i = 0; i < NIN; i++) lhs += din[i] * v[i], scale += fabs(din[i] * v[i]);
    for (int i = 0; i < NOUT; i++) rhs += w[i] * jv[i];
    close_to("reverse: din.v vs dout.Jv", dir, lhs / (1 + scale), rhs / (1 + scale));
    for (int i = 0; i < NOUT; i++) close_to("reverse: primal out", i, out[i], base[i]);
    for (int i = 0; i < NIN; i++) close_to("input unchanged", i, x[i], in0[i]);
  }
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
