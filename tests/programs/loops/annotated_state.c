// FLAGS: -fplugin=%plugin -std=c2x
// LLVM16-EXPECT-ERROR: enzyme_checkpoint on a loop needs clang 20 or newer
// What an annotated loop's snapshots hold: a heap array allocated before
// the loop (and freed after it), a global, and scalars carried along; and
// memory behind a pointer argument, whose extent
// __enzyme_ptr_size_hint(pointer, bytes, space) gives before the loop
// (without it, or when the memory is the caller's stack, which is gone
// before the reverse sweep, the loop cannot be checkpointed: the compiler
// warns and tapes it; a heap array the caller frees after the call is
// fine). The gradient with respect to an input array must equal the
// unannotated loop's and central differences, for several step counts.
#include "../check.h"
#include <stdlib.h>
#include <string.h>

#define N 4
double g;
void __enzyme_ptr_size_hint(void *, size_t, size_t);

#define BODY                                                                   \
  {                                                                            \
    double t[N];                                                               \
    for (int k = 0; k < N; k++)                                                \
      t[k] = u[k] * 0.95 + 0.1 * u[(k + 3) % N] * g + 0.02 * cos(u[k] - 0.2 * i); \
    for (int k = 0; k < N; k++)                                                \
      u[k] = t[k];                                                             \
    g = 0.8 * g + 0.15 * u[2];                                                 \
    acc = 0.9 * acc + u[0] * g;                                                \
  }

#define HEAP(NAME, ATTR)                                                       \
  __attribute__((noinline)) double NAME(const double *x, long n) {             \
    double *u = malloc(N * sizeof(double));                                    \
    memcpy(u, x, N * sizeof(double));                                          \
    double acc = 0;                                                            \
    g = 0.3;                                                                   \
    ATTR for (long i = 0; i < n; i++) BODY                                     \
    double r = acc + g;                                                        \
    for (int k = 0; k < N; k++)                                                \
      r += u[k] * u[k] * (k + 1);                                              \
    free(u);                                                                   \
    return r;                                                                  \
  }

HEAP(heap_plain, )
HEAP(heap_revolve, [[enzyme::checkpoint("revolve", 2)]])
HEAP(heap_regular, [[enzyme::checkpointing_enable("regular", 3)]])

// The loop writes the caller's array through u: a static array; a heap
// array the caller frees after the call (checkpointed too: the caller's
// augmented sweep defers the free to its reverse sweep, after the loop's
// snapshots are restored); or one on the caller's stack, which is gone
// when the reverse sweep would restore them: that loop is taped, with a
// warning.
#define LOOP(NAME, HINT, ATTR, STACK)                                          \
  __attribute__((noinline)) static void NAME##_loop(double *u, long n) {       \
    double acc = 0;                                                            \
    HINT;                                                                      \
    ATTR for (long i = 0; i < n; i++) BODY                                     \
    u[1] += acc;                                                               \
  }                                                                            \
  __attribute__((noinline)) double NAME(const double *x, long n) {             \
    STACK(double u[N];, double *u = malloc(N * sizeof(double));, double *u = ubuf;) \
    memcpy(u, x, N * sizeof(double));                                          \
    g = 0.3;                                                                   \
    NAME##_loop(u, n);                                                         \
    double r = g;                                                              \
    for (int k = 0; k < N; k++)                                                \
      r += u[k] * u[k] * (k + 1);                                              \
    STACK(, free(u);, )                                                        \
    return r;                                                                  \
  }

static double ubuf[N];
#define ON_STACK(a, b, c) a
#define ON_HEAP(a, b, c) b
#define STATIC(a, b, c) c
LOOP(arg_plain, (void)0, , ON_HEAP)
LOOP(arg_hinted, __enzyme_ptr_size_hint(u, N * sizeof(double), 0),
     __attribute__((enzyme_checkpointing_enable("binomial", 3))), STATIC)
LOOP(arg_stack, __enzyme_ptr_size_hint(u, N * sizeof(double), 0),
     [[enzyme::checkpoint("revolve", 2)]], ON_STACK)
LOOP(arg_freed, __enzyme_ptr_size_hint(u, N * sizeof(double), 0),
     [[enzyme::checkpoint("revolve", 2)]], ON_HEAP)

#define GRADIENT(f, n, dx)                                                     \
  do {                                                                         \
    double x_[N] = {0.3, 0.7, 1.1, 1.5};                                       \
    memset(dx, 0, N * sizeof(double));                                         \
    __enzyme_autodiff((void *)f, enzyme_dup, x_, dx, enzyme_const, n);         \
  } while (0)

#define COMPARE(f, plain, n)                                                   \
  do {                                                                         \
    double want[N], got[N], x[N] = {0.3, 0.7, 1.1, 1.5};                       \
    GRADIENT(plain, n, want);                                                  \
    GRADIENT(f, n, got);                                                       \
    char label[80];                                                            \
    snprintf(label, sizeof label, "%s n=%ld value", #f, (long)(n));            \
    CHECK(label, f(x, n), plain(x, n), 1e-14);                                 \
    for (int k = 0; k < N; k++) {                                              \
      snprintf(label, sizeof label, "%s n=%ld dx[%d]", #f, (long)(n), k);      \
      CHECK(label, got[k], want[k], 1e-12);                                    \
      snprintf(label, sizeof label, "%s n=%ld dx[%d] fd", #f, (long)(n), k);   \
      CHECK(label, got[k], FD(x[k], f(x, n), 1e-6), 1e-6);                     \
    }                                                                          \
  } while (0)

int main(void) {
  long steps[] = {0, 1, 2, 7, 20};
  for (unsigned a = 0; a < 5; a++) {
    COMPARE(heap_revolve, heap_plain, steps[a]);
    COMPARE(heap_regular, heap_plain, steps[a]);
    COMPARE(arg_hinted, arg_plain, steps[a]);
    COMPARE(arg_stack, arg_plain, steps[a]);
    COMPARE(arg_freed, arg_plain, steps[a]);
  }
  return check_failures != 0;
}
