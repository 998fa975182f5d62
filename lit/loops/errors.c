// Diagnostics of checkpointed loops and fixed points: each bad call is an
// error naming the function and line, and clang exits non-zero.
// RUN: not %clang -O1 -g -I%include -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <enzyme/checkpoint.h>
#include <enzyme/fixed_point.h>
#include <enzyme/enzyme.h>

static void step(int64_t i, double *u) { u[0] *= 1.01; }
static int wstep(int64_t i, double *u) { u[0] *= 1.01; return u[0] < 2; }

double no_region(double *u, int64_t n) {
  // CHECK-DAG: error: {{.*}}__enzyme_checkpoint_for: name the loop's state {{.*}}enzyme_checkpoint_region
  // CHECK-DAG: in function 'no_region' at {{.*}}errors.c:[[@LINE+1]]
  __enzyme_checkpoint_for((void *)step, 0, n, u);
  return u[0];
}

double bad_count(double *u, int64_t n) {
  // CHECK-DAG: error: {{.*}}the step function 'step' takes 1 argument(s) after the index, but 2 follow the markers
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u, 8, u, u);
  return u[0];
}

double void_while(double *u) {
  // CHECK-DAG: error: {{.*}}the step function 'step' must return an int
  __enzyme_checkpoint_while((void *)step, enzyme_checkpoint_region, u, 8, u);
  return u[0];
}

double no_state(double *u) {
  // CHECK-DAG: error: {{.*}}__enzyme_fixed_point needs the iteration's state: enzyme_fp_state
  __enzyme_fixed_point((void *)wstep, u);
  return u[0];
}

double wrong_marker(double *u, int64_t n) {
  // CHECK-DAG: error: {{.*}}the marker enzyme_fp_state does not belong here
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_fp_state, u, 8, u);
  return u[0];
}

double inside(double *u) {
  // CHECK-DAG: error: {{.*}}__enzyme_set_fixed_point(reduction, max_iters, control, [state, bytes]...): 4 arguments given
  while (u[0] < 2) {
    __enzyme_set_fixed_point(-1.0, -1, 0, u);
    u[0] *= 1.5;
  }
  return u[0];
}
