//! Small IR helpers the OpenMP support needs (globals for turn counters,
//! atomic loads/stores with orderings, switch folding, message strings).
use super::llvm::*;
use super::Builder;
use crate::ir::sys::core::*;
use crate::ir::sys::LLVMAtomicOrdering::*;

/// An internal, zero-initialized `i64` global named `n` (made once).
pub fn internal_i64_global(m: LLVMModuleRef, n: &str) -> V {
    let c = cstr(n);
    unsafe {
        let g = LLVMGetNamedGlobal(m, c.as_ptr());
        if !g.is_null() {
            return g;
        }
        let t = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
        let g = LLVMAddGlobal(m, t, c.as_ptr());
        LLVMSetInitializer(g, LLVMConstInt(t, 0, 0));
        LLVMSetLinkage(g, crate::ir::sys::LLVMLinkage::LLVMInternalLinkage);
        LLVMSetAlignment(g, 64);
        g
    }
}

/// A new internal function `n` of type `fty` (a fresh name if taken).
pub fn add_internal_function(m: LLVMModuleRef, n: &str, fty: T) -> V {
    let c = cstr(n);
    unsafe {
        let f = LLVMAddFunction(m, c.as_ptr(), fty);
        LLVMSetLinkage(f, crate::ir::sys::LLVMLinkage::LLVMInternalLinkage);
        f
    }
}

/// `load atomic acquire` of a `t` at `p`.
pub fn load_acquire(b: &Builder, t: T, p: V) -> V {
    let l = b.load(t, p);
    unsafe {
        LLVMSetOrdering(l, LLVMAtomicOrderingAcquire);
        LLVMSetAlignment(l, type_store_size(b.module, t) as u32);
    }
    l
}

/// `store atomic release` of `v` at `p`.
pub fn store_release(b: &Builder, v: V, p: V) -> V {
    let s = b.store(v, p);
    unsafe {
        LLVMSetOrdering(s, LLVMAtomicOrderingRelease);
        LLVMSetAlignment(s, type_store_size(b.module, type_of(v)) as u32);
    }
    s
}

/// `atomicrmw fadd` with the alignment of the element type.
pub fn atomic_fadd_aligned(b: &Builder, p: V, v: V) -> V {
    let r = b.atomic_fadd(p, v);
    unsafe { LLVMSetAlignment(r, type_store_size(b.module, type_of(v)) as u32) };
    r
}

/// A private constant C string, as a pointer.
pub fn global_string(b: &Builder, s: &str) -> V {
    unsafe { LLVMBuildGlobalStringPtr(b.raw, cstr(s).as_ptr(), cstr("enzyme_rs.omp.msg").as_ptr()) }
}

pub fn replace_all_uses(old: V, new: V) {
    unsafe { LLVMReplaceAllUsesWith(old, new) }
}

pub fn erase_instruction(i: V) {
    unsafe { LLVMInstructionEraseFromParent(i) }
}

/// The destination a `switch` on the constant `c` takes.
pub fn switch_target(sw: V, c: i64) -> BB {
    unsafe {
        let n = LLVMGetNumSuccessors(sw);
        for k in 1..n {
            let cv = switch_case_value(sw, k);
            if const_int_value(cv) == Some(c) {
                return LLVMGetSuccessor(sw, k);
            }
        }
        LLVMGetSuccessor(sw, 0)
    }
}

/// The case value of successor `k` (>= 1) of switch `sw`. LLVM 22 keeps
/// case values out of the operand list; LLVM 16 has them at operand 2k.
unsafe fn switch_case_value(sw: V, k: u32) -> V {
    #[cfg(feature = "llvm22-1")]
    return LLVMGetSwitchCaseValue(sw, k);
    #[cfg(not(feature = "llvm22-1"))]
    return LLVMGetOperand(sw, 2 * k);
}

/// Whether `i` is a `switch`.
pub fn is_switch(i: V) -> bool {
    opcode(i) == Some(LLVMOpcode::LLVMSwitch)
}

/// Delete the blocks of `f` not reachable from its entry, unless a
/// reachable block has phis (whose incoming entries would need removing):
/// then nothing is deleted (the dead blocks stay, unreached).
pub fn delete_unreachable_blocks(f: V) {
    let live: std::collections::HashSet<BB> = rpo(f).into_iter().collect();
    let dead: Vec<BB> = blocks(f)
        .into_iter()
        .filter(|b| !live.contains(b))
        .collect();
    if dead.is_empty() {
        return;
    }
    for b in &dead {
        for s in successors(*b) {
            if live.contains(&s)
                && instructions(s)
                    .first()
                    .is_some_and(|i| opcode(*i) == Some(LLVMOpcode::LLVMPHI))
            {
                return;
            }
        }
    }
    let bld = Builder::for_function(f);
    for b in &dead {
        for i in instructions(*b).into_iter().rev() {
            unsafe {
                LLVMReplaceAllUsesWith(i, LLVMGetPoison(type_of(i)));
                LLVMInstructionEraseFromParent(i);
            }
        }
        // LLVM 22: the debug records of the erased instructions are left
        // trailing in the empty block; a terminator takes them over, so
        // they go with the block (else they outlive it and turn up in the
        // next block made at its address, before its phis).
        bld.at_end(*b);
        bld.unreachable();
    }
    for b in dead {
        unsafe { LLVMDeleteBasicBlock(b) };
    }
}

/// For an `atomicrmw fadd` / `fsub`: +1.0 / -1.0; other operations: None.
pub fn atomic_fadd_sign(i: V) -> Option<f64> {
    use crate::ir::sys::LLVMAtomicRMWBinOp::*;
    if opcode(i) != Some(LLVMOpcode::LLVMAtomicRMW) {
        return None;
    }
    match unsafe { LLVMGetAtomicRMWBinOp(i) } {
        LLVMAtomicRMWBinOpFAdd => Some(1.0),
        LLVMAtomicRMWBinOpFSub => Some(-1.0),
        _ => None,
    }
}

/// `load atomic monotonic` of a `t` at `p`.
pub fn load_monotonic(b: &Builder, t: T, p: V) -> V {
    let l = b.load(t, p);
    unsafe {
        LLVMSetOrdering(l, LLVMAtomicOrderingMonotonic);
        LLVMSetAlignment(l, type_store_size(b.module, t) as u32);
    }
    l
}

/// Delete a function this session made.
pub fn erase_function(f: V) {
    unsafe { LLVMDeleteFunction(f) }
}

/// Whether `v` is an `alloca` of a pointer (a local pointer variable).
pub fn alloca_holds_pointer(v: V) -> bool {
    opcode(v) == Some(LLVMOpcode::LLVMAlloca) && is_ptr(unsafe { LLVMGetAllocatedType(v) })
}

use super::attrs::has_string_attr_at;
pub use super::attrs::{add_param_string_attr, param_has_string_attr};

/// Drop what parameter `i` of `f` promised about the memory it points to
/// (its value changes meaning: see `modes::openmp::slots`).
pub fn clear_pointer_param_attrs(f: V, i: u32) {
    for a in [
        "nonnull",
        "dereferenceable",
        "dereferenceable_or_null",
        "align",
        "noalias",
        "readonly",
        "readnone",
        "writeonly",
        "nocapture",
        "noundef",
    ] {
        unsafe { LLVMRemoveEnumAttributeAtIndex(f, i + 1, enum_attr_kind(a)) }
    }
}

/// Whether `i` is a volatile or atomic load/store.
pub fn is_volatile_or_atomic(i: V) -> bool {
    unsafe {
        LLVMGetVolatile(i) != 0
            || LLVMGetOrdering(i) != crate::ir::sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
    }
}

/// Whether function `f` carries the string attribute `key`.
pub fn fn_has_string_attr(f: V, key: &str) -> bool {
    has_string_attr_at(f, crate::ir::sys::LLVMAttributeFunctionIndex, key)
}

/// The pointer values stored into the slot `a` (an alloca holding a
/// pointer).
pub fn pointers_stored_into(a: V) -> Vec<V> {
    users(a)
        .into_iter()
        .filter(|u| {
            opcode(*u) == Some(LLVMOpcode::LLVMStore)
                && operand(*u, 1) == a
                && is_ptr(type_of(operand(*u, 0)))
        })
        .map(|u| operand(u, 0))
        .collect()
}
