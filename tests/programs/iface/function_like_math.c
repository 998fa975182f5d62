// __enzyme_function_like naming a math function: calls of the registered
// function are differentiated with that function's rule (its body is only
// the primal: here deliberately not the function it stands for, so a
// derivative of the body would show, where the rule does not use the
// call's result; exp and pow do, so their bodies are the function).
// Reverse and forward mode, one and
// two arguments, double and float.
#include "../check.h"

__attribute__((noinline)) double my_log1p(double a) { return 2 * a; }
__attribute__((noinline)) double my_sin(double a) { return 0.5 * a + 1.0; }
__attribute__((noinline)) double my_pow(double a, double b) { return pow(a, b); }
__attribute__((noinline)) float my_expf(float a) { return expf(a); }
void *__enzyme_function_like[2] = {(void *)my_log1p, (void *)"log1p"};
void *__enzyme_function_like1[2] = {(void *)my_sin, (void *)"sin"};
void *__enzyme_function_like2[2] = {(void *)my_pow, (void *)"pow"};
void *__enzyme_function_like3[2] = {(void *)my_expf, (void *)"expf"};

double f1(double a) { return my_log1p(a); }
double f2(double a) { return my_sin(a * a); }
double f3(double a, double b) { return my_pow(a, b); }
float f4(float a) { return my_expf(2 * a); }

int main(void) {
  double a = 2.0, b = 1.5;
  CHECK("log1p-like, reverse", __enzyme_autodiff((void *)f1, a), 1 / (1 + a), 1e-12);
  CHECK("log1p-like, forward", __enzyme_fwddiff((void *)f1, a, 1.0), 1 / (1 + a), 1e-12);
  CHECK("sin-like, reverse", __enzyme_autodiff((void *)f2, a), cos(a * a) * 2 * a, 1e-12);
  CHECK("sin-like, forward", __enzyme_fwddiff((void *)f2, a, 1.0), cos(a * a) * 2 * a, 1e-12);
  // (my_pow's body is pow itself: pow's rule may use the call's result.)
  CHECK("pow-like, forward in a", __enzyme_fwddiff((void *)f3, a, 1.0, b, 0.0), b * pow(a, b - 1), 1e-9);
  CHECK("pow-like, forward in b", __enzyme_fwddiff((void *)f3, a, 0.0, b, 1.0), pow(a, b) * log(a), 1e-9);
  CHECK("expf-like, reverse", (double)__enzyme_autodiff((void *)f4, 0.25f), 2 * exp(0.5), 1e-6);
  CHECK_DONE();
}
