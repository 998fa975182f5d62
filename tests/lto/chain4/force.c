#include <math.h>
double force(double x, double v, double k) { return -k * sin(x) - 0.1 * v * fabs(v); }
