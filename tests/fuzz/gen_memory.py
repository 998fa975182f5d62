import random, sys
# Memory shapes: arrays viewed as structs, buffers grown with realloc,
# memcpy/memmove through stack temporaries, helpers returning allocations,
# pointer-to-pointer tables, recursion writing through a walking pointer;
# reverse vs forward mode vs FD.
def gen(seed):
    r = random.Random(seed)
    N = 6
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
    hs = "\n".join(helpers); bs = "\n".join(body)
    return f'''#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <enzyme/enzyme.h>
#define N {N}
{hs}
__attribute__((noinline)) double f(double *x, double *y) {{
  double r = 0.25;
{bs}
  for (int i = 0; i < N; i++) r += x[i] * 0.1 + y[i] * 0.2;
  return r;
}}
static double xa[N], ya[N];
static double F(int j, double h) {{ double x[N], y[N]; memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y); if (j < N) x[j] += h; else y[j - N] += h; return f(x, y); }}
int main(void) {{
  for (int i = 0; i < N; i++) {{ xa[i] = 0.1 * ((i * 7) % 5) - 0.2; ya[i] = 0.05 * ((i * 3) % 7) - 0.1; }}
  double x[N], y[N], dx[N] = {{0}}, dy[N] = {{0}};
  memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  int bad = 0;
  for (int j = 0; j < 2 * N; j++) {{
    double ad = j < N ? dx[j] : dy[j - N];
    double h = 1e-4, fd = (F(j, h) - F(j, -h)) / (2 * h);
    double h2 = 1e-5, fd2 = (F(j, h2) - F(j, -h2)) / (2 * h2);
    double sc = fabs(fd) > 1 ? fabs(fd) : 1;
    if (isfinite(fd) && fabs(fd - fd2) <= 1e-5 * sc && !(fabs(ad - fd) <= 1e-4 * sc)) {{ printf("fd mismatch %d ad=%g fd=%g\\n", j, ad, fd); bad = 1; }}
    double tx[N] = {{0}}, ty[N] = {{0}};
    if (j < N) tx[j] = 1; else ty[j - N] = 1;
    memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
    double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty);
    double s2 = fabs(ad) > 1 ? fabs(ad) : 1;
    if (isfinite(fw) && isfinite(ad) && !(fabs(fw - ad) <= 1e-9 * s2)) {{ printf("fwd/rev mismatch %d fwd=%.17g rev=%.17g\\n", j, fw, ad); bad = 1; }}
  }}
  return bad;
}}
'''
if __name__ == "__main__":
    s = int(sys.argv[1]); open(sys.argv[2] if len(sys.argv) > 2 else "p%d.c" % s, "w").write(gen(s))
