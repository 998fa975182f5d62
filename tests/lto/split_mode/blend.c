#include <math.h>
double blend(double a, double b) { return 0.3 * a + 0.7 * b + 0.1 * sin(a * b); }
