/* enzyme-rs runtime for checkpointed loops and fixed points
 * (src/modes/loops). Compiled to bitcode by build.rs and linked into a
 * module on first use (internal linkage). The loop's step runs through two
 * thunks the pass generates: fwd(env, i) runs step i untaped and returns
 * whether a while loop goes on; adj(env, i) differentiates step i (its
 * augmented forward and reverse sweeps together) at the current state. */
#include "../include/enzyme/checkpoint.h"

/* The re-run's own driver (below) keeps a snapshot of the loop's state
 * before every step while that state is at most this many bytes, else
 * before every 16th step. */
#define ENZYME_RS_RERUN_STORE_ALL_BYTES 256

typedef int32_t (*enzyme_rs_fwd)(void *env, int64_t i);
typedef void (*enzyme_rs_adj)(void *env, int64_t i);

typedef struct {
  const EnzymeCheckpointScheme *scheme;
  void *state;
  EnzymeCkptConfig config; /* the default scheme's */
  int64_t start, n;
  int32_t is_while;
  EnzymeCkptRegion *regions;
  uint64_t nregions;
} enzyme_rs_ckpt;

static void die(const char *m) {
  fprintf(stderr, "enzyme-rs: checkpointed loop: %s\n", m);
  abort();
}

static EnzymeCkptRegion *copy_regions(const EnzymeCkptRegion *r, uint64_t n,
                                      uint64_t *bytes) {
  EnzymeCkptRegion *c = (EnzymeCkptRegion *)malloc((n ? n : 1) * sizeof(*c));
  uint64_t k;
  *bytes = 0;
  for (k = 0; k < n; k++) {
    c[k] = r[k];
    *bytes += r[k].bytes;
  }
  return c;
}

static void save(enzyme_rs_ckpt *c, int64_t slot, int64_t step, void *env) {
  if (c->scheme->store)
    c->scheme->store(c->state, slot, step, c->regions, c->nregions);
  else if (c->scheme->save_state)
    c->scheme->save_state(c->state, slot, step, env);
  else
    die("the scheme has neither store nor save_state");
}

static void load(enzyme_rs_ckpt *c, int64_t slot, int64_t step, void *env) {
  if (c->scheme->restore)
    c->scheme->restore(c->state, slot, step, c->regions, c->nregions);
  else if (c->scheme->load_state)
    c->scheme->load_state(c->state, slot, step, env);
  else
    die("the scheme has neither restore nor load_state");
}

/* Runs steps [a, b); a while loop that ends there reports its length. */
static void forward(enzyme_rs_ckpt *c, int64_t a, int64_t b, void *env,
                    enzyme_rs_fwd fwd) {
  int64_t j;
  for (j = a; j < b; j++) {
    int32_t more = fwd(env, c->start + j);
    if (c->is_while && !more && c->n < 0) {
      c->n = j + 1;
      if (!c->scheme->set_nsteps)
        die("the scheme cannot run a while loop (no set_nsteps)");
      c->scheme->set_nsteps(c->state, c->n);
      return;
    }
  }
}

/* The actions both sweeps carry out alike (store, restore, run forward);
   1 when `a` was one of them. */
static int replay_action(enzyme_rs_ckpt *c, const EnzymeCkptAction *a,
                         void *env, enzyme_rs_fwd fwd) {
  switch (a->flag) {
  case ENZYME_CKPT_STORE:
    save(c, a->cpnum, a->iteration, env);
    return 1;
  case ENZYME_CKPT_RESTORE:
    load(c, a->cpnum, a->iteration, env);
    return 1;
  case ENZYME_CKPT_FORWARD:
    forward(c, a->startiteration, a->iteration, env, fwd);
    return 1;
  default:
    return 0;
  }
}

/* The forward sweep: the loop, with the scheme's snapshots. */
void *__enzyme_rs_loops_ckpt_fwd(const EnzymeCheckpointScheme *scheme,
                                 void *data, int64_t start, int64_t n,
                                 int32_t is_while,
                                 const EnzymeCkptRegion *regions,
                                 uint64_t nregions, void *env,
                                 enzyme_rs_fwd fwd) {
  enzyme_rs_ckpt *c = (enzyme_rs_ckpt *)calloc(1, sizeof(*c));
  uint64_t bytes;
  c->regions = copy_regions(regions, nregions, &bytes);
  c->nregions = nregions;
  if (!scheme) {
    scheme = &EnzymeCkptPeriodic;
    data = &c->config;
    if (getenv("ENZYME_RS_CKPT_VERBOSE"))
      c->config.verbose = atoi(getenv("ENZYME_RS_CKPT_VERBOSE"));
  }
  if (scheme->version != ENZYME_CKPT_ABI_VERSION)
    die("the scheme's version is not ENZYME_CKPT_ABI_VERSION (1)");
  c->scheme = scheme;
  c->start = is_while ? 0 : start;
  c->n = is_while ? -1 : (n < 0 ? 0 : n);
  c->is_while = is_while;
  c->state = scheme->init(data, c->n, bytes);
  for (;;) {
    EnzymeCkptAction a;
    memset(&a, 0, sizeof(a));
    scheme->next_action(c->state, &a);
    if (replay_action(c, &a, env, fwd))
      continue;
    switch (a.flag) {
    case ENZYME_CKPT_FIRSTUTURN:
      save(c, -2, a.iteration - 1, env);
      fwd(env, c->start + a.iteration - 1);
      c->n = a.iteration;
      return c;
    case ENZYME_CKPT_DONE:
      c->n = 0;
      return c;
    default:
      die("unexpected action in the forward sweep");
    }
  }
}

/* Forward mode over a gradient (modes/loops/tangent.rs) adds the state's
   tangent to the regions and passes the scheme an env of its own: a
   scheme that copies the state through save_state/load_state (which read
   the step's arguments from env) cannot hold the tangent. */
void __enzyme_rs_loops_tangent_check(const EnzymeCheckpointScheme *scheme) {
  if (scheme && !scheme->store)
    die("forward mode over its gradient needs a scheme with store and "
        "restore (this one has save_state/load_state)");
}

/* The reverse sweep: each step differentiated once, last first. */
void __enzyme_rs_loops_ckpt_rev(void *vc, void *env, enzyme_rs_fwd fwd,
                                enzyme_rs_adj adj) {
  enzyme_rs_ckpt *c = (enzyme_rs_ckpt *)vc;
  if (c->n > 0) {
    save(c, -1, c->n, env);
    load(c, -2, c->n - 1, env);
    adj(env, c->start + c->n - 1);
    for (;;) {
      EnzymeCkptAction a;
      memset(&a, 0, sizeof(a));
      c->scheme->next_action(c->state, &a);
      if (a.flag == ENZYME_CKPT_DONE) {
        load(c, -1, c->n, env);
        break;
      }
      if (replay_action(c, &a, env, fwd))
        continue;
      switch (a.flag) {
      case ENZYME_CKPT_UTURN:
        adj(env, c->start + a.iteration - 1);
        break;
      default:
        die("unexpected action in the reverse sweep");
      }
    }
  }
  c->scheme->finalize(c->state);
  free(c->regions);
  free(c);
}

/* The scheme of a loop annotated in the source (enzyme_checkpoint on a
   loop; src/modes/loops/annotated.rs): 2 store-all, 3 revolve, else
   periodic. */
const EnzymeCheckpointScheme *__enzyme_rs_loops_scheme(int32_t code) {
  switch (code) {
  case 2:
    return &EnzymeCkptStoreAll;
  case 3:
    return &EnzymeCkptRevolve;
  default:
    return &EnzymeCkptPeriodic;
  }
}

/* --- the automatic re-run's own driver (src/modes/reverse/rerun.rs) ---
 * A fixed schedule: a snapshot before every step while the state is at
 * most ENZYME_RS_RERUN_STORE_ALL_BYTES, else before every 16th, each
 * segment run once more in the reverse sweep. It has the generic
 * driver's signature (the pass builds the same call) but no scheme and
 * no action protocol: the re-run pair of every costly loop links only
 * these, a fifth of the generic driver's code. */

typedef struct {
  EnzymeCkptRegion *regions;
  uint64_t nregions, bytes;
  int64_t start, n, len;
  char *snaps; /* the state before step k * len, k = 0 .. */
  int64_t cap;
} enzyme_rs_rerun;

static void put(const EnzymeCkptRegion *r, uint64_t n, void *buf);
static void get(const EnzymeCkptRegion *r, uint64_t n, const void *buf);

/* The pass marks these like the re-run pair that calls them (rerun.rs
 * mark_cold): their time is the steps'. */
void *__enzyme_rs_loops_rerun_fwd(const EnzymeCheckpointScheme *scheme,
                                  void *data, int64_t start, int64_t n,
                                  int32_t is_while,
                                  const EnzymeCkptRegion *regions,
                                  uint64_t nregions, void *env,
                                  enzyme_rs_fwd fwd) {
  enzyme_rs_rerun *c = (enzyme_rs_rerun *)calloc(1, sizeof(*c));
  int64_t j;
  uint64_t sz;
  (void)scheme;
  (void)data;
  c->regions = copy_regions(regions, nregions, &c->bytes);
  c->nregions = nregions;
  c->len = c->bytes <= ENZYME_RS_RERUN_STORE_ALL_BYTES ? 1 : 16;
  c->start = is_while ? 0 : start;
  sz = c->bytes ? c->bytes : 1;
  for (j = 0; is_while || j < n; j++) {
    if (j % c->len == 0) {
      int64_t k = j / c->len;
      if (k >= c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->snaps = (char *)realloc(c->snaps, (uint64_t)c->cap * sz);
        if (!c->snaps)
          die("out of memory for snapshots");
      }
      put(c->regions, nregions, c->snaps + (uint64_t)k * sz);
    }
    if (!fwd(env, c->start + j) && is_while) {
      j++;
      break;
    }
  }
  c->n = j;
  return c;
}

void __enzyme_rs_loops_rerun_rev(void *vc, void *env, enzyme_rs_fwd fwd,
                                 enzyme_rs_adj adj) {
  enzyme_rs_rerun *c = (enzyme_rs_rerun *)vc;
  uint64_t sz = c->bytes ? c->bytes : 1;
  if (c->n > 0) {
    char *end = (char *)malloc(sz);
    char *seg = c->len > 1 ? (char *)malloc((uint64_t)c->len * sz) : NULL;
    int64_t k, t;
    put(c->regions, c->nregions, end);
    for (k = (c->n - 1) / c->len; k >= 0; k--) {
      int64_t a = k * c->len, e = a + c->len < c->n ? a + c->len : c->n;
      get(c->regions, c->nregions, c->snaps + (uint64_t)k * sz);
      if (!seg) {
        adj(env, c->start + a);
        continue;
      }
      for (t = a; t < e - 1; t++) {
        put(c->regions, c->nregions, seg + (uint64_t)(t - a) * sz);
        fwd(env, c->start + t);
      }
      for (t = e - 1; t >= a; t--) {
        if (t < e - 1)
          get(c->regions, c->nregions, seg + (uint64_t)(t - a) * sz);
        adj(env, c->start + t);
      }
    }
    get(c->regions, c->nregions, end);
    free(seg);
    free(end);
  }
  free(c->snaps);
  free(c->regions);
  free(c);
}

/* --- fixed points --- */

typedef struct {
  EnzymeCkptRegion *regions;
  uint64_t nregions, bytes;
  void *snap;
  int64_t last;
} enzyme_rs_fp;

/* Vector reverse mode (modes/loops/pair.rs): the state before the loop,
   from which each lane's forward sweep starts. */
void *__enzyme_rs_loops_state_save(const EnzymeCkptRegion *r, uint64_t n) {
  uint64_t k, bytes = 0;
  void *buf;
  for (k = 0; k < n; k++)
    bytes += r[k].bytes;
  buf = malloc(bytes ? bytes : 1);
  if (!buf)
    die("out of memory for the state before the loop");
  put(r, n, buf);
  return buf;
}

void __enzyme_rs_loops_state_load(const void *buf, const EnzymeCkptRegion *r,
                                  uint64_t n) {
  get(r, n, buf);
}

/* Out of line: the drivers copy the state in several places. */
__attribute__((noinline)) static void put(const EnzymeCkptRegion *r,
                                          uint64_t n, void *buf) {
  uint64_t k, off = 0;
  for (k = 0; k < n; k++) {
    memcpy((char *)buf + off, r[k].ptr, r[k].bytes);
    off += r[k].bytes;
  }
}

__attribute__((noinline)) static void get(const EnzymeCkptRegion *r,
                                          uint64_t n, const void *buf) {
  uint64_t k, off = 0;
  for (k = 0; k < n; k++) {
    memcpy(r[k].ptr, (const char *)buf + off, r[k].bytes);
    off += r[k].bytes;
  }
}

/* Runs the iteration to its end and keeps the state it converged to. */
void *__enzyme_rs_loops_fp_fwd(const EnzymeCkptRegion *regions,
                               uint64_t nregions, void *env,
                               enzyme_rs_fwd fwd) {
  enzyme_rs_fp *c = (enzyme_rs_fp *)calloc(1, sizeof(*c));
  int64_t i = 0;
  while (fwd(env, i))
    i++;
  c->last = i;
  c->regions = copy_regions(regions, nregions, &c->bytes);
  c->nregions = nregions;
  c->snap = malloc(c->bytes ? c->bytes : 1);
  put(c->regions, nregions, c->snap);
  return c;
}

/* After pass k of a fixed point's adjoint or tangent iteration, whose
 * squared norm is `norm`: whether to go on. The control function decides
 * when there is one; else the built-in test: stop once the norm is zero or
 * below `reduction` times its first value, or grows again after five
 * passes. At most max_iters passes (0: no limit). */
static int fp_go_on(int64_t k, double norm, double *first, double *prev,
                    double reduction, double *red, int64_t max_iters,
                    int32_t (*control)(double *, double *)) {
  if (control) {
    double cumul = norm;
    if (!control(&cumul, red))
      return 0;
  } else {
    if (k == 1)
      *first = norm;
    if (norm == 0 || norm <= reduction * *first)
      return 0;
    if (k > 5 && norm > *prev)
      return 0;
  }
  if (max_iters > 0 && k >= max_iters)
    return 0;
  *prev = norm;
  return 1;
}

/* The adjoint fixed point: at the converged state z*, each call of adj
 * maps the state's adjoint d to phi_z^T d and adds phi_x^T d into the
 * parameters' shadows; repeated until d vanishes, the parameters get
 * phi_x^T (I - phi_z^T)^-1 zbar. */
void __enzyme_rs_loops_fp_rev(void *vc, void *env, enzyme_rs_adj adj,
                              void *const *state_shadow,
                              const uint64_t *state_bytes, uint64_t nstate,
                              double reduction, int64_t max_iters,
                              int32_t (*control)(double *, double *)) {
  enzyme_rs_fp *c = (enzyme_rs_fp *)vc;
  void *now = malloc(c->bytes ? c->bytes : 1);
  double first = -1, prev = 0, cumul = -1, red;
  int64_t k = 0;
  uint64_t s, e;
  if (reduction < 0)
    reduction = 1e-12;
  if (max_iters < 0)
    max_iters = 1000;
  red = reduction;
  if (control && !control(&cumul, &red))
    goto done;
  put(c->regions, c->nregions, now);
  for (;;) {
    double norm = 0;
    get(c->regions, c->nregions, c->snap);
    adj(env, c->last);
    k++;
    for (s = 0; s < nstate; s++) {
      const double *d = (const double *)state_shadow[s];
      if (!d)
        continue;
      for (e = 0; e < state_bytes[s] / sizeof(double); e++)
        norm += d[e] * d[e];
    }
    if (!fp_go_on(k, norm, &first, &prev, reduction, &red, max_iters, control))
      break;
  }
  get(c->regions, c->nregions, now);
done:
  for (s = 0; s < nstate; s++)
    if (state_shadow[s])
      memset(state_shadow[s], 0, state_bytes[s]);
  free(now);
  free(c->snap);
  free(c->regions);
  free(c);
}

/* Forward mode of a fixed point: the iteration runs to its end; then, at
 * the converged state z*, each call of tan maps the state's tangent s to
 * phi_z s + phi_x xdot (and writes the outputs' tangents), the state put
 * back to z* before each, until s stops changing: (I - phi_z)^-1 phi_x
 * xdot, whatever s started from. The change is the squared norm of the
 * state tangent's step; `control` (Tapenade's protocol: first called with
 * -1) or the built-in relative test decides when to stop. The primal state
 * is left as the iteration left it. */
void __enzyme_rs_loops_fp_tangent(const EnzymeCkptRegion *regions,
                                  uint64_t nregions, void *env,
                                  enzyme_rs_fwd fwd, enzyme_rs_adj tan,
                                  void *const *state_shadow,
                                  const uint64_t *state_bytes, uint64_t nstate,
                                  double reduction, int64_t max_iters,
                                  int32_t (*control)(double *, double *)) {
  enzyme_rs_fp *c = (enzyme_rs_fp *)__enzyme_rs_loops_fp_fwd(regions, nregions, env, fwd);
  uint64_t s, e, total = 0;
  double first = -1, prev = 0, cumul = -1, red;
  double *before;
  int64_t k = 0;
  if (reduction < 0)
    reduction = 1e-12;
  if (max_iters < 0)
    max_iters = 1000;
  red = reduction;
  for (s = 0; s < nstate; s++)
    total += state_bytes[s] / sizeof(double);
  before = (double *)malloc(total ? total * sizeof(double) : 1);
  if (!before)
    die("out of memory for a fixed point's tangent");
  if (control && !control(&cumul, &red))
    goto done;
  for (;;) {
    double norm = 0, *b = before;
    for (s = 0; s < nstate; s++) {
      uint64_t n = state_bytes[s] / sizeof(double);
      if (state_shadow[s])
        memcpy(b, state_shadow[s], n * sizeof(double));
      b += n;
    }
    get(c->regions, c->nregions, c->snap);
    tan(env, c->last);
    k++;
    b = before;
    for (s = 0; s < nstate; s++) {
      const double *d = (const double *)state_shadow[s];
      uint64_t n = state_bytes[s] / sizeof(double);
      for (e = 0; d && e < n; e++)
        norm += (d[e] - b[e]) * (d[e] - b[e]);
      b += n;
    }
    if (!fp_go_on(k, norm, &first, &prev, reduction, &red, max_iters, control))
      break;
  }
done:
  get(c->regions, c->nregions, c->snap);
  free(before);
  free(c->snap);
  free(c->regions);
  free(c);
}
