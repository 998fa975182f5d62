// Reverse mode (C++): a linked list built by the caller, traversed by a
// differentiated member function through duplicated nodes (shadow list).
#include "check.h"
#include <cmath>
struct Node {
  double value;
  Node *next;
  double weighted(double w) const {
    double s = 0, k = 1;
    for (const Node *n = this; n; n = n->next) {
      s += k * n->value * w;
      k *= 0.5;
    }
    return s;
  }
};
int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, int, Node *, Node *, int, double);
static double run(Node *list, double w) { return std::exp(list->weighted(w)); }
int main() {
  const int n = 5;
  Node *nodes = new Node[n], *dnodes = new Node[n];
  for (int i = 0; i < n; i++) {
    nodes[i].value = 0.1 * (i + 1);
    nodes[i].next = i + 1 < n ? &nodes[i + 1] : nullptr;
    dnodes[i].value = 0;
    dnodes[i].next = i + 1 < n ? &dnodes[i + 1] : nullptr;
  }
  double w = 0.8;
  double dw = __enzyme_autodiff((void *)run, enzyme_dup, nodes, dnodes, enzyme_out, w);
  CHECK("dw fd", dw, FD(w, run(nodes, w), 1e-6), 1e-6);
  double e = run(nodes, w), k = 1;
  for (int i = 0; i < n; i++) {
    CHECK("dvalue analytic", dnodes[i].value, e * k * w, 1e-12);
    CHECK("dvalue fd", dnodes[i].value, FD(nodes[i].value, run(nodes, w), 1e-6), 1e-6);
    k *= 0.5;
  }
  delete[] nodes;
  delete[] dnodes;
  CHECK_DONE();
}
