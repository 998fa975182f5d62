// The clang plugin's lowering of Enzyme's source attributes: loaded by the
// pass plugin itself when clang loads it with -fplugin, each attribute
// becomes an `enzyme:ATTR:TARGET[=VALUE]` annotation on a carrier global.
// RUN: %clang -O0 -fplugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
// RUN: %clang -O0 -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=PASS

double d_g;
double g __attribute__((enzyme_shadow(d_g)));
__attribute__((enzyme_inactive)) double log_value(double x);
__attribute__((enzyme_inactive_noblock)) void trace(void);
__attribute__((enzyme_function_like("malloc"))) void *pool_alloc(unsigned long n);
__attribute__((enzyme_no_escaping_allocation)) void *pool_alloc2(unsigned long n);
__attribute__((enzyme_notypeanalysis)) double opaque(double *x);
__attribute__((enzyme_checkpoint)) double heavy(double x) { return x * x; }
double keep __attribute__((enzyme_inactive));

double use(double x) {
  trace();
  return log_value(x) + heavy(x) + g + keep + opaque(&x) + *(double *)pool_alloc(8) + *(double *)pool_alloc2(8);
}

// CHECK-DAG: c"enzyme:shadow:g=d_g\00"
// CHECK-DAG: c"enzyme:inactive:log_value\00"
// CHECK-DAG: c"enzyme:inactive_noblock:trace\00"
// CHECK-DAG: c"enzyme:function_like:pool_alloc=malloc\00"
// CHECK-DAG: c"enzyme:no_escaping_allocation:pool_alloc2\00"
// CHECK-DAG: c"enzyme:notypeanalysis:opaque\00"
// CHECK-DAG: c"enzyme:checkpoint:heavy\00"
// CHECK-DAG: c"enzyme:inactive:keep\00"
// CHECK: @llvm.global.annotations = appending global [8 x

// The pass (at the start of the pipeline) turns the function ones into
// function attributes.
// PASS-DAG: declare {{.*}} @log_value(double {{.*}}) [[INACT:#[0-9]+]]
// PASS-DAG: attributes [[INACT]] = { {{.*}}"enzyme_inactive"
// PASS-DAG: declare {{.*}} @pool_alloc(i64 {{.*}}) [[LIKE:#[0-9]+]]
// PASS-DAG: attributes [[LIKE]] = { {{.*}}"enzyme_function_like"="malloc"
