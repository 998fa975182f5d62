double ext(double);
double f(double x) { return ext(x) * x; }
