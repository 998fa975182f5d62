//! What the reverse sweep may recompute instead of reading from the tape:
//! side-effect-free instructions over available values, and loads from
//! memory that nothing in the function can write after the load.
use crate::analysis::activity::underlying_objects;
use crate::ir::llvm::*;
use crate::rules;
use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ObjKind {
    /// alloca / heap allocation made in this function
    Local,
    Global,
    NoAliasArg,
    Arg,
    Unknown,
}

fn obj_kind(o: V) -> ObjKind {
    if is_global_var(o) {
        return ObjKind::Global;
    }
    if is_argument(o) {
        let f = unsafe { LLVMGetParamParent(o) };
        let idx = params(f).iter().position(|p| *p == o).unwrap_or(0) as u32;
        let k = enum_attr_kind("noalias");
        let has = unsafe { !LLVMGetEnumAttributeAtIndex(f, idx + 1, k).is_null() };
        return if has {
            ObjKind::NoAliasArg
        } else {
            ObjKind::Arg
        };
    }
    if opcode(o) == Some(LLVMOpcode::LLVMAlloca) {
        return ObjKind::Local;
    }
    if is_call(o)
        && called_function(o)
            .map(|f| rules::alloc_kind(&name(f)).is_some())
            .unwrap_or(false)
    {
        return ObjKind::Local;
    }
    ObjKind::Unknown
}

/// Whether two underlying objects may be the same memory.
pub fn may_alias_objects(a: V, b: V) -> bool {
    if a == b {
        return true;
    }
    let (ka, kb) = (obj_kind(a), obj_kind(b));
    use ObjKind::*;
    match (ka, kb) {
        (Unknown, _) | (_, Unknown) => true,
        (Local, _) | (_, Local) => false,
        (Global, Global) => false,
        (NoAliasArg, _) | (_, NoAliasArg) => false,
        _ => true,
    }
}

/// The objects a function may write (through stores, memory intrinsics and
/// calls that may write through their pointer arguments).
pub struct Written {
    objs: Vec<V>,
    anything: bool,
}

impl Written {
    pub fn of(f: V) -> Written {
        let mut w = Written {
            objs: Vec::new(),
            anything: false,
        };
        let mut seen = HashSet::new();
        for bb in blocks(f) {
            for i in instructions(bb) {
                let targets: Vec<V> = match opcode(i) {
                    Some(LLVMOpcode::LLVMStore) => vec![operand(i, 1)],
                    Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                        vec![operand(i, 0)]
                    }
                    Some(LLVMOpcode::LLVMCall) => {
                        let callee = called_function(i);
                        let n = callee.map(name).unwrap_or_default();
                        if rules::is_inactive_function(&n) || rules::lookup(i).is_some() {
                            vec![]
                        } else if rules::mem_kind(&n).is_some() {
                            vec![operand(i, 0)]
                        } else if rules::alloc_kind(&n).is_some() {
                            // free/realloc end an object's life; treat as a write.
                            call_args(i)
                                .into_iter()
                                .filter(|a| is_ptr(type_of(*a)))
                                .collect()
                        } else if callee.map(|c| fn_only_reads(c)).unwrap_or(false) {
                            vec![]
                        } else {
                            if callee.is_none() {
                                w.anything = true;
                            }
                            call_args(i)
                                .into_iter()
                                .filter(|a| is_ptr(type_of(*a)))
                                .collect()
                        }
                    }
                    _ => vec![],
                };
                for t in targets {
                    for o in underlying_objects(t) {
                        if obj_kind(o) == ObjKind::Unknown && !is_constant(o) {
                            // A pointer of unknown origin may point anywhere.
                            w.anything = true;
                        }
                        if seen.insert(o) {
                            w.objs.push(o);
                        }
                    }
                }
            }
        }
        w
    }

    /// Whether memory reached through `p` is never written by the function
    /// and outlives it (so the reverse sweep can read it again).
    pub fn unwritten_and_persistent(&self, p: V) -> bool {
        for o in underlying_objects(p) {
            let k = obj_kind(o);
            if k == ObjKind::Local || k == ObjKind::Unknown {
                return false;
            }
            if self.anything && !is_constant_global(o) {
                return false;
            }
            if self.objs.iter().any(|w| may_alias_objects(o, *w)) {
                return false;
            }
        }
        true
    }
}

fn is_constant_global(o: V) -> bool {
    is_global_var(o) && unsafe { LLVMIsGlobalConstant(o) } != 0
}

/// A function that only reads memory (by its memory attribute).
fn fn_only_reads(f: V) -> bool {
    // LLVM 16 spells this memory(read) / memory(none); the C API reports the
    // old readonly/readnone kinds on call sites only, so check by name.
    fn_has_attr(f, "readonly") || fn_has_attr(f, "readnone") || {
        let k = enum_attr_kind("memory");
        if k == 0 {
            return false;
        }
        let a = unsafe { LLVMGetEnumAttributeAtIndex(f, llvm_sys::LLVMAttributeFunctionIndex, k) };
        if a.is_null() {
            return false;
        }
        // MemoryEffects encoding: 2 bits per location (arg, inaccessible,
        // other); bit 1 of each pair is "write".
        let v = unsafe { LLVMGetEnumAttributeValue(a) };
        v & 0b101010 == 0
    }
}

/// Instructions the reverse sweep may clone to recompute a value: no side
/// effects, no floating-point work (that is cheaper to read from the tape).
pub fn is_cheap_pure(i: V) -> bool {
    use LLVMOpcode::*;
    match opcode(i) {
        Some(
            LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMZExt | LLVMSExt | LLVMTrunc
            | LLVMPtrToInt | LLVMIntToPtr | LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr
            | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMICmp | LLVMFreeze,
        ) => true,
        Some(LLVMSelect) => !is_fp(type_of(i)),
        Some(LLVMExtractValue) => !is_fp(type_of(i)),
        // Division by a constant that cannot trap (loop trip counts with
        // a stride other than one).
        Some(LLVMUDiv | LLVMURem) => const_int_value(operand(i, 1)).is_some_and(|c| c != 0),
        Some(LLVMSDiv | LLVMSRem) => {
            const_int_value(operand(i, 1)).is_some_and(|c| c != 0 && c != -1)
        }
        // Integer min/max (trip counts again).
        Some(LLVMCall) => called_function(i).is_some_and(|f| {
            let n = name(f);
            ["llvm.umax.", "llvm.umin.", "llvm.smax.", "llvm.smin."]
                .iter()
                .any(|p| n.starts_with(p))
        }),
        _ => false,
    }
}
