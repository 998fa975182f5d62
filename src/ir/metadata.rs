//! Safe helpers over instruction metadata (TBAA tags, metadata comparison).
use super::llvm::{context_of, type_of, LLVMMetadataRef, V};
use crate::ir::sys::core::*;

/// The id of metadata kind `name` in the context of `v`.
pub fn md_kind(v: V, name: &str) -> u32 {
    unsafe {
        let ctx = context_of(type_of(v));
        LLVMGetMDKindIDInContext(ctx, name.as_ptr() as *const _, name.len() as u32)
    }
}

/// The metadata of kind `kind` attached to `inst` (as a value), if any.
pub fn metadata(inst: V, kind: u32) -> Option<V> {
    let m = unsafe { LLVMGetMetadata(inst, kind) };
    (!m.is_null()).then_some(m)
}

/// The operands of a metadata node (empty for anything else).
pub fn md_operands(n: V) -> Vec<V> {
    unsafe {
        if LLVMIsAMDNode(n).is_null() {
            return vec![];
        }
        let k = LLVMGetMDNodeNumOperands(n);
        let mut v = vec![std::ptr::null_mut(); k as usize];
        LLVMGetMDNodeOperands(n, v.as_mut_ptr());
        v
    }
}

/// The text of a metadata string.
pub fn md_string(v: V) -> Option<String> {
    if v.is_null() {
        return None;
    }
    unsafe {
        let mut len = 0u32;
        let p = LLVMGetMDString(v, &mut len);
        if p.is_null() {
            return None;
        }
        Some(
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                .into_owned(),
        )
    }
}

/// All metadata of an instruction except its debug location, sorted by kind.
pub fn all_metadata(i: V) -> Vec<(u32, LLVMMetadataRef)> {
    unsafe {
        let mut n = 0usize;
        let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, &mut n);
        let mut out: Vec<(u32, LLVMMetadataRef)> = (0..n as u32)
            .map(|k| {
                (
                    LLVMValueMetadataEntriesGetKind(entries, k),
                    LLVMValueMetadataEntriesGetMetadata(entries, k),
                )
            })
            .collect();
        if !entries.is_null() {
            LLVMDisposeValueMetadataEntries(entries);
        }
        out.sort_by_key(|e| e.0);
        out
    }
}

/// Tag instruction `inst` with an empty metadata node of kind `name` (a
/// flag a later run of the pass can see, e.g. a call site already checked).
pub fn set_flag(inst: V, name: &str) {
    unsafe {
        let ctx = context_of(type_of(inst));
        let node = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, std::ptr::null_mut(), 0));
        LLVMSetMetadata(inst, md_kind(inst, name), node);
    }
}

/// Whether [`set_flag`] tagged `inst` with `name`.
pub fn has_flag(inst: V, name: &str) -> bool {
    metadata(inst, md_kind(inst, name)).is_some()
}
