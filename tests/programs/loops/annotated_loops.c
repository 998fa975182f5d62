// FLAGS: -fplugin=%plugin -std=c2x
// LLVM16-EXPECT-ERROR: enzyme_checkpoint on a loop needs clang 20 or newer
// Loops annotated for checkpointing in the source, every spelling Enzyme
// has: [[enzyme::checkpoint(schedule, count)]], the GNU
// __attribute__((enzyme_checkpoint(...))) and `#pragma enzyme checkpoint`
// (also through _Pragma in a macro), and Reactant's
// enzyme_checkpointing_enable, for each schedule (periodic, store_all,
// revolve, binomial, regular, none named). The state is a global array,
// a local array, or scalars carried from one iteration to the next; one
// loop's trip count is known only when it ends (a while loop). Each
// function's value and gradient must equal those of the same loop without
// the annotation, which central differences check too. (Whether the loops
// are checkpointed is lit/attributes/loop_checkpoint.c's to check.)
#include "../check.h"
#include "annotated.h"

#define N 3
#define PRAGMA(x) _Pragma(#x)

double state[N];

#define INIT                                                                   \
  for (int k = 0; k < N; k++)                                                  \
    state[k] = x * (k + 1);
#define STEP                                                                   \
  for (int k = 0; k < N; k++)                                                  \
    state[k] = sin(state[k]) * (1.0 + 0.1 * k) + 0.05 * state[(k + 1) % N] * x;
#define RESULT (state[0] + state[1] * state[2])

double plain(double x, long n) {
  INIT
  for (long i = 0; i < n; i++) {
    STEP
  }
  return RESULT;
}

double revolve(double x, long n) {
  INIT
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

double binomial(double x, long n) {
  INIT
  __attribute__((enzyme_checkpoint("binomial", 3))) for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

double periodic(double x, long n) {
  INIT
  PRAGMA(enzyme checkpoint("periodic", 3)) for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

double store_all(double x, long n) {
  INIT
#pragma enzyme checkpoint("store_all")
  for (long i = 0; i < n; i++) {
    STEP
  }
  return RESULT;
}

double by_default(double x, long n) {
  INIT
  [[enzyme::checkpoint]] for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

// Reactant's spelling: enzyme_checkpointing_enable("binomial" or "regular").
double reactant_binomial(double x, long n) {
  INIT
  [[enzyme_checkpointing_enable("binomial", 2)]] for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

double reactant_regular(double x, long n) {
  INIT
  __attribute__((enzyme_checkpointing_enable("regular", 4))) for (long i = 0; i < n; i++) { STEP }
  return RESULT;
}

// A while loop: n counts down inside it.
double counted_down(double x, long n) {
  INIT
  [[enzyme::checkpoint("revolve", 2)]] while (n-- > 0) { STEP }
  return RESULT;
}

// The state on the stack: a local array and a scalar carried along.
double local_state(double x, long n) {
  double u[N], acc = 0;
  for (int k = 0; k < N; k++)
    u[k] = x + 0.1 * k;
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++) {
    for (int k = 0; k < N; k++)
      u[k] = cos(u[k]) * 0.7 + 0.2 * u[(k + 2) % N] * x;
    acc = acc * 0.5 + u[0] * u[1];
  }
  return acc + u[2];
}

// Stops when the state says so: the trip count is not known on entry.
double until_small(double x, long n) {
  INIT
  long i = 0;
  [[enzyme::checkpoint("revolve", 2)]] do {
    STEP
    i++;
  } while (i < n && fabs(state[0]) > 1e-3);
  return RESULT;
}

// Gradient against central differences only.
#define CHECK_FD(f, x, n)                                                      \
  do {                                                                         \
    char label[96];                                                            \
    snprintf(label, sizeof label, "%s n=%ld fd", #f, (long)(n));               \
    CHECK(label, __enzyme_autodiff((void *)f, x, n),                           \
          (f(x + 1e-6, n) - f(x - 1e-6, n)) / 2e-6, 1e-6);                     \
  } while (0)

int main(void) {
  long steps[] = {0, 1, 2, 9, 20};
  for (unsigned a = 0; a < sizeof steps / sizeof *steps; a++) {
    long n = steps[a];
    CHECK_ONE(revolve, 0.4, n);
    CHECK_ONE(binomial, 0.4, n);
    CHECK_ONE(periodic, 0.4, n);
    CHECK_ONE(store_all, 0.4, n);
    CHECK_ONE(by_default, 0.4, n);
    CHECK_ONE(counted_down, 0.4, n);
    CHECK_ONE(reactant_binomial, 0.4, n);
    CHECK_ONE(reactant_regular, 0.4, n);
    CHECK_FD(local_state, 0.4, n);
    if (n > 0)
      CHECK_FD(until_small, 0.4, n);
  }
  return check_failures != 0;
}
