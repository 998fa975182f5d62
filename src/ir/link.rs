//! Safe helpers for link-time differentiation (`src/lto.rs`): module flags
//! and named metadata, linkage, new functions and globals, string
//! attributes. Nothing here knows about derivatives.
use super::llvm::*;
use crate::ir::sys::core::*;
use crate::ir::sys::LLVMLinkage;

/// Whether module flag `key` is present (`ThinLTO`, `EnableSplitLTOUnit`).
pub fn has_module_flag(m: LLVMModuleRef, key: &str) -> bool {
    unsafe { !LLVMGetModuleFlag(m, key.as_ptr() as *const _, key.len()).is_null() }
}

/// Whether named metadata `n` exists in the module.
pub fn has_named_metadata(m: LLVMModuleRef, n: &str) -> bool {
    unsafe { !LLVMGetNamedMetadata(m, n.as_ptr() as *const _, n.len()).is_null() }
}

/// Add `!n = !{!"text"}` (appends an operand when `!n` exists).
pub fn add_named_metadata(m: LLVMModuleRef, n: &str, text: &str) {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let s = LLVMMDStringInContext2(ctx, text.as_ptr() as *const _, text.len());
        let mut ops = [s];
        let node = LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), 1);
        let c = cstr(n);
        LLVMAddNamedMetadataOperand(m, c.as_ptr(), LLVMMetadataAsValue(ctx, node));
    }
}

/// Linkages the LTO support sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    External,
    Internal,
    WeakOdr,
    ExternWeak,
    AvailableExternally,
    Other,
}

pub fn linkage(g: V) -> Linkage {
    match unsafe { LLVMGetLinkage(g) } {
        LLVMLinkage::LLVMExternalLinkage => Linkage::External,
        LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage => Linkage::Internal,
        LLVMLinkage::LLVMWeakODRLinkage => Linkage::WeakOdr,
        LLVMLinkage::LLVMExternalWeakLinkage => Linkage::ExternWeak,
        LLVMLinkage::LLVMAvailableExternallyLinkage => Linkage::AvailableExternally,
        _ => Linkage::Other,
    }
}

pub fn set_linkage(g: V, l: Linkage) {
    let raw = match l {
        Linkage::External | Linkage::Other => LLVMLinkage::LLVMExternalLinkage,
        Linkage::Internal => LLVMLinkage::LLVMInternalLinkage,
        Linkage::WeakOdr => LLVMLinkage::LLVMWeakODRLinkage,
        Linkage::ExternWeak => LLVMLinkage::LLVMExternalWeakLinkage,
        Linkage::AvailableExternally => LLVMLinkage::LLVMAvailableExternallyLinkage,
    };
    unsafe { LLVMSetLinkage(g, raw) }
}

/// A new function named `n` (LLVM renames it on a clash) of type `ty`.
pub fn add_function(m: LLVMModuleRef, n: &str, ty: T) -> V {
    let c = cstr(n);
    unsafe { LLVMAddFunction(m, c.as_ptr(), ty) }
}

/// Append a basic block to `f`.
pub fn append_block(f: V, n: &str) -> BB {
    let c = cstr(n);
    unsafe { LLVMAppendBasicBlockInContext(LLVMGetTypeContext(type_of(f)), f, c.as_ptr()) }
}

/// The global variable named `n`, if any.
pub fn get_global(m: LLVMModuleRef, n: &str) -> Option<V> {
    let c = cstr(n);
    let g = unsafe { LLVMGetNamedGlobal(m, c.as_ptr()) };
    (!g.is_null()).then_some(g)
}

/// A global variable `n` of type `ty`: a declaration when `init` is None,
/// else a definition (constant when `constant`).
pub fn add_global(m: LLVMModuleRef, n: &str, ty: T, init: Option<V>, constant: bool) -> V {
    let c = cstr(n);
    unsafe {
        let g = LLVMAddGlobal(m, ty, c.as_ptr());
        if let Some(i) = init {
            LLVMSetInitializer(g, i);
        }
        LLVMSetGlobalConstant(g, constant as i32);
        g
    }
}

/// The initializer of a global variable (None for a declaration).
pub fn initializer(g: V) -> Option<V> {
    let i = unsafe { LLVMGetInitializer(g) };
    (!i.is_null()).then_some(i)
}

/// A constant array of pointers.
pub fn const_ptr_array(ctx: LLVMContextRef, elems: &mut [V]) -> V {
    unsafe { LLVMConstArray(ptr_type(ctx), elems.as_mut_ptr(), elems.len() as u32) }
}

/// A string attribute `key`=`value` on function `f`.
pub fn add_string_fn_attr(f: V, key: &str, value: &str) {
    add_string_attr_at(f, crate::ir::sys::LLVMAttributeFunctionIndex, key, value)
}

/// A string attribute `key`=`value` at attribute index `idx` of `f`
/// (0: the return value, i + 1: parameter i, or the function index).
pub fn add_string_attr_at(f: V, idx: u32, key: &str, value: &str) {
    unsafe {
        let ctx = LLVMGetTypeContext(type_of(f));
        let a = LLVMCreateStringAttribute(
            ctx,
            key.as_ptr() as *const _,
            key.len() as u32,
            value.as_ptr() as *const _,
            value.len() as u32,
        );
        LLVMAddAttributeAtIndex(f, idx, a);
    }
}

pub fn remove_string_fn_attr(f: V, key: &str) {
    unsafe {
        LLVMRemoveStringAttributeAtIndex(
            f,
            crate::ir::sys::LLVMAttributeFunctionIndex,
            key.as_ptr() as *const _,
            key.len() as u32,
        )
    }
}

/// Point every use of `from` at `to`.
pub fn replace_uses(from: V, to: V) {
    unsafe { LLVMReplaceAllUsesWith(from, to) }
}

/// Point the call `call` at function `f` (same call type).
pub fn set_callee(call: V, f: V) {
    unsafe { LLVMSetOperand(call, LLVMGetNumOperands(call) as u32 - 1, f) }
}

pub fn erase_instruction(i: V) {
    unsafe { LLVMInstructionEraseFromParent(i) }
}

pub fn delete_function(f: V) {
    unsafe { LLVMDeleteFunction(f) }
}

pub fn delete_global(g: V) {
    unsafe { LLVMDeleteGlobal(g) }
}

/// Whether `f` is an LLVM intrinsic (`llvm.*`).
pub fn is_intrinsic(f: V) -> bool {
    unsafe { LLVMGetIntrinsicID(f) != 0 }
}

/// A `freeze` of `v` at the builder's position: an instruction that only
/// holds a reference to `v` (ThinLTO summaries record it; nothing uses it,
/// so the next simplification deletes it).
pub fn hold_reference(b: &super::Builder, v: V) -> V {
    b.freeze(v)
}

/// Append `vals` to `llvm.compiler.used` (kept until code generation; in
/// an LTO link they survive the dead-symbol pruning).
pub fn append_compiler_used(m: LLVMModuleRef, vals: &[V]) {
    if vals.is_empty() {
        return;
    }
    let ctx = unsafe { LLVMGetModuleContext(m) };
    let mut elems: Vec<V> = Vec::new();
    if let Some(old) = get_global(m, "llvm.compiler.used") {
        if let Some(init) = initializer(old) {
            elems = operands(init);
        }
        delete_global(old);
    }
    for v in vals {
        if !elems.iter().any(|e| strip_casts(*e) == *v) {
            elems.push(*v);
        }
    }
    let init = const_ptr_array(ctx, &mut elems);
    let g = add_global(m, "llvm.compiler.used", type_of(init), Some(init), false);
    unsafe {
        LLVMSetLinkage(g, LLVMLinkage::LLVMAppendingLinkage);
        let s = cstr("llvm.metadata");
        LLVMSetSection(g, s.as_ptr());
    }
}

/// The context of module `m`.
pub fn module_context(m: LLVMModuleRef) -> LLVMContextRef {
    unsafe { LLVMGetModuleContext(m) }
}

/// The type `[n x ptr]`.
pub fn ptr_array_type(ctx: LLVMContextRef, n: u32) -> T {
    unsafe { LLVMArrayType(ptr_type(ctx), n) }
}

/// Make a load or store volatile.
pub fn set_volatile(i: V) {
    unsafe { LLVMSetVolatile(i, 1) }
}

/// Whether `v` is a `freeze` instruction.
pub fn is_freeze(v: V) -> bool {
    opcode(v) == Some(LLVMOpcode::LLVMFreeze)
}

/// Give call `call` the calling convention of function `f`.
pub fn match_calling_convention(call: V, f: V) {
    unsafe { LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f)) }
}

/// Turn a definition into a declaration (legal for an
/// `available_externally` copy: the defining module keeps its own).
pub fn delete_body(f: V) {
    unsafe {
        let bbs = blocks(f);
        for bb in &bbs {
            for i in instructions(*bb) {
                let t = type_of(i);
                if !is_void(t) {
                    LLVMReplaceAllUsesWith(i, LLVMGetPoison(t));
                }
            }
        }
        let b = crate::ir::Builder::for_function(f);
        for bb in &bbs {
            for i in instructions(*bb).into_iter().rev() {
                LLVMInstructionEraseFromParent(i);
            }
            // The debug records left trailing go with a terminator (LLVM
            // 22; see `omp::delete_unreachable_blocks`).
            b.at_end(*bb);
            b.unreachable();
        }
        for bb in bbs {
            LLVMDeleteBasicBlock(bb);
        }
        if LLVMHasPersonalityFn(f) != 0 {
            // (LLVM-C passes the null through: no personality.)
            LLVMSetPersonalityFn(f, std::ptr::null_mut());
        }
        LLVMGlobalClearMetadata(f);
        LLVMSetLinkage(f, LLVMLinkage::LLVMExternalLinkage);
    }
}
