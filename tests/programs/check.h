/* Helpers for the test programs: every derivative is compared with an
 * analytic value and/or a central finite difference. A program returns
 * non-zero (and prints FAIL) when any check fails. */
#ifndef ENZYME_RS_TEST_CHECK_H
#define ENZYME_RS_TEST_CHECK_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <enzyme/enzyme.h>

static int check_failures = 0;

static int close_enough(double got, double want, double tol) {
  if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
  double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
  return fabs(got - want) <= tol * scale;
}

/* Compare `got` with `want` (relative to max(1,|want|)). */
#define CHECK(name, got, want, tol)                                                   \
  do {                                                                                \
    double g_ = (got), w_ = (want);                                                   \
    if (!close_enough(g_, w_, (tol))) {                                               \
      printf("FAIL %s: got %.17g expected %.17g (%s:%d)\n", (name), g_, w_, __FILE__, \
             __LINE__);                                                               \
      check_failures++;                                                               \
    } else {                                                                          \
      printf("ok   %s: %.12g\n", (name), g_);                                         \
    }                                                                                 \
  } while (0)

/* Central finite difference of a scalar expression in variable `var`. */
#define FD(var, expr, h)                                                              \
  ({                                                                                  \
    double saved_ = (var);                                                            \
    (var) = saved_ + (h);                                                             \
    double fp_ = (expr);                                                              \
    (var) = saved_ - (h);                                                             \
    double fm_ = (expr);                                                              \
    (var) = saved_;                                                                   \
    (fp_ - fm_) / (2 * (h));                                                          \
  })

/* Forward derivative of a one-argument double function at x: against the
 * analytic value `want` and a central finite difference. */
#define CHECK_FWD1(fn, x, want)                                  \
  do {                                                           \
    double x_ = (x);                                             \
    double d_ = __enzyme_fwddiff((void *)fn, x_, 1.0);           \
    CHECK(#fn, d_, (want), 1e-12);                               \
    CHECK(#fn " fd", d_, FD(x_, fn(x_), 1e-6), 1e-6);            \
  } while (0)

#define CHECK_DONE() return check_failures ? (printf("%d check(s) failed\n", check_failures), 1) : 0

#endif
