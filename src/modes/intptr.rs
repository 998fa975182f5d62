//! Pointers copied as integers, made pointers again.
//!
//! The optimizer copies a small struct holding a pointer (an Eigen
//! expression such as `Transpose<Matrix>` inside a `Product`) with integer
//! loads and stores: `%v = load i64, ptr %src`, then `store i64 %v, ptr
//! %dst` and `inttoptr i64 %v to ptr` where the pointer is used. Integers
//! have no shadow, so the modes could not follow the memory reached
//! through such a copy. An integer load with an `inttoptr` use is the copy
//! of a pointer: it becomes `load ptr`, its stores store the pointer, its
//! `inttoptr`s are the pointer itself and any other use (an alignment test)
//! gets a `ptrtoint` of it (the same bits in memory, the same program).
//! Likewise a `ptrtoint` whose value is only stored becomes a store of
//! the pointer. An `inttoptr` of an integer phi or select whose leaves
//! are `ptrtoint`s and plain integers (SROA's integer copy of an enum that
//! holds a pointer: Rust's `Result<NonNull<u8>, _>` of an allocation, the
//! dangling address of an empty `Vec` beside the allocated one) becomes a
//! pointer phi or select of the pointers (plain integers as constant
//! addresses). Both modes run this on the clone before the activity
//! analysis (from `dispatch::prepare_calls`).
use std::collections::HashMap;

use crate::analysis::activity::{int_without_pointer_bits, Params};
use crate::ir::llvm::*;
use crate::ir::Builder;
use LLVMOpcode::*;

/// Rewrite the integer copies of pointers in `f`. Returns how many
/// instructions were rewritten.
pub fn pointers_from_integers(m: LLVMModuleRef, f: V) -> usize {
    let mut loads = Vec::new();
    let mut casts = Vec::new();
    let mut merged = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMIntToPtr)
                    if address_space_zero(type_of(i))
                        && matches!(opcode(operand(i, 0)), Some(LLVMPHI | LLVMSelect))
                        && merges_pointers(operand(i, 0)) =>
                {
                    merged.push(i)
                }
                Some(LLVMLoad) if is_pointer_copy(i) => loads.push(i),
                Some(LLVMPtrToInt) if only_stored(i) && pointer_sized(type_of(i)) => casts.push(i),
                _ => {}
            }
        }
    }
    let b = Builder::new(m);
    let ptr = ptr_type(module_context(m));
    let n = loads.len() + casts.len() + merged.len();
    let mut made = HashMap::new();
    for cast in merged {
        let p = as_pointer(&b, operand(cast, 0), ptr, cast, &mut made);
        replace_all_uses(cast, p);
        erase(cast);
    }
    for load in loads {
        b.before(load);
        b.set_debug_loc_from(load);
        let p = b.load(ptr, operand(load, 0));
        copy_mem_flags(load, p);
        for u in users(load) {
            if opcode(u) == Some(LLVMIntToPtr) && address_space_zero(type_of(u)) {
                replace_all_uses(u, p);
                erase(u);
            } else if is_plain_store_of(u, load) {
                restore_as_pointer(&b, u, p);
            }
        }
        // Other uses (an alignment test `and %v, 15`) get the integer back.
        if !users(load).is_empty() {
            b.before(load);
            let i = b.cast(LLVMPtrToInt, p, type_of(load));
            replace_all_uses(load, i);
        }
        erase(load);
    }
    for cast in casts {
        let p = operand(cast, 0);
        for u in users(cast) {
            restore_as_pointer(&b, u, p);
        }
        erase(cast);
    }
    if n > 0 {
        log::debug!(
            "enzyme-rs: {}: {n} pointer copies through integers made pointers",
            name(f)
        );
    }
    n
}

/// Replace `store iN %v, ptr %dst` (instruction `store`) by a store of
/// pointer `p` with the same flags.
fn restore_as_pointer(b: &Builder, store: V, p: V) {
    b.before(store);
    b.set_debug_loc_from(store);
    let s = b.store(p, operand(store, 1));
    copy_mem_flags(store, s);
    erase(store);
}

/// A plain pointer-sized integer load with at least one `inttoptr` use,
/// from memory that holds pointers: not a stack slot that is given an
/// integer (an `uintptr_t` parameter spilled at -O0 stays an integer, and
/// a store through it stays an error).
fn is_pointer_copy(load: V) -> bool {
    pointer_sized(type_of(load))
        && !is_volatile(load)
        && is_not_atomic(load)
        && users(load)
            .into_iter()
            .any(|u| opcode(u) == Some(LLVMIntToPtr) && address_space_zero(type_of(u)))
        && slot_holds_pointers(operand(load, 0))
}

/// Unless `addr` is (a field of) an alloca: true. For an alloca: every
/// integer stored into it is a pointer's bits (a `ptrtoint`, or a load
/// that is itself used as a pointer).
fn slot_holds_pointers(addr: V) -> bool {
    let mut obj = addr;
    while matches!(opcode(obj), Some(LLVMGetElementPtr | LLVMBitCast)) {
        obj = operand(obj, 0);
    }
    if opcode(obj) != Some(LLVMAlloca) {
        return true;
    }
    let mut work = vec![obj];
    let mut seen = 0usize;
    while let Some(p) = work.pop() {
        seen += 1;
        if seen > 256 {
            return false;
        }
        for u in users(p) {
            match opcode(u) {
                Some(LLVMGetElementPtr | LLVMBitCast) => work.push(u),
                Some(LLVMStore) if operand(u, 1) == p && is_int(type_of(operand(u, 0))) => {
                    let v = operand(u, 0);
                    let bits_of_pointer = match opcode(v) {
                        Some(LLVMPtrToInt) => true,
                        Some(LLVMLoad) => users(v)
                            .into_iter()
                            .any(|w| opcode(w) == Some(LLVMIntToPtr)),
                        _ => false,
                    };
                    if !bits_of_pointer {
                        return false;
                    }
                }
                _ => {}
            }
        }
    }
    true
}

/// Whether every use of `v` is a plain store of it (as the value).
fn only_stored(v: V) -> bool {
    let us = users(v);
    !us.is_empty() && us.iter().all(|u| is_plain_store_of(*u, v))
}

fn is_plain_store_of(store: V, v: V) -> bool {
    opcode(store) == Some(LLVMStore)
        && operand(store, 0) == v
        && operand(store, 1) != v
        && !is_volatile(store)
        && is_not_atomic(store)
}

fn pointer_sized(t: T) -> bool {
    is_int(t) && int_width(t) == 64
}

/// Whether integer phi/select `x` merges only pointers' bits and plain
/// integers: its leaves (through phis and selects) are `ptrtoint`s of
/// address-space-0 pointers, undef or integers computed without pointer
/// bits (constants, integer parameters and arithmetic on them: an error
/// path's size; the activity analysis judges the addresses made of them,
/// `without_provenance`), and at least one is a `ptrtoint`.
fn merges_pointers(x: V) -> bool {
    if !pointer_sized(type_of(x)) {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![x];
    let mut any_pointer = false;
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > 64 {
            return false;
        }
        match opcode(v) {
            Some(LLVMPHI) => work.extend(operands(v)),
            Some(LLVMSelect) => {
                work.push(operand(v, 1));
                work.push(operand(v, 2));
            }
            Some(LLVMPtrToInt) if address_space_zero(type_of(operand(v, 0))) => any_pointer = true,
            _ if is_undef(v) || int_without_pointer_bits(v, Params::Trusted) => {}
            _ => return false,
        }
    }
    any_pointer
}

/// The pointer that integer `x` (accepted by [`merges_pointers`]) holds the
/// bits of: new phis and selects beside the integer ones (which stay for
/// their other uses), `made` remembering those built; a plain integer
/// leaf becomes an `inttoptr` before `at` (an address without provenance).
fn as_pointer(b: &Builder, x: V, ptr: T, at: V, made: &mut HashMap<V, V>) -> V {
    if let Some(p) = made.get(&x) {
        return *p;
    }
    match opcode(x) {
        Some(LLVMPHI) => {
            b.before(x);
            let p = b.phi(ptr);
            made.insert(x, p);
            for (v, bb) in incoming(x) {
                let pv = if dead_end_edge(x, bb) {
                    undef(ptr)
                } else {
                    as_pointer(b, v, ptr, terminator(bb), made)
                };
                add_incoming(p, &[(pv, bb)]);
            }
            p
        }
        Some(LLVMSelect) => {
            let (t, e) = (
                as_pointer(b, operand(x, 1), ptr, x, made),
                as_pointer(b, operand(x, 2), ptr, x, made),
            );
            b.before(x);
            let p = b.select(operand(x, 0), t, e);
            made.insert(x, p);
            p
        }
        Some(LLVMPtrToInt) => operand(x, 0),
        _ if is_undef(x) => undef(ptr),
        _ => {
            b.before(at);
            b.cast(LLVMIntToPtr, x, ptr)
        }
    }
}

/// Whether, entering `phi`'s block from `from`, control goes on to a dead
/// end (a block ending in `unreachable`: a panic, `handle_alloc_error`)
/// by the block's own conditional branch on a phi that is constant for
/// that edge: `Result`'s error path, whose payload (a size) the integer
/// phi merges with the allocation's address. No pointer made from the
/// phi is used on that path, so its value there is undef.
fn dead_end_edge(phi: V, from: BB) -> bool {
    let bb = inst_block(phi);
    let t = terminator(bb);
    if opcode(t) != Some(LLVMBr) || num_operands(t) != 3 {
        return false;
    }
    let c = operand(t, 0);
    if opcode(c) != Some(LLVMPHI) || inst_block(c) != bb {
        return false;
    }
    let Some(taken) = incoming(c)
        .into_iter()
        .find(|(_, b)| *b == from)
        .and_then(|(v, _)| const_int_value(v))
    else {
        return false;
    };
    let succ = successors(bb);
    // successors(): [true, false] destinations.
    let dest = if taken != 0 { succ[0] } else { succ[1] };
    opcode(terminator(dest)) == Some(LLVMUnreachable)
}
