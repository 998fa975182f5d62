/* ba: bundle adjustment residuals and their sparse Jacobian
 * (bench-spec.md, "BA"). Per observation i of point P_i by camera C_i:
 *   reprojection residual w_i (proj(cam, X) - m_i)  (2 values, 15 inputs:
 *   camera 11, point 3, weight 1) and weight residual 1 - w_i^2.
 * The derivative output holds, per observation, the 2x15 block (row-major)
 * then d(1 - w^2)/dw. Size: cameras points observations. */
#define PROBLEM_NAME "ba"
#define PROB_FD_TOL 1e-5
#define BA_NIN 15
typedef struct {
  int nc, np, nobs;
  double *cams, *pts, *w, *feats;
  int *ocam, *opt;
  double *err, *werr;
  char size[80];
} ctx_t;

/* The measured feature is a constant; ADOL-C would bake it into the tape as
 * a constant, so its build makes it an (unused) independent instead, and
 * one tape serves every observation. */
#ifdef ADOLC_BUILD
#define BA_FEAT REAL
#else
#define BA_FEAT double
#endif

/* Reprojection residual of one observation; in = [camera (11), X (3), w]. */
HELPER void ba_obs(const REAL *in, const BA_FEAT *feat, REAL *err) {
  const REAL *r = in, *C = in + 3, *X = in + 11;
  REAL w = in[14];
  REAL xc[3], Y[3];
  for (int i = 0; i < 3; i++) xc[i] = X[i] - C[i];
  REAL sqth = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sqth != 0) {
    REAL th = sqrt(sqth);
    REAL cs = cos(th), sn = sin(th);
    REAL k0 = r[0] / th, k1 = r[1] / th, k2 = r[2] / th;
    REAL kx = k0 * xc[0] + k1 * xc[1] + k2 * xc[2];
    REAL cr0 = k1 * xc[2] - k2 * xc[1], cr1 = k2 * xc[0] - k0 * xc[2], cr2 = k0 * xc[1] - k1 * xc[0];
    REAL t = kx * (1.0 - cs);
    Y[0] = xc[0] * cs + cr0 * sn + k0 * t;
    Y[1] = xc[1] * cs + cr1 * sn + k1 * t;
    Y[2] = xc[2] * cs + cr2 * sn + k2 * t;
  } else {
    Y[0] = xc[0] + r[1] * xc[2] - r[2] * xc[1];
    Y[1] = xc[1] + r[2] * xc[0] - r[0] * xc[2];
    Y[2] = xc[2] + r[0] * xc[1] - r[1] * xc[0];
  }
  REAL px = Y[0] / Y[2], py = Y[1] / Y[2];
  REAL s = px * px + py * py;
  REAL dist = 1.0 + in[9] * s + in[10] * s * s;
  err[0] = w * (in[6] * px * dist + in[7] - feat[0]);
  err[1] = w * (in[6] * py * dist + in[8] - feat[1]);
}

HELPER REAL ba_werr(REAL w) { return 1.0 - w * w; }

static void ba_gather(const ctx_t *c, int i, double *in) {
  memcpy(in, c->cams + 11 * (size_t)c->ocam[i], 11 * sizeof(double));
  memcpy(in + 11, c->pts + 3 * (size_t)c->opt[i], 3 * sizeof(double));
  in[14] = c->w[i];
}

/* ---- hand-written Jacobian: the chain rule carried by hand as 15-wide
 * derivative vectors through each step of the projection. */
typedef struct { double v, d[BA_NIN]; } d15;
static inline d15 d_var(double v, int i) { d15 r; memset(&r, 0, sizeof r); r.v = v; r.d[i] = 1; return r; }
static inline d15 d_add(d15 a, d15 b) { d15 r; r.v = a.v + b.v; for (int i = 0; i < BA_NIN; i++) r.d[i] = a.d[i] + b.d[i]; return r; }
static inline d15 d_sub(d15 a, d15 b) { d15 r; r.v = a.v - b.v; for (int i = 0; i < BA_NIN; i++) r.d[i] = a.d[i] - b.d[i]; return r; }
static inline d15 d_mul(d15 a, d15 b) { d15 r; r.v = a.v * b.v; for (int i = 0; i < BA_NIN; i++) r.d[i] = a.d[i] * b.v + a.v * b.d[i]; return r; }
static inline d15 d_scale(d15 a, double s) { d15 r; r.v = a.v * s; for (int i = 0; i < BA_NIN; i++) r.d[i] = a.d[i] * s; return r; }
static inline d15 d_addc(d15 a, double s) { a.v += s; return a; }
static inline d15 d_div(d15 a, d15 b) {
  d15 r; double ib = 1.0 / b.v; r.v = a.v * ib;
  for (int i = 0; i < BA_NIN; i++) r.d[i] = (a.d[i] - r.v * b.d[i]) * ib;
  return r;
}
static inline d15 d_fn(d15 a, double v, double dv) { d15 r; r.v = v; for (int i = 0; i < BA_NIN; i++) r.d[i] = a.d[i] * dv; return r; }

static void ba_obs_hand(const double *in, const double *feat, double *J) {
  d15 r[3], xc[3], Y[3];
  for (int i = 0; i < 3; i++) {
    r[i] = d_var(in[i], i);
    xc[i] = d_sub(d_var(in[11 + i], 11 + i), d_var(in[3 + i], 3 + i));
  }
  d15 sqth = d_add(d_add(d_mul(r[0], r[0]), d_mul(r[1], r[1])), d_mul(r[2], r[2]));
  if (sqth.v != 0) {
    double thv = sqrt(sqth.v);
    d15 th = d_fn(sqth, thv, 0.5 / thv);
    d15 cs = d_fn(th, cos(thv), -sin(thv)), sn = d_fn(th, sin(thv), cos(thv));
    d15 k[3] = { d_div(r[0], th), d_div(r[1], th), d_div(r[2], th) };
    d15 kx = d_add(d_add(d_mul(k[0], xc[0]), d_mul(k[1], xc[1])), d_mul(k[2], xc[2]));
    d15 cr[3] = { d_sub(d_mul(k[1], xc[2]), d_mul(k[2], xc[1])), d_sub(d_mul(k[2], xc[0]), d_mul(k[0], xc[2])),
                  d_sub(d_mul(k[0], xc[1]), d_mul(k[1], xc[0])) };
    d15 t = d_mul(kx, d_addc(d_scale(cs, -1.0), 1.0));
    for (int i = 0; i < 3; i++) Y[i] = d_add(d_add(d_mul(xc[i], cs), d_mul(cr[i], sn)), d_mul(k[i], t));
  } else {
    Y[0] = d_add(xc[0], d_sub(d_mul(r[1], xc[2]), d_mul(r[2], xc[1])));
    Y[1] = d_add(xc[1], d_sub(d_mul(r[2], xc[0]), d_mul(r[0], xc[2])));
    Y[2] = d_add(xc[2], d_sub(d_mul(r[0], xc[1]), d_mul(r[1], xc[0])));
  }
  d15 p[2] = { d_div(Y[0], Y[2]), d_div(Y[1], Y[2]) };
  d15 s = d_add(d_mul(p[0], p[0]), d_mul(p[1], p[1]));
  d15 k1 = d_var(in[9], 9), k2 = d_var(in[10], 10), f = d_var(in[6], 6), w = d_var(in[14], 14);
  d15 dist = d_addc(d_add(d_mul(k1, s), d_mul(k2, d_mul(s, s))), 1.0);
  for (int row = 0; row < 2; row++) {
    d15 pr = d_add(d_mul(f, d_mul(p[row], dist)), d_var(in[7 + row], 7 + row));
    d15 e = d_mul(w, d_addc(pr, -feat[row]));
    memcpy(J + row * BA_NIN, e.d, sizeof e.d);
  }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->nc = argc > 0 ? atoi(argv[0]) : 16;
  c->np = argc > 1 ? atoi(argv[1]) : 2000;
  c->nobs = argc > 2 ? atoi(argv[2]) : 8000;
  int nc = c->nc, np = c->np, no = c->nobs;
  c->cams = (double *)malloc(sizeof(double) * 11 * nc);
  c->pts = (double *)malloc(sizeof(double) * 3 * np);
  c->w = (double *)malloc(sizeof(double) * no);
  c->feats = (double *)malloc(sizeof(double) * 2 * no);
  c->ocam = (int *)malloc(sizeof(int) * no);
  c->opt = (int *)malloc(sizeof(int) * no);
  c->err = (double *)malloc(sizeof(double) * 2 * no);
  c->werr = (double *)malloc(sizeof(double) * no);
  rng_seed(17);
  for (int j = 0; j < nc; j++) {
    double *cam = c->cams + 11 * j;
    for (int i = 0; i < 3; i++) cam[i] = rng_unif(-0.3, 0.3);      /* rotation */
    for (int i = 0; i < 2; i++) cam[3 + i] = rng_unif(-1, 1);      /* centre */
    cam[5] = rng_unif(-12, -8);
    cam[6] = rng_unif(400, 600);                                     /* focal */
    cam[7] = rng_unif(-5, 5); cam[8] = rng_unif(-5, 5);              /* principal point */
    cam[9] = rng_unif(-1e-2, 1e-2); cam[10] = rng_unif(-1e-3, 1e-3); /* distortion */
  }
  for (int i = 0; i < 3 * np; i++) c->pts[i] = rng_unif(-1, 1);
  for (int i = 0; i < no; i++) {
    c->ocam[i] = i % nc;
    c->opt[i] = i < np ? i : (int)(rng_u01() * np);
    c->w[i] = rng_unif(0.5, 1.5);
    c->feats[2 * i] = rng_unif(-50, 50);
    c->feats[2 * i + 1] = rng_unif(-50, 50);
  }
  snprintf(c->size, sizeof c->size, "cams=%d pts=%d obs=%d", nc, np, no);
}
static int prob_nin(const ctx_t *c) { return 11 * c->nc + 3 * c->np + c->nobs; }
static int prob_nout(const ctx_t *c) { return 31 * c->nobs; }
static int prob_units(const ctx_t *c) { (void)c; return 1; }
#ifndef ADOLC_BUILD
static double prob_fd_noise(const ctx_t *c, double gmax) { (void)c; (void)gmax; return 0; }
#endif
static const char *prob_size_str(const ctx_t *c) { return c->size; }

#ifndef ADOLC_BUILD
static void run_primal(const ctx_t *c) {
  double in[BA_NIN];
  for (int i = 0; i < c->nobs; i++) {
    ba_gather(c, i, in);
    ba_obs(in, c->feats + 2 * i, c->err + 2 * i);
    c->werr[i] = ba_werr(c->w[i]);
  }
}
#endif
static void run_hand(const ctx_t *c, double *J) {
  double in[BA_NIN];
  for (int i = 0; i < c->nobs; i++) {
    ba_gather(c, i, in);
    ba_obs_hand(in, c->feats + 2 * i, J + 31 * (size_t)i);
    J[31 * (size_t)i + 30] = -2 * in[14];
  }
}

#ifndef ADOLC_BUILD
/* enzyme-rs forward mode: 15 tangent sweeps per observation. */
static void run_fwd(const ctx_t *c, double *J, int j0, int j1) {
  (void)j0; (void)j1;
  double in[BA_NIN], din[BA_NIN] = { 0 }, err[2], derr[2];
  for (int i = 0; i < c->nobs; i++) {
    double *Ji = J + 31 * (size_t)i;
    ba_gather(c, i, in);
    for (int j = 0; j < BA_NIN; j++) {
      din[j] = 1;
      __enzyme_fwddiff((void *)ba_obs, enzyme_dup, in, din, enzyme_const, c->feats + 2 * i, enzyme_dupnoneed, err, derr);
      din[j] = 0;
      Ji[j] = derr[0];
      Ji[BA_NIN + j] = derr[1];
    }
    Ji[30] = __enzyme_fwddiff((void *)ba_werr, in[14], 1.0);
  }
}

#if HAVE_VECTOR_FWD
/* enzyme-rs vector forward mode: one sweep of width 15 per observation. */
typedef struct { double d[BA_NIN]; } vec15_t;
static void run_vfwd(const ctx_t *c, double *J, int j0, int j1) {
  (void)j0; (void)j1;
  double in[BA_NIN], din[BA_NIN][BA_NIN], err[2], derr[BA_NIN][2];
  memset(din, 0, sizeof din);
  for (int j = 0; j < BA_NIN; j++) din[j][j] = 1;
  for (int i = 0; i < c->nobs; i++) {
    double *Ji = J + 31 * (size_t)i;
    ba_gather(c, i, in);
#define BA_D(j) din[j]
#define BA_E(j) derr[j]
    __enzyme_fwddiff((void *)ba_obs, enzyme_width, BA_NIN, enzyme_dup, in,
                     BA_D(0), BA_D(1), BA_D(2), BA_D(3), BA_D(4), BA_D(5), BA_D(6), BA_D(7), BA_D(8), BA_D(9),
                     BA_D(10), BA_D(11), BA_D(12), BA_D(13), BA_D(14),
                     enzyme_const, c->feats + 2 * i, enzyme_dupnoneed, err,
                     BA_E(0), BA_E(1), BA_E(2), BA_E(3), BA_E(4), BA_E(5), BA_E(6), BA_E(7), BA_E(8), BA_E(9),
                     BA_E(10), BA_E(11), BA_E(12), BA_E(13), BA_E(14));
    for (int j = 0; j < BA_NIN; j++) { Ji[j] = derr[j][0]; Ji[BA_NIN + j] = derr[j][1]; }
    Ji[30] = __enzyme_fwddiff((void *)ba_werr, in[14], 1.0);
  }
}
#endif

#if HAVE_REVERSE
/* enzyme-rs reverse mode: 2 sweeps (one per residual) per observation. */
double __enzyme_autodiff_ba_w(void *, double);
static void run_rev(const ctx_t *c, double *J) {
  double in[BA_NIN], gin[BA_NIN], err[2], derr[2];
  for (int i = 0; i < c->nobs; i++) {
    double *Ji = J + 31 * (size_t)i;
    ba_gather(c, i, in);
    for (int row = 0; row < 2; row++) {
      memset(gin, 0, sizeof gin);
      derr[0] = row == 0; derr[1] = row == 1;
      __enzyme_autodiff((void *)ba_obs, enzyme_dup, in, gin, enzyme_const, c->feats + 2 * i, enzyme_dupnoneed, err, derr);
      memcpy(Ji + row * BA_NIN, gin, sizeof gin);
    }
    Ji[30] = __enzyme_autodiff_ba_w((void *)ba_werr, in[14]);
  }
}
#endif

/* Central finite differences, 30 evaluations per observation. */
static void run_fd(const ctx_t *c, double *J, int j0, int j1) {
  (void)j0; (void)j1;
  double in[BA_NIN], ep[2], em[2];
  for (int i = 0; i < c->nobs; i++) {
    double *Ji = J + 31 * (size_t)i;
    ba_gather(c, i, in);
    for (int j = 0; j < BA_NIN; j++) {
      double xj = in[j], h = 6.0554544523933395e-06 * (fabs(xj) > 1 ? fabs(xj) : 1.0);
      in[j] = xj + h; ba_obs(in, c->feats + 2 * i, ep);
      in[j] = xj - h; ba_obs(in, c->feats + 2 * i, em);
      in[j] = xj;
      Ji[j] = (ep[0] - em[0]) / (2 * h);
      Ji[BA_NIN + j] = (ep[1] - em[1]) / (2 * h);
    }
    double h = 6.0554544523933395e-06 * (fabs(in[14]) > 1 ? fabs(in[14]) : 1.0);
    Ji[30] = (ba_werr(in[14] + h) - ba_werr(in[14] - h)) / (2 * h);
  }
}
#else
/* ADOL-C: tape the adouble ba_obs (15 independents, 2 dependents) and take
 * jacobian() per observation. adolc_tape retapes every observation (what a
 * tool must do when control flow may differ); adolc_eval reuses one tape
 * (valid here: every observation takes the same branch). */
static void ba_tape_one(const ctx_t *c, int i) {
  double in[BA_NIN], out[2];
  ba_gather(c, i, in);
  trace_on(1);
  adouble ain[BA_NIN + 2], aerr[2];
  for (int j = 0; j < BA_NIN; j++) ain[j] <<= in[j];
  ain[BA_NIN] <<= c->feats[2 * i];
  ain[BA_NIN + 1] <<= c->feats[2 * i + 1];
  ba_obs(ain, ain + BA_NIN, aerr);
  aerr[0] >>= out[0];
  aerr[1] >>= out[1];
  trace_off();
  trace_on(2);
  adouble aw, awe;
  aw <<= in[14];
  awe = ba_werr(aw);
  awe >>= out[0];
  trace_off();
}
static void adolc_tape(const ctx_t *c) {
  for (int i = 0; i < c->nobs; i++) ba_tape_one(c, i);
}
static void adolc_eval(const ctx_t *c, double *J) {
  double in[BA_NIN + 2], rows[2][BA_NIN + 2];
  double *Jp[2] = { rows[0], rows[1] };
  for (int i = 0; i < c->nobs; i++) {
    double *Ji = J + 31 * (size_t)i;
    ba_gather(c, i, in);
    in[BA_NIN] = c->feats[2 * i];
    in[BA_NIN + 1] = c->feats[2 * i + 1];
    jacobian(1, 2, BA_NIN + 2, in, Jp);
    memcpy(Ji, rows[0], BA_NIN * sizeof(double));
    memcpy(Ji + BA_NIN, rows[1], BA_NIN * sizeof(double));
    gradient(2, 1, in + 14, Ji + 30);
  }
}
static void hand_for_adolc(const ctx_t *c, double *J) { run_hand(c, J); }
#endif
