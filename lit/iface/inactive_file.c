// -enzyme-load-inactive-file=PATH (Enzyme's option, repeatable): the
// functions a file names, one per line, are inactive; a file that cannot
// be read is a warning. Forward mode of mysin(x) * mycos(x).
// RUN: echo "mysin" > %t.sin.list; echo "mycos" > %t.cos.list
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin %s -lm -o %t.all && %t.all | %FileCheck %s --check-prefix=ACTIVE
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-load-inactive-file=%t.sin.list %s -lm -o %t.sin && %t.sin | %FileCheck %s --check-prefix=SIN
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-load-inactive-file=%t.sin.list -mllvm -enzyme-load-inactive-file=%t.cos.list %s -lm -o %t.both && %t.both | %FileCheck %s --check-prefix=BOTH
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-load-inactive-file=%t.missing -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MISSING
#include <math.h>
#include <stdio.h>
__attribute__((noinline)) double mysin(double x) { return sin(x); }
__attribute__((noinline)) double mycos(double x) { return cos(x); }
double __enzyme_fwddiff(void *, ...);
double f(double x) { return mysin(x) * mycos(x); }
int main(void) {
  // d/dx sin(x)cos(x) = cos(2x) at x = 0.5: 0.540302
  // ACTIVE: d = 0.540302
  // SIN: d = -0.229849
  // BOTH: d = 0.000000
  printf("d = %f\n", __enzyme_fwddiff((void *)f, 0.5, 1.0));
  return 0;
}
// MISSING: warning: -enzyme-load-inactive-file={{.*}}missing: {{.*}}(no functions made inactive from it)
