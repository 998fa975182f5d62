import random, sys
# As gen_calls.py, plus vector forward mode (enzyme_width 2: one lane the
# scalar forward direction, the other another input) checked lane by lane.
def gen(seed):
    r = random.Random(seed)
    N = 6
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
  return r;
}}
typedef struct {{ double d[2]; }} v2_t;
v2_t __enzyme_fwddiff_v2(void *, ...);
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
    {{
      double tx2[N] = {{0}}, ty2[N] = {{0}};
      int j2 = (j + 3) % (2 * N);
      for (int k = 0; k < N; k++) tx[k] = ty[k] = 0;
      if (j < N) tx[j] = 1; else ty[j - N] = 1;
      if (j2 < N) tx2[j2] = 1; else ty2[j2 - N] = 1;
      memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
      v2_t vw = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x, tx, tx2, enzyme_dup, y, ty, ty2);
      double ad2 = j2 < N ? dx[j2] : dy[j2 - N];
      double s3 = fabs(ad2) > 1 ? fabs(ad2) : 1;
      if (isfinite(vw.d[0]) && isfinite(fw) && !(fabs(vw.d[0] - fw) <= 1e-9 * (fabs(fw) > 1 ? fabs(fw) : 1))) {{ printf("vector lane 0 mismatch %d %.17g %.17g\\n", j, vw.d[0], fw); bad = 1; }}
      if (isfinite(vw.d[1]) && isfinite(ad2) && !(fabs(vw.d[1] - ad2) <= 1e-9 * s3)) {{ printf("vector lane 1 mismatch %d %.17g %.17g\\n", j2, vw.d[1], ad2); bad = 1; }}
    }}
    double s2 = fabs(ad) > 1 ? fabs(ad) : 1;
    if (isfinite(fw) && isfinite(ad) && !(fabs(fw - ad) <= 1e-9 * s2)) {{ printf("fwd/rev mismatch %d fwd=%.17g rev=%.17g\\n", j, fw, ad); bad = 1; }}
  }}
  return bad;
}}
'''
if __name__ == "__main__":
    s = int(sys.argv[1]); open(sys.argv[2] if len(sys.argv) > 2 else "p%d.c" % s, "w").write(gen(s))
