// A tape without a static bound (values kept in every iteration of a
// loop whose trip count is unknown): with device malloc switched off
// (ENZYME_RS_GPU_HEAP_TAPE=0), a compile error with the loop's line; by
// default it starts in a local buffer and grows into device malloc memory,
// and llc accepts the result.
// RUN: env ENZYME_RS_GPU_HEAP_TAPE=0 not %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -g -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o /dev/null 2>&1 | %FileCheck --check-prefix=ERR %s
// RUN: %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck --check-prefix=HEAP %s < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o /dev/null
#include "gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double p = in[i];
  for (int k = 0; k < n; k++)
    p = MATH(sin)(p) * in[(i + k) % 32];
  out[i] = p;
}
GPU_TEST(f)
// ERR: error: enzyme-rs: cannot differentiate: GPU device code: the derivative of 'f(double*, double*, int)' keeps values for the reverse sweep in every iteration of a loop or a recursion (at {{.*}}errors_unbounded_tape.c:{{1[45]}}), so its tape has no static bound, and device malloc is off
// HEAP-NOT: thread_local
// HEAP: call {{.*}}ptr @malloc(
// HEAP-NOT: @realloc
