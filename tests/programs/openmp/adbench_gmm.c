// FLAGS: -fopenmp
// THREADS: 1 2 4
// ADBench GMM objective with the data points split over threads
// (parallel for + reduction); gradient w.r.t. alphas, means and icf
// against central differences.
#include "check.h"
#define D 3
#define K 4
#define NPTS 40
#define ICF (D + D * (D - 1) / 2)

static double logsumexp(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++) m = fmax(m, v[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i] - m);
  return log(s) + m;
}

double gmm(const double *alphas, const double *means, const double *icf, const double *x,
           double gamma, int m) {
  double sum_qs[K];
  for (int k = 0; k < K; k++) {
    sum_qs[k] = 0;
    for (int j = 0; j < D; j++) sum_qs[k] += icf[k * ICF + j];
  }
  double data = 0;
#pragma omp parallel for reduction(+ : data)
  for (int i = 0; i < NPTS; i++) {
    double main_term[K];
    for (int k = 0; k < K; k++) {
      const double *q = &icf[k * ICF];
      double xc[D], sq = 0;
      for (int j = 0; j < D; j++) xc[j] = x[i * D + j] - means[k * D + j];
      int li = D;
      // Q xc with Q lower triangular: diag exp(q[j]), strict lower column-major
      double qxc[D];
      for (int j = 0; j < D; j++) qxc[j] = exp(q[j]) * xc[j];
      for (int c = 0; c < D; c++)
        for (int r = c + 1; r < D; r++) qxc[r] += q[li++] * xc[c];
      for (int j = 0; j < D; j++) sq += qxc[j] * qxc[j];
      main_term[k] = alphas[k] + sum_qs[k] - 0.5 * sq;
    }
    data += logsumexp(main_term, K);
  }
  double prior = 0;
  for (int k = 0; k < K; k++) {
    double fro = 0;
    for (int j = 0; j < D; j++) fro += exp(2 * icf[k * ICF + j]);
    for (int j = D; j < ICF; j++) fro += icf[k * ICF + j] * icf[k * ICF + j];
    prior += 0.5 * gamma * gamma * fro - m * sum_qs[k];
  }
  return data - NPTS * logsumexp(alphas, K) + prior;
}

int main(void) {
  double alphas[K], means[K * D], icf[K * ICF], x[NPTS * D];
  double da[K] = {0}, dm[K * D] = {0}, di[K * ICF] = {0};
  for (int k = 0; k < K; k++) alphas[k] = 0.3 * sin(k + 1.0);
  for (int t = 0; t < K * D; t++) means[t] = cos(0.7 * t);
  for (int t = 0; t < K * ICF; t++) icf[t] = 0.2 * sin(1.3 * t + 0.5);
  for (int t = 0; t < NPTS * D; t++) x[t] = sin(0.37 * t) * 1.5;
  double gamma = 1.1;
  __enzyme_autodiff((void *)gmm, enzyme_dup, alphas, da, enzyme_dup, means, dm, enzyme_dup, icf,
                    di, enzyme_const, x, enzyme_const, gamma, enzyme_const, 2);
  double h = 1e-6;
  for (int k = 0; k < K; k++)
    CHECK("dalpha", da[k], FD(alphas[k], gmm(alphas, means, icf, x, gamma, 2), h), 1e-6);
  for (int t = 0; t < K * D; t += 2)
    CHECK("dmeans", dm[t], FD(means[t], gmm(alphas, means, icf, x, gamma, 2), h), 1e-6);
  for (int t = 0; t < K * ICF; t += 3)
    CHECK("dicf", di[t], FD(icf[t], gmm(alphas, means, icf, x, gamma, 2), h), 1e-6);
  CHECK_DONE();
}
