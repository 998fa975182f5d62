// Reverse: structs mixing float, double and int fields (no pointers)
// copied by memcpy, struct assignment and memmove, and cleared with
// memset between uses.
#include "check.h"
#include <string.h>
typedef struct {
  float a;
  int tag;
  double b;
  float c[3];
} S;
__attribute__((noinline)) double f(const S *in, int n) {
  S buf[6], one;
  memcpy(buf, in, n * sizeof(S));
  memmove(buf + 1, buf, (n - 1) * sizeof(S));
  one = in[n - 1];
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i].a * buf[i].b + buf[i].c[0] * buf[i].c[2] * (buf[i].tag + 1);
  memset(buf, 0, sizeof buf);
  for (int i = 0; i < n; i++) s += buf[i].b; /* zero */
  return s + one.b * one.c[1];
}
int main(void) {
  S in[3] = {{0.5f, 1, 1.5, {0.25f, -1.0f, 2.0f}}, {-1.5f, 0, 0.75, {1.0f, 0.5f, -0.5f}}, {2.0f, 2, -0.5, {0.5f, 1.5f, 1.0f}}};
  S din[3];
  memset(din, 0, sizeof din);
  __enzyme_autodiff((void *)f, enzyme_dup, in, din, enzyme_const, 3);
  /* buf = {in0, in0, in1} */
  int w[3] = {2, 1, 0};
  for (int i = 0; i < 3; i++) {
    CHECK("da", din[i].a, w[i] * in[i].b, 1e-6);
    CHECK("db", din[i].b, w[i] * in[i].a + (i == 2 ? in[2].c[1] : 0), 1e-6);
    CHECK("dc0", din[i].c[0], w[i] * in[i].c[2] * (in[i].tag + 1), 1e-6);
    CHECK("dc1", din[i].c[1], i == 2 ? in[2].b : 0, 1e-6);
    CHECK("dc2", din[i].c[2], w[i] * in[i].c[0] * (in[i].tag + 1), 1e-6);
  }
  CHECK_DONE();
}
