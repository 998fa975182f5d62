#include <math.h>
double remote_f(double x) { return sin(x) * cos(x); }
