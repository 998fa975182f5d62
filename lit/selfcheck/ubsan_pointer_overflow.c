// Issue 18: cpp/itx_vec3_ops built with -fsanitize=pointer-overflow at -O2
// gave a wrong gradient. The sanitizer's checks kept dot() from being
// inlined, and dot's reverse sweep read its arguments -- stack temporaries
// of the caller -- after the caller's augmented sweep had returned, from a
// slot the next temporary had reused. Fixed (stack pointers passed to a
// differentiated call count as overwritten: the callee tapes what it
// reads); the program checks its gradient against finite differences and
// exits non-zero on a mismatch; the self-check agrees.
// (The harness's UBSan run leaves pointer-overflow off: under it
// std::reverse_iterator's pointers go through integers, a clean error in
// cpp/itx_vector_pushback -O2.)
// RUN: %clang -x c++ -std=c++17 -O2 -g -I%include -I%S/../../tests/programs -fsanitize=pointer-overflow -fno-sanitize-recover=all -fplugin=%plugin -fpass-plugin=%plugin -mllvm -enzyme-check-abort %S/../../tests/programs/cpp/itx_vec3_ops.cpp -o %t -lm -lstdc++
// RUN: %t | %FileCheck %s
// RUN: %clang -x c++ -std=c++17 -O1 -g -I%include -I%S/../../tests/programs -fpass-plugin=%plugin %S/../../tests/programs/cpp/itx_stack_arg_callee.cpp -o %t1 -lm -lstdc++
// RUN: %t1 | %FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ok   dp fd
// CHECK-NOT: FAIL
