// EXPECT-ERROR: forward mode over the gradient of a fixed point (__enzyme_fixed_point) is not supported
// Forward over reverse through __enzyme_fixed_point is refused at the outer
// call (its adjoint iteration stops on the adjoint's size, which has no
// tangent), with its line, not a wrong Hessian-vector product.
// The iteration of loops/fixed_point_sqrt.c (its main renamed).
#define main fixed_point_sqrt_main
#include "../loops/fixed_point_sqrt.c"
#undef main

__attribute__((noinline)) static double droot(double a) { return __enzyme_autodiff((void *)root, a); }

int main(void) {
  printf("%g\n", __enzyme_fwddiff((void *)droot, 2.0, 1.0));
  return 0;
}
