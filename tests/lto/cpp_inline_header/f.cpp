#include <cmath>
double f(double x, double y) { return std::sin(x * y) + x * x; }
