// bench/common/main_adolc.cpp -- ADOL-C benchmark program: the problem's
// objective instantiated with REAL = adouble, taped, differentiated.
#include <adolc/adolc.h>
#define ADOLC_BUILD 1
#define REAL adouble
#include "bench.h"
#include PROBLEM_HEADER
#include "driver.h"
