// An allocation whose pointer a call writes into an element of a local
// array of pointers (posix_memalign(&x[1], ...), Enzyme's
// posix_memalignfor shape): the element's shadow gets a shadow block too.
// At -O0 the address &x[1] had no shadow of its own, the shadow block was
// never made and the reverse sweep read a null shadow. And a byte
// comparison (bcmp/memcmp of a key beside the active value) is inactive.
#include "../check.h"
#include <string.h>

double f(double a) {
  double *x[3];
  for (int k = 0; k < 3; k++)
    if (posix_memalign((void **)&x[k], 16, 2 * sizeof(double)))
      return 0;
  x[1][0] = a * a;
  x[1][1] = 3 * a;
  x[2][0] = x[1][0] * x[1][1];
  double r = x[2][0] + x[1][1];
  for (int k = 0; k < 3; k++)
    free(x[k]);
  return r;
}

struct entry {
  char key[8];
  double val;
};
__attribute__((noinline)) double lookup(struct entry *e, const char *k) {
  return memcmp(e->key, k, 7) == 0 ? e->val * e->val : 0.0;
}
double g(double v) {
  struct entry e = {"alpha_x", v};
  return lookup(&e, "alpha_x") + v;
}

int main(void) {
  double a = 1.25;
  CHECK("posix_memalign into x[k]", __enzyme_autodiff((void *)f, a), 9 * a * a + 3, 1e-12);
  CHECK("memcmp beside the active value", __enzyme_autodiff((void *)g, 3.0), 7.0, 1e-12);
  double v = 3.0;
  CHECK("memcmp fd", __enzyme_autodiff((void *)g, 3.0), FD(v, g(v), 1e-6), 1e-6);
  return check_failures != 0;
}
