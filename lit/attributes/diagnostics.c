// Misplaced or malformed source attributes: a warning where the attribute
// does not apply (ignored), an error for a bad argument.
// RUN: not %clang -fsyntax-only -fplugin=%plugin %s 2>&1 | %FileCheck %s

// CHECK-DAG: diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: warning: 'enzyme_checkpoint' attribute only applies to functions
int counter __attribute__((enzyme_checkpoint));
// CHECK-DAG: diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: warning: 'enzyme_shadow' attribute only applies to global variables
__attribute__((enzyme_shadow(counter))) void f(void);
// CHECK-DAG: diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_function_like takes a string: the library function the function behaves like
__attribute__((enzyme_function_like(3))) void *g(unsigned long n);
double x;
// CHECK-DAG: diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_shadow takes the global variable that holds the shadow
double y __attribute__((enzyme_shadow(x + 1)));
// CHECK-DAG: diagnostics.c:[[@LINE+1]]:{{[0-9]+}}: error: 'enzyme_inactive' attribute takes no arguments
__attribute__((enzyme_inactive(1))) double h(double);
