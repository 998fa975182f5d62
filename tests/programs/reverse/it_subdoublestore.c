// Reverse: a double stored and reloaded through other types: a union with
// an int64 member, memcpy into a double, and a store of the double's bits
// through an int64_t* (a byte-wise copy is an error: see
// errors/it_bytewise_float_copy.c).
#include "check.h"
#include <stdint.h>
#include <string.h>
typedef union { double d; int64_t i; unsigned char b[8]; } U;
__attribute__((noinline)) double f(double *x, double *out) {
  U u;
  u.d = x[0] * x[1];
  double a;
  memcpy(&a, &u, sizeof a);     /* a = x0 x1 */
  double b;
  *(int64_t *)&b = *(const int64_t *)&x[2]; /* b = x2 through int64 bits */
  out[0] = a * b;
  return sin(a) + b * b;
}
int main(void) {
  double x[3] = {0.7, 1.3, -0.4}, dx[3] = {0}, out = 0, dout = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &out, &dout);
  double a = x[0] * x[1], b = x[2];
  CHECK("dx0", dx[0], cos(a) * x[1], 1e-12);
  CHECK("dx1", dx[1], cos(a) * x[0], 1e-12);
  CHECK("dx2", dx[2], 2 * b, 1e-12);
  CHECK("out", out, a * b, 1e-15);
  double dx2[3] = {0}, dout2 = 1.0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx2, enzyme_dup, &out, &dout2);
  CHECK("dx0 seeded", dx2[0], cos(a) * x[1] + x[1] * b, 1e-12);
  CHECK("dx2 seeded", dx2[2], 2 * b + a, 1e-12);
  CHECK_DONE();
}
