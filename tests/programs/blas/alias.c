// FLAGS: -lblas
// Aliasing: where an output overlaps an input in a way BLAS forbids (dgemv's
// y and x, dgemm's C and A) or where the result depends on the loop order
// (saxpy's y one element past x), the derivative stops the program with an
// error naming the routine (run in a child process here: it must abort and
// print the message), never a wrong gradient. What is allowed works: daxpy
// with y as x, ddot(x, x), dgemm(A, A^T) against finite differences.
#include "blas_test.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

double gemv_alias(double *a, double *v) {
  /* y = A x with y = x: overlapping. */
  cblas_dgemv(ColMajor, NoTrans, 2, 2, 1.0, a, 2, v, 1, 0.0, v, 1);
  return v[0] + v[1];
}

double gemm_alias(double *a) {
  /* C = A A with C = A. */
  cblas_dgemm(ColMajor, NoTrans, NoTrans, 2, 2, 2, 1.0, a, 2, a, 2, 0.0, a, 2);
  return a[0] + a[3];
}

double saxpy_shift(float *v) {
  cblas_saxpy(3, 2.0f, v, 1, v + 1, 1);
  return v[0] + v[1] + v[2] + v[3];
}

double daxpy_self(const double *v0, double a) {
  double v[5];
  memcpy(v, v0, sizeof v);
  cblas_daxpy(3, a, v, 2, v, 2);
  double s = 0.0;
  for (int i = 0; i < 5; i++)
    s += (1.0 + i) * v[i] * v[i];
  return s;
}

double gram(const double *a) {
  double c[4];
  cblas_dgemm(RowMajor, NoTrans, Trans, 2, 2, 3, 1.0, a, 3, a, 3, 0.0, c, 2);
  return c[0] * c[0] + 2.0 * c[1] + c[3] * c[2];
}

double __enzyme_autodiff(void *, ...);

static int child_case;

static void run_case(void) {
  double a[4] = {1, 2, 3, 4}, da[4] = {0}, v[2] = {1, 2}, dv[2] = {0};
  float f[4] = {1, 2, 3, 4}, df[4] = {0};
  double t[4] = {1, 0, 0, 1};
  switch (child_case) {
  case 0:
    __enzyme_autodiff((void *)gemv_alias, enzyme_dup, a, da, enzyme_dup, v, dv);
    break;
  case 1:
    __enzyme_fwddiff((void *)gemm_alias, enzyme_dup, a, t);
    break;
  case 2:
    __enzyme_autodiff((void *)saxpy_shift, enzyme_dup, f, df);
    break;
  }
}

/* Runs case k in a child: it must abort with the message on stderr. */
static void refused(int k, const char *routine, const char *label) {
  int fds[2];
  if (pipe(fds) != 0)
    abort();
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    child_case = k;
    run_case();
    _exit(0); /* not refused */
  }
  close(fds[1]);
  char buf[1024];
  size_t n = 0;
  ssize_t r;
  while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)r;
  buf[n] = 0;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  int aborted = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
  int named = strstr(buf, "enzyme-rs: error: BLAS ") && strstr(buf, routine) &&
              strstr(buf, "overlaps");
  CHECK(label, aborted && named, 1, 0);
  if (!(aborted && named))
    printf("  child status %d, stderr: %s\n", st, buf);
}

int main(void) {
  refused(0, "dgemv", "dgemv y = x refused");
  refused(1, "dgemm", "dgemm C = A refused (forward)");
  refused(2, "saxpy", "saxpy y = x + 1 refused");
  /* daxpy with y as x (stride 2). */
  double v[5], dv[5] = {0}, a = 0.6;
  fill(v, 5, 0.5);
  double da = __enzyme_autodiff((void *)daxpy_self, enzyme_dup, v, dv, a);
  CHECK_GRAD("daxpy(v, v) dv", v, dv, 5, daxpy_self(v, a));
  CHECK("daxpy(v, v) da", da, FD(a, daxpy_self(v, a), 1e-6), 1e-6);
  double tv[5];
  fill(tv, 5, 3.0);
  double want = 0.3 * da;
  for (int i = 0; i < 5; i++)
    want += tv[i] * dv[i];
  CHECK("daxpy(v, v) forward", __enzyme_fwddiff((void *)daxpy_self, enzyme_dup, v, tv, a, 0.3),
        want, 1e-10);
  /* A A^T (both factors the same memory). */
  double g[6], dg[6] = {0};
  fill(g, 6, 1.4);
  __enzyme_autodiff((void *)gram, enzyme_dup, g, dg);
  CHECK_GRAD("gemm(A, A^T) dA", g, dg, 6, gram(g));
  CHECK_DONE();
}
