// Device driver for gpu/run-device.sh: loads one test's PTX (primal, grad,
// fwd kernels; see tests/gpu/gpu.h) through the CUDA driver API, checks the
// forward kernel (J v, every element) and the reverse kernel
// (din . v = dout . J v) against central finite differences of the primal
// kernel run on the GPU, then times the three kernels.
// Build: cc -O2 -I$CUDA/include device_driver.c -lcuda -lm with
// -D GRID_X GRID_Y BLOCK_X BLOCK_Y NIN NOUT NPARAM [TOL].
// Usage: device_driver K.ptx NAME LEVEL   (prints one result line)
#include <cuda.h>
#include <math.h>
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

#define CK(x)                                                                  \
  do {                                                                         \
    CUresult r_ = (x);                                                         \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = 0;                                                      \
      cuGetErrorString(r_, &s_);                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?"); \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static CUfunction kp, kg, kf;
static CUdeviceptr d_in, d_din, d_out, d_dout;
static int nparam = NPARAM;

static void launch(CUfunction k, int grad_like) {
  void *a2[] = {&d_in, &d_out, &nparam};
  void *a4[] = {&d_in, &d_din, &d_out, &d_dout, &nparam};
  CK(cuLaunchKernel(k, GRID_X, GRID_Y, 1, BLOCK_X, BLOCK_Y, 1, 0, 0, grad_like ? a4 : a2, 0));
}

static void put(CUdeviceptr d, const double *h, size_t n) { CK(cuMemcpyHtoD(d, h, n * sizeof(double))); }
static void get(double *h, CUdeviceptr d, size_t n) { CK(cuMemcpyDtoH(h, d, n * sizeof(double))); }

static void primal_at(const double *x, const double *out0, double *res) {
  put(d_in, x, NIN);
  put(d_out, out0, NOUT);
  launch(kp, 0);
  CK(cuCtxSynchronize());
  get(res, d_out, NOUT);
}

static double rnd(void) { return (double)rand() / RAND_MAX; }
static int failures;
static void close_to(const char *what, int i, double got, double want) {
  if (!(fabs(got - want) <= TOL * (1 + fabs(want)))) {
    if (failures++ < 5)
      fprintf(stderr, "FAIL %s[%d]: got %.12g, finite differences %.12g\n", what, i, got, want);
  }
}

// Mean microseconds per launch of k over `reps` launches.
static double time_us(CUfunction k, int grad_like, int reps) {
  CUevent a, b;
  CK(cuEventCreate(&a, 0));
  CK(cuEventCreate(&b, 0));
  launch(k, grad_like); // warm-up
  CK(cuEventRecord(a, 0));
  for (int r = 0; r < reps; r++) launch(k, grad_like);
  CK(cuEventRecord(b, 0));
  CK(cuEventSynchronize(b));
  float ms = 0;
  CK(cuEventElapsedTime(&ms, a, b));
  return 1000.0 * ms / reps;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s K.ptx NAME LEVEL\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *ptx = calloc(len + 1, 1);
  if (fread(ptx, 1, len, f) != (size_t)len) { perror("read"); return 2; }
  fclose(f);
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuCtxCreate(&ctx, 0, dev));
  char log[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(size_t)sizeof log};
  CUresult r = cuModuleLoadDataEx(&mod, ptx, 2, opts, vals);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "cuModuleLoadDataEx failed (%d): %s\n", (int)r, log);
    return 2;
  }
  CK(cuModuleGetFunction(&kp, mod, "primal"));
  CK(cuModuleGetFunction(&kg, mod, "grad"));
  CK(cuModuleGetFunction(&kf, mod, "fwd"));
  CK(cuMemAlloc(&d_in, NIN * sizeof(double)));
  CK(cuMemAlloc(&d_din, NIN * sizeof(double)));
  CK(cuMemAlloc(&d_out, NOUT * sizeof(double)));
  CK(cuMemAlloc(&d_dout, NOUT * sizeof(double)));

  static double in0[NIN], out0[NOUT], v[NIN], w[NOUT], x[NIN], jv[NOUT], fp[NOUT], fm[NOUT];
  static double din[NIN], dout[NOUT], out[NOUT], base[NOUT], zeros[NIN > NOUT ? NIN : NOUT];
  srand(12345);
  for (int i = 0; i < NIN; i++) in0[i] = 0.5 + rnd();
  for (int i = 0; i < NOUT; i++) out0[i] = rnd() - 0.5;
  primal_at(in0, out0, base);
  const double h = 1e-6;
  for (int dir = 0; dir < 2; dir++) {
    for (int i = 0; i < NIN; i++) v[i] = 2 * rnd() - 1;
    for (int i = 0; i < NOUT; i++) w[i] = 2 * rnd() - 1;
    for (int i = 0; i < NIN; i++) x[i] = in0[i] + h * v[i];
    primal_at(x, out0, fp);
    for (int i = 0; i < NIN; i++) x[i] = in0[i] - h * v[i];
    primal_at(x, out0, fm);
    for (int i = 0; i < NOUT; i++) jv[i] = (fp[i] - fm[i]) / (2 * h);
    // forward: din = v, dout = 0
    put(d_in, in0, NIN);
    put(d_out, out0, NOUT);
    put(d_din, v, NIN);
    put(d_dout, zeros, NOUT);
    launch(kf, 1);
    CK(cuCtxSynchronize());
    get(out, d_out, NOUT);
    get(dout, d_dout, NOUT);
    for (int i = 0; i < NOUT; i++) {
      close_to("forward: primal out", i, out[i], base[i]);
      close_to("forward: tangent of out", i, dout[i], jv[i]);
    }
    // reverse: dout = w, din = 0
    put(d_out, out0, NOUT);
    put(d_dout, w, NOUT);
    put(d_din, zeros, NIN);
    launch(kg, 1);
    CK(cuCtxSynchronize());
    get(din, d_din, NIN);
    get(out, d_out, NOUT);
    double lhs = 0, rhs = 0, scale = 0;
    for (int i = 0; i < NIN; i++) lhs += din[i] * v[i], scale += fabs(din[i] * v[i]);
    for (int i = 0; i < NOUT; i++) rhs += w[i] * jv[i];
    close_to("reverse: din.v vs dout.Jv", dir, lhs / (1 + scale), rhs / (1 + scale));
    for (int i = 0; i < NOUT; i++) close_to("reverse: primal out", i, out[i], base[i]);
  }
  // Timing (tiny grids: launch latency dominates; the ratio is what matters).
  const int reps = 2000;
  put(d_in, in0, NIN);
  put(d_out, out0, NOUT);
  double tp = time_us(kp, 0, reps);
  put(d_din, zeros, NIN);
  put(d_dout, w, NOUT);
  double tg = time_us(kg, 1, reps);
  double tf = time_us(kf, 1, reps);
  printf("%-18s %-3s %-4s primal %8.2f us  grad %8.2f us  fwd %8.2f us  grad/primal %6.2f\n",
         argv[2], argv[3], failures ? "FAIL" : "ok", tp, tg, tf, tg / tp);
  return failures ? 1 : 0;
}
