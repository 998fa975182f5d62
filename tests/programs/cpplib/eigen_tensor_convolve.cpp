// Eigen's Tensor module: the gradient of a 2-D convolution with respect to
// the kernel and the input (Enzyme's eigentensor shape). At -O0 Eigen's
// std::array<long, 2> dimensions were refused as "a float's bits passed as
// an integer"; compiled for AddressSanitizer at -O3, llvm.smax had no
// rule. At -O3 the reverse sweep of the recursive convolve read the
// kernel's shadow pointer again from the shadow evaluator, which the
// evaluator's cleanup had nulled after the forward sweep (a caller's later
// write to a parameter's memory now covers its shadow too).
// FLAGS: -I/usr/include/eigen3
#define EIGEN_DONT_VECTORIZE 1
#include "../check.h"
#include <unsupported/Eigen/CXX11/Tensor>
using Eigen::Tensor;

__attribute__((noinline)) static void conv(const Tensor<float, 2> *K, const Tensor<float, 2> *In,
                                           Tensor<float, 2> *Out) {
  Eigen::array<ptrdiff_t, 2> dims({0, 1});
  *Out = In->convolve(*K, dims);
}

int main() {
  Tensor<float, 2> in(3, 3), k(2, 2), out(2, 2), din(3, 3), dk(2, 2), dout(2, 2);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      in(i, j) = 1.0f + 0.5f * i + 0.25f * j;
  k.setConstant(0.5f);
  din.setZero();
  dk.setZero();
  dout.setConstant(1.0f);
  __enzyme_autodiff((void *)conv, enzyme_dup, &k, &dk, enzyme_dup, &in, &din, enzyme_dup, &out, &dout);
  // d/dk(a,b) of sum_{i,j} out(i,j) = sum_{i,j < 2} in(i+a, j+b).
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      double want = 0;
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
          want += in(i + a, j + b);
      CHECK("dk", dk(a, b), want, 1e-5);
    }
  // d/din(p,q) = the number of output windows covering (p,q) times 0.5.
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++) {
      int cover = (p == 1 ? 2 : 1) * (q == 1 ? 2 : 1);
      CHECK("din", din(p, q), 0.5 * cover, 1e-6);
    }
  CHECK_DONE();
}
