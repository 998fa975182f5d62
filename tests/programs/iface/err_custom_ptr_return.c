// EXPECT-ERROR: so the augmented forward function 'view_aug' must return {result, shadow} or {tape, result, shadow}
// LEVELS: O0 O2
#include "check.h"
__attribute__((noinline)) double *view(double *a, int i) { return a + i; }
static double *view_aug(double *a, double *da, int i) { return a + i; }
static void view_rev(double *a, double *da, int i) {}
void *__enzyme_register_gradient_view[] = {(void *)view, (void *)view_aug, (void *)view_rev};
static double f(double *a) { return *view(a, 1) * a[0]; }
int main(void) {
  double a[2] = {1, 2}, da[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  printf("%g\n", da[0]);
  return 0;
}
