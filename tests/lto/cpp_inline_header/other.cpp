#include "grad.hpp"
double other_use(double x) { return df_dx(x, 2.0); }
