// clang 16 has no statement-attribute hook for plugins: a loop annotation
// (any spelling) is an error that says what to use instead.
// REQUIRES: llvm16
// RUN: not %clang -std=c2x -fsyntax-only -fplugin=%plugin %s 2>&1 | %FileCheck %s

void f(double *s, long n) {
  // CHECK: loop_checkpoint_clang16.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_checkpoint on a loop needs clang 20 or newer (this is clang 16{{.*}}): use __enzyme_checkpoint_for or __enzyme_checkpoint_while (enzyme/checkpoint.h)
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++) s[0] *= 2;
  // CHECK: loop_checkpoint_clang16.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_checkpoint on a loop needs clang 20 or newer
#pragma enzyme checkpoint
  for (long i = 0; i < n; i++) s[0] *= 2;
}
