//! Keeping the pieces of a split block apart until code generation.
//!
//! LLVM's code generator works one basic block at a time, and parts of it
//! grow faster than linearly with the length of a block (LLVM 16's
//! two-address pass rescans a per-block map at every call; instruction
//! selection builds one DAG per block). A split made at the IR level does
//! not survive on its own: simplifycfg and CodeGenPrepare merge a block
//! into its single predecessor again. They leave a block whose address is
//! taken alone, so [`pin_blocks`] takes the address of each piece, in a
//! table kept by `llvm.compiler.used`: a few bytes of read-only data per
//! piece, no instruction on the executed path.
use super::link::{add_global, append_compiler_used, const_ptr_array};
use super::llvm::*;
use crate::ir::sys::core::*;
use crate::ir::sys::LLVMLinkage;

/// Take the address of each block of `bbs` (blocks of `f`) in an internal
/// table `enzyme_rs.pinned.<f>` listed in `llvm.compiler.used`.
pub fn pin_blocks(f: V, bbs: &[BB]) {
    if bbs.is_empty() {
        return;
    }
    let m = unsafe { LLVMGetGlobalParent(f) };
    let ctx = unsafe { LLVMGetModuleContext(m) };
    let mut addrs: Vec<V> = bbs
        .iter()
        .map(|b| unsafe { LLVMBlockAddress(f, *b) })
        .collect();
    let init = const_ptr_array(ctx, &mut addrs);
    let g = add_global(
        m,
        &format!("enzyme_rs.pinned.{}", name(f)),
        type_of(init),
        Some(init),
        true,
    );
    unsafe { LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage) };
    append_compiler_used(m, &[g]);
}

/// The string attribute marking a function for [`take_marked`].
const MARK: &str = "enzyme-rs-split-blocks";

/// Mark `f` for a later [`take_marked`] (the marks travel with the module
/// through the rest of the pipeline, and through LTO bitcode).
pub fn mark(f: V) {
    super::link::add_string_fn_attr(f, MARK, "");
}

/// The functions of `m` marked by [`mark`], their marks removed.
pub fn take_marked(m: LLVMModuleRef) -> Vec<V> {
    let idx = crate::ir::sys::LLVMAttributeFunctionIndex;
    let mut out = Vec::new();
    for f in functions(m) {
        let found = unsafe {
            !LLVMGetStringAttributeAtIndex(f, idx, MARK.as_ptr().cast(), MARK.len() as u32)
                .is_null()
        };
        if found {
            unsafe {
                LLVMRemoveStringAttributeAtIndex(f, idx, MARK.as_ptr().cast(), MARK.len() as u32)
            };
            out.push(f);
        }
    }
    out
}
