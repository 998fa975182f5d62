// driver::cleanup, ENZYME_RS_SHARE_FWD: a scalar forward derivative
// (`enzyme_rs.fwd.*`) that contains a loop, of at least 100
// instructions, called from more than one site is left a call at every
// site (one shared body), like a reverse derivative under
// ENZYME_RS_HOT_SITES. Its primal result, which `__enzyme_fwddiff` drops,
// is returned as poison (driver::drop_unread_fields,
// ENZYME_RS_UNREAD_FIELDS), so the shared body does not compute it.
// Must not: a tiny scalar forward derivative and a small vector one stay
// inlined; a recursive forward derivative reads its own primal result,
// which stays. `ENZYME_RS_SHARE_FWD=0`: inlined at every site in a loop
// (outside loops under ENZYME_RS_INLINE_COPIES_BUDGET);
// `ENZYME_RS_UNREAD_FIELDS=0`: the primal result is returned.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_SHARE_FWD=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// RUN: env ENZYME_RS_UNREAD_FIELDS=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=FIELDS
#include <enzyme/enzyme.h>
#include <math.h>

typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static double mix(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double a = exp(w[i] * x[i]) / (1 + x[i] * x[i]);
    double b = log(1 + a * a) * sin(x[i] - w[i]);
    s += a * b + cos(a - b) * x[i];
  }
  for (int i = 0; i + 1 < n; i++) {
    double c = tanh(x[i] * x[i + 1] - w[i]);
    s += c * c * w[i + 1] + sqrt(1 + x[i + 1] * x[i + 1]) * exp(-c);
  }
  return s;
}

static double sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

static double rec(double x, int n) { return n <= 0 ? x : sin(rec(x, n - 1)) * x; }

void big_a(const double *x, const double *dx, const double *w, double *out, int n, int k) {
  for (int j = 0; j < k; j++) out[j] = __enzyme_fwddiff((void *)mix, enzyme_dup, x, dx + j * n, enzyme_const, w, enzyme_const, n);
}

void big_b(const double *x, const double *dx, const double *w, double *out, int n) {
  out[0] = __enzyme_fwddiff((void *)mix, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
}

void tiny_a(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) out[j] = __enzyme_fwddiff((void *)sq, enzyme_dup, x, dx + j * n, enzyme_const, n);
}

void tiny_b(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) out[j] = __enzyme_fwddiff((void *)sq, enzyme_dup, x, dx + j * n, enzyme_const, n);
}

void vec_a(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) {
    v2 r = __enzyme_fwddiff_v2((void *)sq, enzyme_width, 2, enzyme_dup, x, dx, dx + n, enzyme_const, n);
    out[2 * j] = r.d[0];
    out[2 * j + 1] = r.d[1];
  }
}

void vec_b(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) {
    v2 r = __enzyme_fwddiff_v2((void *)sq, enzyme_width, 2, enzyme_dup, x, dx, dx + n, enzyme_const, n);
    out[2 * j] = r.d[0];
    out[2 * j + 1] = r.d[1];
  }
}

double rec_a(double x, int n) { return __enzyme_fwddiff((void *)rec, x, 1.0, n); }
double rec_b(double x, int n) { return __enzyme_fwddiff((void *)rec, x, 1.0, n); }

// CHECK-LABEL: define {{.*}}void @big_a(
// CHECK: call {{.*}}@enzyme_rs.fwd.mix(
// CHECK-LABEL: define {{.*}}void @big_b(
// CHECK: call {{.*}}@enzyme_rs.fwd.mix(
// Must not: the tiny scalar and the small vector forward derivatives.
// CHECK-LABEL: define {{.*}}void @tiny_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @tiny_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @vec_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @vec_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK: ret void
// Must not: the recursive derivative reads its primal result.
// CHECK-LABEL: define {{.*}}@enzyme_rs.fwd.rec(
// CHECK: insertvalue { double, double } {{.*}}, 0
// CHECK-LABEL: define {{.*}}@enzyme_rs.fwd.mix(
// CHECK-NOT: insertvalue {{.*}}, 0
// CHECK: insertvalue { double, double } poison, double %{{.*}}, 1
// CHECK-NEXT: ret { double, double }

// OFF-LABEL: define {{.*}}void @big_a(
// OFF-NOT: call {{.*}}@enzyme_rs.
// OFF: ret void

// FIELDS-LABEL: define {{.*}}@enzyme_rs.fwd.mix(
// FIELDS: insertvalue { double, double } {{.*}}, 0
