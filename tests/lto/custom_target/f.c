#include <math.h>
double soft(double x) { return log1p(exp(x)); }
