// The function differentiated (model.c) calls a function with no
// derivative rule (a library function, declared only) whose custom
// gradient is registered in a third file (act_grad.c), inside a loop.
#include "check.h"
double model(const double *w, int n);
extern int act_revs;
int main(void) {
  enum { N = 4 };
  double w[N] = {0.2, -0.5, 0.9, 1.4}, dw[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, w, dw, enzyme_const, N);
  CHECK("custom rev ran", act_revs, N, 0);
  for (int i = 0; i < N; i++) CHECK("dmodel fd", dw[i], FD(w[i], model(w, N), 1e-6), 1e-6);
  CHECK_DONE();
}
