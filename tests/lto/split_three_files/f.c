double blend(double a, double b);
void smooth(double *x, double *out, int n) {
  for (int i = 1; i < n; i++) x[i] = blend(x[i - 1], x[i]); /* overwritten */
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  *out = s;
}
