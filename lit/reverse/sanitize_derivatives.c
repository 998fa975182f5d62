// Under a sanitizer, the functions the pass makes are instrumented like the
// module's own: the reverse sweep takes the module's sanitizer attributes
// (sanitize_address here), so AddressSanitizer checks its loads and stores
// (a read through a taped pointer into the augmented sweep's dead frame,
// an overflow of a shadow). driver.rs, `sanitize_new_functions`.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O0 -fsanitize=address -fno-discard-value-names -S -emit-llvm -fpass-plugin=%plugin %s -o - | %FileCheck %s --check-prefix=ASAN
// Must not: without a sanitizer no function gets the attribute.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O0 -fno-discard-value-names -S -emit-llvm -fpass-plugin=%plugin %s -o - | %FileCheck %s --check-prefix=PLAIN
// A function the user leaves uninstrumented (no_sanitize("address")) has
// an uninstrumented reverse sweep too.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O0 -fsanitize=address -fno-discard-value-names -S -emit-llvm -fpass-plugin=%plugin %s -o - | %FileCheck %s --check-prefix=RAW
// The switch off: the reverse sweep is left uninstrumented.
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_SANITIZE_DERIVATIVES=0 %clang -O0 -fsanitize=address -fno-discard-value-names -S -emit-llvm -fpass-plugin=%plugin %s -o - | %FileCheck %s --check-prefix=OFF

extern double __enzyme_autodiff(void *, ...);

double sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)sq, x, dx, n); }

__attribute__((no_sanitize("address"))) double raw(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

void grad_raw(const double *x, double *dx, int n) { __enzyme_autodiff((void *)raw, x, dx, n); }

// ASAN-LABEL: define internal void @enzyme_rs.rev.sq(
// ASAN-SAME: #[[REV:[0-9]+]]
// ASAN: call void @__asan_report_load8(
// ASAN-LABEL: define internal void @asan.module_ctor(
// ASAN: attributes #[[REV]] = { {{.*}}sanitize_address

// PLAIN-NOT: sanitize_address
// PLAIN-LABEL: define internal void @enzyme_rs.rev.sq(
// PLAIN-NOT: sanitize_address

// OFF-LABEL: define internal void @enzyme_rs.rev.sq(
// OFF-SAME: ) {
// OFF-NOT: call void @__asan_report
// OFF: {{^}}}

// RAW-LABEL: define internal void @enzyme_rs.rev.raw(
// RAW-SAME: ) {
// RAW-NOT: call void @__asan_report
// RAW: {{^}}}
