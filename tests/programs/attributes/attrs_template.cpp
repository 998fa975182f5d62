// FLAGS: -fplugin=%plugin
// Enzyme's attributes on function templates and members of class
// templates (each instantiation gets them), and a global's declared
// shadow (enzyme_shadow) as the tangent of forward mode as well as the
// adjoint of reverse mode (Enzyme's shadowglob shape).
#include "../check.h"

template <typename T> __attribute__((noinline, enzyme_inactive)) T tpl_scale(T a) { return 2 * a; }
template <typename T> struct Box {
  __attribute__((noinline, enzyme_inactive)) static T twice(T a) { return a + a; }
};
double use_tpl(double a) { return a * a + tpl_scale<double>(a) + Box<double>::twice(a); }
float use_tpl_f(float a) { return a * a + tpl_scale<float>(a); }

double g_shadow = 0;
__attribute__((enzyme_shadow(g_shadow))) double g = 2.0;
__attribute__((noinline)) double with_g(double x) { return g * x * x; }

int main(void) {
  // The inactive calls add nothing: d/da (a^2) = 2a.
  CHECK("template inactive (double)", __enzyme_autodiff((void *)use_tpl, 3.0), 6.0, 1e-12);
  CHECK("template inactive (float)", (double)__enzyme_autodiff((void *)use_tpl_f, 1.5f), 3.0, 1e-6);
  double dx = __enzyme_autodiff((void *)with_g, 3.0);
  CHECK("reverse: d/dx", dx, 12.0, 1e-12);
  CHECK("reverse: g's adjoint in its declared shadow", g_shadow, 9.0, 1e-12);
  g_shadow = 1.0;
  CHECK("forward: g's tangent from its declared shadow", __enzyme_fwddiff((void *)with_g, 3.0, 0.0), 9.0, 1e-12);
  g_shadow = 0.0;
  CHECK("forward: x's tangent", __enzyme_fwddiff((void *)with_g, 3.0, 1.0), 12.0, 1e-12);
  return check_failures != 0;
}
