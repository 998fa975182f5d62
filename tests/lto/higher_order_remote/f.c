#include <math.h>
double f(const double *x) { return x[0] * x[0] * x[1] + sin(x[0] * x[1]); }
