// The reverse of a parallel-for with a + reduction: the fork becomes a pair
// (aug_fork, rev_fork); each thread runs the augmented outlined region on
// its own tape; the reverse forks again on a team of the recorded size;
// the reduction's critical section takes a turn that the reverse waits
// for; the shared scalar's adjoint is added atomically.
// clang-16 names the outlined region .omp_outlined., clang-22
// f.omp_outlined: the patterns take both.
// RUN: %clang -O1 -fopenmp -I%include -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme -enzyme-rs-no-cleanup -S %t.ll | %FileCheck %s
#include <enzyme/enzyme.h>

double f(double *x, double *a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += *a * x[i] * x[i];
  return s;
}

double g(double *x, double *dx, double *a, double *da, int n) {
  return __enzyme_autodiff((void *)f, x, dx, a, da, n);
}

// The caller's sweeps call the pair with the captured pointers and shadows.
// CHECK-LABEL: define internal double @enzyme_rs.aug.f(
// CHECK: call void @enzyme_rs.omp.aug_fork.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(i32 0,
// CHECK-LABEL: define internal void @enzyme_rs.rev.f(
// CHECK: call void @enzyme_rs.omp.rev_fork.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(i32 {{.*}},

// Inside the region: the reduction is a critical section taking a turn.
// CHECK-LABEL: define internal void @enzyme_rs.aug.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK: call void @__kmpc_critical(
// CHECK: call i64 @enzyme_rs.omp.turn_take(ptr @enzyme_rs.omp.turn..gomp_critical_user_.reduction.var)
// CHECK-NEXT: call void @__kmpc_end_critical(
// CHECK-NOT: __kmpc_reduce

// Its reverse waits for the turn, gives it back, and adds the adjoint of the
// shared *a atomically; x[i] too (other threads may share any pointer).
// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK-DAG: call void @enzyme_rs.omp.turn_wait(ptr @enzyme_rs.omp.turn..gomp_critical_user_.reduction.var, i64
// CHECK-DAG: call void @enzyme_rs.omp.turn_release(ptr @enzyme_rs.omp.turn..gomp_critical_user_.reduction.var)
// CHECK-DAG: atomicrmw fadd ptr
// CHECK: ret void

// Per-thread tapes: thread t uses slot t + 1 (slot 0 records the team size).
// CHECK-LABEL: define internal void @enzyme_rs.omp.aug.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK: call i32 @omp_get_thread_num()
// CHECK: call i32 @omp_get_num_threads()
// CHECK-DAG: call void @enzyme_rs.tape.take(
// CHECK-DAG: call void @enzyme_rs.aug.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK-DAG: store i32 %{{.*}}, ptr %{{.*}}

// CHECK-LABEL: define internal void @enzyme_rs.omp.rev.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK-DAG: call void @enzyme_rs.rev.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK-DAG: call void @enzyme_rs.tape.give(
// CHECK-DAG: bad_team:
// CHECK-DAG: call void @abort()

// The forward fork: a zeroed array of tapes, the fork, the array on the
// caller's tape.
// CHECK-LABEL: define internal void @enzyme_rs.omp.aug_fork.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK: call i32 @omp_get_max_threads()
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 {{[0-9]+}}, ptr @enzyme_rs.omp.aug.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}},
// CHECK: call ptr @enzyme_rs.tape.reserve(ptr %{{.*}}, i64 8)

// The reverse fork: the array back, a team of the recorded size.
// CHECK-LABEL: define internal void @enzyme_rs.omp.rev_fork.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}}(
// CHECK: call ptr @enzyme_rs.tape.pop(ptr %{{.*}}, i64 8)
// CHECK: call void @__kmpc_push_num_threads(
// CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 {{[0-9]+}}, ptr @enzyme_rs.omp.rev.enzyme_rs.omp.slots.{{f?\.omp_outlined\.?}},
// CHECK: call void @free(
