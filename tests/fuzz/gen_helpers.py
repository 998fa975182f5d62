import random, sys
# Random programs around helper functions, for differential testing of the
# plugin (tests/fuzz/run.sh). Kinds:
#   calls    helpers taking pointers: loops with branches, malloc'd
#            temporaries, recursion, in-place updates then early-exit loops,
#            called on overlapping windows of the inputs;
#   memory   arrays viewed as structs, buffers grown with realloc,
#            memcpy/memmove through stack temporaries, helpers returning
#            allocations, pointer-to-pointer tables, recursion writing
#            through a walking pointer;
#   scalars  as calls, plus two active scalar arguments (enzyme_out, their
#            adjoints returned as a struct) that also write into the arrays;
#   vector   as calls, plus vector forward mode (enzyme_width 2) checked
#            lane by lane.
# main() compares the reverse-mode gradient with central finite differences
# (where two step sizes agree) and with forward mode (to 1e-9).

def calls_parts(r, N):
    helpers = []
    for h in range(3):
        kind = r.randrange(4)
        if kind == 0:
            helpers.append(f'''__attribute__((noinline)) static double h{h}(const double *a, int n) {{
  double s = {r.uniform(0,1):.3f};
  for (int i = 0; i < n; i++) {{ if (a[i] > {r.uniform(-.5,.5):.3f}) s += a[i] * a[i]; else s -= sin(a[i]) * s; }}
  return s;
}}''')
        elif kind == 1:
            helpers.append(f'''__attribute__((noinline)) static double h{h}(const double *a, int n) {{
  double *t = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) t[i] = a[i] * {r.uniform(0.5,2):.3f} + (i ? t[i - 1] * 0.5 : 0.0);
  double s = 0;
  for (int i = n - 1; i >= 0; i -= {r.choice([1,2])}) s += t[i] * t[(i + 1) % n];
  free(t);
  return s;
}}''')
        elif kind == 2:
            helpers.append(f'''static double h{h}_rec(const double *a, int n, int d) {{
  if (n <= 1 || d > 4) return a[0] * {r.uniform(0.5,2):.3f};
  int m = n / 2;
  return h{h}_rec(a, m, d + 1) * h{h}_rec(a + m, n - m, d + 1) + a[m];
}}
__attribute__((noinline)) static double h{h}(const double *a, int n) {{ return h{h}_rec(a, n, 0); }}''')
        else:
            helpers.append(f'''__attribute__((noinline)) static double h{h}(double *a, int n) {{
  for (int i = 1; i < n; i++) a[i] = a[i] * 0.9 + a[i - 1] * {r.uniform(-.5,.5):.3f};
  double s = 0; int i = 0;
  while (i < n && s < {r.uniform(0.5,3):.3f}) {{ s += a[i] * a[i]; i++; }}
  return s;
}}''')
    body = []
    for k in range(r.randrange(2, 5)):
        h = r.randrange(3)
        off = r.randrange(0, N - 2)
        ln = r.randrange(1, N - off + 1)
        body.append(f"  r += {r.uniform(-1,1):.3f} * h{h}({r.choice(['x','y'])} + {off}, {ln});")
        if r.random() < 0.4:
            body.append(f"  if (r > {r.uniform(-1,1):.3f}) r *= {r.uniform(0.5,1.5):.3f}; else r += x[{r.randrange(N)}];")
    return "\n".join(helpers), "\n".join(body)

def memory_parts(r, N):
    kinds = []
    helpers = []
    for h in range(3):
        kind = r.randrange(6)
        c1, c2 = r.uniform(0.3, 1.5), r.uniform(-.6, .6)
        if kind == 0:  # struct array view
            helpers.append(f'''typedef struct {{ double a, b; }} pr{h}_t;
__attribute__((noinline)) static double h{h}(double *v, int n) {{
  pr{h}_t *p = (pr{h}_t *)v; double s = 0;
  for (int i = 0; i < n / 2; i++) {{ p[i].a = p[i].a * {c1:.3f} + p[i].b; s += p[i].a * p[i].b; }}
  return s;
}}''')
        elif kind == 1:  # realloc growth
            helpers.append(f'''__attribute__((noinline)) static double h{h}(double *v, int n) {{
  int cap = 1, len = 0; double *buf = (double *)malloc(sizeof(double));
  for (int i = 0; i < n; i++) {{
    if (len == cap) {{ cap *= 2; buf = (double *)realloc(buf, sizeof(double) * cap); }}
    buf[len++] = v[i] * v[i] + {c2:.3f};
  }}
  double s = 0; for (int i = 0; i < len; i++) s += buf[i] * (i + 1) * {c1:.3f};
  free(buf); return s;
}}''')
        elif kind == 2:  # memcpy + in place
            helpers.append(f'''__attribute__((noinline)) static double h{h}(double *v, int n) {{
  double t[8]; memcpy(t, v, sizeof(double) * n);
  for (int i = n - 1; i > 0; i--) t[i] = t[i] * t[i - 1] + {c2:.3f};
  memmove(v, t, sizeof(double) * n);
  return t[n - 1] * {c1:.3f};
}}''')
        elif kind == 3:  # returns allocated pointer
            helpers.append(f'''static double *mk{h}(const double *v, int n) {{
  double *o = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) o[i] = sin(v[i]) * {c1:.3f};
  return o;
}}
__attribute__((noinline)) static double h{h}(double *v, int n) {{
  double *o = mk{h}(v, n); double s = 0;
  for (int i = 0; i < n; i++) s += o[i] * v[(i + 1) % n];
  free(o); return s;
}}''')
        elif kind == 4:  # pointer to pointer
            helpers.append(f'''__attribute__((noinline)) static double h{h}(double *v, int n) {{
  double *rows[3] = {{ v, v + 1, v + (n > 2 ? 2 : 0) }};
  double **pp = rows; double s = 0;
  for (int k = 0; k < 3; k++) {{ s += pp[k][0] * pp[(k + 1) % 3][0] * {c1:.3f}; pp[k][0] += {c2:.3f} * s; }}
  return s;
}}''')
        else:  # recursion with pointer walk
            helpers.append(f'''static double rec{h}(double *v, int n) {{
  if (n == 0) return 1.0;
  double r = rec{h}(v + 1, n - 1);
  v[0] = v[0] * {c1:.3f} + r * {c2:.3f};
  return r * cos(v[0]) + v[0];
}}
__attribute__((noinline)) static double h{h}(double *v, int n) {{ return rec{h}(v, n); }}''')
    body = []
    for k in range(r.randrange(2, 5)):
        h = r.randrange(3)
        off = r.randrange(0, N - 2)
        ln = r.randrange(2, N - off + 1)
        body.append(f"  r += {r.uniform(-1,1):.3f} * h{h}({r.choice(['x','y'])} + {off}, {ln});")
        if r.random() < 0.3:
            body.append(f"  {r.choice(['x','y'])}[{r.randrange(N)}] *= {r.uniform(0.5,1.5):.3f};")
    return "\n".join(helpers), "\n".join(body)


def program(N, hs, bs, mode):
    scal = mode == "scalars"
    sig = "double a, double b, double *x, double *y" if scal else "double *x, double *y"
    pre = "  double r = 0.25 * a;\n  x[1] += a * b; y[2] -= sin(b);\n" if scal else "  double r = 0.25;\n"
    ret = "r * (1 + b)" if scal else "r"
    nin = "2 * N + 2" if scal else "2 * N"
    if scal:
        F = """static double A0 = 0.3, B0 = -0.4;
static double F(int j, double h) { double x[N], y[N]; memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y); double a = A0, b = B0; if (j < N) x[j] += h; else if (j < 2 * N) y[j - N] += h; else if (j == 2 * N) a += h; else b += h; return f(a, b, x, y); }
typedef struct { double da, db; } ab_t;
ab_t __enzyme_autodiff_ab(void *, ...);"""
        grad = "  ab_t g = __enzyme_autodiff_ab((void *)f, enzyme_out, A0, enzyme_out, B0, enzyme_dup, x, dx, enzyme_dup, y, dy);"
        adj = "j < N ? dx[j] : j < 2 * N ? dy[j - N] : j == 2 * N ? g.da : g.db"
        seedt = "double tx[N] = {0}, ty[N] = {0}, ta = 0, tb = 0;\n    if (j < N) tx[j] = 1; else if (j < 2 * N) ty[j - N] = 1; else if (j == 2 * N) ta = 1; else tb = 1;"
        fwd = "__enzyme_fwddiff((void *)f, A0, ta, B0, tb, enzyme_dup, x, tx, enzyme_dup, y, ty)"
    else:
        F = "static double F(int j, double h) { double x[N], y[N]; memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y); if (j < N) x[j] += h; else y[j - N] += h; return f(x, y); }"
        grad = "  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);"
        adj = "j < N ? dx[j] : dy[j - N]"
        seedt = "double tx[N] = {0}, ty[N] = {0};\n    if (j < N) tx[j] = 1; else ty[j - N] = 1;"
        fwd = "__enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty)"
    vec = ""
    if mode == "vector":
        F = "typedef struct { double d[2]; } v2_t;\nv2_t __enzyme_fwddiff_v2(void *, ...);\n" + F
        vec = r"""    {
      double tx2[N] = {0}, ty2[N] = {0};
      int j2 = (j + 3) % (2 * N);
      for (int k = 0; k < N; k++) tx[k] = ty[k] = 0;
      if (j < N) tx[j] = 1; else ty[j - N] = 1;
      if (j2 < N) tx2[j2] = 1; else ty2[j2 - N] = 1;
      memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
      v2_t vw = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x, tx, tx2, enzyme_dup, y, ty, ty2);
      double ad2 = j2 < N ? dx[j2] : dy[j2 - N];
      double s3 = fabs(ad2) > 1 ? fabs(ad2) : 1, s4 = fabs(fw) > 1 ? fabs(fw) : 1;
      if (isfinite(vw.d[0]) && isfinite(fw) && !(fabs(vw.d[0] - fw) <= 1e-9 * s4)) { printf("vector lane 0 mismatch %d %.17g %.17g\n", j, vw.d[0], fw); bad = 1; }
      if (isfinite(vw.d[1]) && isfinite(ad2) && !(fabs(vw.d[1] - ad2) <= 1e-9 * s3)) { printf("vector lane 1 mismatch %d %.17g %.17g\n", j2, vw.d[1], ad2); bad = 1; }
    }
"""
    return f"""#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <enzyme/enzyme.h>
#define N {N}
{hs}
__attribute__((noinline)) double f({sig}) {{
{pre}{bs}
  for (int i = 0; i < N; i++) r += x[i] * 0.1 + y[i] * 0.2;
  return {ret};
}}
static double xa[N], ya[N];
{F}
int main(void) {{
  for (int i = 0; i < N; i++) {{ xa[i] = 0.1 * ((i * 7) % 5) - 0.2; ya[i] = 0.05 * ((i * 3) % 7) - 0.1; }}
  double x[N], y[N], dx[N] = {{0}}, dy[N] = {{0}};
  memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
{grad}
  int bad = 0;
  for (int j = 0; j < {nin}; j++) {{
    double ad = {adj};
    double h = 1e-4, fd = (F(j, h) - F(j, -h)) / (2 * h);
    double h2 = 1e-5, fd2 = (F(j, h2) - F(j, -h2)) / (2 * h2);
    double sc = fabs(fd) > 1 ? fabs(fd) : 1;
    if (isfinite(fd) && fabs(fd - fd2) <= 1e-5 * sc && !(fabs(ad - fd) <= 1e-4 * sc)) {{ printf("fd mismatch %d ad=%g fd=%g\\n", j, ad, fd); bad = 1; }}
    {seedt}
    memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
    double fw = {fwd};
{vec}    double s2 = fabs(ad) > 1 ? fabs(ad) : 1;
    if (isfinite(fw) && isfinite(ad) && !(fabs(fw - ad) <= 1e-9 * s2)) {{ printf("fwd/rev mismatch %d fwd=%.17g rev=%.17g\\n", j, fw, ad); bad = 1; }}
  }}
  return bad;
}}
"""


def gen(kind, seed):
    r = random.Random(seed)
    N = 6
    hs, bs = (memory_parts if kind == "memory" else calls_parts)(r, N)
    return program(N, hs, bs, kind if kind in ("scalars", "vector") else "plain")


if __name__ == "__main__":
    kind, s, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    open(out, "w").write(gen(kind, s))
