// LEVELS: O0 O2
// RANKS: 1 2 4
// THREADS: 1 2
// FLAGS: -fopenmp
/* Hybrid MPI + OpenMP (hybrid_heat.h) in vector forward mode: two
 * directions at once through the nonblocking halo exchanges, the OpenMP
 * teams and the all-reduce; each lane against a finite difference. */
#include "hybrid_heat.h"

typedef struct {
  double d[2];
} v2;
extern v2 __enzyme_fwddiff_v2(void *, ...);

int main(int argc, char **argv) {
  hybrid_init(&argc, &argv);
  double x[N], v[N], w[N], k = 0.2;
  hybrid_input(x, v);
  for (int i = 0; i < N; i++) w[i] = (i % 3) - 0.7;
  v2 t = __enzyme_fwddiff_v2((void *)heat, enzyme_width, 2, enzyme_dup, x, v, w, enzyme_const, k);
  CHECK("hybrid lane 0", t.d[0], FD_DIR(x, v, N, heat(x, k), 1e-6), 1e-6);
  CHECK("hybrid lane 1", t.d[1], FD_DIR(x, w, N, heat(x, k), 1e-6), 1e-6);
  MPI_DONE();
}
