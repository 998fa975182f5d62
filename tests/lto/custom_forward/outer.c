#include <math.h>
double cube(double x);
double outer(double x) { return cube(sin(x)) + x * x; }
