// FLAGS: -lblas
// EXPECT-ERROR: no derivative rule for the BLAS routine 'ssyr2k_'
// A single precision routine without a derivative rule: a compile error
// naming it (the supported list names sdot ... sgemm).
#include "blas_test.h"
void ssyr2k_(const char *uplo, const char *t, const int *n, const int *k, const float *alpha,
             const float *a, const int *lda, const float *b, const int *ldb, const float *beta,
             float *c, const int *ldc);

float f(const float *a, float *c) {
  int n = 2, k = 1;
  float one = 1.0f;
  ssyr2k_("U", "N", &n, &k, &one, a, &n, a, &n, &one, c, &n);
  return c[0] + c[3];
}

int main(void) {
  float a[2] = {1, 2}, c[4] = {0}, da[2] = {0}, dc[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, c, dc);
  printf("%g\n", da[0]);
  return 0;
}
