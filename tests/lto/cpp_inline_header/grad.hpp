#include <enzyme/enzyme.h>
double f(double x, double y);
extern "C" double __enzyme_autodiff(void *, ...);
/* An inline function (linkonce_odr, one copy per file that uses it) holding
 * the differentiation call of a function defined in another file. */
inline double df_dx(double x, double y) {
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y);
}
