// Reverse mode: recursion over a binary tree of heap nodes with shadows.
#include "check.h"
typedef struct T { double v; struct T *l, *r; } T;
double weighted(const T *t, int depth) {
  if (!t) return 0;
  return t->v * t->v * depth + weighted(t->l, depth + 1) + weighted(t->r, depth + 1);
}
static T *build(int d, double *next, T **shadow) {
  if (d == 0) { *shadow = 0; return 0; }
  T *t = (T *)malloc(sizeof(T)), *s = (T *)malloc(sizeof(T));
  t->v = *next; *next += 0.5; s->v = 0;
  t->l = build(d - 1, next, &s->l);
  t->r = build(d - 1, next, &s->r);
  *shadow = s;
  return t;
}
static int check_tree(const T *t, const T *s, int depth) {
  if (!t) return 0;
  CHECK("dnode", s->v, 2 * t->v * depth, 1e-12);
  return check_tree(t->l, s->l, depth + 1) + check_tree(t->r, s->r, depth + 1);
}
static void free_tree(T *t) {
  if (!t) return;
  free_tree(t->l);
  free_tree(t->r);
  free(t);
}
int main(void) {
  double next = -1;
  T *s;
  T *t = build(4, &next, &s);
  __enzyme_autodiff((void *)weighted, enzyme_dup, t, s, enzyme_const, 1);
  check_tree(t, s, 1);
  free_tree(t);
  free_tree(s);
  CHECK_DONE();
}
