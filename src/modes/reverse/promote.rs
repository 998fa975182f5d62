//! Stack memory a custom reverse function will read: the user's reverse
//! function (or the BLAS runtime's, `runtime/blas/`) receives the primal
//! pointer arguments of the call, and runs in
//! the reverse sweep, after the augmented forward sweep (which owns the
//! stack frame) has returned, or at -O2 after the slot's lifetime ended.
//! Such allocas become heap allocations freed at the function's returns;
//! the augmented sweep defers those frees to the reverse sweep like any
//! other (so the memory lives exactly as long as the reverse needs it).
use crate::analysis::activity::underlying_objects;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::rules::{self, CallKind};

/// Rewrite, in the augmented clone `f` (before any analysis), the allocas
/// whose address reaches a call with a registered custom gradient (or a
/// loop function, `modes/loops`).
/// Returns the heap allocations that replaced them: their frees must be
/// deferred to the reverse sweep whether or not the memory is active.
pub fn heap_allocas_for_custom_calls(f: V) -> Vec<V> {
    let mut slots = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            // BLAS calls are resolved like custom ones: the runtime's
            // reverse reads the primal pointers, Fortran's `&n`, `&incx` too.
            let custom = matches!(rules::classify(i),
                CallKind::Custom(c) if c.gradient.is_some())
                || matches!(rules::classify(i), CallKind::Blas(_));
            // Loop functions (checkpointing, fixed points) run steps again
            // in the reverse sweep, reading the same memory.
            let looped = called_function(i).is_some_and(crate::modes::loops::pair::is_loop_fn);
            if !custom && !looped {
                continue;
            }
            for a in call_args(i) {
                if !is_ptr(type_of(a)) {
                    continue;
                }
                for o in underlying_objects(a) {
                    if opcode(o) == Some(LLVMOpcode::LLVMAlloca)
                        && inst_fn(o) == f
                        && !slots.contains(&o)
                    {
                        slots.push(o);
                    }
                }
            }
        }
    }
    let mut heaps = Vec::new();
    if slots.is_empty() {
        return heaps;
    }
    let m = module_of(f);
    let b = Builder::new(m);
    let rets: Vec<V> = blocks(f)
        .into_iter()
        .map(terminator)
        .filter(|t| opcode(*t) == Some(LLVMOpcode::LLVMRet))
        .collect();
    for slot in &slots {
        let size = type_alloc_size(m, allocated_type(*slot));
        b.before(*slot);
        b.set_debug_loc_from(*slot);
        let count = b.int_cast(operand(*slot, 0), i64_type(b.ctx), false);
        let bytes = b.mul(count, const_i64(b.ctx, size as i64));
        let heap = b.malloc(bytes);
        set_name(heap, &format!("{}.heap", name(*slot)));
        heaps.push(heap);
        for u in users(*slot) {
            if is_lifetime_marker(u) {
                erase(u);
            }
        }
        replace_all_uses(*slot, heap);
        erase(*slot);
        for r in &rets {
            b.before(*r);
            b.free(heap);
        }
    }
    heaps
}
