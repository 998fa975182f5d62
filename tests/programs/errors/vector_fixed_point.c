// EXPECT-ERROR: vector reverse mode (enzyme_width 2) through a fixed point (__enzyme_fixed_point of 'babylon')
// Vector reverse mode through __enzyme_fixed_point is refused with a clear
// error (checkpointed loops have it: tests/programs/loops/checkpoint_vector.c).
// The iteration of loops/fixed_point_sqrt.c (its main renamed).
#define main fixed_point_sqrt_main
#include "../loops/fixed_point_sqrt.c"
#undef main

static void root_out(const double *a, double *out) {
  double z = 1.0;
  __enzyme_fixed_point((void *)babylon, enzyme_fp_state, &z, (int64_t)sizeof z, &z, a);
  *out = z;
}

int main(void) {
  double a = 2.0, da[2] = {0}, o, d[2] = {1, 0}, e[2] = {0, 1};
  __enzyme_autodiff((void *)root_out, enzyme_width, 2, enzyme_dup, &a, &da[0], &da[1], enzyme_dup, &o,
                    d, e);
  printf("%g %g\n", da[0], da[1]);
  return 0;
}
