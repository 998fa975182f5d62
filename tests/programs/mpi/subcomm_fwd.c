// LEVELS: O0 O2
// RANKS: 2 4
/* Sub-communicators in forward mode: MPI_Comm_split and MPI_Comm_dup inside
 * the differentiated function (inactive), a group sum and a world sum of
 * its square. Checked against the analytic tangent and a finite difference. */
#include "mpicheck.h"

double f(double *x) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm group, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &group);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  double s = 0, g = 0;
  MPI_Allreduce(x, &s, 1, MPI_DOUBLE, MPI_SUM, group);
  double sq = s * s;
  MPI_Allreduce(&sq, &g, 1, MPI_DOUBLE, MPI_SUM, dup);
  MPI_Comm_free(&group);
  MPI_Comm_free(&dup);
  return g;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = mpi_rank(), size = mpi_size();
  double x = 0.3 + 0.2 * rank, v = 1.0 - 0.3 * rank;
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, &x, &v);
  /* g = sum_r S_{group(r)}^2 = sum over groups c of |c| S_c^2 */
  double want = 0;
  for (int c = 0; c < (size + 1) / 2; c++) {
    double S = 0, dS = 0;
    int m = 0;
    for (int r = 2 * c; r < 2 * c + 2 && r < size; r++, m++) {
      S += 0.3 + 0.2 * r;
      dS += 1.0 - 0.3 * r;
    }
    want += m * 2 * S * dS;
  }
  CHECK("subcomm tangent", t, want, 1e-12);
  CHECK("subcomm tangent fd", t, FD_DIR(&x, &v, 1, f(&x), 1e-6), 1e-6);
  MPI_DONE();
}
