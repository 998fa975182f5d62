// Reverse: a linked list built with malloc inside the function (values
// computed from the input), walked to accumulate, then freed node by node.
#include "check.h"
struct node { double v; struct node *next; int tag; };
__attribute__((noinline)) double f(const double *x, int n) {
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *nd = (struct node *)malloc(sizeof *nd);
    nd->v = x[i] * (i + 1);
    nd->tag = i;
    nd->next = head;
    head = nd;
  }
  double s = 0;
  for (struct node *p = head; p; p = p->next) s = s * 0.5 + p->v * p->v;
  while (head) {
    struct node *nx = head->next;
    free(head);
    head = nx;
  }
  return s;
}
int main(void) {
  double x[5] = {0.4, -1.1, 0.8, 1.5, -0.2}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  /* head is x4; node i is visited at position n-1-i; weight 0.5^i */
  for (int i = 0; i < 5; i++) {
    double want = pow(0.5, i) * 2 * x[i] * (i + 1) * (i + 1);
    CHECK("dx", dx[i], want, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
