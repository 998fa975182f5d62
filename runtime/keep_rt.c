/*
 * Kept shadow blocks (enzyme-rs): the runtime behind heap shadows that a
 * gradient keeps for its next call (src/modes/reverse/keep.rs). Compiled
 * to bitcode by build.rs and linked into a module on first use; every
 * symbol starts with __enzyme_rs_keep_ and is made internal.
 *
 * A function that allocates a block and frees it again gets, in its
 * augmented sweep, a shadow block of the same size, which its reverse sweep
 * frees. Called again and again (a gradient in an optimizer's loop), each
 * call then gets fresh memory: for a large block glibc maps it (or grows
 * and then trims the heap) and every page faults in again on each call.
 * Instead each such allocation site has a slot (a global the pass makes)
 * holding at most one block: the augmented sweep takes the slot's block
 * when it is large enough (the pass zeroes it, as it zeroes a fresh one),
 * the reverse sweep puts the block back when the slot is empty, else frees
 * it.
 *
 * Threads share the slots: taking is an atomic exchange with null, putting
 * back a compare-and-swap from null, so two threads never hold one block
 * and a block is never lost. Blocks under KEEP_MIN bytes are not kept
 * (malloc's own bins serve them without faults). Kept blocks are freed at
 * exit (and are reachable from the slots before: no leak report).
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#define KEEP_MIN 4096

typedef struct keep_slot {
  void *block;            /* the kept block, or null */
  struct keep_slot *next; /* the slots that ever kept a block */
  int32_t listed;         /* on that list (or being put there) */
} keep_slot;

static keep_slot *all_slots;
static int32_t release_registered;

static void release_all(void) {
  for (keep_slot *s = __atomic_load_n(&all_slots, __ATOMIC_ACQUIRE); s; s = s->next)
    free(__atomic_exchange_n(&s->block, (void *)0, __ATOMIC_ACQ_REL));
}

/* Put `s` on the list of slots released at exit (once). */
static void list_slot(keep_slot *s) {
  int32_t no = 0;
  if (!__atomic_compare_exchange_n(&s->listed, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return;
  keep_slot *head = __atomic_load_n(&all_slots, __ATOMIC_ACQUIRE);
  do {
    s->next = head;
  } while (!__atomic_compare_exchange_n(&all_slots, &head, s, 1, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE));
  no = 0;
  if (__atomic_compare_exchange_n(&release_registered, &no, 1, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_RELAXED))
    atexit(release_all);
}

/* A block of at least `n` bytes (not zeroed): the slot's, when it has one
 * that fits without being more than twice as large, else a new one. */
__attribute__((malloc, noinline)) void *__enzyme_rs_keep_take(keep_slot *s, uint64_t n) {
  if (n >= KEEP_MIN) {
    void *p = __atomic_exchange_n(&s->block, (void *)0, __ATOMIC_ACQUIRE);
    if (p) {
      size_t have = malloc_usable_size(p);
      if (have >= n && have / 2 <= n)
        return p;
      free(p);
    }
  }
  return malloc(n);
}

/* Done with block `p` (from __enzyme_rs_keep_take): keep it in the slot
 * when the slot is empty, else free it. */
__attribute__((noinline)) void __enzyme_rs_keep_give(void *p, keep_slot *s) {
  if (!p)
    return;
  if (malloc_usable_size(p) >= KEEP_MIN) {
    list_slot(s);
    void *none = (void *)0;
    if (__atomic_compare_exchange_n(&s->block, &none, p, 0, __ATOMIC_RELEASE,
                                    __ATOMIC_RELAXED))
      return;
  }
  free(p);
}
