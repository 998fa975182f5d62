// Weights reached through a context pointer, read again by the reverse
// sweep in a function that frees its scratch (an insertion sort, whose
// moves are recorded), and a recursive butterfly called from such a
// function (one pair for all its calls: reverse/memory.rs
// `reaches_unknown_memory`). Both gradients against central differences,
// and the sort's against its analytic value (the weight at each element's
// sorted position).
#include "check.h"

#define N 8
// sorted_dot, rec, butterfly and ctx_t: the kernels whose tapes the lit test
// checks.
#include "../../../lit/tape/stable_unknown.c"

int main(void) {
  double w[N], tw[N], x[N], dx[N];
  for (int i = 0; i < N; i++) {
    w[i] = 0.5 + 0.3 * i;
    tw[i] = 0.9 - 0.2 * i;
    x[i] = sin(1.7 * i + 0.3); // distinct values, unsorted
  }
  ctx_t c = { N, w, tw };
  char label[64];
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)sorted_dot, enzyme_dup, x, dx, enzyme_const, &c);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += x[j] < x[i];
    snprintf(label, sizeof label, "sorted_dot dx[%d]", i);
    CHECK(label, dx[i], w[rank], 1e-12);
    snprintf(label, sizeof label, "sorted_dot fd dx[%d]", i);
    CHECK(label, dx[i], FD(x[i], sorted_dot(x, &c), 1e-7), 1e-6);
  }
  for (int i = 0; i < N; i++) dx[i] = 0;
  __enzyme_autodiff((void *)butterfly, enzyme_dup, x, dx, enzyme_const, &c);
  for (int i = 0; i < N; i++) {
    snprintf(label, sizeof label, "butterfly fd dx[%d]", i);
    CHECK(label, dx[i], FD(x[i], butterfly(x, &c), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
