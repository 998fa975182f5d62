#include <math.h>
double cxx_poly(double x);
double cfun(double x, double y) { return cxx_poly(x * y) + exp(x) * y; }
