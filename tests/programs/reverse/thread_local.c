// FLAGS: -pthread
// Thread-local variables in differentiated code (clang reads them through
// llvm.threadlocal.address, once refused as an unknown function): a
// thread_local weight read and a thread_local accumulator written, in
// reverse and forward mode. Their shadows are thread-local too: four
// threads, each with its own weight, take many gradients at once and each
// gets its own (a shared shadow accumulator would mix them).
#include "check.h"
#include <pthread.h>
static __thread double weight = 3.0;
static __thread double acc;
static double f(double x) {
  acc = x * weight;
  return acc * x + sin(acc);
}
static double df(double x, double w) { return 2 * x * w + cos(x * w) * w; }

typedef struct {
  double w, x, got_rev, got_fwd;
} Job;
static void *run(void *p) {
  Job *j = (Job *)p;
  weight = j->w;
  for (int k = 0; k < 2000; k++) {
    j->got_rev = __enzyme_autodiff((void *)f, j->x);
    j->got_fwd = __enzyme_fwddiff((void *)f, j->x, 1.0);
  }
  return 0;
}
int main(void) {
  double x = 1.5;
  CHECK("reverse", __enzyme_autodiff((void *)f, x), df(x, 3.0), 1e-12);
  CHECK("forward", __enzyme_fwddiff((void *)f, x, 1.0), df(x, 3.0), 1e-12);
  CHECK("fd", df(x, 3.0), FD(x, f(x), 1e-6), 1e-6);
  Job jobs[4];
  pthread_t t[4];
  for (int k = 0; k < 4; k++) {
    jobs[k] = (Job){1.0 + k, 0.5 + 0.25 * k, 0, 0};
    pthread_create(&t[k], 0, run, &jobs[k]);
  }
  for (int k = 0; k < 4; k++) pthread_join(t[k], 0);
  for (int k = 0; k < 4; k++) {
    CHECK("thread reverse", jobs[k].got_rev, df(jobs[k].x, jobs[k].w), 1e-12);
    CHECK("thread forward", jobs[k].got_fwd, df(jobs[k].x, jobs[k].w), 1e-12);
  }
  CHECK_DONE();
}
