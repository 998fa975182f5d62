double model(const double *p, double t);
double loss(const double *p, const double *data, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = model(p, 0.1 * i) - data[i];
    s += r * r;
  }
  return s / n;
}
