import random, sys
# Random straight-line code, nested loops (bounds from arguments and from
# memory, strides 1-2, data-dependent breaks), if/else on data, while loops
# and in-place array writes in one function; main() compares the reverse
# gradient with forward mode and central finite differences.
def gen(seed):
    r = random.Random(seed)
    N = 8
    lines = []
    depth = [0]
    ivs = []
    def expr():
        opts = ["x[%d]" % r.randrange(N), "y[%d]" % r.randrange(N), "s", "t", "0.5", "1.25"]
        if ivs:
            iv = r.choice(ivs)
            opts += ["x[%s %% %d]" % (iv, N), "y[(%s + 1) %% %d]" % (iv, N)]
        a = r.choice(opts); b = r.choice(opts)
        op = r.choice(["+", "-", "*", "*"])
        e = "(%s %s %s)" % (a, op, b)
        f = r.choice(["", "sin", "exp0", "sq", ""])
        if f == "sin": e = "sin(%s)" % e
        elif f == "exp0": e = "exp(0.1 * %s)" % e
        elif f == "sq": e = "(%s * %s)" % (e, e)
        return e
    def stmt(lvl):
        k = r.randrange(9)
        ind = "  " * (lvl + 1)
        if k <= 2 or lvl >= 3:
            tgt = r.choice(["s", "t", "s", "y[%d]" % r.randrange(N)])
            if ivs and r.random() < 0.4:
                tgt = "y[%s %% %d]" % (r.choice(ivs), N)
            lines.append("%s%s %s %s;" % (ind, tgt, r.choice(["+=", "=", "+=", "-="]), expr()))
        elif k <= 4:
            iv = "i%d" % len(ivs)
            bound = r.choice(["n", "m", "%d" % r.randrange(1, 6), "n - 1", "c->k", "m + %s" % (ivs[-1] if ivs else "0")])
            step = r.choice(["++", " += 2", "++"])
            lines.append("%sfor (int %s = 0; %s < %s; %s%s) {" % (ind, iv, iv, bound, iv, step))
            ivs.append(iv)
            for _ in range(r.randrange(1, 4)): stmt(lvl + 1)
            if r.random() < 0.3:
                lines.append("%s  if (%s > %f) break;" % (ind, expr(), r.uniform(-1, 3)))
            ivs.pop()
            lines.append("%s}" % ind)
        elif k <= 6:
            lines.append("%sif (%s > %f) {" % (ind, expr(), r.uniform(-1, 1)))
            for _ in range(r.randrange(1, 3)): stmt(lvl + 1)
            if r.random() < 0.6:
                lines.append("%s} else {" % ind)
                for _ in range(r.randrange(1, 3)): stmt(lvl + 1)
            lines.append("%s}" % ind)
        elif k == 7:
            iv = "w%d" % len(ivs)
            lines.append("%s{ int %s = 0; while (%s < %d && %s < %f) { t += %s; %s++; } }" % (ind, iv, iv, r.randrange(2, 7), "t", r.uniform(1, 20), expr(), iv))
        else:
            lines.append("%sx[%d] = %s;" % (ind, r.randrange(N), expr()))
    for _ in range(r.randrange(3, 7)): stmt(0)
    body = "\n".join(lines)
    return f'''#include <stdio.h>
#include <math.h>
#include <string.h>
#include <enzyme/enzyme.h>
typedef struct {{ int k; }} cfg_t;
#define N {N}
__attribute__((noinline)) double f(double *x, double *y, int n, int m, const cfg_t *c) {{
  double s = 0.1, t = 0.2;
{body}
  for (int q = 0; q < N; q++) s += y[q] * 0.3 + x[q] * 0.1;
  return s + t;
}}
static double xa[N], ya[N];
static double F(int j, double h) {{ double x[N], y[N]; memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y); if (j < N) x[j] += h; else y[j - N] += h; cfg_t c = {{3}}; return f(x, y, 5, 3, &c); }}
int main(void) {{
  for (int i = 0; i < N; i++) {{ xa[i] = 0.1 * ((i * 7) % 5) - 0.2; ya[i] = 0.05 * ((i * 3) % 7) - 0.1; }}
  double x[N], y[N], dx[N] = {{0}}, dy[N] = {{0}};
  memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
  cfg_t c = {{3}};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 5, enzyme_const, 3, enzyme_const, &c);
  int bad = 0;
  for (int j = 0; j < 2 * N; j++) {{
    double h = 1e-4, fd = (F(j, h) - F(j, -h)) / (2 * h);
    double h2 = 1e-5, fd2 = (F(j, h2) - F(j, -h2)) / (2 * h2);
    double ad = j < N ? dx[j] : dy[j - N];
    double sc = fabs(fd) > 1 ? fabs(fd) : 1;
    // Finite differences mean nothing once the function's value is huge.
    if (fabs(F(j, 0)) < 1e8 && fabs(fd - fd2) <= 1e-5 * sc && !(fabs(ad - fd) <= 1e-4 * sc)) {{ printf("mismatch %d ad=%g fd=%g\\n", j, ad, fd); bad = 1; }}
  }}
  for (int j = 0; j < 2 * N; j++) {{
    double tx[N] = {{0}}, ty[N] = {{0}};
    if (j < N) tx[j] = 1; else ty[j - N] = 1;
    memcpy(x, xa, sizeof x); memcpy(y, ya, sizeof y);
    double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, 5, enzyme_const, 3, enzyme_const, &c);
    double ad = j < N ? dx[j] : dy[j - N];
    double sc = fabs(ad) > 1 ? fabs(ad) : 1;
    // A huge value is the cancellation of huger terms (loops 90457: 1e11
    // from ~1e23): the two modes' rounding differs there.
    double tol = fabs(F(j, 0)) < 1e8 ? 1e-9 : 1e-4;
    if (isfinite(fw) && isfinite(ad) && !(fabs(fw - ad) <= tol * sc)) {{ printf("fwd/rev mismatch %d fwd=%.17g rev=%.17g\\n", j, fw, ad); bad = 1; }}
  }}
  return bad;
}}
'''
if __name__ == "__main__":
    s = int(sys.argv[1])
    open(sys.argv[2] if len(sys.argv) > 2 else "p%d.c" % s, "w").write(gen(s))
