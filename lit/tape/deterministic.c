// The same input gives the same output: the benchmark's sort problem, whose
// reverse sweep sets loop-invariant values on each reverse edge into a loop
// (rev/loops.rs), compiled five times must print the same IR. The order in
// which those values were taped used to follow a hash map's iteration order
// (random per process), so two compiles differed in the tape's layout.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -I%S/../../bench/common -I%S/../../bench/problems -DHAVE_REVERSE=1 -DHAVE_VECTOR_FWD=1 '-DPROBLEM_HEADER="sort.h"' %S/../../bench/common/main.c -o %t.1.ll
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -I%S/../../bench/common -I%S/../../bench/problems -DHAVE_REVERSE=1 -DHAVE_VECTOR_FWD=1 '-DPROBLEM_HEADER="sort.h"' %S/../../bench/common/main.c -o %t.2.ll
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -I%S/../../bench/common -I%S/../../bench/problems -DHAVE_REVERSE=1 -DHAVE_VECTOR_FWD=1 '-DPROBLEM_HEADER="sort.h"' %S/../../bench/common/main.c -o %t.3.ll
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -I%S/../../bench/common -I%S/../../bench/problems -DHAVE_REVERSE=1 -DHAVE_VECTOR_FWD=1 '-DPROBLEM_HEADER="sort.h"' %S/../../bench/common/main.c -o %t.4.ll
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -I%S/../../bench/common -I%S/../../bench/problems -DHAVE_REVERSE=1 -DHAVE_VECTOR_FWD=1 '-DPROBLEM_HEADER="sort.h"' %S/../../bench/common/main.c -o %t.5.ll
// RUN: cmp %t.1.ll %t.2.ll
// RUN: cmp %t.1.ll %t.3.ll
// RUN: cmp %t.1.ll %t.4.ll
// RUN: cmp %t.1.ll %t.5.ll
// RUN: grep -q enzyme_rs %t.1.ll
