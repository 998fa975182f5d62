#include <math.h>
double model(const double *p, double t) { return p[0] + p[1] * t + p[2] * exp(-t); }
