// An entry point kept in a global table of function pointers is no call
// the pass can rewrite (at -O0 the call goes through a load of the table):
// a compile error naming the table, not an undefined symbol at the link.
// RUN: not %clang -O0 -I%include -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK: error: enzyme-rs: '__enzyme_autodiff' is used other than by a direct call (in the initializer of global 'table': its address is passed on, stored or kept in a table)
#include <enzyme/enzyme.h>

typedef double (*grad_t)(void *, double);
static double sq(double x) { return x * x; }
grad_t table[] = {(grad_t)__enzyme_autodiff};

double use(int i) { return table[i]((void *)sq, 3.0); }
