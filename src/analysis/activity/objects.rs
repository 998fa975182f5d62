//! The objects (allocations, arguments, globals) a pointer may point into.
use crate::ir::llvm::*;
use crate::rules::{self, CallKind};
use std::collections::HashSet;

/// Like [`underlying_objects`], but a pointer loaded from a local variable
/// (an alloca slot, as clang -O0 keeps `double *t = malloc(..)`) is looked
/// through to the objects of the pointers stored in that slot.
pub fn underlying_allocations(p: V) -> Vec<V> {
    let mut out = Vec::new();
    let mut seen_slots = HashSet::new();
    let mut work = underlying_objects(p);
    while let Some(o) = work.pop() {
        if opcode(o) == Some(LLVMOpcode::LLVMLoad) {
            let slot = operand(o, 0);
            if opcode(slot) == Some(LLVMOpcode::LLVMAlloca) {
                if seen_slots.insert(slot) {
                    for u in users(slot) {
                        if opcode(u) == Some(LLVMOpcode::LLVMStore) && operand(u, 1) == slot {
                            work.extend(underlying_objects(operand(u, 0)));
                        }
                    }
                }
                continue;
            }
        }
        if !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// The allocations/arguments/globals a pointer may be based on.
pub fn underlying_objects(p: V) -> Vec<V> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match opcode(v) {
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast,
            ) => work.push(operand(v, 0)),
            Some(LLVMOpcode::LLVMPHI) => work.extend(operands(v)),
            Some(LLVMOpcode::LLVMSelect) => {
                work.push(operand(v, 1));
                work.push(operand(v, 2));
            }
            // Vectors of pointers (gather, scatter): their lanes'.
            Some(LLVMOpcode::LLVMInsertElement) => {
                work.push(operand(v, 0));
                work.push(operand(v, 1));
            }
            Some(LLVMOpcode::LLVMShuffleVector) => {
                work.push(operand(v, 0));
                work.push(operand(v, 1));
            }
            Some(LLVMOpcode::LLVMExtractElement) => work.push(operand(v, 0)),
            Some(LLVMOpcode::LLVMCall) => {
                // Functions returning one of their arguments.
                out.push(v);
            }
            _ => {
                if let Some(op) = const_opcode(v) {
                    if matches!(
                        op,
                        LLVMOpcode::LLVMGetElementPtr
                            | LLVMOpcode::LLVMBitCast
                            | LLVMOpcode::LLVMAddrSpaceCast
                    ) {
                        work.push(operand(v, 0));
                        continue;
                    }
                }
                out.push(v)
            }
        }
    }
    out
}

/// Allocations local to a function: allocas and heap allocations.
pub(super) fn is_local_allocation(v: V) -> bool {
    opcode(v) == Some(LLVMOpcode::LLVMAlloca)
        || (is_call(v) && matches!(rules::classify(v), CallKind::Alloc(_)))
}

/// The call to a function with a body that returns pointer `v`, directly
/// (an accessor such as `std::vector::operator[]` at -O0) or inside a
/// struct (`extractvalue` of a returned `{ptr, ptr}`): such a result may
/// point into memory reached from the call's pointer arguments.
pub(super) fn pointer_result_call(v: V) -> Option<V> {
    let (call, ok) = match opcode(v) {
        Some(LLVMOpcode::LLVMExtractValue) if is_ptr(type_of(v)) => {
            let c = operand(v, 0);
            (c, is_ptr_aggregate(type_of(c)))
        }
        _ => (v, is_ptr(type_of(v))),
    };
    (ok && is_call(call) && matches!(rules::classify(call), CallKind::Defined(_))).then_some(call)
}

/// Whether pointer `p` may be derived from an argument outside `seeds` (an
/// `enzyme_const` pointer, memory with no shadow): followed through GEPs,
/// casts, phis, selects, loads (what the loaded-from memory points to),
/// local slots (the pointers stored into them) and calls with bodies (their
/// pointer arguments: an accessor's result points into what they reach).
/// An iterator over a constant vector is such a pointer; a vector built
/// inside the function (its buffer allocated by the constructor) is not.
pub(super) fn derived_from_constant_arg(p: V, seeds: &HashSet<V>) -> bool {
    let mut seen = HashSet::new();
    let mut work = vec![p];
    while let Some(v) = work.pop() {
        for o in underlying_objects(v) {
            if !seen.insert(o) {
                continue;
            }
            if is_argument(o) {
                if !seeds.contains(&o) {
                    return true;
                }
                continue;
            }
            match opcode(o) {
                Some(LLVMOpcode::LLVMLoad) => work.push(operand(o, 0)),
                Some(LLVMOpcode::LLVMAlloca) => {
                    for s in stores_into(o) {
                        if is_ptr(type_of(operand(s, 0))) {
                            work.push(operand(s, 0));
                        }
                    }
                }
                Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke)
                    if pointer_result_call(o).is_some() =>
                {
                    work.extend(call_args(o).into_iter().filter(|a| is_ptr(type_of(*a))));
                }
                _ => {}
            }
        }
    }
    false
}

/// The stores into alloca `slot` (directly or through GEPs of it).
fn stores_into(slot: V) -> Vec<V> {
    let mut out = Vec::new();
    let mut work = vec![slot];
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in users(v) {
            match opcode(u) {
                Some(LLVMOpcode::LLVMStore) if operand(u, 1) == v => out.push(u),
                Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast) => work.push(u),
                _ => {}
            }
        }
    }
    out
}

/// Whether pointer `p` (through GEPs and casts) is an address made from an
/// integer that holds no pointer's bits: `inttoptr` of constants and
/// arithmetic on them, never of a `ptrtoint` or a loaded integer, and of
/// of integer parameters as `params` says (the activity analysis: only
/// where every caller passes such an integer; a shadow: trusted, any
/// active store through the address having been refused before). Rust's
/// dangling pointer of an empty `Vec` or `Box<[T]>` (`NonNull::dangling()`:
/// the alignment as an address) is one. It points to no allocation:
/// nothing is read or written through it, it needs no shadow memory, and
/// it is its own shadow (as null is). A `uintptr_t` parameter given a
/// pointer's bits is not one.
pub fn without_provenance(p: V, params: Params) -> bool {
    let mut v = p;
    loop {
        let op = opcode(v).or_else(|| const_opcode(v));
        match op {
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast,
            ) => v = operand(v, 0),
            Some(LLVMOpcode::LLVMIntToPtr) => {
                return int_without_pointer_bits(operand(v, 0), params)
            }
            _ => return false,
        }
    }
}

/// How [`int_without_pointer_bits`] takes integer parameters.
#[derive(Clone, Copy)]
pub enum Params {
    /// As integers without pointer bits (the caller judges the pointers
    /// made of them later).
    Trusted,
    /// Only where every call of the function (the given original of a
    /// clone) passes such an integer, looking this many callers up.
    FromCallers(Option<V>, u32),
}

/// Whether integer `x` is computed from constants (and parameters, as
/// `params` says) only: no `ptrtoint`, no load, no call result but integer
/// intrinsics'.
pub fn int_without_pointer_bits(x: V, params: Params) -> bool {
    let mut seen = HashSet::new();
    let mut work = vec![x];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > 64 {
            return false;
        }
        if is_argument(v) {
            match params {
                Params::Trusted => continue,
                Params::FromCallers(primal, depth) if param_from_callers(v, primal, depth) => {
                    continue
                }
                Params::FromCallers(..) => return false,
            }
        }
        if is_constant(v) {
            match const_opcode(v) {
                None => continue, // a plain integer constant
                Some(LLVMOpcode::LLVMPtrToInt) => return false,
                Some(_) => {
                    work.extend(operands(v));
                    continue;
                }
            }
        }
        match opcode(v) {
            Some(
                LLVMOpcode::LLVMAdd
                | LLVMOpcode::LLVMSub
                | LLVMOpcode::LLVMMul
                | LLVMOpcode::LLVMUDiv
                | LLVMOpcode::LLVMSDiv
                | LLVMOpcode::LLVMURem
                | LLVMOpcode::LLVMSRem
                | LLVMOpcode::LLVMShl
                | LLVMOpcode::LLVMLShr
                | LLVMOpcode::LLVMAShr
                | LLVMOpcode::LLVMAnd
                | LLVMOpcode::LLVMOr
                | LLVMOpcode::LLVMXor
                | LLVMOpcode::LLVMZExt
                | LLVMOpcode::LLVMSExt
                | LLVMOpcode::LLVMTrunc
                | LLVMOpcode::LLVMFreeze
                | LLVMOpcode::LLVMPHI,
            ) => work.extend(operands(v)),
            Some(LLVMOpcode::LLVMSelect) => {
                work.push(operand(v, 1));
                work.push(operand(v, 2));
            }
            // A field of `llvm.umul.with.overflow` and the like.
            Some(LLVMOpcode::LLVMExtractValue) => work.push(operand(v, 0)),
            // Integer intrinsics (`llvm.usub.sat`, `llvm.umax`): of their
            // integer arguments.
            Some(LLVMOpcode::LLVMCall)
                if called_function(v).is_some_and(|f| name(f).starts_with("llvm."))
                    && call_args(v).iter().all(|a| is_int(type_of(*a))) =>
            {
                work.extend(call_args(v))
            }
            _ => return false,
        }
    }
    true
}

/// Whether every caller passes integer parameter `a` (of a clone of
/// `primal`, or of `primal` itself) an integer without pointer bits: the
/// function (`primal`) is internal and only called directly. Integer
/// parameters never get shadows, so a clone's k-th integer parameter is
/// `primal`'s k-th.
fn param_from_callers(a: V, primal: Option<V>, depth: u32) -> bool {
    use crate::ir::link::{linkage, Linkage};
    if depth == 0 {
        return false;
    }
    let f = param_parent(a);
    let p = primal.unwrap_or(f);
    let ints = |g: V| -> Vec<V> {
        params(g)
            .into_iter()
            .filter(|x| is_int(type_of(*x)))
            .collect()
    };
    let (fi, pi) = (ints(f), ints(p));
    if fi.len() != pi.len() || linkage(p) != Linkage::Internal {
        return false;
    }
    let Some(k) = fi.iter().position(|x| *x == a) else {
        return false;
    };
    let Some(pos) = params(p).iter().position(|x| *x == pi[k]) else {
        return false;
    };
    let calls = users(p);
    !calls.is_empty()
        && calls.into_iter().all(|c| {
            is_call_or_invoke(c)
                && called_value(c) == p
                && call_args(c).get(pos).is_some_and(|x| {
                    int_without_pointer_bits(*x, Params::FromCallers(None, depth - 1))
                })
        })
}
