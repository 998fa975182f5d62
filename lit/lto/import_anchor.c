// End to end: the anchor makes lld's ThinLTO importer import the body of
// the function differentiated (f.c) into the file with the call (main.c);
// without the plugin nothing is imported.
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O2 -flto=thin -fpass-plugin=%plugin -I%include -c %t/main.c -o %t/main.o
// RUN: %clang -O2 -flto=thin -fpass-plugin=%plugin -c %t/f.c -o %t/f.o
// RUN: %clang -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only -Wl,--thinlto-emit-imports-files %t/main.o %t/f.o -o %t/out
// RUN: %FileCheck --check-prefix=ANCHOR %s < %t/main.o.imports
// RUN: %clang -O2 -flto=thin -I%include -c %t/main.c -o %t/plain.o
// RUN: %clang -flto=thin -fuse-ld=lld -Wl,--thinlto-index-only -Wl,--thinlto-emit-imports-files %t/plain.o %t/f.o -o %t/out2
// RUN: %FileCheck --check-prefix=PLAIN --allow-empty %s < %t/plain.o.imports
// ANCHOR: f.o
// PLAIN-NOT: f.o
//--- main.c
#include <enzyme/enzyme.h>
double f(double);
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
//--- f.c
double f(double x) { return x * x * x; }
