// Floats copied byte by byte through a char loop: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: 8-bit integers
// LEVELS: O0
#include <enzyme/enzyme.h>
__attribute__((noinline)) void copy(char *d, const char *s, int n) {
  for (int i = 0; i < n; i++) d[i] = s[i]; // error-here
}
double f(double x) {
  double y;
  copy((char *)&y, (const char *)&x, sizeof x);
  return y * y;
}
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
