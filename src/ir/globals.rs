//! Safe helpers over functions, global variables, attributes and blocks:
//! creating and deleting them, linkage, initializers, calling conventions.
use super::llvm::{
    called_function, context_of, cstr, enum_attr_kind, fn_has_attr, name, params, type_of,
    LLVMLinkage, LLVMModuleRef, BB, T, V,
};
use crate::ir::sys::core::*;

// ----- functions ----------------------------------------------------------------

/// A new function `n` of type `fty` (LLVM renames it on a clash).
pub fn add_function(m: LLVMModuleRef, n: &str, fty: T) -> V {
    let c = cstr(n);
    unsafe { LLVMAddFunction(m, c.as_ptr(), fty) }
}

/// A new function with internal linkage.
pub fn add_internal_function(m: LLVMModuleRef, n: &str, fty: T) -> V {
    let f = add_function(m, n, fty);
    set_internal(f);
    f
}

pub fn delete_function(f: V) {
    unsafe { LLVMDeleteFunction(f) }
}

/// The value type of a global (a function's function type).
pub fn global_type(g: V) -> T {
    unsafe { LLVMGlobalGetValueType(g) }
}

/// Append a new block named `n` to function `f`.
pub fn append_block(f: V, n: &str) -> BB {
    let c = cstr(n);
    unsafe { LLVMAppendBasicBlockInContext(context_of(type_of(f)), f, c.as_ptr()) }
}

/// The name of a block.
pub fn block_name(bb: BB) -> String {
    name(unsafe { LLVMBasicBlockAsValue(bb) })
}

/// The first instruction of a block, if it has any.
pub fn first_instruction(bb: BB) -> Option<V> {
    let i = unsafe { LLVMGetFirstInstruction(bb) };
    (!i.is_null()).then_some(i)
}

pub fn last_instruction(bb: BB) -> Option<V> {
    let i = unsafe { LLVMGetLastInstruction(bb) };
    (!i.is_null()).then_some(i)
}

// ----- linkage and visibility ---------------------------------------------------------

pub fn set_linkage(g: V, l: LLVMLinkage) {
    unsafe { LLVMSetLinkage(g, l) }
}

/// Internal linkage (nothing else changed).
pub fn set_internal(g: V) {
    set_linkage(g, LLVMLinkage::LLVMInternalLinkage);
}

/// Internal linkage, default visibility (after cloning, which copies the
/// primal's linkage-related attributes).
pub fn make_internal(f: V) {
    unsafe {
        LLVMSetVisibility(f, crate::ir::sys::LLVMVisibility::LLVMDefaultVisibility);
        LLVMSetLinkage(f, LLVMLinkage::LLVMInternalLinkage);
        LLVMSetDLLStorageClass(
            f,
            crate::ir::sys::LLVMDLLStorageClass::LLVMDefaultStorageClass,
        );
        LLVMSetUnnamedAddress(f, crate::ir::sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr);
    }
}

/// Give a function the C calling convention.
pub fn set_c_call_conv(f: V) {
    unsafe { LLVMSetFunctionCallConv(f, crate::ir::sys::LLVMCallConv::LLVMCCallConv as u32) }
}

/// Give call `call` the calling convention of function `f`.
pub fn copy_call_conv(f: V, call: V) {
    unsafe { LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f)) }
}

// ----- global variables --------------------------------------------------------------

pub fn add_global(m: LLVMModuleRef, ty: T, n: &str) -> V {
    let c = cstr(n);
    unsafe { LLVMAddGlobal(m, ty, c.as_ptr()) }
}

pub fn named_global(m: LLVMModuleRef, n: &str) -> Option<V> {
    let c = cstr(n);
    let g = unsafe { LLVMGetNamedGlobal(m, c.as_ptr()) };
    (!g.is_null()).then_some(g)
}

pub fn set_initializer(g: V, init: V) {
    unsafe { LLVMSetInitializer(g, init) }
}

/// Replace each `llvm.threadlocal.address(@g)` call of `f` by `@g` itself
/// (the current thread's variable, as a use of a thread-local global means
/// in a function): derivative clones then see the global, and give it its
/// (thread-local) shadow. Returns how many calls went.
pub fn strip_threadlocal_address(f: V) -> usize {
    let mut calls = Vec::new();
    for bb in crate::ir::llvm::blocks(f) {
        for i in crate::ir::llvm::instructions(bb) {
            if crate::ir::llvm::is_call(i)
                && crate::ir::llvm::called_function(i).is_some_and(|c| {
                    crate::ir::llvm::name(c).starts_with("llvm.threadlocal.address")
                })
            {
                calls.push(i);
            }
        }
    }
    for c in &calls {
        crate::ir::llvm::replace_all_uses(*c, crate::ir::llvm::operand(*c, 0));
        crate::ir::llvm::erase(*c);
    }
    calls.len()
}

pub fn set_thread_local(g: V) {
    unsafe { LLVMSetThreadLocal(g, 1) }
}

/// Whether global `g` is marked `constant`.
pub fn is_global_constant(g: V) -> bool {
    unsafe { LLVMIsGlobalConstant(g) != 0 }
}

pub fn is_externally_initialized(g: V) -> bool {
    unsafe { LLVMIsExternallyInitialized(g) != 0 }
}

// ----- attributes ----------------------------------------------------------------------

/// Attribute index of parameter `i` (0-based).
fn param_index(i: u32) -> u32 {
    i + 1
}

/// Whether function `f` has enum attribute `attr` at LLVM attribute index
/// `idx` (0 = return, 1.. = parameters, `FN_INDEX` = the function).
pub fn has_attr_at(f: V, idx: u32, attr: &str) -> bool {
    unsafe { !LLVMGetEnumAttributeAtIndex(f, idx, enum_attr_kind(attr)).is_null() }
}

/// The attribute index of the function itself.
pub const FN_INDEX: u32 = crate::ir::sys::LLVMAttributeFunctionIndex;

/// Whether parameter `i` (0-based) of function `f` carries enum attribute `attr`.
pub fn param_has_attr(f: V, i: u32, attr: &str) -> bool {
    has_attr_at(f, param_index(i), attr)
}

/// Add enum attribute `attr` (no value) to parameter `i` (0-based) of `f`.
pub fn add_param_attr(f: V, i: u32, attr: &str) {
    unsafe {
        let ctx = context_of(type_of(f));
        let a = LLVMCreateEnumAttribute(ctx, enum_attr_kind(attr), 0);
        LLVMAddAttributeAtIndex(f, param_index(i), a);
    }
}

/// The type of a type attribute (`sret`, `byval`, ...) at attribute index
/// `idx` of function `f`.
pub fn type_attr_at(f: V, idx: u32, attr: &str) -> Option<T> {
    unsafe {
        let a = LLVMGetEnumAttributeAtIndex(f, idx, enum_attr_kind(attr));
        (!a.is_null()).then(|| LLVMGetTypeAttributeValue(a))
    }
}

pub fn remove_attr_at(f: V, idx: u32, attr: &str) {
    unsafe { LLVMRemoveEnumAttributeAtIndex(f, idx, enum_attr_kind(attr)) }
}

/// The integer value of a function attribute (e.g. `memory(...)`'s encoding).
pub fn fn_attr_value(f: V, attr: &str) -> Option<u64> {
    unsafe {
        let a = LLVMGetEnumAttributeAtIndex(f, FN_INDEX, enum_attr_kind(attr));
        (!a.is_null()).then(|| LLVMGetEnumAttributeValue(a))
    }
}

/// The `dereferenceable(N)` bytes a parameter promises (clang puts it on
/// C++ references and `this`): the size of the object it refers to.
pub fn param_dereferenceable(p: V) -> Option<u64> {
    let f = super::values::param_parent(p);
    let idx = params(f).iter().position(|q| *q == p)? as u32 + 1;
    unsafe {
        let a = LLVMGetEnumAttributeAtIndex(f, idx, enum_attr_kind("dereferenceable"));
        (!a.is_null())
            .then(|| LLVMGetEnumAttributeValue(a))
            .filter(|n| *n > 0)
    }
}

/// Whether a call never returns (`noreturn` on the call or its callee,
/// e.g. Rust's panic functions).
pub fn is_noreturn_call(call: V) -> bool {
    call_has_attr_at(call, FN_INDEX, "noreturn")
        || called_function(call).is_some_and(|f| fn_has_attr(f, "noreturn"))
}

/// Whether call-site attribute index `idx` of `call` carries enum attribute `attr`.
pub fn call_has_attr_at(call: V, idx: u32, attr: &str) -> bool {
    unsafe { !LLVMGetCallSiteEnumAttribute(call, idx, enum_attr_kind(attr)).is_null() }
}

/// The type of a call-site type attribute at attribute index `idx`.
pub fn call_type_attr_at(call: V, idx: u32, attr: &str) -> Option<T> {
    unsafe {
        let a = LLVMGetCallSiteEnumAttribute(call, idx, enum_attr_kind(attr));
        (!a.is_null()).then(|| LLVMGetTypeAttributeValue(a))
    }
}

/// Add type attribute `attr` with type `ty` at call-site attribute index `idx`.
pub fn add_call_type_attr(call: V, idx: u32, attr: &str, ty: T) {
    unsafe {
        let ctx = context_of(type_of(call));
        let a = LLVMCreateTypeAttribute(ctx, enum_attr_kind(attr), ty);
        LLVMAddCallSiteAttribute(call, idx, a);
    }
}

/// Add string attribute `key` (no value) to the function of a call site.
pub fn add_call_string_attr(call: V, key: &str) {
    unsafe {
        let ctx = context_of(type_of(call));
        let a = LLVMCreateStringAttribute(
            ctx,
            key.as_ptr() as *const _,
            key.len() as u32,
            std::ptr::null(),
            0,
        );
        LLVMAddCallSiteAttribute(call, FN_INDEX, a);
    }
}

/// A zero-initialized internal global named `n` with the value type and
/// alignment of global `like`.
/// The global keeps `like`'s address space (GPU workgroup memory: undef
/// initializer, see `gpu::add_shadow_global_like`).
pub fn add_zeroed_global_like(m: LLVMModuleRef, like: V, n: &str) -> V {
    super::gpu::add_shadow_global_like(m, like, n)
}
