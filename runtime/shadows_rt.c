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
} entry;

typedef struct ctx {
  int32_t width;
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
  entry e = {(char *)primal, (char *)shadow, buf, bytes, lane};
  c->e[c->n++] = e;
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
    for (uint64_t k = 0; k < e->bytes; k++) {
      char t = e->shadow[k];
      e->shadow[k] = e->buf[k];
      e->buf[k] = t;
    }
  }
}

void __enzyme_rs_shadows_zero(void *vc) {
  ctx *c = (ctx *)vc;
  for (int64_t i = 0; c && i < c->n; i++)
    memset(c->e[i].buf, 0, c->e[i].bytes);
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
