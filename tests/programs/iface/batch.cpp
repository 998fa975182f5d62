// __enzyme_batch: a function evaluated on N lanes. enzyme_vector (the
// default) takes one value per lane, enzyme_scalar one value for every
// lane; the N results come back as a struct (through a hidden result
// pointer when large) or an array member; a void function writes through
// its per-lane pointers. Then the batched function is differentiated.
#include "check.h"
#include <cmath>
struct V4 {
  double x1, x2, x3, x4;
};
struct V2 {
  double a, b;
};
extern V4 __enzyme_batch(...);
extern V2 __enzyme_batch2(...) __asm__("_Z14__enzyme_batchz");
extern void __enzyme_batchv(...) __asm__("_Z14__enzyme_batchz");
extern int enzyme_vector, enzyme_scalar;
extern V4 __enzyme_autodiff4(void *, ...) __asm__("__enzyme_autodiff");
static double square(double x) { return x * x; }
static double scaled(double x, double s) { return s * sin(x); }
static float halfsum(float a, int n) { return 0.5f * a * n; }
struct Rec {
  int tag;
  double x;
  float y;
  double res;
};
static void mulxy(Rec *r) { r->res = r->x * r->y; }
static V4 vsq(double a, double b, double c, double d) {
  return __enzyme_batch(square, enzyme_width, 4, enzyme_vector, a, b, c, d);
}
// A batched function under reverse mode: sum of the 4 lanes.
static double sum4(double a, double b, double c, double d) {
  V4 v = vsq(a, b, c, d);
  return v.x1 + 2 * v.x2 + 3 * v.x3 + 4 * v.x4;
}
int main() {
  V4 r = vsq(23.1, 10.0, 100.0, 3.14);
  CHECK("lane 0", r.x1, 23.1 * 23.1, 1e-12);
  CHECK("lane 1", r.x2, 100.0, 1e-12);
  CHECK("lane 2", r.x3, 10000.0, 1e-12);
  CHECK("lane 3", r.x4, 3.14 * 3.14, 1e-12);
  V2 s = __enzyme_batch2(scaled, enzyme_width, 2, 0.3, 0.9, enzyme_scalar, 2.5);
  CHECK("scalar lane 0", s.a, 2.5 * sin(0.3), 1e-12);
  CHECK("scalar lane 1", s.b, 2.5 * sin(0.9), 1e-12);
  // float results converted to the declared double lanes; int scalar.
  V2 h = __enzyme_batch2(halfsum, enzyme_width, 2, enzyme_vector, 3.0f, 5.0f, enzyme_scalar, 4);
  CHECK("float lane 0", h.a, 6.0, 1e-6);
  CHECK("float lane 1", h.b, 10.0, 1e-6);
  Rec a = {1, 10.0, 9.0f, 0}, b = {2, 99.0, 7.0f, 0}, c = {3, 1.1, 9.0f, 0};
  __enzyme_batchv(mulxy, enzyme_width, 3, &a, &b, &c);
  CHECK("void lane 0", a.res, 90.0, 1e-12);
  CHECK("void lane 1", b.res, 693.0, 1e-12);
  CHECK("void lane 2", c.res, 1.1 * 9.0f, 1e-12);
  // Reverse mode through the batched call.
  V4 g = __enzyme_autodiff4((void *)sum4, 1.5, -0.5, 0.25, 2.0);
  CHECK("d lane 0", g.x1, 2 * 1.5, 1e-12);
  CHECK("d lane 1", g.x2, 2 * 2 * -0.5, 1e-12);
  CHECK("d lane 2", g.x3, 3 * 2 * 0.25, 1e-12);
  CHECK("d lane 3", g.x4, 4 * 2 * 2.0, 1e-12);
  CHECK_DONE();
}
