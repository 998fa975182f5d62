double scale_all(double *x, int n, double s) {
  double t = 0;
  for (int i = 0; i < n; i++) t += (x[i] *= s);
  return t;
}
