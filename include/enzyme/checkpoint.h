/*
 * enzyme/checkpoint.h -- checkpointed loops in reverse mode (enzyme-rs).
 *
 *   __enzyme_checkpoint_for((void *)step, start, n,
 *                           [enzyme_scheme, &scheme, data,]
 *                           [enzyme_checkpoint_region, ptr, bytes,]...
 *                           args...);
 *
 * runs   for (int64_t i = start; i < start + n; i++) step(i, args...);
 *
 *   __enzyme_checkpoint_while((void *)step, [same markers], args...);
 *
 * runs   int64_t i = 0; while (step(i++, args...));
 *
 * Differentiated in reverse mode, the loop's steps are not all kept on the
 * tape. The loop's state (the memory named with enzyme_checkpoint_region,
 * pointer and size in bytes) is copied into snapshots at some steps; the
 * reverse sweep restores a snapshot, runs the steps after it again, and
 * differentiates one step at a time (the step's augmented forward sweep and
 * its reverse sweep together), so no step's tape outlives it. What is kept
 * is the snapshots: with the default scheme (EnzymeCkptPeriodic, about
 * sqrt(n) segments) about 2*sqrt(n) snapshots instead of n steps' tapes.
 *
 * The step's arguments after the index are the loop's arguments: pointers
 * (duplicated or constant as the enclosing derivative has them), integers,
 * or floats (active: their adjoints are summed over the steps). The state
 * must be named with enzyme_checkpoint_region: memory the step overwrites
 * that the snapshots must hold (the step may read other memory, which must
 * not change during the loop). Global variables the step (or a function it
 * calls) writes are held too without being named.
 *
 * A scheme decides when to store snapshots, where they live, which steps
 * to run again and when to turn around (the action protocol of Revolve,
 * Griewank and Walther). Steps are counted from 0; step j runs with
 * i = start + j.
 *
 *   STORE      (iteration c, cpnum k): the state before step c; keep it in
 *              slot k.
 *   RESTORE    (iteration c, cpnum k): load slot k (the state before step c).
 *   FORWARD    (startiteration a, iteration b): run steps a..b-1 untaped.
 *   FIRSTUTURN (iteration b): the state is the one before the last step b-1
 *              (forward sweep only; the reverse sweep starts by
 *              differentiating that step).
 *   UTURN      (iteration b): the state is the one before step b-1:
 *              differentiate it.
 *   DONE       the schedule is complete (the first action when n = 0).
 *
 * The driver also stores into slot -2 (the state before the last step) and
 * slot -1 (the state when the reverse sweep starts, restored at its end),
 * which a scheme's store/restore must accept. A while loop's number of
 * steps is only known when its step returns false: init gets nsteps = -1,
 * then set_nsteps(state, n) once the loop has ended (the state is then the
 * one after the last step).
 *
 * Reference schemes here, used as `enzyme_scheme, &EnzymeCkptPeriodic,
 * &config`:
 *   EnzymeCkptPeriodic  for loops: config.snapshots segments (0: about
 *                       sqrt(n)); the reverse sweep runs each segment again,
 *                       storing every step of it. While loops: a snapshot
 *                       every config.snapshots steps (0: 16).
 *   EnzymeCkptStoreAll  a snapshot before every step.
 *   EnzymeCkptRevolve   binomial checkpointing with config.snapshots slots
 *                       (for loops only): the fewest recomputed steps for
 *                       that many snapshots, about n log(n) / log(slots).
 * Without enzyme_scheme, enzyme-rs uses EnzymeCkptPeriodic with
 * config.snapshots = 0.
 */
#ifndef ENZYME_CHECKPOINT_H
#define ENZYME_CHECKPOINT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENZYME_CKPT_ABI_VERSION 1

enum {
  ENZYME_CKPT_NONE = 0,
  ENZYME_CKPT_STORE = 1,
  ENZYME_CKPT_RESTORE = 2,
  ENZYME_CKPT_FORWARD = 3,
  ENZYME_CKPT_FIRSTUTURN = 4,
  ENZYME_CKPT_UTURN = 5,
  ENZYME_CKPT_ERROR = 6,
  ENZYME_CKPT_DONE = 7
};

typedef struct EnzymeCkptAction {
  int32_t flag;
  int64_t iteration;
  int64_t startiteration;
  int64_t cpnum;
} EnzymeCkptAction;

/* One piece of memory a snapshot holds. */
typedef struct EnzymeCkptRegion {
  void *ptr;
  uint64_t bytes;
  uint32_t addrspace;
  uint32_t flags;
} EnzymeCkptRegion;

typedef struct EnzymeCheckpointScheme {
  uint32_t version; /* ENZYME_CKPT_ABI_VERSION */
  /* nsteps: -1 for a while loop; snapshot_bytes: the regions' total size. */
  void *(*init)(void *data, int64_t nsteps, uint64_t snapshot_bytes);
  void (*next_action)(void *state, EnzymeCkptAction *out);
  void (*store)(void *state, int64_t slot, int64_t step,
                const EnzymeCkptRegion *regions, uint64_t nregions);
  void (*restore)(void *state, int64_t slot, int64_t step,
                  const EnzymeCkptRegion *regions, uint64_t nregions);
  void (*set_nsteps)(void *state, int64_t nsteps); /* may be NULL */
  void (*finalize)(void *state);
  /* Optional, used when store is NULL: the scheme copies the state itself.
   * env points at the step's arguments after i, each followed by its shadow
   * when it has one (8-byte slots). */
  void (*save_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*load_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*set_paths)(void *state, const int64_t *paths, uint64_t len);
} EnzymeCheckpointScheme;

extern int enzyme_scheme;
extern int enzyme_checkpoint_region;

void __enzyme_checkpoint_for(void *step, int64_t start, int64_t n, ...);
void __enzyme_checkpoint_while(void *step, ...);

typedef struct EnzymeCkptStats {
  int64_t forward_steps; /* steps run untaped */
  int64_t taped_steps;   /* steps differentiated */
  int64_t stores;
  int64_t restores;
  int64_t max_slots; /* most slots holding a snapshot at once */
  uint64_t max_bytes;
} EnzymeCkptStats;

typedef struct EnzymeCkptConfig {
  int64_t snapshots; /* see the schemes above */
  int verbose;       /* 1: a summary on stderr; 2: every action too */
  const char *spill_dir; /* not used by these schemes (memory only) */
  uint64_t mem_budget;
  EnzymeCkptStats *stats; /* if not NULL, filled in at the end */
} EnzymeCkptConfig;

/* --- Periodic / store-all (one generator, written for enzyme-rs) --- */

typedef struct enzyme_ckpt_periodic {
  const EnzymeCkptConfig *config;
  uint64_t bytes;
  void **slots; /* index slot + 2 */
  int64_t nslots, live;
  EnzymeCkptStats stats;
  int64_t n;  /* -1 until known */
  int64_t len; /* steps per segment */
  int64_t segs; /* segments (known with n) */
  int64_t s, a, e, j, fs, fa;
  int phase, sub;
} enzyme_ckpt_periodic;

static inline void enzyme_ckpt_die(const char *m) {
  fprintf(stderr, "enzyme checkpoint: %s\n", m);
  abort();
}

static inline int64_t enzyme_ckpt_isqrt(int64_t n) {
  int64_t r = 1;
  while (r * r < n)
    r++;
  return r;
}

static inline void enzyme_ckpt_periodic_size(enzyme_ckpt_periodic *p) {
  p->segs = p->n <= 0 ? 1 : (p->n + p->len - 1) / p->len;
}

static inline void *enzyme_ckpt_periodic_start(const EnzymeCkptConfig *c,
                                               int64_t n, uint64_t bytes,
                                               int64_t segments_or_len) {
  enzyme_ckpt_periodic *p =
      (enzyme_ckpt_periodic *)calloc(1, sizeof(enzyme_ckpt_periodic));
  p->config = c;
  p->bytes = bytes;
  p->n = n;
  if (n >= 0) {
    int64_t segs = segments_or_len > 0 ? segments_or_len : enzyme_ckpt_isqrt(n);
    if (segs > n)
      segs = n > 0 ? n : 1;
    p->len = n > 0 ? (n + segs - 1) / segs : 1;
    enzyme_ckpt_periodic_size(p);
  } else {
    p->len = segments_or_len > 0 ? segments_or_len : 16;
  }
  return p;
}

static inline void *enzyme_ckpt_periodic_init(void *data, int64_t n,
                                              uint64_t bytes) {
  const EnzymeCkptConfig *c = (const EnzymeCkptConfig *)data;
  return enzyme_ckpt_periodic_start(c, n, bytes, c ? c->snapshots : 0);
}

static inline void *enzyme_ckpt_storeall_init(void *data, int64_t n,
                                              uint64_t bytes) {
  const EnzymeCkptConfig *c = (const EnzymeCkptConfig *)data;
  enzyme_ckpt_periodic *p =
      (enzyme_ckpt_periodic *)enzyme_ckpt_periodic_start(c, n, bytes, 0);
  p->len = 1;
  if (n >= 0)
    enzyme_ckpt_periodic_size(p);
  return p;
}

static inline void enzyme_ckpt_act(enzyme_ckpt_periodic *p,
                                   EnzymeCkptAction *o, int32_t flag,
                                   int64_t it, int64_t start, int64_t cp) {
  o->flag = flag;
  o->iteration = it;
  o->startiteration = start;
  o->cpnum = cp;
  if (flag == ENZYME_CKPT_FORWARD)
    p->stats.forward_steps += it - start;
  if (flag == ENZYME_CKPT_FIRSTUTURN || flag == ENZYME_CKPT_UTURN)
    p->stats.taped_steps++;
  if (p->config && p->config->verbose > 1)
    fprintf(stderr, "enzyme checkpoint: action %d %lld %lld %lld\n", flag,
            (long long)it, (long long)start, (long long)cp);
}

/* The slot of the state before step t of the segment being reversed. */
static inline int64_t enzyme_ckpt_slot(enzyme_ckpt_periodic *p, int64_t t) {
  return t == p->a ? p->s : p->segs + (t - p->a);
}

static inline void enzyme_ckpt_periodic_next(void *state,
                                             EnzymeCkptAction *o) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  for (;;) {
    if (p->n == 0 || p->phase == 2) {
      enzyme_ckpt_act(p, o, ENZYME_CKPT_DONE, 0, 0, 0);
      return;
    }
    if (p->phase == 0) {
      switch (p->sub) {
      case 0: /* store the segment's first state */
        p->a = p->s * p->len;
        p->sub = 1;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_STORE, p->a, 0, p->s);
        return;
      case 1:
        if (p->n >= 0 && p->a + p->len >= p->n) { /* the last segment */
          p->sub = 2;
          if (p->a < p->n - 1) {
            enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, p->n - 1, p->a, 0);
            return;
          }
          continue;
        }
        p->fs = p->s;
        p->fa = p->a;
        p->s++;
        p->sub = 0;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, p->a + p->len, p->a, 0);
        return;
      case 2:
        p->phase = 1;
        p->e = p->n - 1;
        p->sub = 10;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_FIRSTUTURN, p->n, 0, 0);
        return;
      case 5: /* a while loop ended: back to its last segment's start */
        p->sub = 1;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_RESTORE, p->a, 0, p->s);
        return;
      }
    }
    switch (p->sub) {
    case 10: /* the segment [a, e) is left to reverse */
      if (p->e <= p->a) {
        if (p->s == 0) {
          p->phase = 2;
          continue;
        }
        p->s--;
        p->a = p->s * p->len;
        p->e = p->a + p->len;
        continue;
      }
      p->j = p->a;
      p->sub = 11;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_RESTORE, p->a, 0, p->s);
      return;
    case 11: /* run the segment again up to the step to reverse */
      if (p->j < p->e - 1) {
        p->sub = 12;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, p->j + 1, p->j, 0);
        return;
      }
      p->sub = 13;
      continue;
    case 12:
      p->j++;
      if (p->j < p->e - 1) {
        p->sub = 11;
        enzyme_ckpt_act(p, o, ENZYME_CKPT_STORE, p->j, 0,
                        enzyme_ckpt_slot(p, p->j));
        return;
      }
      p->sub = 13;
      continue;
    case 13:
      p->sub = 14;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_UTURN, p->e, 0, 0);
      p->e--;
      return;
    case 14:
      if (p->e <= p->a) {
        p->sub = 10;
        continue;
      }
      p->sub = 13;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_RESTORE, p->e - 1, 0,
                      enzyme_ckpt_slot(p, p->e - 1));
      return;
    }
    enzyme_ckpt_die("periodic scheme: bad state");
  }
}

static inline void enzyme_ckpt_periodic_nsteps(void *state, int64_t n) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  p->n = n;
  enzyme_ckpt_periodic_size(p);
  /* The state is after step n-1, in the segment of the last FORWARD. */
  p->s = p->fs;
  p->a = p->fa;
  p->sub = 5;
}

static inline void enzyme_ckpt_periodic_store(void *state, int64_t slot,
                                              int64_t step,
                                              const EnzymeCkptRegion *r,
                                              uint64_t nr) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  int64_t idx = slot + 2;
  uint64_t k, off = 0;
  (void)step;
  if (idx < 0)
    enzyme_ckpt_die("bad slot");
  if (idx >= p->nslots) {
    int64_t m = p->nslots ? p->nslots : 8, i;
    while (m <= idx)
      m *= 2;
    p->slots = (void **)realloc(p->slots, m * sizeof(void *));
    for (i = p->nslots; i < m; i++)
      p->slots[i] = NULL;
    p->nslots = m;
  }
  if (!p->slots[idx]) {
    p->slots[idx] = malloc(p->bytes ? p->bytes : 1);
    if (slot >= 0) {
      p->live++;
      if (p->live > p->stats.max_slots) {
        p->stats.max_slots = p->live;
        p->stats.max_bytes = (uint64_t)p->live * p->bytes;
      }
    }
  }
  for (k = 0; k < nr; k++) {
    memcpy((char *)p->slots[idx] + off, r[k].ptr, r[k].bytes);
    off += r[k].bytes;
  }
  if (slot >= 0)
    p->stats.stores++;
}

static inline void enzyme_ckpt_periodic_restore(void *state, int64_t slot,
                                                int64_t step,
                                                const EnzymeCkptRegion *r,
                                                uint64_t nr) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  int64_t idx = slot + 2;
  uint64_t k, off = 0;
  (void)step;
  if (idx < 0 || idx >= p->nslots || !p->slots[idx])
    enzyme_ckpt_die("restore of a slot never stored");
  for (k = 0; k < nr; k++) {
    memcpy(r[k].ptr, (char *)p->slots[idx] + off, r[k].bytes);
    off += r[k].bytes;
  }
  if (slot >= 0)
    p->stats.restores++;
}

static inline void enzyme_ckpt_periodic_finalize(void *state) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  int64_t i;
  if (p->config && p->config->verbose > 0)
    fprintf(stderr,
            "enzyme checkpoint: %lld forward steps, %lld taped steps, %lld "
            "stores, %lld restores, %lld slots (%llu bytes)\n",
            (long long)p->stats.forward_steps, (long long)p->stats.taped_steps,
            (long long)p->stats.stores, (long long)p->stats.restores,
            (long long)p->stats.max_slots,
            (unsigned long long)p->stats.max_bytes);
  if (p->config && p->config->stats)
    *p->config->stats = p->stats;
  for (i = 0; i < p->nslots; i++)
    free(p->slots[i]);
  free(p->slots);
  free(p);
}

static const EnzymeCheckpointScheme EnzymeCkptPeriodic
    __attribute__((unused)) = {
        ENZYME_CKPT_ABI_VERSION,      enzyme_ckpt_periodic_init,
        enzyme_ckpt_periodic_next,    enzyme_ckpt_periodic_store,
        enzyme_ckpt_periodic_restore, enzyme_ckpt_periodic_nsteps,
        enzyme_ckpt_periodic_finalize, 0,
        0,                            0};

static const EnzymeCheckpointScheme EnzymeCkptStoreAll
    __attribute__((unused)) = {
        ENZYME_CKPT_ABI_VERSION,      enzyme_ckpt_storeall_init,
        enzyme_ckpt_periodic_next,    enzyme_ckpt_periodic_store,
        enzyme_ckpt_periodic_restore, enzyme_ckpt_periodic_nsteps,
        enzyme_ckpt_periodic_finalize, 0,
        0,                            0};

/* --- Revolve: binomial checkpointing (written for enzyme-rs) ---
 * config.snapshots slots (at least 1). To reverse steps [a, b) from a
 * snapshot of the state before a with s more slots free, it advances to
 * a + d, stores that state, reverses [a + d, b) with s - 1 slots, restores
 * the state before a and reverses [a, a + d) with s slots; with no free
 * slot, each step is reached again from a. d is chosen so that both parts
 * fit the same number of sweeps (binomial coefficients). */

typedef struct enzyme_ckpt_frame {
  int64_t a, b, s, slot, t;
  int phase;
} enzyme_ckpt_frame;

typedef struct enzyme_ckpt_revolve {
  enzyme_ckpt_periodic base; /* snapshot storage and statistics */
  enzyme_ckpt_frame *stack;
  int64_t depth, cap, slots;
  int started, first;
} enzyme_ckpt_revolve;

/* C(n, k), saturating. */
static inline double enzyme_ckpt_binom(int64_t n, int64_t k) {
  double r = 1;
  int64_t i;
  if (k < 0 || k > n)
    return 0;
  for (i = 1; i <= k; i++) {
    r = r * (double)(n - k + i) / (double)i;
    if (r > 1e18)
      return 1e18;
  }
  return r;
}

/* How far from a the next snapshot goes, for l steps and s free slots. */
static inline int64_t enzyme_ckpt_split(int64_t l, int64_t s) {
  int64_t r = 0;
  double right;
  while (enzyme_ckpt_binom(s + r, s) < (double)l)
    r++;
  right = r > 0 ? enzyme_ckpt_binom(s + r - 1, s - 1) : 1;
  if (right > (double)(l - 1))
    right = (double)(l - 1);
  return l - (int64_t)right;
}

static inline void *enzyme_ckpt_revolve_init(void *data, int64_t n, uint64_t bytes) {
  const EnzymeCkptConfig *c = (const EnzymeCkptConfig *)data;
  enzyme_ckpt_revolve *r;
  if (n < 0)
    enzyme_ckpt_die("revolve needs the number of steps: use it for __enzyme_checkpoint_for");
  r = (enzyme_ckpt_revolve *)calloc(1, sizeof(enzyme_ckpt_revolve));
  r->base.config = c;
  r->base.bytes = bytes;
  r->base.n = n;
  r->slots = c && c->snapshots > 0 ? c->snapshots : 1;
  r->first = 1;
  return r;
}

static inline void enzyme_ckpt_push(enzyme_ckpt_revolve *r, int64_t a, int64_t b,
                                    int64_t s, int64_t slot) {
  if (r->depth == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->stack = (enzyme_ckpt_frame *)realloc(r->stack, r->cap * sizeof(enzyme_ckpt_frame));
  }
  r->stack[r->depth].a = a;
  r->stack[r->depth].b = b;
  r->stack[r->depth].s = s;
  r->stack[r->depth].slot = slot;
  r->stack[r->depth].t = 0;
  r->stack[r->depth].phase = 0;
  r->depth++;
}

static inline void enzyme_ckpt_turn(enzyme_ckpt_revolve *r, EnzymeCkptAction *o,
                                    int64_t b) {
  enzyme_ckpt_act(&r->base, o, r->first ? ENZYME_CKPT_FIRSTUTURN : ENZYME_CKPT_UTURN, b, 0, 0);
  r->first = 0;
}

static inline void enzyme_ckpt_revolve_next(void *state, EnzymeCkptAction *o) {
  enzyme_ckpt_revolve *r = (enzyme_ckpt_revolve *)state;
  enzyme_ckpt_periodic *p = &r->base;
  if (!r->started) {
    r->started = 1;
    if (p->n == 0) {
      enzyme_ckpt_act(p, o, ENZYME_CKPT_DONE, 0, 0, 0);
      return;
    }
    enzyme_ckpt_push(r, 0, p->n, r->slots - 1, 0);
    enzyme_ckpt_act(p, o, ENZYME_CKPT_STORE, 0, 0, 0);
    return;
  }
  while (r->depth > 0) {
    enzyme_ckpt_frame *f = &r->stack[r->depth - 1];
    int64_t l = f->b - f->a, d;
    switch (f->phase) {
    case 0:
      if (l == 1) {
        r->depth--;
        enzyme_ckpt_turn(r, o, f->b);
        return;
      }
      if (f->s == 0) {
        f->t = f->b - 1;
        f->phase = 11;
        if (f->t > f->a) {
          enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, f->t, f->a, 0);
          return;
        }
        continue;
      }
      d = enzyme_ckpt_split(l, f->s);
      f->t = f->a + d;
      f->phase = 1;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, f->t, f->a, 0);
      return;
    case 1:
      f->phase = 2;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_STORE, f->t, 0, f->slot + 1);
      return;
    case 2:
      f->phase = 3;
      enzyme_ckpt_push(r, f->t, f->b, f->s - 1, f->slot + 1);
      continue;
    case 3:
      f->phase = 0;
      f->b = f->t;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_RESTORE, f->a, 0, f->slot);
      return;
    case 11: /* no free slot: step t from a again */
      f->phase = 12;
      enzyme_ckpt_turn(r, o, f->t + 1);
      f->t--;
      return;
    case 12:
      if (f->t < f->a) {
        r->depth--;
        continue;
      }
      f->phase = 13;
      enzyme_ckpt_act(p, o, ENZYME_CKPT_RESTORE, f->a, 0, f->slot);
      return;
    case 13:
      f->phase = 11;
      if (f->t > f->a) {
        enzyme_ckpt_act(p, o, ENZYME_CKPT_FORWARD, f->t, f->a, 0);
        return;
      }
      continue;
    }
  }
  enzyme_ckpt_act(p, o, ENZYME_CKPT_DONE, 0, 0, 0);
}

static inline void enzyme_ckpt_revolve_finalize(void *state) {
  enzyme_ckpt_revolve *r = (enzyme_ckpt_revolve *)state;
  free(r->stack);
  enzyme_ckpt_periodic_finalize(state);
}

static const EnzymeCheckpointScheme EnzymeCkptRevolve __attribute__((unused)) = {
    ENZYME_CKPT_ABI_VERSION,      enzyme_ckpt_revolve_init,
    enzyme_ckpt_revolve_next,     enzyme_ckpt_periodic_store,
    enzyme_ckpt_periodic_restore, 0,
    enzyme_ckpt_revolve_finalize, 0,
    0,                            0};

#ifdef __cplusplus
}
#endif

#endif /* ENZYME_CHECKPOINT_H */
