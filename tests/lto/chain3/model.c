double pair_term(double a, double b);
double spring(double d, double k);
double energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) e += pair_term(x[i], x[i + 1]) + spring(x[i + 1] - x[i], 0.5 * (i + 1));
  return e;
}
