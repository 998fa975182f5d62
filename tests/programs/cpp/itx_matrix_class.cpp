// Reverse mode (C++): a small matrix class owning heap storage (new[] in
// the constructor, delete[] in the destructor) with operator()(i,j) and a
// matvec, created inside the differentiated function.
#include "check.h"
#include <cmath>
class Matrix {
  int r_, c_;
  double *d_;

public:
  Matrix(int r, int c) : r_(r), c_(c), d_(new double[r * c]) {
    for (int i = 0; i < r * c; i++) d_[i] = 0;
  }
  ~Matrix() { delete[] d_; }
  Matrix(const Matrix &) = delete;
  double &operator()(int i, int j) { return d_[i * c_ + j]; }
  double operator()(int i, int j) const { return d_[i * c_ + j]; }
  int rows() const { return r_; }
  int cols() const { return c_; }
  void matvec(const double *x, double *y) const {
    for (int i = 0; i < r_; i++) {
      y[i] = 0;
      for (int j = 0; j < c_; j++) y[i] += (*this)(i, j) * x[j];
    }
  }
};
// y = A(theta) x with A_ij = cos(theta_i * j) ; returns |y|^2
static double f(const double *theta, const double *x, int n) {
  Matrix A(n, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A(i, j) = std::cos(theta[i] * j);
  double y[8];
  A.matvec(x, y);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  return s;
}
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  const int n = 4;
  double th[n] = {0.3, -0.5, 0.9, 0.2}, dth[n] = {0};
  double x[n] = {1.0, -2.0, 0.5, 1.5}, dx[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, th, dth, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    CHECK("dtheta fd", dth[i], FD(th[i], f(th, x, n), 1e-6), 1e-6);
    CHECK("dx fd", dx[i], FD(x[i], f(th, x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
