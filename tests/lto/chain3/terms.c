#include <math.h>
static double lj(double r) { double s = 1.0 / (r * r); return s * s * s * s - s * s * s; }
double pair_term(double a, double b) { return 1e-3 * lj(fabs(b - a) + 0.5); }
double spring(double d, double k) { return k * (d - 1.0) * (d - 1.0); }
