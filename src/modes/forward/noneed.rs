//! `enzyme_dupnoneed` pointers in forward mode: the caller does not want
//! the primal memory written (Enzyme's sparse Hessians pass `(T*)0x1` or
//! null for it, and only the shadow is real). Calls given such a pointer
//! are inlined into the clone first, so that every write through it is in
//! the derivative itself; after the tangent code exists, the primal writes
//! through it are dropped, with everything that only fed them, when no
//! value read back from that memory is used for anything else. Otherwise
//! the primal writes stay (the primal values are needed).
use crate::analysis::activity::underlying_objects;
use crate::ir::llvm::*;
use crate::ir::shim;
use std::collections::HashSet;

/// Whether `v` (a pointer) may point into the memory of one of `params`.
fn into_params(v: V, params: &[V]) -> bool {
    is_ptr(type_of(v))
        && underlying_objects(v)
            .into_iter()
            .any(|o| params.contains(&o))
}

/// Whether `v` points into the memory of one of `params` and no other.
fn only_params(v: V, params: &[V]) -> bool {
    let objs = underlying_objects(v);
    !objs.is_empty() && objs.iter().all(|o| params.contains(o))
}

/// Inline the calls of `nf` (to functions with a body, not recursive) that
/// are given a pointer into `params`' memory, a few levels deep.
pub fn inline_calls_given(nf: V, params: &[V]) {
    // (-O0 keeps the pointers in stack slots: registers first.)
    let _ = shim::run_function_pipeline(&mut [nf], "mem2reg");
    for _ in 0..4 {
        let mut calls = Vec::new();
        for bb in blocks(nf) {
            for i in instructions(bb) {
                if !is_call(i) {
                    continue;
                }
                let Some(c) = called_function(i) else {
                    continue;
                };
                // (Only plain functions with a body: not one with a custom
                // derivative, an inactive one, a rule's or a runtime's.)
                let plain = matches!(
                    crate::rules::classify(i),
                    crate::rules::CallKind::Defined(_)
                );
                if c == nf || !plain {
                    continue;
                }
                if call_args(i).into_iter().any(|a| into_params(a, params)) {
                    calls.push(i);
                }
            }
        }
        let mut any = false;
        for c in calls {
            any |= shim::inline_call(c);
        }
        if !any {
            return;
        }
        let _ = shim::run_function_pipeline(&mut [nf], "mem2reg");
    }
}

/// A write through `i` into `params`' memory alone: a store, memset or
/// memcpy/memmove destination.
fn writes_only_params(i: V, params: &[V]) -> bool {
    match opcode(i) {
        Some(LLVMOpcode::LLVMStore) => only_params(operand(i, 1), params),
        Some(LLVMOpcode::LLVMCall) => {
            let n = called_function(i).map(name).unwrap_or_default();
            (n.starts_with("llvm.memset.")
                || n.starts_with("llvm.memcpy.")
                || n.starts_with("llvm.memmove."))
                && only_params(operand(i, 0), params)
        }
        _ => false,
    }
}

/// Intrinsics given a pointer that neither read nor write its memory
/// (lifetimes, and the object size a sanitizer's checks ask).
fn touches_no_memory(n: &str) -> bool {
    [
        "llvm.lifetime.",
        "llvm.objectsize.",
        "llvm.dbg.",
        "llvm.assume",
        "llvm.prefetch",
    ]
    .iter()
    .any(|p| n.starts_with(p))
}

/// Whether `i` can go when nothing uses it (no effect but its result).
fn pure(i: V) -> bool {
    use LLVMOpcode::*;
    match opcode(i) {
        Some(LLVMLoad) => !is_volatile(i),
        Some(
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMAdd | LLVMSub
            | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor
            | LLVMGetElementPtr | LLVMBitCast | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPExt
            | LLVMFPTrunc | LLVMSIToFP | LLVMUIToFP | LLVMFPToSI | LLVMFPToUI | LLVMPtrToInt
            | LLVMIntToPtr | LLVMICmp | LLVMFCmp | LLVMSelect | LLVMPHI | LLVMExtractValue
            | LLVMInsertValue | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector
            | LLVMFreeze,
        ) => true,
        Some(LLVMCall) => crate::ir::loopgen::is_pure_intrinsic(i),
        _ => false,
    }
}

/// Drop the primal writes into `params`' memory, and what only fed them,
/// when no value loaded from that memory is used otherwise. Returns the
/// number of writes dropped.
pub fn drop_primal_writes(nf: V, params: &[V]) -> usize {
    let mut gone: HashSet<V> = HashSet::new();
    let mut loads = Vec::new();
    let mut all = Vec::new();
    for bb in blocks(nf) {
        for i in instructions(bb) {
            all.push(i);
            if writes_only_params(i, params) {
                gone.insert(i);
            } else if opcode(i) == Some(LLVMOpcode::LLVMLoad) && into_params(operand(i, 0), params)
            {
                loads.push(i);
            } else if is_call(i)
                && call_args(i).into_iter().any(|a| into_params(a, params))
                && !called_function(i).is_some_and(|f| touches_no_memory(&name(f)))
            {
                // A call still reading or writing the memory: it stays, and
                // so must the writes it may read.
                return 0;
            }
        }
    }
    let writes = gone.len();
    if writes == 0 {
        return 0;
    }
    // What only feeds the dropped writes goes with them.
    loop {
        let mut grew = false;
        for &i in all.iter().rev() {
            if gone.contains(&i) || !pure(i) {
                continue;
            }
            let us = users(i);
            if !us.is_empty() && us.iter().all(|u| gone.contains(u)) {
                gone.insert(i);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if !loads
        .iter()
        .all(|l| gone.contains(l) || users(*l).is_empty())
    {
        return 0;
    }
    // Erase users before what they use.
    let mut order: Vec<V> = all.into_iter().filter(|i| gone.contains(i)).collect();
    order.reverse();
    for i in &order {
        if opcode(*i) == Some(LLVMOpcode::LLVMPHI) {
            replace_all_uses(*i, undef(type_of(*i)));
        }
    }
    for i in order {
        if !is_void(type_of(i)) {
            replace_all_uses(i, poison(type_of(i)));
        }
        erase(i);
    }
    for l in loads {
        if !gone.contains(&l) && users(l).is_empty() && !is_volatile(l) {
            erase(l);
        }
    }
    writes
}
