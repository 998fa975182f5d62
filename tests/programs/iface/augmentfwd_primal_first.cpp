// __enzyme_augmentfwd declared to return the primal first and the tape
// last (struct { double x; void *tape; }), and used as the augmented half
// of a function pointer's shadow (a table {augmented, reverse}, Enzyme's
// "virtual" shadow of a function pointer in a struct).
// (Its own declarations: check.h's enzyme.h declares these entry points
// with other types.)
#include <cmath>
#include <cstdio>

static int failures = 0;
static void CHECK(const char *what, double got, double want, double tol) {
  bool ok = std::fabs(got - want) <= tol * (std::fabs(want) > 1 ? std::fabs(want) : 1);
  std::printf("%s %s: %.17g (want %.17g)\n", ok ? "ok  " : "FAIL", what, got, want);
  failures += !ok;
}
extern "C" int enzyme_dup;
extern "C" void __enzyme_autodiff(void *, ...);

struct Op {
  double (*fn)(double);
  double val;
};
struct PrimalAndTape {
  double x;
  void *tape;
};
extern "C" PrimalAndTape __enzyme_augmentfwd(void *, double);
extern "C" double __enzyme_reverse(void *, double, double, void *);

static double cube(double x) { return x * x * x; }
__attribute__((noinline)) static double apply(Op *op) { return op->fn(op->val) + op->val; }

static PrimalAndTape aug_cube(double x) { return __enzyme_augmentfwd((void *)cube, x); }
static double rev_cube(double x, double seed, void *tape) {
  return __enzyme_reverse((void *)cube, x, seed, tape);
}
static void *cube_shadow[2] = {(void *)aug_cube, (void *)rev_cube};

int main() {
  PrimalAndTape r = __enzyme_augmentfwd((void *)cube, 1.5);
  CHECK("augmented primal", r.x, 3.375, 1e-15);
  CHECK("reverse with its tape", __enzyme_reverse((void *)cube, 1.5, 2.0, r.tape), 2 * 3 * 1.5 * 1.5, 1e-12);
  Op op = {cube, 1.5}, dop = {(double (*)(double))(void *)cube_shadow, 0.0};
  __enzyme_autodiff((void *)apply, enzyme_dup, &op, &dop);
  CHECK("through the function pointer's shadow table", dop.val, 3 * 1.5 * 1.5 + 1, 1e-12);
  return failures != 0;
}
