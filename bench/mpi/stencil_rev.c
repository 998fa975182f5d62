/* Microbenchmark (issue 13): heat.c's stencil loop alone, per 10k points.
 * "plugin": the plugin's gradient of step() (restrict pointers, like
 * heat.c's own malloc'd buffers; the augmented primal and the reverse);
 * "hand": the hand-written reverse in gather form (da[j] += sum of the
 * three neighbours' contributions, then db = 0), checked equal; "memcpy":
 * the reset of db each repetition (in every figure); "primal": step().
 * bench/mpi/stencil_rev.sh builds it with and without the gather form
 * (ENZYME_RS_NO_GATHER) and runs both, interleaved.
 * Usage: stencil_rev [n] [reps] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <enzyme/enzyme.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
__attribute__((noinline)) void step(const double *restrict a, double *restrict b, int n) {
  for (int i = 1; i <= n; i++) b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}
__attribute__((noinline)) void grad(const double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)step, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, n);
}
/* hand-written gather: da[j] += sum_k c_k db[j-k], then db = 0 */
__attribute__((noinline)) void hand(double *restrict da, double *restrict db, long n) {
  const double C = 0.25;
  da[0] += C*db[1]; da[1] += (1-2*C)*db[1] + C*db[2];
  for (long j = 2; j <= n-1; j++) da[j] += C*db[j-1] + (1-2*C)*db[j] + C*db[j+1];
  da[n] += C*db[n-1] + (1-2*C)*db[n]; da[n+1] += C*db[n];
  for (long i = 1; i <= n; i++) db[i] = 0;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000, reps = argc > 2 ? atoi(argv[2]) : 20000;
  double *a = malloc((n+2)*8), *da = calloc(n+2,8), *b = malloc((n+2)*8), *db = malloc((n+2)*8), *b0 = malloc((n+2)*8);
  double *ref = malloc((n+2)*8);
  for (int i=0;i<n+2;i++){ a[i]=1.0/(i+1.5); b0[i]=0.001*(i%7); }
  for (int v = 0; v < 4; v++) {
    double best = 1e9;
    for (int round = 0; round < 5; round++) {
      memset(da,0,(n+2)*8);
      double t0 = now();
      for (int r = 0; r < reps; r++) { memcpy(db, b0, (n+2)*8);
        if (v == 0) grad(a, da, b, db, n); else if (v == 1) hand(da, db, n); else if (v == 3) step(a, b, n); else __asm__ volatile(""::"r"(db):"memory"); }
      double t = (now()-t0)/reps; if (t < best) best = t;
    }
    if (v == 0) memcpy(ref, da, (n+2)*8);
    double md = 0; for (int i=0;i<n+2;i++){ double e = da[i]-ref[i]; if (e<0) e=-e; if (e>md) md=e; }
    printf("%-8s %7.2f us per %d points (incl. a %d-point memcpy)%s\n", v==0?"plugin":v==1?"hand":v==2?"memcpy":"primal", best*1e6, n, n+2, v==1 ? (md < 1e-9 ? " same" : " DIFFERENT") : "");
  }
}
