// Reverse mode: recursion over a linked list with shadow nodes.
#include "check.h"
struct node { double v; struct node *next; };
double sumsq(struct node *n) {
  if (!n) return 0;
  return n->v * n->v + sumsq(n->next);
}
int main(void) {
  enum { N = 6 };
  struct node nodes[N], shadow[N];
  for (int i = 0; i < N; i++) {
    nodes[i].v = 0.5 * i - 1;
    nodes[i].next = i + 1 < N ? &nodes[i + 1] : 0;
    shadow[i].v = 0;
    shadow[i].next = i + 1 < N ? &shadow[i + 1] : 0;
  }
  __enzyme_autodiff((void *)sumsq, nodes, shadow);
  for (int i = 0; i < N; i++) CHECK("dlist", shadow[i].v, 2 * nodes[i].v, 1e-12);
  CHECK_DONE();
}
