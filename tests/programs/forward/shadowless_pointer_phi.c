// Forward mode (scalar and width 2): pointers that need no shadow meeting
// active pointers at a join. (1) A vector-like copy: the copy of an empty
// range ends at `null + n` (the shape std::vector's copy constructor takes
// at -O1 and up), the other branch at `malloc(...) + n`; the end's tangent
// is null moved the same way. (2) A pointer into a read-only integer
// table, or to a double: the table's shadow is the table itself (no float
// lives there). Both were refused as "no shadow here" in forward mode.
#include "check.h"
#include <string.h>
typedef struct { double *b, *e; } Range;
extern int enzyme_dup, enzyme_const, enzyme_width;

// out = 3 * in (elementwise), in a new buffer; an empty input gives an
// empty output whose end is null + 0.
static void scaled_copy(Range *out, const Range *in) {
  double *b = in->b, *e = in->e;
  long n = e - b;
  double *q;
  if (b == e) {
    q = (double *)0 + n;
    out->b = 0;
  } else {
    double *p = (double *)malloc(n * sizeof(double));
    for (long i = 0; i < n; i++) p[i] = 3 * b[i] * b[i];
    q = p + n;
    out->b = p;
  }
  out->e = q;
}

static const long table[4] = {10, 20, 30, 40};
typedef struct { const void *tag; double v; } Tagged;
__attribute__((noinline)) static void tag_or_square(Tagged *out, double *x, int use_table) {
  const void *q;
  if (use_table) {
    q = &table[2];
    out->v = 1.0;
  } else {
    q = x;
    out->v = *x * *x;
  }
  out->tag = q;
}

int main(void) {
  double x[3] = {0.5, -1.25, 2.0}, dx[3] = {1, 0, 0}, dx2[3] = {0, 0, 1};
  Range in = {x, x + 3}, din = {dx, dx + 3}, out, dout;
  __enzyme_fwddiff((void *)scaled_copy, enzyme_dup, &out, &dout, enzyme_dup, &in, &din);
  CHECK("copy length", (double)(dout.e - dout.b), 3, 0);
  CHECK("d out0/d x0", dout.b[0], 6 * x[0], 1e-12);
  CHECK("d out1/d x0", dout.b[1], 0, 1e-12);
  CHECK("copy fd", dout.b[0], FD(x[0], (3 * x[0] * x[0]), 1e-6), 1e-6);
  free(out.b);
  free(dout.b);

  // Width 2: one lane per seed.
  Range dins[2] = {{dx, dx + 3}, {dx2, dx2 + 3}}, douts[2];
  __enzyme_fwddiff((void *)scaled_copy, enzyme_width, 2, enzyme_dup, &out, &douts[0], &douts[1],
                   enzyme_dup, &in, &dins[0], &dins[1]);
  CHECK("lane 0", douts[0].b[0], 6 * x[0], 1e-12);
  CHECK("lane 1", douts[1].b[2], 6 * x[2], 1e-12);
  free(out.b);
  free(douts[0].b);
  free(douts[1].b);

  // The empty range: the null end comes back as the tangent's end.
  Range none = {x, x}, dnone = {dx, dx};
  __enzyme_fwddiff((void *)scaled_copy, enzyme_dup, &out, &dout, enzyme_dup, &none, &dnone);
  CHECK("empty copy", (double)(dout.e - dout.b), 0, 0);

  double y = 1.5, dy = 1;
  Tagged t, dt;
  for (int use = 0; use < 2; use++) {
    __enzyme_fwddiff((void *)tag_or_square, enzyme_dup, &t, &dt, enzyme_dup, &y, &dy,
                     enzyme_const, use);
    CHECK("tagged value", dt.v, use ? 0 : 2 * y, 1e-12);
    // (The table's shadow is the table, or a zeroed copy of it at -O0.)
    CHECK("tag's shadow", (double)(use ? dt.tag != 0 : dt.tag == (const void *)&dy), 1, 0);
  }
  CHECK_DONE();
}
