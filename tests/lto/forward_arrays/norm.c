#include <math.h>
double norm_weighted(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return sqrt(s);
}
