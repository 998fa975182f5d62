#!/usr/bin/env python3
"""Generate a C module for bench/analysis_cost.sh: N groups of functions
over structs, arrays of structs, pointer-to-pointer rows, loops, calls
(including a recursive one) and globals. About 10k LLVM instructions at
-O0 for the default N."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 46
out = ["#include <stdlib.h>", "#include <math.h>", "#include <string.h>", "#include <stdio.h>",
       "struct body { double m; long id; double x[3]; double v[3]; };",
       "double g_state[64];", "long g_count;"]
for k in range(n):
    out.append(f"""
static double kin_{k}(const struct body *b) {{
  double e = 0;
  for (int d = 0; d < 3; d++) e += 0.5 * b->m * b->v[d] * b->v[d];
  return e;
}}
static double pot_{k}(const struct body *a, const struct body *b) {{
  double r2 = 1e-9;
  for (int d = 0; d < 3; d++) {{ double t = a->x[d] - b->x[d]; r2 += t * t; }}
  return -a->m * b->m / sqrt(r2);
}}
static double rec_{k}(const double *w, int n) {{
  if (n <= 0) return 0;
  return w[n - 1] * {k + 1}.0 + rec_{k}(w, n - 1);
}}
double energy_{k}(struct body *bs, int n, double **rows, int m) {{
  double e = 0;
  struct body tmp;
  for (int i = 0; i < n; i++) {{
    memcpy(&tmp, &bs[i], sizeof tmp);
    e += kin_{k}(&tmp);
    for (int j = i + 1; j < n; j++) e += pot_{k}(&bs[i], &bs[j]);
    bs[i].id += 1;
  }}
  for (int i = 0; i < m; i++) e += rec_{k}(rows[i], m) * g_state[i & 63];
  g_state[{k} & 63] = e;
  g_count += n;
  if (e != e) printf("nan in %d\\n", {k});
  return e;
}}""")
print("\n".join(out))
