/*
 * Contexts of shadows of globals (enzyme-rs): the runtime behind
 * __enzyme_context(width), __enzyme_shadow(ctx, &global, lane),
 * __enzyme_zero_shadows(ctx) and the `enzyme_context, ctx` marker
 * (src/modes/iface/shadows.rs). Linked as bitcode into a module that uses
 * them; every symbol starts with __enzyme_rs_shadows_ and is made internal.
 *
 * A derivative reads and writes the shadows of globals in the module's
 * shadow globals. A context owns one buffer per shadow global of its
 * width, zero when made. A call differentiated with `enzyme_context, ctx`
 * swaps the context's buffers with the shadow globals before the
 * derivative runs and swaps them back after it, so the derivative sees
 * the context's shadows and each context keeps its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *primal;
  char *shadow;
  char *buf;
  uint64_t bytes;
  int32_t lane;
  /* A descriptor global's shadow (its initializer holds pointers to other
   * globals): the shadow's initial image and the offsets of its pointers. */
  const char *init;
  const uint64_t *ptrs;
  int64_t nptrs;
  /* A pointer global whose memory the program allocates (heap): the
   * context's shadow of it points to a zeroed block of the same size that
   * the context owns (`block`, `block_bytes`). */
  int heap;
  char *block;
  uint64_t block_bytes;
} entry;

/* The allocations the program stored into pointer globals with shadows
 * (__enzyme_rs_shadows_note after each such store): global -> block, size;
 * and the block the module's own shadow of the global got from here. */
typedef struct {
  char *global;
  char *ptr;
  uint64_t bytes;
  char *block; /* the module shadow's block made here, or null */
  uint64_t block_bytes;
} note;
static note *notes;
static int64_t nnotes, cnotes;

static note *find_note(const char *global) {
  for (int64_t i = 0; i < nnotes; i++)
    if (notes[i].global == global)
      return &notes[i];
  return NULL;
}

/* A zeroed block of `bytes`, or abort. */
static char *zeroed(uint64_t bytes) {
  char *b = (char *)calloc(1, bytes ? bytes : 1);
  if (!b) {
    fprintf(stderr, "enzyme-rs: shadow of a global's memory: out of memory\n");
    abort();
  }
  return b;
}

/* After `*global = ptr` (ptr: `bytes` from an allocation): remember the
 * size; the module's own shadow of the global (`shadow`, used without a
 * context) gets a zeroed block of that size when it has none yet, or a
 * new one when the block it got from here is too small (a block the
 * program put there itself is left alone). */
void __enzyme_rs_shadows_note(void *global, void *shadow, void *ptr, uint64_t bytes) {
  note *n = find_note((char *)global);
  if (!n) {
    if (nnotes == cnotes) {
      cnotes = cnotes ? 2 * cnotes : 8;
      notes = (note *)realloc(notes, (size_t)cnotes * sizeof(note));
      if (!notes) {
        fprintf(stderr, "enzyme-rs: shadow of a global's memory: out of memory\n");
        abort();
      }
    }
    n = &notes[nnotes++];
    memset(n, 0, sizeof *n);
    n->global = (char *)global;
  }
  n->ptr = (char *)ptr;
  n->bytes = bytes;
  if (!shadow || !ptr)
    return;
  char *cur;
  memcpy(&cur, shadow, sizeof cur);
  if (cur && cur != n->block)
    return;
  if (cur && n->block_bytes >= bytes) {
    memset(cur, 0, bytes);
    return;
  }
  free(n->block);
  n->block = zeroed(bytes);
  n->block_bytes = bytes;
  memcpy(shadow, &n->block, sizeof n->block);
}

/* Entry `e`'s shadow pointer at `slot` (its buffer, or the shadow global
 * while swapped in) made to point to the context's zeroed block when the
 * global holds the allocation noted for it; `clear` zeroes a block it
 * already has. */
static void heap_block(entry *e, char *slot, int clear) {
  note *n = find_note(e->primal);
  char *p, *cur;
  memcpy(&p, e->primal, sizeof p);
  memcpy(&cur, slot, sizeof cur);
  if (!n || !p || n->ptr != p)
    return;
  if (cur && cur != e->block)
    return; /* set by the program */
  if (!cur || e->block_bytes < n->bytes) {
    free(e->block);
    e->block = zeroed(n->bytes);
    e->block_bytes = n->bytes;
    memcpy(slot, &e->block, sizeof e->block);
  } else if (clear) {
    memset(cur, 0, e->block_bytes);
  }
}

typedef struct ctx {
  int32_t width;
  int32_t inside; /* the buffers are swapped in (a derivative runs) */
  int64_t n, cap;
  entry *e;
  struct ctx *next; /* every context stays reachable (no leak report) */
} ctx;

static ctx *all_contexts;

void *__enzyme_rs_shadows_new(int32_t width) {
  ctx *c = (ctx *)calloc(1, sizeof(ctx));
  if (!c) {
    fprintf(stderr, "enzyme-rs: __enzyme_context: out of memory\n");
    abort();
  }
  c->width = width;
  c->next = all_contexts;
  all_contexts = c;
  return c;
}

void __enzyme_rs_shadows_add(void *vc, void *primal, void *shadow, uint64_t bytes, int32_t lane) {
  ctx *c = (ctx *)vc;
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 8;
    c->e = (entry *)realloc(c->e, (size_t)c->cap * sizeof(entry));
  }
  char *buf = (char *)calloc(1, bytes ? bytes : 1);
  if (!c->e || !buf) {
    fprintf(stderr, "enzyme-rs: __enzyme_context: out of memory\n");
    abort();
  }
  entry e = {(char *)primal, (char *)shadow, buf, bytes, lane, NULL, NULL, 0, 0, NULL, 0};
  c->e[c->n++] = e;
}

/* Entry added last is a pointer global whose memory the program allocates. */
void __enzyme_rs_shadows_heap(void *vc) {
  ctx *c = (ctx *)vc;
  if (c && c->n > 0)
    c->e[c->n - 1].heap = 1;
}

/* The pointers at `base` (the bytes of descriptor entry `d`) that point
 * into a shadow global of context `c` made to point to the same byte of
 * its buffer in the context (to_buf), or the other way. A context's buffer
 * of a descriptor points into the context's buffers; while a derivative
 * runs (swapped in) the shadow globals hold the context's contents, and
 * the descriptor's pointers there point into the shadow globals. */
static void translate(ctx *c, char *base, const entry *d, int to_buf) {
  for (int64_t k = 0; k < d->nptrs; k++) {
    if (d->ptrs[k] + sizeof(char *) > d->bytes)
      continue;
    char *v;
    memcpy(&v, base + d->ptrs[k], sizeof v);
    for (int64_t i = 0; i < c->n; i++) {
      entry *x = &c->e[i];
      char *from = to_buf ? x->shadow : x->buf, *to = to_buf ? x->buf : x->shadow;
      if (v >= from && v < from + (x->bytes ? x->bytes : 1)) {
        v = to + (v - from);
        memcpy(base + d->ptrs[k], &v, sizeof v);
        break;
      }
    }
  }
}

/* Entry `shadow` (added last) is a descriptor's shadow: its buffer starts
 * as `init` (the shadow global's initializer), pointers translated by
 * __enzyme_rs_shadows_finish once every entry is there. */
void __enzyme_rs_shadows_descriptor(void *vc, const void *init, const uint64_t *ptrs, int64_t n) {
  ctx *c = (ctx *)vc;
  if (!c || c->n == 0)
    return;
  entry *e = &c->e[c->n - 1];
  e->init = (const char *)init;
  e->ptrs = ptrs;
  e->nptrs = n;
  memcpy(e->buf, init, e->bytes);
}

void __enzyme_rs_shadows_finish(void *vc) {
  ctx *c = (ctx *)vc;
  for (int64_t i = 0; c && i < c->n; i++)
    if (c->e[i].nptrs)
      translate(c, c->e[i].buf, &c->e[i], 1);
}

/* Exchange the context's buffers with the shadow globals (entering and
 * leaving a derivative that uses the context). */
void __enzyme_rs_shadows_swap(void *vc) {
  ctx *c = (ctx *)vc;
  if (!c) {
    fprintf(stderr, "enzyme-rs: enzyme_context given a null context\n");
    abort();
  }
  for (int64_t i = 0; i < c->n; i++) {
    entry *e = &c->e[i];
    /* Entering: a heap pointer's shadow gets its block first. */
    if (e->heap && !c->inside && e->bytes == sizeof(char *))
      heap_block(e, e->buf, 0);
    for (uint64_t k = 0; k < e->bytes; k++) {
      char t = e->shadow[k];
      e->shadow[k] = e->buf[k];
      e->buf[k] = t;
    }
  }
  c->inside = !c->inside;
  /* Entering: the descriptors now in the shadow globals point into them;
   * leaving: the context's descriptors point into its buffers again. */
  for (int64_t i = 0; i < c->n; i++)
    if (c->e[i].nptrs)
      translate(c, c->inside ? c->e[i].shadow : c->e[i].buf, &c->e[i], !c->inside);
}

void __enzyme_rs_shadows_zero(void *vc) {
  ctx *c = (ctx *)vc;
  for (int64_t i = 0; c && i < c->n; i++) {
    /* a descriptor's shadow keeps its pointers (its initial image) */
    entry *e = &c->e[i];
    if (e->heap && !e->init && e->bytes == sizeof(char *)) {
      /* the pointer stays; its block is zeroed (or made) */
      heap_block(e, c->inside ? e->shadow : e->buf, 1);
      continue;
    }
    if (e->init)
      memcpy(e->buf, e->init, e->bytes);
    else
      memset(e->buf, 0, e->bytes);
  }
  __enzyme_rs_shadows_finish(c);
}

/* The shadow in context `vc` of the byte at `p` (inside a global), lane `lane`. */
void *__enzyme_rs_shadows_get(void *vc, void *p, int32_t lane) {
  ctx *c = (ctx *)vc;
  char *q = (char *)p;
  for (int64_t i = 0; c && i < c->n; i++) {
    entry *e = &c->e[i];
    if (e->lane == lane && q >= e->primal && q < e->primal + (e->bytes ? e->bytes : 1))
      return e->buf + (q - e->primal);
  }
  fprintf(stderr,
          "enzyme-rs: __enzyme_shadow: %p is not inside a global with a shadow in this context "
          "(width %d, lane %d)\n",
          p, c ? c->width : 0, lane);
  abort();
}
