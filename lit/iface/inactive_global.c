// Registrations of inactive globals and functions: a global registered
// with `void *__enzyme_inactive_global_X = (void *)&g` gets no shadow (its
// loads carry no derivative), one without does; __enzyme_inactivenoblockfn
// lists inactive functions like __enzyme_inactivefn.
// RUN: %clang -O1 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
#include <enzyme/enzyme.h>

double table[4], weights[4];
void *__enzyme_inactive_global_table = (void *)&table;

void init(double s) {
  for (int i = 0; i < 4; i++) {
    table[i] = s * i;
    weights[i] = s + i;
  }
}

double noisy(double v);
void *__enzyme_inactivenoblockfn[] = {(void *)noisy};

double f(double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) s += table[i] * weights[i] * x;
  return s + noisy(x);
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK-NOT: @table_shadow =
// CHECK: @weights_shadow =
// CHECK-NOT: @table_shadow =
