// Reverse mode (C++): a linked list built with new and freed with delete
// inside the differentiated function; plain mangled entry point declaration.
#include "check.h"
#include <cmath>
struct Node {
  double value;
  Node *next;
};
double __enzyme_autodiff(void *, double);
static double sum_list(const Node *n) {
  double s = 0;
  for (; n; n = n->next) s += n->value * n->value;
  return s;
}
double build_and_sum(double x) {
  Node *head = nullptr;
  for (int i = 1; i <= 6; i++) {
    Node *n = new Node;
    n->value = std::sin(x * i);
    n->next = head;
    head = n;
  }
  double s = sum_list(head);
  while (head) {
    Node *next = head->next;
    delete head;
    head = next;
  }
  return s;
}
int main() {
  double x = 0.37;
  double d = __enzyme_autodiff((void *)build_and_sum, x);
  double want = 0;
  for (int i = 1; i <= 6; i++) want += 2 * std::sin(x * i) * std::cos(x * i) * i;
  CHECK("llist analytic", d, want, 1e-12);
  CHECK("llist fd", d, FD(x, build_and_sum(x), 1e-6), 1e-6);
  CHECK_DONE();
}
