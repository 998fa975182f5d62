#include <math.h>
double f(double x, double y) { return x * x * x * y + sin(x) - y * y; }
