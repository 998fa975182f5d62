// Loops the loop vectorizer turned into masked memory operations (clang
// -O3 -march=skylake-avx512: a conditional update becomes masked loads and
// stores, an indexed read a gather, an indexed write a scatter), then
// differentiated by opt (the pass after vectorization: clang's own
// pipeline runs it before the vectorizer). The derivative's shape, then
// its values: the IR recompiled for a plain x86-64 (the backend expands
// the masked intrinsics; no AVX-512 needed to run it), run and checked
// against analytic derivatives. Repeated indices: a gathered element's
// adjoint sums over the lanes reading it; of the lanes scattering to one
// element only the last one gets the adjoint.
// RUN: %clang -O3 -march=skylake-avx512 -fno-unroll-loops -I%include -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme,verify -S %t.ll -o %t.d.ll
// RUN: %FileCheck %s < %t.d.ll
// RUN: sed -e 's/"target-cpu"="[^"]*"//g' -e 's/"target-features"="[^"]*"//g' -e 's/"tune-cpu"="[^"]*"//g' %t.d.ll > %t.g.ll
// RUN: %clang -O1 %t.g.ll -o %t -lm
// RUN: %t | %FileCheck --check-prefix=OUT %s
#include <enzyme/enzyme.h>
#include <stdio.h>

void cube_where(const double *restrict x, double *restrict y, const double *restrict c, int n) {
  for (int i = 0; i < n; i++)
    if (c[i] > 0) y[i] = x[i] * x[i] * x[i];
}

void gather(const double *restrict x, const long *restrict idx, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[idx[i]] * x[idx[i]];
}

void scatter(const double *restrict x, const long *restrict idx, double *restrict y, int n) {
  for (int i = 0; i < n; i++) y[idx[i]] = 3 * x[i];
}

/* The same under a condition: the gather and scatter get its mask. */
void gather_where(const double *restrict x, const long *restrict idx, const double *restrict c,
                  double *restrict y, int n) {
  for (int i = 0; i < n; i++)
    if (c[i] > 0) y[i] = x[idx[i]] * x[idx[i]];
}

void scatter_where(const double *restrict x, const long *restrict idx, const double *restrict c,
                   double *restrict y, int n) {
  for (int i = 0; i < n; i++)
    if (c[i] > 0) y[idx[i]] = 3 * x[i];
}

#define N 13
static int fails;
static void check(const char *what, int i, double got, double want) {
  double d = got - want;
  if (d > 1e-12 || d < -1e-12) {
    printf("FAIL %s[%d]: got %.17g want %.17g\n", what, i, got, want);
    fails++;
  }
}

int main(void) {
  double x[N], c[N], w[N], y[N], dx[N], dy[N];
  long idx[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.25 * i - 1.3;
    c[i] = (i % 3 == 1) ? -1.0 : 1.0;
    w[i] = 1.0 + 0.5 * i;
    idx[i] = (i * 5) % 7; /* repeats: 0 5 3 1 6 4 2 0 5 3 1 6 4 */
  }
  /* cube_where, reverse: dy = w seeds sum(w * y). */
  for (int i = 0; i < N; i++) { y[i] = 2.0; dy[i] = w[i]; dx[i] = 0; }
  __enzyme_autodiff((void *)cube_where, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, c, N);
  for (int i = 0; i < N; i++) {
    check("cube_where dx", i, dx[i], c[i] > 0 ? 3 * x[i] * x[i] * w[i] : 0.0);
    check("cube_where dy", i, dy[i], c[i] > 0 ? 0.0 : w[i]);
  }
  /* Forward: the tangent of y along x. */
  for (int i = 0; i < N; i++) { dx[i] = 1.0; dy[i] = 0; }
  __enzyme_fwddiff((void *)cube_where, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, c, N);
  for (int i = 0; i < N; i++) check("cube_where fwd", i, dy[i], c[i] > 0 ? 3 * x[i] * x[i] : 0.0);

  /* gather, reverse: dx[j] = sum over i with idx[i] = j of 2 x[j] w[i]. */
  for (int i = 0; i < N; i++) { dy[i] = w[i]; dx[i] = 0; }
  __enzyme_autodiff((void *)gather, enzyme_dup, x, dx, enzyme_const, idx, enzyme_dup, y, dy, N);
  for (int j = 0; j < N; j++) {
    double want = 0;
    for (int i = 0; i < N; i++) if (idx[i] == j) want += 2 * x[j] * w[i];
    check("gather dx", j, dx[j], want);
  }
  for (int i = 0; i < N; i++) { dx[i] = w[i]; dy[i] = 0; }
  __enzyme_fwddiff((void *)gather, enzyme_dup, x, dx, enzyme_const, idx, enzyme_dup, y, dy, N);
  for (int i = 0; i < N; i++) check("gather fwd", i, dy[i], 2 * x[idx[i]] * w[idx[i]]);

  /* scatter, reverse: the last i writing y[j] gets 3 w[j]. */
  for (int i = 0; i < N; i++) { dy[i] = w[i]; dx[i] = 0; }
  __enzyme_autodiff((void *)scatter, enzyme_dup, x, dx, enzyme_const, idx, enzyme_dup, y, dy, N);
  for (int i = 0; i < N; i++) {
    int last = 1;
    for (int k = i + 1; k < N; k++) if (idx[k] == idx[i]) last = 0;
    check("scatter dx", i, dx[i], last ? 3 * w[idx[i]] : 0.0);
  }
  for (int j = 0; j < N; j++) {
    int written = 0;
    for (int i = 0; i < N; i++) if (idx[i] == j) written = 1;
    check("scatter dy", j, dy[j], written ? 0.0 : w[j]);
  }
  for (int i = 0; i < N; i++) { dx[i] = w[i]; dy[i] = 0; }
  __enzyme_fwddiff((void *)scatter, enzyme_dup, x, dx, enzyme_const, idx, enzyme_dup, y, dy, N);
  for (int j = 0; j < 7; j++) {
    int last = -1;
    for (int i = 0; i < N; i++) if (idx[i] == j) last = i;
    check("scatter fwd", j, dy[j], 3 * w[last]);
  }
  /* gather_where: lanes with c[i] <= 0 neither read x nor write y. */
  for (int i = 0; i < N; i++) { dy[i] = w[i]; dx[i] = 0; }
  __enzyme_autodiff((void *)gather_where, enzyme_dup, x, dx, enzyme_const, idx, enzyme_const, c,
                    enzyme_dup, y, dy, N);
  for (int j = 0; j < N; j++) {
    double want = 0;
    for (int i = 0; i < N; i++) if (idx[i] == j && c[i] > 0) want += 2 * x[j] * w[i];
    check("gather_where dx", j, dx[j], want);
    check("gather_where dy", j, dy[j], c[j] > 0 ? 0.0 : w[j]);
  }
  /* scatter_where: the last i with c[i] > 0 writing y[j] gets 3 w[j]. */
  for (int i = 0; i < N; i++) { dy[i] = w[i]; dx[i] = 0; }
  __enzyme_autodiff((void *)scatter_where, enzyme_dup, x, dx, enzyme_const, idx, enzyme_const, c,
                    enzyme_dup, y, dy, N);
  for (int i = 0; i < N; i++) {
    int last = c[i] > 0;
    for (int k = i + 1; k < N; k++) if (idx[k] == idx[i] && c[k] > 0) last = 0;
    check("scatter_where dx", i, dx[i], last ? 3 * w[idx[i]] : 0.0);
  }
  for (int i = 0; i < N; i++) { dx[i] = w[i]; dy[i] = -1.0; }
  __enzyme_fwddiff((void *)scatter_where, enzyme_dup, x, dx, enzyme_const, idx, enzyme_const, c,
                   enzyme_dup, y, dy, N);
  for (int j = 0; j < N; j++) {
    int last = -1;
    for (int i = 0; i < N; i++) if (idx[i] == j && c[i] > 0) last = i;
    check("scatter_where fwd", j, dy[j], last < 0 ? -1.0 : 3 * w[last]);
  }
  printf(fails ? "FAILED\n" : "all derivatives agree\n");
  return fails != 0;
}

// OUT: all derivatives agree

// Reverse: the value's adjoint read from the shadow and the shadow zeroed
// under the mask; the loaded lanes' adjoint added into the shadow.
// CHECK-LABEL: define internal void @enzyme_rs.rev.cube_where(
// CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}, <4 x i1> %{{.+}}, <4 x double> zeroinitializer)
// CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> zeroinitializer,
// CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}, <4 x i1> %{{.+}}, <4 x double> zeroinitializer)
// CHECK-NEXT: fadd <4 x double>
// CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(


// Reverse of a gather (an all-lanes mask here: no branches), lane by lane:
// a load, an add and a store per lane.
// CHECK-LABEL: define internal void @enzyme_rs.rev.gather(
// CHECK: %[[PS:.+]] = getelementptr inbounds double, ptr %{{.+}}, <4 x i64>
// CHECK-NEXT: %[[P:.+]] = extractelement <4 x ptr> %[[PS]], i32 0
// CHECK-NEXT: %[[D:.+]] = extractelement <4 x double> %[[DV:.+]], i32 0
// CHECK-NEXT: %[[OLD:.+]] = load double, ptr %[[P]]
// CHECK-NEXT: %[[NEW:.+]] = fadd double %[[OLD]], %[[D]]
// CHECK-NEXT: store double %[[NEW]], ptr %[[P]]
// CHECK-NEXT: extractelement <4 x ptr> %[[PS]], i32 1
// CHECK: extractelement <4 x ptr> %[[PS]], i32 3
// CHECK-NOT: call void @llvm.masked.scatter
// CHECK: ret void

// Reverse of a scatter: lanes from the last, each one's adjoint read from
// its shadow address, which is zeroed.
// CHECK-LABEL: define internal void @enzyme_rs.rev.scatter(
// CHECK: %[[QS:.+]] = getelementptr inbounds double, ptr %{{.+}}, <4 x i64>
// CHECK-NEXT: %[[P3:.+]] = extractelement <4 x ptr> %[[QS]], i32 3
// CHECK-NEXT: %[[V3:.+]] = load double, ptr %[[P3]]
// CHECK-NEXT: insertelement <4 x double> {{.+}}, double %[[V3]], i32 3
// CHECK-NEXT: store double 0.000000e+00, ptr %[[P3]]
// CHECK-NEXT: extractelement <4 x ptr> %[[QS]], i32 2
// CHECK: extractelement <4 x ptr> %[[QS]], i32 0

// Under a condition: lane by lane in blocks the mask's lanes branch to.
// CHECK-LABEL: define internal void @enzyme_rs.rev.gather_where(
// CHECK: %[[ON:.+]] = extractelement <4 x i1> %{{.+}}, i32 0
// CHECK-NEXT: br i1 %[[ON]], label %[[LANE:.+]], label %[[NEXT:.+]]
// CHECK: [[LANE]]:
// CHECK-NEXT: %[[P:.+]] = extractelement <4 x ptr> %{{.+}}, i32 0
// CHECK-NEXT: %[[D:.+]] = extractelement <4 x double> %{{.+}}, i32 0
// CHECK-NEXT: %[[OLD:.+]] = load double, ptr %[[P]]
// CHECK-NEXT: %[[NEW:.+]] = fadd double %[[OLD]], %[[D]]
// CHECK-NEXT: store double %[[NEW]], ptr %[[P]]
// CHECK-NEXT: br label %[[NEXT]]

// CHECK-LABEL: define internal void @enzyme_rs.rev.scatter_where(
// CHECK: %[[ON3:.+]] = extractelement <4 x i1> %{{.+}}, i32 3
// CHECK-NEXT: br i1 %[[ON3]], label %[[L3:.+]], label %[[N3:.+]]
// CHECK: [[L3]]:
// CHECK-NEXT: %[[P3:.+]] = extractelement <4 x ptr> %{{.+}}, i32 3
// CHECK-NEXT: %[[V3:.+]] = load double, ptr %[[P3]]
// CHECK-NEXT: %[[A3:.+]] = insertelement <4 x double> {{.+}}, double %[[V3]], i32 3
// CHECK-NEXT: store double 0.000000e+00, ptr %[[P3]]
// CHECK-NEXT: br label %[[N3]]
// CHECK: [[N3]]:
// CHECK-NEXT: phi <4 x double> [ %[[A3]], %[[L3]] ]

// Forward: the same masked operations on the shadows.
// CHECK-LABEL: define internal void @enzyme_rs.fwd.cube_where(
// CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(
// CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(
// CHECK: call void @llvm.masked.store.v4f64.p0(
// CHECK: call void @llvm.masked.store.v4f64.p0(

// CHECK-LABEL: define internal void @enzyme_rs.fwd.gather(
// CHECK: call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> {{.*}}%{{.+}}, {{.*}}<4 x i1>
// CHECK: call <4 x double> @llvm.masked.gather.v4f64.v4p0(


// CHECK-LABEL: define internal void @enzyme_rs.fwd.scatter(
// CHECK: call void @llvm.masked.scatter.v4f64.v4p0(
// CHECK: call void @llvm.masked.scatter.v4f64.v4p0(

