// Reverse mode (C++): recursion in member functions (a binary tree of
// nodes allocated with new, evaluated recursively), static member
// functions and namespaces.
#include "check.h"
#include <cmath>
namespace expr {
struct Node {
  int op;  // 0 leaf (x[idx]), 1 add, 2 mul, 3 sin
  int idx;
  Node *l, *r;
  double eval(const double *x) const {
    switch (op) {
    case 0:
      return x[idx];
    case 1:
      return l->eval(x) + r->eval(x);
    case 2:
      return l->eval(x) * r->eval(x);
    default:
      return std::sin(l->eval(x));
    }
  }
  static Node *leaf(int i) { return new Node{0, i, nullptr, nullptr}; }
  static Node *make(int op, Node *a, Node *b) { return new Node{op, 0, a, b}; }
  static void destroy(Node *n) {
    if (!n) return;
    destroy(n->l);
    destroy(n->r);
    delete n;
  }
};
}  // namespace expr
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
using expr::Node;
static double eval_tree(const Node *t, const double *x) { return t->eval(x); }
int main() {
  // (x0 * sin(x1 + x2)) + (x2 * x0)
  Node *t = Node::make(1, Node::make(2, Node::leaf(0), Node::make(3, Node::make(1, Node::leaf(1), Node::leaf(2)), nullptr)),
                       Node::make(2, Node::leaf(2), Node::leaf(0)));
  double x[3] = {0.7, -0.4, 1.1}, dx[3] = {0};
  __enzyme_autodiff((void *)eval_tree, enzyme_const, t, enzyme_dup, x, dx);
  double s = std::sin(x[1] + x[2]), c = std::cos(x[1] + x[2]);
  CHECK("dx0", dx[0], s + x[2], 1e-12);
  CHECK("dx1", dx[1], x[0] * c, 1e-12);
  CHECK("dx2", dx[2], x[0] * c + x[0], 1e-12);
  for (int i = 0; i < 3; i++) CHECK("dx fd", dx[i], FD(x[i], eval_tree(t, x), 1e-6), 1e-6);
  Node::destroy(t);
  CHECK_DONE();
}
