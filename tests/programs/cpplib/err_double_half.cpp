// LEVELS: O0
// EXPECT-ERROR: only one 32-bit half of a double is
// A double of which only one 32-bit half is copied into another double
// (the other half zero): the derivative of a double moves as a whole, so
// this is a compile error naming the line, not a wrong derivative. (At
// -O1 and above clang turns the half copy into integer masking of the
// double's bits, refused as arithmetic on a float's bits.)
#include <cstdint>
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
union Bits {
  double d;
  uint32_t w[2];
};
static double f(const double *p) {
  Bits b, c;
  b.d = p[0] * p[0];
  c.d = 0.0;
  c.w[0] = b.w[0];
  return c.d;
}
int main() {
  double p[1] = {0.5}, dp[1] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  return dp[0] == 0 ? 0 : 1;
}
