/* bench/common/main.c -- C benchmark program; the problem header comes in
 * with -include problems/NAME.h (compiled with the enzyme-rs plugin). */
#ifndef HAVE_REVERSE
#define HAVE_REVERSE 0
#endif
#ifndef HAVE_VECTOR_FWD
#define HAVE_VECTOR_FWD 0
#endif
#include "bench.h"
#include <enzyme/enzyme.h>
#include PROBLEM_HEADER
#include "driver.h"
