// clang-22 OpenMP programs through bin/enzyme-clang-22 link the installed
// libomp 16 (its omp.h after clang-22's headers; the weak
// __kmpc_dispatch_deinit of a dynamic schedule): a + reduction's gradient
// on 2 threads.
// REQUIRES: llvm22
// RUN: %include/../bin/enzyme-clang-22 -O2 -fopenmp %s -o %t -lm
// RUN: env OMP_NUM_THREADS=2 %t | %FileCheck %s
// CHECK: threads 2 da 328350.000000 dx[7] 42.000000
#include <enzyme/enzyme.h>
#include <omp.h>
#include <stdio.h>

double f(const double *x, double a, int n) {
  double s = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : s)
  for (int i = 0; i < n; i++) s += a * x[i] * x[i];
  return s;
}

int main(void) {
  double x[100], dx[100] = {0};
  for (int i = 0; i < 100; i++) x[i] = i;
  double da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, 3.0, enzyme_const, 100);
  int nt = 0;
#pragma omp parallel
#pragma omp single
  nt = omp_get_num_threads();
  printf("threads %d da %f dx[7] %f\n", nt, da, dx[7]);
  return 0;
}
