// __enzyme_no_escaping_allocation: nothing given to a registered function
// escapes through it. Here the local array `tmp` is given to `record`;
// unregistered, `record` may keep its address, so a pointer loaded from
// memory (v->data) may point into tmp, which the loop writes, and the
// loads of v->data[i] are taped; registered, tmp stays uncaptured and
// they are loaded again in the reverse sweep.
// RUN: %clang -g -O1 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAIN
// RUN: %clang -DMARK -g -O1 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MARK
// PLAIN: remark: reverse mode of 'f': tape {{8|16}} bytes per iteration in loops (1 loop)
// PLAIN: the memory it loads is overwritten at {{.*}}no_escaping_allocation.c:[[@LINE+13]]
// MARK: remark: reverse mode of 'f': nothing taped
#include <enzyme/enzyme.h>
#include <math.h>
void record(const double *buf, int n);
void *__enzyme_inactivefn[] = {(void *)record};
#ifdef MARK
void *__enzyme_no_escaping_allocation[] = {(void *)record};
#endif
typedef struct {
  double *data;
} Vec;
double f(Vec *v, int n) {
  double tmp[4] = {0};
  double s = 0;
  for (int i = 0; i < n; i++) {
    tmp[i & 3] += v->data[i];
    s += sin(v->data[i]) * v->data[i];
  }
  record(tmp, 4);
  return s;
}
void g(Vec *v, Vec *dv, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, v, dv, enzyme_const, n);
}
