/* enzyme-rs self-check runtime (src/selfcheck, `-enzyme-check` /
 * ENZYME_CHECK=1). Compiled to bitcode by build.rs and linked into a module
 * that has checked call sites (internal linkage).
 *
 * At each checked `__enzyme_autodiff` / `__enzyme_fwddiff` call site the
 * pass calls __enzyme_rs_check_run before the derivative runs. The function
 * is seen as a map F: (scalars, memory of the buffers) -> (result, memory of
 * the buffers). With a random direction v over the inputs and random weights
 * w over the outputs, three numbers must agree:
 *   - <w, J v> by central finite differences of the primal (Richardson),
 *   - <J^T w, v> from the reverse-mode derivative (w seeds the shadows),
 *   - <w, J v> from the forward-mode derivative (v seeds the tangents),
 * (the one of the site's own mode, and the other mode where it was built).
 * Everything runs on copies: the program's buffers are only read (their
 * snapshot), the user's shadows are never touched.
 *
 * Three thunks per site, made by the pass, all of one signature:
 *   thunk(env, xs, dxs, bufs, dbufs, out)
 * env: the site's constant arguments; xs/dxs: the perturbable scalars as
 * doubles (and their tangents in, or adjoints out); bufs/dbufs: primal and
 * shadow buffers; out[0] the primal result, out[1] its tangent. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*ers_thunk)(void *env, double *xs, double *dxs, void **bufs, void **dbufs,
                          double *out);

enum {
  ERS_REVERSE_SITE = 1, /* the site is __enzyme_autodiff (else forward) */
  ERS_ABORT = 2,        /* abort at a mismatch (compiled with ENZYME_CHECK=abort) */
  ERS_RET_ACTIVE = 4,   /* the result is a float that carries a derivative */
  ERS_RET_FLOAT = 8     /* ... of type float (else double) */
};
enum { ERS_DOUBLE = 0, ERS_FLOAT = 1, ERS_RAW = 2 };

typedef struct {
  int disabled, abort_on, verbose, calls;
} ers_config;

static ers_config __enzyme_rs_check_config(void) {
  static int done;
  static ers_config c;
  if (!done) {
    const char *e = getenv("ENZYME_CHECK");
    const char *n = getenv("ENZYME_CHECK_CALLS");
    done = 1;
    c.calls = n ? atoi(n) : 2;
    if (e) {
      c.disabled = !strcmp(e, "0") || !strcmp(e, "off") || !strcmp(e, "no");
      c.abort_on = !strcmp(e, "abort");
      c.verbose = !strcmp(e, "verbose");
    }
  }
  return c;
}

/* xorshift64*: reproducible directions per site and call. */
static double __enzyme_rs_check_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return (double)((x * 2685821657736338717ULL) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

typedef struct {
  int nx, nb;
  const int *xkind, *bkind;
  const int64_t *bytes;
  double *x0, *v, *xs, *dxs, wret;
  void **snap, **work, **shadow, **bv, **bw;
} ers_state;

static int64_t __enzyme_rs_check_elems(const ers_state *s, int j) {
  if (s->bkind[j] == ERS_DOUBLE) return s->bytes[j] / 8;
  if (s->bkind[j] == ERS_FLOAT) return s->bytes[j] / 4;
  return 0;
}

static double __enzyme_rs_check_get(const ers_state *s, void *p, int j, int64_t i) {
  return s->bkind[j] == ERS_DOUBLE ? ((double *)p)[i] : (double)((float *)p)[i];
}

static void __enzyme_rs_check_set(const ers_state *s, void *p, int j, int64_t i, double x) {
  if (s->bkind[j] == ERS_DOUBLE)
    ((double *)p)[i] = x;
  else
    ((float *)p)[i] = (float)x;
}

/* The program's state again in the work buffers, moved by t along v. */
static void __enzyme_rs_check_place(ers_state *s, double t) {
  int j;
  int64_t i;
  for (j = 0; j < s->nx; j++) s->xs[j] = s->x0[j] + t * s->v[j];
  for (j = 0; j < s->nb; j++) {
    memcpy(s->work[j], s->snap[j], (size_t)s->bytes[j]);
    for (i = 0; i < __enzyme_rs_check_elems(s, j); i++)
      __enzyme_rs_check_set(s, s->work[j], j, i,
                            __enzyme_rs_check_get(s, s->snap[j], j, i) +
                                t * __enzyme_rs_check_get(s, s->bv[j], j, i));
  }
}

/* <w, F(x + t v)>; *mag gets the sum of the absolute terms. */
static double __enzyme_rs_check_phi(ers_state *s, void *env, ers_thunk primal, double t,
                                    double *mag) {
  double out[2] = {0, 0}, r = 0;
  int j;
  int64_t i;
  __enzyme_rs_check_place(s, t);
  primal(env, s->xs, s->dxs, s->work, s->shadow, out);
  r = s->wret * out[0];
  *mag = fabs(r);
  for (j = 0; j < s->nb; j++)
    for (i = 0; i < __enzyme_rs_check_elems(s, j); i++) {
      double term = __enzyme_rs_check_get(s, s->bw[j], j, i) *
                    __enzyme_rs_check_get(s, s->work[j], j, i);
      r += term;
      *mag += fabs(term);
    }
  return r;
}

/* The reverse-mode value <J^T w, v>. */
static double __enzyme_rs_check_reverse(ers_state *s, void *env, ers_thunk rev, double *mag) {
  double out[2] = {0, 0}, r = 0;
  int j;
  int64_t i;
  __enzyme_rs_check_place(s, 0);
  for (j = 0; j < s->nx; j++) s->dxs[j] = 0;
  for (j = 0; j < s->nb; j++) memcpy(s->shadow[j], s->bw[j], (size_t)s->bytes[j]);
  rev(env, s->xs, s->dxs, s->work, s->shadow, out);
  *mag = 0;
  for (j = 0; j < s->nx; j++) {
    r += s->dxs[j] * s->v[j];
    *mag += fabs(s->dxs[j] * s->v[j]);
  }
  for (j = 0; j < s->nb; j++)
    for (i = 0; i < __enzyme_rs_check_elems(s, j); i++) {
      double term = __enzyme_rs_check_get(s, s->shadow[j], j, i) *
                    __enzyme_rs_check_get(s, s->bv[j], j, i);
      r += term;
      *mag += fabs(term);
    }
  return r;
}

/* The forward-mode value <w, J v>. */
static double __enzyme_rs_check_forward(ers_state *s, void *env, ers_thunk fwd, double *mag) {
  double out[2] = {0, 0}, r;
  int j;
  int64_t i;
  __enzyme_rs_check_place(s, 0);
  for (j = 0; j < s->nx; j++) s->dxs[j] = s->v[j];
  for (j = 0; j < s->nb; j++) memcpy(s->shadow[j], s->bv[j], (size_t)s->bytes[j]);
  fwd(env, s->xs, s->dxs, s->work, s->shadow, out);
  r = s->wret * out[1];
  *mag = fabs(r);
  for (j = 0; j < s->nb; j++)
    for (i = 0; i < __enzyme_rs_check_elems(s, j); i++) {
      double term = __enzyme_rs_check_get(s, s->bw[j], j, i) *
                    __enzyme_rs_check_get(s, s->shadow[j], j, i);
      r += term;
      *mag += fabs(term);
    }
  return r;
}

static void __enzyme_rs_check_report(const char *fn, const char *loc, int flags, int call,
                                     const char *what, double a, const char *an, double b,
                                     const char *bn, ers_config c) {
  fprintf(stderr,
          "enzyme-check: MISMATCH in the %s derivative of '%s' (called at %s, call %d): "
          "%s: %s %.9g, %s %.9g\n",
          (flags & ERS_REVERSE_SITE) ? "reverse-mode" : "forward-mode", fn, loc, call, what, an,
          a, bn, b);
  if ((flags & ERS_ABORT) || c.abort_on) {
    fprintf(stderr, "enzyme-check: aborting (ENZYME_CHECK=abort)\n");
    abort();
  }
}

/* Whether a and b agree within rel (of mag) plus an absolute slack. */
static int __enzyme_rs_check_close(double a, double b, double rel, double mag, double slack) {
  if (!isfinite(a) || !isfinite(b)) return 1; /* not comparable */
  return fabs(a - b) <= rel * (fabs(a) + fabs(b) + mag) + slack;
}

/* A site that cannot be checked: said once. */
void __enzyme_rs_check_skip(const char *fn, const char *loc, const char *why, int32_t *count) {
  ers_config c = __enzyme_rs_check_config();
  if (c.disabled || (*count)++ > 0) return;
  fprintf(stderr, "enzyme-check: '%s' (called at %s): not checked: %s\n", fn, loc, why);
}

void __enzyme_rs_check_run(const char *fn, const char *loc, int32_t flags, int32_t *count,
                           int32_t nx, const int32_t *xkind, const double *x0, int32_t nb,
                           const int32_t *bkind, const int64_t *bytes, void *const *user,
                           void *env, ers_thunk primal, ers_thunk rev, const int32_t *rev_ok,
                           ers_thunk fwd, const int32_t *fwd_ok) {
  ers_config c = __enzyme_rs_check_config();
  ers_state s;
  uint64_t seed;
  int j, call, single = 1;
  int64_t i;
  double t, scale = 0, p1, m1, p2, m2, mg, fd1, fd2, fd, err, noise, eps;
  double vr = 0, vf = 0, mr = 0, mf = 0;
  int have_r, have_f;
  if (c.disabled || *count >= c.calls) return;
  call = ++*count;
  memset(&s, 0, sizeof s);
  s.nx = nx;
  s.nb = nb;
  s.xkind = xkind;
  s.bkind = bkind;
  s.bytes = bytes;
  s.x0 = (double *)calloc((size_t)nx + 1, sizeof(double));
  s.v = (double *)calloc((size_t)nx + 1, sizeof(double));
  s.xs = (double *)calloc((size_t)nx + 1, sizeof(double));
  s.dxs = (double *)calloc((size_t)nx + 1, sizeof(double));
  s.snap = (void **)calloc((size_t)nb + 1, sizeof(void *));
  s.work = (void **)calloc((size_t)nb + 1, sizeof(void *));
  s.shadow = (void **)calloc((size_t)nb + 1, sizeof(void *));
  s.bv = (void **)calloc((size_t)nb + 1, sizeof(void *));
  s.bw = (void **)calloc((size_t)nb + 1, sizeof(void *));
  seed = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)call * 0xBF58476D1CE4E5B9ULL);
  for (i = 0; fn[i]; i++) seed = (seed ^ (unsigned char)fn[i]) * 0x100000001B3ULL;
  if (!seed) seed = 1;
  /* Directions relative to each value (a step never crosses zero). */
  for (j = 0; j < nx; j++) {
    double a = fabs(x0[j]);
    s.x0[j] = x0[j];
    s.v[j] = __enzyme_rs_check_rand(&seed) * (a > 0 ? a : 1);
    if (xkind[j] != ERS_DOUBLE) single = 0;
  }
  for (j = 0; j < nb; j++) {
    size_t n = (size_t)bytes[j] + 8;
    s.snap[j] = malloc(n);
    s.work[j] = malloc(n);
    s.shadow[j] = calloc(1, n);
    s.bv[j] = calloc(1, n);
    s.bw[j] = calloc(1, n);
    memcpy(s.snap[j], user[j], (size_t)bytes[j]);
    if (bkind[j] == ERS_FLOAT) single = 0;
    for (i = 0; i < __enzyme_rs_check_elems(&s, j); i++) {
      double a = fabs(__enzyme_rs_check_get(&s, s.snap[j], j, i));
      __enzyme_rs_check_set(&s, s.bv[j], j, i,
                            __enzyme_rs_check_rand(&seed) * (a > 0 && isfinite(a) ? a : 1));
      __enzyme_rs_check_set(&s, s.bw[j], j, i, __enzyme_rs_check_rand(&seed));
    }
  }
  if (flags & ERS_RET_FLOAT) single = 0;
  s.wret = (flags & ERS_RET_ACTIVE) ? 1.0 : 0.0;
  single = !single; /* 1 when some value is a float (single precision) */
  eps = single ? 1.1920929e-7 : 2.220446049250313e-16;
  t = single ? 1e-3 : 1e-5;
  (void)scale;
  /* Central differences at t and t/2, combined (Richardson). */
  p1 = __enzyme_rs_check_phi(&s, env, primal, t, &mg);
  noise = mg;
  m1 = __enzyme_rs_check_phi(&s, env, primal, -t, &mg);
  noise += mg;
  p2 = __enzyme_rs_check_phi(&s, env, primal, t / 2, &mg);
  m2 = __enzyme_rs_check_phi(&s, env, primal, -t / 2, &mg);
  fd1 = (p1 - m1) / (2 * t);
  fd2 = (p2 - m2) / t;
  fd = (4 * fd2 - fd1) / 3;
  err = fabs(fd2 - fd1) + 64 * eps * noise / t;
  have_r = rev && *rev_ok;
  have_f = fwd && *fwd_ok;
  if (!((flags & ERS_REVERSE_SITE) ? have_r : have_f)) {
    if (call == 1)
      fprintf(stderr, "enzyme-check: '%s' (called at %s): not checked: its derivative was not built for the check\n", fn, loc);
    goto done;
  }
  if (have_r) vr = __enzyme_rs_check_reverse(&s, env, rev, &mr);
  if (have_f) vf = __enzyme_rs_check_forward(&s, env, fwd, &mf);
  {
    int rsite = flags & ERS_REVERSE_SITE;
    double own = rsite ? vr : vf, omag = rsite ? mr : mf;
    double other = rsite ? vf : vr, xmag = rsite ? mf : mr;
    int have_own = rsite ? have_r : have_f, have_other = rsite ? have_f : have_r;
    double rel = single ? 1e-3 : 1e-6;
    int bad = 0;
    if (have_own && !__enzyme_rs_check_close(own, fd, rel, omag, 10 * err)) {
      __enzyme_rs_check_report(fn, loc, flags, call, "along a random direction",
                               own, "the derivative gives", fd, "central finite differences give", c);
      bad = 1;
    }
    if (have_own && have_other &&
        !__enzyme_rs_check_close(own, other, single ? 1e-4 : 1e-9, omag + xmag, 0)) {
      __enzyme_rs_check_report(fn, loc, flags, call, "against the other mode", own,
                               rsite ? "reverse mode gives" : "forward mode gives", other,
                               rsite ? "forward mode" : "reverse mode", c);
      bad = 1;
    }
    if (!bad && c.verbose)
      fprintf(stderr,
              "enzyme-check: ok: '%s' (called at %s, call %d): derivative %.9g, finite "
              "differences %.9g%s%.9g\n",
              fn, loc, call, own, fd, have_other ? ", other mode " : " (other mode not built)",
              have_other ? other : 0.0);
  }
done:
  for (j = 0; j < nb; j++) {
    free(s.snap[j]);
    free(s.work[j]);
    free(s.shadow[j]);
    free(s.bv[j]);
    free(s.bw[j]);
  }
  free(s.x0);
  free(s.v);
  free(s.xs);
  free(s.dxs);
  free(s.snap);
  free(s.work);
  free(s.shadow);
  free(s.bv);
  free(s.bw);
}
