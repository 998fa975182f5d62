//! Safe helpers over instructions and values: editing (erase, replace,
//! operands, phis), memory-instruction flags, aggregate indices, shuffle
//! masks, and queries about what kind of value something is.
use super::consts::{const_int, const_vector};
use super::llvm::{type_of, BB, T, V};
use crate::ir::sys::core::*;
use crate::ir::sys::{LLVMAtomicOrdering, LLVMIntPredicate, LLVMOpcode};

// ----- editing ------------------------------------------------------------------

/// Delete instruction `i` from its block.
pub fn erase(i: V) {
    unsafe { LLVMInstructionEraseFromParent(i) }
}

/// Replace every use of `old` with `new`.
pub fn replace_all_uses(old: V, new: V) {
    unsafe { LLVMReplaceAllUsesWith(old, new) }
}

/// Replace every use of instruction `old` with `new` (when `old` has a
/// value) and delete `old`.
pub fn replace_and_erase(old: V, new: V) {
    if !super::llvm::is_void(type_of(old)) {
        replace_all_uses(old, new);
    }
    erase(old);
}

pub fn set_operand(i: V, k: u32, v: V) {
    unsafe { LLVMSetOperand(i, k, v) }
}

/// A copy of instruction `i`, not yet inserted in any block.
pub fn clone_inst(i: V) -> V {
    unsafe { LLVMInstructionClone(i) }
}

/// Drop the debug location of an instruction.
pub fn clear_inst_debug_loc(i: V) {
    unsafe { crate::ir::sys::debuginfo::LLVMInstructionSetDebugLoc(i, std::ptr::null_mut()) }
}

// ----- phis ---------------------------------------------------------------------

/// The (value, block) pairs of a phi.
pub fn incoming(phi: V) -> Vec<(V, BB)> {
    unsafe {
        (0..LLVMCountIncoming(phi))
            .map(|k| (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)))
            .collect()
    }
}

pub fn incoming_value(phi: V, k: u32) -> V {
    unsafe { LLVMGetIncomingValue(phi, k) }
}

pub fn count_incoming(phi: V) -> u32 {
    unsafe { LLVMCountIncoming(phi) }
}

/// Add (value, block) pairs to a phi.
pub fn add_incoming(phi: V, pairs: &[(V, BB)]) {
    let mut vs: Vec<V> = pairs.iter().map(|p| p.0).collect();
    let mut bs: Vec<BB> = pairs.iter().map(|p| p.1).collect();
    unsafe { LLVMAddIncoming(phi, vs.as_mut_ptr(), bs.as_mut_ptr(), pairs.len() as u32) }
}

// ----- memory instructions --------------------------------------------------------

pub fn alignment(i: V) -> u32 {
    unsafe { LLVMGetAlignment(i) }
}

pub fn set_alignment(i: V, a: u32) {
    unsafe { LLVMSetAlignment(i, a) }
}

/// Copy the alignment of `from` onto `to`.
pub fn copy_alignment(from: V, to: V) {
    set_alignment(to, alignment(from));
}

pub fn is_volatile(i: V) -> bool {
    unsafe { LLVMGetVolatile(i) != 0 }
}

/// Copy alignment and volatility from one memory instruction to another.
pub fn copy_mem_flags(from: V, to: V) {
    unsafe {
        LLVMSetAlignment(to, LLVMGetAlignment(from));
        LLVMSetVolatile(to, LLVMGetVolatile(from));
    }
}

/// Whether a load/store is not atomic.
pub fn is_not_atomic(i: V) -> bool {
    unsafe { LLVMGetOrdering(i) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic }
}

pub fn allocated_type(alloca: V) -> T {
    unsafe { LLVMGetAllocatedType(alloca) }
}

/// The source element type of a GEP instruction or constant expression.
pub fn gep_source_type(gep: V) -> T {
    unsafe { LLVMGetGEPSourceElementType(gep) }
}

/// The predicate of an `icmp` instruction.
pub fn icmp_predicate(i: V) -> LLVMIntPredicate {
    unsafe { LLVMGetICmpPredicate(i) }
}

pub fn is_inbounds(gep: V) -> bool {
    unsafe { LLVMIsInBounds(gep) != 0 }
}

pub fn set_inbounds(gep: V, b: bool) {
    unsafe { LLVMSetIsInBounds(gep, b as i32) }
}

/// Copy the `inbounds` flag of one GEP onto another.
pub fn copy_inbounds(from: V, to: V) {
    set_inbounds(to, is_inbounds(from));
}

// ----- aggregates and vectors -------------------------------------------------------

/// The constant indices of an extractvalue/insertvalue.
pub fn indices(i: V) -> Vec<u32> {
    unsafe {
        let n = LLVMGetNumIndices(i);
        let p = LLVMGetIndices(i);
        std::slice::from_raw_parts(p, n as usize).to_vec()
    }
}

/// insertvalue with a multi-level index path.
pub fn insert_nested(b: &super::Builder, agg: V, v: V, idx: &[u32]) -> V {
    if idx.len() == 1 {
        return b.insert_value(agg, v, idx[0]);
    }
    let inner = b.extract_value(agg, idx[0]);
    let new_inner = insert_nested(b, inner, v, &idx[1..]);
    b.insert_value(agg, new_inner, idx[0])
}

/// The mask of a shufflevector: one entry per lane, None for undef lanes.
pub fn shuffle_mask_elems(i: V) -> Vec<Option<i32>> {
    unsafe {
        let undef = LLVMGetUndefMaskElem();
        (0..LLVMGetNumMaskElements(i))
            .map(|k| {
                let m = LLVMGetMaskValue(i, k);
                (m != undef).then_some(m)
            })
            .collect()
    }
}

/// The mask of a shufflevector as a constant vector.
pub fn shuffle_mask(i: V) -> V {
    let ctx = super::llvm::context_of(type_of(i));
    let i32t = super::llvm::i32_type(ctx);
    let elems: Vec<V> = shuffle_mask_elems(i)
        .into_iter()
        .map(|m| match m {
            None => undef(i32t),
            Some(m) => const_int(i32t, m as u64),
        })
        .collect();
    const_vector(&elems)
}

// ----- constants ---------------------------------------------------------------------

pub fn undef(t: T) -> V {
    unsafe { LLVMGetUndef(t) }
}

pub fn poison(t: T) -> V {
    unsafe { LLVMGetPoison(t) }
}

/// The opcode of a constant expression; None for anything else.
pub fn const_opcode(v: V) -> Option<LLVMOpcode> {
    unsafe {
        if LLVMIsAConstantExpr(v).is_null() {
            None
        } else {
            Some(LLVMGetConstOpcode(v))
        }
    }
}

/// Whether `v` is a constant GEP expression.
pub fn is_const_gep(v: V) -> bool {
    const_opcode(v) == Some(LLVMOpcode::LLVMGetElementPtr)
}

pub fn is_undef(v: V) -> bool {
    unsafe { !LLVMIsAUndefValue(v).is_null() }
}

pub fn is_poison(v: V) -> bool {
    unsafe { !LLVMIsAPoisonValue(v).is_null() }
}

/// A null constant of any type (null pointer, zero, zeroinitializer).
pub fn is_null(v: V) -> bool {
    unsafe { LLVMIsNull(v) != 0 }
}

pub fn is_const_null_ptr(v: V) -> bool {
    unsafe { !LLVMIsAConstantPointerNull(v).is_null() }
}

pub fn is_const_aggregate_zero(v: V) -> bool {
    unsafe { !LLVMIsAConstantAggregateZero(v).is_null() }
}

pub fn is_const_int(v: V) -> bool {
    unsafe { !LLVMIsAConstantInt(v).is_null() }
}

pub fn is_const_fp(v: V) -> bool {
    unsafe { !LLVMIsAConstantFP(v).is_null() }
}

pub fn is_const_data_seq(v: V) -> bool {
    unsafe { !LLVMIsAConstantDataSequential(v).is_null() }
}

pub fn is_const_array(v: V) -> bool {
    unsafe { !LLVMIsAConstantArray(v).is_null() }
}

pub fn is_const_struct(v: V) -> bool {
    unsafe { !LLVMIsAConstantStruct(v).is_null() }
}

pub fn is_const_vector(v: V) -> bool {
    unsafe { !LLVMIsAConstantVector(v).is_null() }
}

/// Whether a value is a basic block (as an operand of a terminator).
pub fn is_block_value(v: V) -> bool {
    unsafe { !LLVMIsABasicBlock(v).is_null() }
}

/// The bytes of a constant data array (e.g. a C string initializer).
pub fn const_bytes(v: V) -> Option<Vec<u8>> {
    unsafe {
        if LLVMIsAConstantDataSequential(v).is_null() {
            return None;
        }
        let mut len = 0usize;
        let p = LLVMGetAsString(v, &mut len);
        if p.is_null() {
            return None;
        }
        Some(std::slice::from_raw_parts(p as *const u8, len).to_vec())
    }
}

/// The bytes of a constant string (`c"..."`), if `v` is one.
pub fn const_string_bytes(v: V) -> Option<Vec<u8>> {
    if !is_const_data_seq(v) || unsafe { LLVMIsConstantString(v) } == 0 {
        return None;
    }
    const_bytes(v)
}

/// The function an argument belongs to.
pub fn param_parent(a: V) -> V {
    unsafe { LLVMGetParamParent(a) }
}

/// Drop `nonnull` from argument `i` (0-based) of call `c` (its copy may be
/// given a null pointer: a shadow free).
pub fn drop_call_arg_nonnull(c: V, i: u32) {
    unsafe { LLVMRemoveCallSiteEnumAttribute(c, i + 1, super::llvm::enum_attr_kind("nonnull")) }
}

/// Make `call` (a call or invoke) call `callee` (its last operand).
pub fn set_called_value(call: V, callee: V) {
    let n = super::llvm::num_operands(call);
    set_operand(call, n - 1, callee)
}
