// LEVELS: O0 O2
// RANKS: 2 4
/* Ring exchange in forward mode: the tangent of x_r travels with the value
 * to the right neighbour; the global loss sum_r sin(x_r) * x_left^2 is
 * all-reduced. Directional derivative along dx_r = 1 + r, checked against
 * the analytic value and a central finite difference of the global loss. */
#include "ring.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x = 0.3 + 0.1 * rank, dx = 1.0 + rank;
  double d = __enzyme_fwddiff((void *)ring, enzyme_dup, &x, &dx);
  double want = 0;
  for (int r = 0; r < size; r++) {
    int l = (r + size - 1) % size;
    double xr = 0.3 + 0.1 * r, xl = 0.3 + 0.1 * l;
    want += cos(xr) * (1.0 + r) * xl * xl + sin(xr) * 2 * xl * (1.0 + l);
  }
  CHECK("ring tangent", d, want, 1e-12);
  double h = 1e-6, x0 = x;
  x = x0 + h * dx;
  double fp = ring(&x);
  x = x0 - h * dx;
  double fm = ring(&x);
  x = x0;
  CHECK("ring tangent fd", d, (fp - fm) / (2 * h), 1e-6);
  MPI_Finalize();
  CHECK_DONE();
}
