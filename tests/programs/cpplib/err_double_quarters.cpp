// LEVELS: O0
// EXPECT-ERROR: a double is read or written in pieces of 16 bits
// A double copied through a union as four 16-bit pieces: only a double's
// two 32-bit halves can carry its derivative, so this is a compile error
// naming the line, not a wrong derivative. (An i1 flag or an integer that
// type analysis merely guesses to be a float's piece, outside a declared
// double, is left to the integer rules: iface4/iter.c's tape flags.)
#include <cstdint>
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
union Quarters {
  double d;
  uint16_t q[4];
};
static double f(const double *p) {
  Quarters a, b;
  a.d = p[0] * p[0];
  b.q[0] = a.q[0];
  b.q[1] = a.q[1];
  b.q[2] = a.q[2];
  b.q[3] = a.q[3];
  return b.d;
}
int main() {
  double p[1] = {0.5}, dp[1] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  return dp[0] == 0 ? 0 : 1;
}
