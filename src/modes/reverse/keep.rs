//! Heap shadows kept for the next call (runtime/keep_rt.c).
//!
//! A function that allocates a block and frees it (`X = malloc(n); ...;
//! free(X)`) gets a shadow block in its augmented sweep, freed by its
//! reverse sweep. A gradient called again and again then faults a large
//! block's pages in on every call (glibc maps it, or trims the heap when
//! both blocks are freed). Such a shadow is instead taken from a slot of
//! its allocation site (`__enzyme_rs_keep_take(slot, n)`, a block of at
//! least `n` bytes, zeroed here as a fresh one is) and put back by the
//! reverse sweep (`__enzyme_rs_keep_give(p, slot)`: kept when the slot is
//! empty, else freed), as the tape buffer is kept in a per-thread cache.
//!
//! Only where the reverse sweep of the same function frees the shadow
//! (the primal's free deferred there, with plain `free` / `delete`), for
//! `malloc`, `calloc` and unaligned `new`, and not for a block the function
//! reallocates; not in device code. `ENZYME_RS_KEEP_SHADOW=0` turns it off.
//! A clone differentiated in turn (higher order) gets `malloc` / `free`
//! back ([`unkeep_nested`]). The classifier knows the two calls as an
//! allocation and a free (the memory analyses see a fresh block).
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::rules;

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/keep_rt.bc"));
const PREFIX: &str = "__enzyme_rs_keep_";
use crate::rules::{KEEP_GIVE as GIVE, KEEP_TAKE as TAKE};
/// Blocks of fewer bytes are not kept (the runtime's KEEP_MIN): a constant
/// size below it keeps the plain allocation.
const MIN_BYTES: i64 = 4096;

fn helper(m: LLVMModuleRef, full: &str) -> Result<V> {
    if let Some(f) = get_function(m, full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, PREFIX)
        .map_err(|e| Error::internal(format!("keep runtime: {e}")))?;
    get_function(m, full).ok_or_else(|| Error::internal(format!("keep runtime has no {full}")))
}

/// Whether the shadow of allocation `i` (a call of `malloc`, `calloc` or
/// `new`, whose free the reverse sweep of the same function does with
/// plain `free` / `delete`: `deferred_plain`) may come from a slot.
pub fn may_keep(m: LLVMModuleRef, i: V, deferred_plain: bool, enabled: bool) -> bool {
    if !enabled || !deferred_plain || crate::modes::gpu::is_device(m) {
        return false;
    }
    let Some(f) = called_function(i) else {
        return false;
    };
    let n = name(f);
    if !matches!(
        n.as_str(),
        "malloc" | "calloc" | "_Znwm" | "_Znam" | "_ZnwmRKSt9nothrow_t" | "_ZnamRKSt9nothrow_t"
    ) || rules::registry::alloc_free(&n).is_some()
    {
        return false;
    }
    // A constant size under the runtime's minimum: malloc's bins serve it.
    let small = |v: V| const_int_value(v).is_some_and(|k| (0..MIN_BYTES).contains(&k));
    let size_small = if n == "calloc" {
        small(operand(i, 0)) && small(operand(i, 1)) && {
            let (a, b) = (
                const_int_value(operand(i, 0)),
                const_int_value(operand(i, 1)),
            );
            a.zip(b).is_some_and(|(a, b)| a * b < MIN_BYTES)
        }
    } else {
        small(operand(i, 0))
    };
    // The realloc lowering copies the old shadow by the primal's usable size.
    let reallocated = crate::modes::reverse::aug::may_be_reallocated(m, i);
    !size_small && !reallocated
}

/// A slot for one allocation site (and vector lane): the runtime's
/// `{ptr block, ptr next, i32 listed}`, zero.
pub fn new_slot(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let ty = struct_type(ctx, &mut [ptr_type(ctx), ptr_type(ctx), i32_type(ctx)]);
    let g = add_global(m, ty, "enzyme_rs.keep.slot");
    set_initializer(g, zero(ty));
    set_internal(g);
    g
}

/// Whether `o` is a slot global made by [`new_slot`]: memory of the
/// runtime's alone, which no pointer of the primal reaches.
pub fn is_slot(o: V) -> bool {
    is_global_var(o) && name(o).starts_with("enzyme_rs.keep.slot")
}

/// Whether `f` is the runtime's `take` or `give`: they write only their
/// slot (and the allocator's own state).
pub fn is_helper(f: V) -> bool {
    let n = name(f);
    n == TAKE || n == GIVE
}

/// `take(slot, bytes)`: a block of at least `bytes` bytes, not zeroed.
pub fn take(b: &Builder, slot: V, bytes: V) -> Result<V> {
    let f = helper(b.module, TAKE)?;
    let n = b.int_cast(bytes, i64_type(b.ctx), false);
    Ok(b.call_fn(f, &mut [slot, n]))
}

/// `give(p, slot)`: the reverse sweep is done with the block `p`.
pub fn give(b: &Builder, p: V, slot: V) -> Result<()> {
    let f = helper(b.module, GIVE)?;
    b.call_fn(f, &mut [p, slot]);
    Ok(())
}

/// In a clone that is itself differentiated (a gradient nested in
/// differentiated code), the slots are state its derivative cannot mirror:
/// each take becomes `malloc(bytes)` and each give `free(p)`, which the
/// outer derivative handles as allocations.
pub fn unkeep_nested(m: LLVMModuleRef, f: V) {
    super::inplace::strip_in(f);
    let b = Builder::new(m);
    for bb in blocks(f) {
        for i in instructions(bb) {
            let Some(c) = (if is_call(i) { called_function(i) } else { None }) else {
                continue;
            };
            let n = name(c);
            if n != TAKE && n != GIVE {
                continue;
            }
            b.before(i);
            b.set_debug_loc_from(i);
            if n == TAKE {
                let p = b.malloc(operand(i, 1));
                replace_all_uses(i, p);
            } else {
                b.free(operand(i, 0));
            }
            erase(i);
        }
    }
}
