// Loop checkpoint annotations (clang 20 and newer): the marker the clang
// plugin puts first in the loop's body becomes the loop's metadata at
// pipeline start (the primal keeps no call; the loop is not unrolled), and
// the gradient runs the loop through the checkpointing runtime with the
// schedule named.
// REQUIRES: llvm22
// RUN: %clang -O2 -std=c2x -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm -DPRIMAL %s -o - | %FileCheck %s --check-prefix=PRIMAL
// RUN: %clang -O2 -std=c2x -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm -Rpass=enzyme %s -o %t.ll 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %FileCheck %s --check-prefix=IR < %t.ll
// RUN: %clang -O0 -g -std=c2x -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm -DNESTED %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NESTED
// RUN: not %clang -std=c2x -fsyntax-only -fplugin=%plugin -DBAD %s 2>&1 | %FileCheck %s --check-prefix=BAD
// RUN: %clang -O2 -std=c2x -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm -DVECTOR %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=VECTOR
// RUN: %clang -O1 -std=c2x -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm -Rpass=enzyme -DFREED %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=FREED

double state[4];

double run(double x, long n) {
  for (int k = 0; k < 4; k++)
    state[k] = x * (k + 1);
  [[enzyme::checkpoint("revolve", 3)]] for (long i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++)
      state[k] = __builtin_sin(state[k]) + 0.1 * state[(k + 1) % 4];
  }
  return state[0] * state[3];
}

#ifdef NESTED
double nested(double x, long n, long m) {
  double s = x;
  for (long j = 0; j < m; j++) {
    // NESTED-DAG: loop_checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: warning: reverse mode of 'nested': the loop at {{.*}}loop_checkpoint.c:[[@LINE+1]] is annotated for checkpointing but is taped: it is inside another loop (annotate the outermost one)
    [[enzyme::checkpoint]] for (long i = 0; i < n; i++)
      s = __builtin_sin(s) * x;
  }
  return s;
}
// Through a pointer argument with no __enzyme_ptr_size_hint: the extent
// is not known.
void through(double *u, long n) {
  // NESTED-DAG: loop_checkpoint.c:{{[0-9]+}}:{{[0-9]+}}: warning: reverse mode of 'through': the loop at {{.*}}loop_checkpoint.c:{{[0-9]+}} is annotated for checkpointing but is taped: it writes memory other than the function's own memory, global variables, and memory whose extent __enzyme_ptr_size_hint(pointer, bytes) gives before the loop
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++)
    u[i % 3] = __builtin_sin(u[(i + 1) % 3]);
}
double __enzyme_autodiff(void *, ...);
double grad_nested(double x, long n) { return __enzyme_autodiff((void *)nested, x, n, 2L); }
extern int enzyme_dup;
void grad_through(double *u, double *du, long n) { __enzyme_autodiff((void *)through, enzyme_dup, u, du, n); }
#endif

#ifdef VECTOR
// Vector reverse mode does not checkpoint: a warning, the loop taped.
void vrun(double *x, double *out, long n) {
  double s = x[0];
  // VECTOR: warning: reverse mode of 'vrun': the loop {{.*}}is annotated for checkpointing but is taped: vector mode does not checkpoint loops
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++)
    s = __builtin_sin(s) * x[1];
  out[0] = s;
}
extern int enzyme_width, enzyme_dupv;
double __enzyme_autodiff(void *, ...);
void vgrad(double *x, double *dx, double *out, double *dout, long n) {
  __enzyme_autodiff((void *)vrun, enzyme_width, 2, enzyme_dupv, 2 * sizeof(double), x, dx,
                    enzyme_dupv, sizeof(double), out, dout, n);
}
#endif

#ifdef FREED
// Memory behind a pointer argument that the caller frees after the call
// (Enzyme's checkpoint_attr "hinted" shape): the caller's augmented sweep
// defers that free to its reverse sweep, so the memory is still there
// when the callee's snapshots are restored; no warning.
void __enzyme_ptr_size_hint(void *, unsigned long, unsigned long);
extern int enzyme_dup;
__attribute__((noinline)) static void freed_loop(double *u, long n) {
  __enzyme_ptr_size_hint(u, 3 * sizeof(double), 0);
  // FREED-NOT: warning
  // FREED: remark: reverse mode of 'freed_loop': the loop at {{.*}}loop_checkpoint.c:{{[0-9]+}} is checkpointed (revolve, 2;
  [[enzyme::checkpoint("revolve", 2)]] for (long i = 0; i < n; i++)
    u[i % 3] = __builtin_sin(u[(i + 1) % 3]);
}
double freed(double *x, long n) {
  double *u = __builtin_malloc(3 * sizeof(double));
  for (int k = 0; k < 3; k++)
    u[k] = x[k];
  freed_loop(u, n);
  double r = u[0] * u[1] + u[2];
  __builtin_free(u);
  return r;
}
double __enzyme_autodiff(void *, ...);
void grad_freed(double *x, double *dx, long n) { __enzyme_autodiff((void *)freed, enzyme_dup, x, dx, n); }
#endif

#ifdef BAD
void bad(long n) {
  // BAD: loop_checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_checkpoint on a loop takes a schedule first: "periodic" (or "regular"), "store_all", "revolve" or "binomial"
  [[enzyme::checkpoint("sometimes")]] for (long i = 0; i < n; i++) ;
  // BAD: loop_checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: the count of enzyme_checkpoint on a loop (snapshots or period) must be an integer constant of at least 1
  [[enzyme::checkpoint("revolve", 0)]] for (long i = 0; i < n; i++) ;
  // BAD: loop_checkpoint.c:[[@LINE+1]]:{{[0-9]+}}: error: enzyme_checkpoint on a statement applies to loops (for, while, do) only
  [[enzyme::checkpoint]] n++;
}
#endif

double __enzyme_autodiff(void *, ...);

// PRIMAL-LABEL: define {{.*}}double @run(
// PRIMAL-NOT: __enzyme_rs_checkpoint_loop
// PRIMAL: br i1 {{.*}}, !llvm.loop [[L:![0-9]+]]
// PRIMAL-NOT: declare {{.*}}__enzyme_rs_checkpoint_loop
// PRIMAL: [[L]] = distinct !{[[L]], {{.*}}[[P:![0-9]+]], [[U:![0-9]+]]}
// PRIMAL: [[P]] = !{!"enzyme_rs.checkpoint", i64 3, i64 3}
// PRIMAL: [[U]] = !{!"llvm.loop.unroll.disable"}

// REMARK: remark: reverse mode of 'run': the loop at {{.*}}loop_checkpoint.c:{{[0-9]+}} is checkpointed (revolve, 3; as a checkpointed for loop)

// IR-NOT: __enzyme_rs_checkpoint_loop
// IR: call {{.*}}@__enzyme_rs_loops_ckpt_fwd(
// IR: call {{.*}}@__enzyme_rs_loops_ckpt_rev(
#ifndef PRIMAL
double grad(double x, long n) { return __enzyme_autodiff((void *)run, x, n); }
#endif
