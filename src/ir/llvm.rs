//! Small, named wrappers over the LLVM-C API: values, types, blocks,
//! instructions. Everything LLVM-version specific on the Rust side is here.
//!
//! These functions take raw LLVM handles. They are `unsafe` at heart; the
//! plugin only calls them with handles that belong to the module being
//! transformed, which outlives every call.
#![allow(clippy::missing_safety_doc)]

use crate::ir::sys::core::*;
pub use crate::ir::sys::prelude::{
    LLVMBasicBlockRef, LLVMBuilderRef, LLVMContextRef, LLVMMetadataRef, LLVMModuleRef, LLVMTypeRef,
    LLVMValueRef,
};
pub use crate::ir::sys::{
    LLVMIntPredicate, LLVMLinkage, LLVMOpcode, LLVMRealPredicate, LLVMTypeKind,
};

// The topic modules' helpers, reachable through `ir::llvm::*` as before.
pub use super::consts::*;
pub use super::globals::*;
pub use super::metadata::*;
pub use super::types::*;
pub use super::values::*;
use std::ffi::{CStr, CString};

pub type V = LLVMValueRef;
pub type T = LLVMTypeRef;
pub type BB = LLVMBasicBlockRef;

/// A C string for LLVM calls.
pub fn cstr(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

/// Name of a value (empty when unnamed).
pub fn name(v: V) -> String {
    unsafe {
        let mut len = 0usize;
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

pub fn set_name(v: V, n: &str) {
    let c = cstr(n);
    unsafe { LLVMSetValueName2(v, c.as_ptr(), n.len()) }
}

/// Textual IR of a value (instruction, function).
pub fn print_value(v: V) -> String {
    unsafe {
        let p = LLVMPrintValueToString(v);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

pub fn print_type(t: T) -> String {
    unsafe {
        let p = LLVMPrintTypeToString(t);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

pub fn type_of(v: V) -> T {
    unsafe { LLVMTypeOf(v) }
}

/// An opcode's name as LLVM prints it (`fadd`, `getelementptr`...).
pub fn opcode_name(op: LLVMOpcode) -> String {
    format!("{op:?}").trim_start_matches("LLVM").to_lowercase()
}

pub fn kind(t: T) -> LLVMTypeKind {
    unsafe { LLVMGetTypeKind(t) }
}

pub fn context_of(t: T) -> LLVMContextRef {
    unsafe { LLVMGetTypeContext(t) }
}

/// A scalar floating-point type (half .. fp128).
pub fn is_fp_scalar(t: T) -> bool {
    use LLVMTypeKind::*;
    matches!(
        kind(t),
        LLVMHalfTypeKind
            | LLVMBFloatTypeKind
            | LLVMFloatTypeKind
            | LLVMDoubleTypeKind
            | LLVMX86_FP80TypeKind
            | LLVMFP128TypeKind
            | LLVMPPC_FP128TypeKind
    )
}

/// A float scalar or a vector of floats.
pub fn is_fp(t: T) -> bool {
    is_fp_scalar(t) || (is_vector(t) && is_fp_scalar(elem_type(t)))
}

pub fn is_int(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMIntegerTypeKind
}

pub fn is_ptr(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMPointerTypeKind
}

pub fn is_void(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMVoidTypeKind
}

pub fn is_vector(t: T) -> bool {
    matches!(
        kind(t),
        LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind
    )
}

pub fn is_struct(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMStructTypeKind
}

pub fn is_array(t: T) -> bool {
    kind(t) == LLVMTypeKind::LLVMArrayTypeKind
}

pub fn elem_type(t: T) -> T {
    unsafe { LLVMGetElementType(t) }
}

pub fn vector_size(t: T) -> u32 {
    unsafe { LLVMGetVectorSize(t) }
}

pub fn struct_fields(t: T) -> Vec<T> {
    unsafe {
        let n = LLVMCountStructElementTypes(t);
        let mut v = vec![std::ptr::null_mut(); n as usize];
        LLVMGetStructElementTypes(t, v.as_mut_ptr());
        v
    }
}

/// Whether a first-class type can carry a derivative: floats, pointers (to
/// memory that may hold floats), and aggregates/vectors containing them.
pub fn may_carry_derivative(t: T) -> bool {
    if is_fp(t) || is_ptr(t) {
        return true;
    }
    if is_vector(t) {
        return is_ptr(elem_type(t));
    }
    if is_struct(t) {
        return struct_fields(t).into_iter().any(may_carry_derivative);
    }
    if is_array(t) {
        return may_carry_derivative(elem_type(t));
    }
    false
}

/// Whether a type contains a float anywhere (not through pointers).
pub fn contains_fp(t: T) -> bool {
    if is_fp(t) {
        return true;
    }
    if is_struct(t) {
        return struct_fields(t).into_iter().any(contains_fp);
    }
    if is_array(t) || is_vector(t) {
        return contains_fp(elem_type(t));
    }
    false
}

/// A struct or array holding pointers and no floats (Rust's slices and
/// `&str`, `{ptr, i64}`): its shadow is the same aggregate with each pointer
/// replaced by its shadow.
pub fn is_ptr_aggregate(t: T) -> bool {
    (is_struct(t) || is_array(t)) && contains_ptr(t) && !contains_fp(t)
}

pub fn contains_ptr(t: T) -> bool {
    if is_ptr(t) {
        return true;
    }
    if is_struct(t) {
        return struct_fields(t).into_iter().any(contains_ptr);
    }
    if is_array(t) || is_vector(t) {
        return contains_ptr(elem_type(t));
    }
    false
}

// ----- constants -------------------------------------------------------------

/// A float constant of type `t` (scalar or vector splat).
pub fn const_real(t: T, x: f64) -> V {
    unsafe {
        if is_vector(t) {
            let e = const_real(elem_type(t), x);
            let n = vector_size(t);
            let mut elems = vec![e; n as usize];
            LLVMConstVector(elems.as_mut_ptr(), n)
        } else {
            LLVMConstReal(t, x)
        }
    }
}

/// The zero value of any type (the tangent/adjoint of "no derivative").
pub fn zero(t: T) -> V {
    unsafe { LLVMConstNull(t) }
}

pub fn const_i32(ctx: LLVMContextRef, x: i64) -> V {
    unsafe { LLVMConstInt(LLVMInt32TypeInContext(ctx), x as u64, 1) }
}

pub fn const_i64(ctx: LLVMContextRef, x: i64) -> V {
    unsafe { LLVMConstInt(LLVMInt64TypeInContext(ctx), x as u64, 1) }
}

pub fn const_i1(ctx: LLVMContextRef, b: bool) -> V {
    unsafe { LLVMConstInt(LLVMInt1TypeInContext(ctx), b as u64, 0) }
}

pub fn is_constant(v: V) -> bool {
    unsafe { !LLVMIsAConstant(v).is_null() }
}

pub fn const_int_value(v: V) -> Option<i64> {
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            None
        } else {
            Some(LLVMConstIntGetSExtValue(v))
        }
    }
}

pub fn const_real_value(v: V) -> Option<f64> {
    unsafe {
        if LLVMIsAConstantFP(v).is_null() {
            return None;
        }
        let mut lossy = 0;
        Some(LLVMConstRealGetDouble(v, &mut lossy))
    }
}

// ----- classification of values ---------------------------------------------

pub fn is_instruction(v: V) -> bool {
    unsafe { !LLVMIsAInstruction(v).is_null() }
}

pub fn is_argument(v: V) -> bool {
    unsafe { !LLVMIsAArgument(v).is_null() }
}

pub fn is_function(v: V) -> bool {
    unsafe { !LLVMIsAFunction(v).is_null() }
}

pub fn is_global_var(v: V) -> bool {
    unsafe { !LLVMIsAGlobalVariable(v).is_null() }
}

/// A null or undef constant (a pointer that needs no shadow).
pub fn is_null_or_undef(v: V) -> bool {
    unsafe { LLVMIsNull(v) != 0 || !LLVMIsAUndefValue(v).is_null() }
}

pub fn is_invoke(v: V) -> bool {
    unsafe { !LLVMIsAInvokeInst(v).is_null() }
}

pub fn is_call(v: V) -> bool {
    unsafe { !LLVMIsACallInst(v).is_null() }
}

pub fn opcode(v: V) -> Option<LLVMOpcode> {
    if is_instruction(v) {
        Some(unsafe { LLVMGetInstructionOpcode(v) })
    } else {
        None
    }
}

pub fn operand(v: V, i: u32) -> V {
    unsafe { LLVMGetOperand(v, i) }
}

pub fn num_operands(v: V) -> u32 {
    unsafe { LLVMGetNumOperands(v) as u32 }
}

pub fn operands(v: V) -> Vec<V> {
    (0..num_operands(v)).map(|i| operand(v, i)).collect()
}

/// Strip pointer casts and aliases (and constant-expression bitcasts).
pub fn strip_casts(mut v: V) -> V {
    unsafe {
        loop {
            if !LLVMIsAConstantExpr(v).is_null() {
                let op = LLVMGetConstOpcode(v);
                if matches!(op, LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) {
                    v = LLVMGetOperand(v, 0);
                    continue;
                }
            }
            if !LLVMIsAGlobalAlias(v).is_null() {
                v = LLVMAliasGetAliasee(v);
                continue;
            }
            if let Some(LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) = opcode(v) {
                v = LLVMGetOperand(v, 0);
                continue;
            }
            return v;
        }
    }
}

// ----- calls ---------------------------------------------------------------------

/// Number of call arguments (excluding the callee).
pub fn call_num_args(call: V) -> u32 {
    unsafe { LLVMGetNumArgOperands(call) }
}

pub fn call_args(call: V) -> Vec<V> {
    (0..call_num_args(call)).map(|i| operand(call, i)).collect()
}

pub fn called_value(call: V) -> V {
    unsafe { LLVMGetCalledValue(call) }
}

/// The function a call calls directly (through casts), if any.
pub fn called_function(call: V) -> Option<V> {
    if unsafe { LLVMIsACallInst(call).is_null() && LLVMIsAInvokeInst(call).is_null() } {
        return None;
    }
    let c = strip_casts(called_value(call));
    if is_function(c) {
        Some(c)
    } else {
        None
    }
}

/// The function a call reaches when that is known: a direct call, or a call
/// through a local function-pointer variable whose every store stores the
/// same function (as clang -O0 emits for `double (*fp)(double) = f; fp(x)`).
pub fn known_target(call: V) -> Option<V> {
    if let Some(f) = called_function(call) {
        return Some(f);
    }
    let c = strip_casts(called_value(call));
    if opcode(c) != Some(LLVMOpcode::LLVMLoad) {
        return None;
    }
    let slot = strip_casts(operand(c, 0));
    if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
        return None;
    }
    let mut target = None;
    for u in users(slot) {
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) => {}
            Some(LLVMOpcode::LLVMStore) if operand(u, 1) == slot => {
                let f = strip_casts(operand(u, 0));
                if !is_function(f) || target.map_or(false, |t| t != f) {
                    return None;
                }
                target = Some(f);
            }
            Some(LLVMOpcode::LLVMCall) if is_inline_asm(called_value(u)) => return None,
            _ if is_call(u) && name(called_value(u)).starts_with("llvm.lifetime") => {}
            _ => return None,
        }
    }
    target
}

pub fn call_fn_type(call: V) -> T {
    unsafe { LLVMGetCalledFunctionType(call) }
}

pub fn is_inline_asm(v: V) -> bool {
    unsafe { !LLVMIsAInlineAsm(v).is_null() }
}

/// Whether call-site parameter `i` carries the `sret` attribute.
pub fn call_has_sret(call: V, i: u32) -> bool {
    let kind = enum_attr_kind("sret");
    unsafe { !LLVMGetCallSiteEnumAttribute(call, i + 1, kind).is_null() }
}

pub fn enum_attr_kind(name: &str) -> u32 {
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len()) }
}

pub fn fn_has_attr(f: V, name: &str) -> bool {
    unsafe {
        let idx = crate::ir::sys::LLVMAttributeFunctionIndex;
        let k = enum_attr_kind(name);
        if k != 0 && !LLVMGetEnumAttributeAtIndex(f, idx, k).is_null() {
            return true;
        }
        !LLVMGetStringAttributeAtIndex(f, idx, name.as_ptr() as *const _, name.len() as u32)
            .is_null()
    }
}

pub fn add_fn_attr(f: V, name: &str) {
    unsafe {
        let ctx = LLVMGetTypeContext(type_of(f));
        let k = enum_attr_kind(name);
        let a = LLVMCreateEnumAttribute(ctx, k, 0);
        LLVMAddAttributeAtIndex(f, crate::ir::sys::LLVMAttributeFunctionIndex, a);
    }
}

pub fn remove_fn_attr(f: V, name: &str) {
    unsafe {
        LLVMRemoveEnumAttributeAtIndex(
            f,
            crate::ir::sys::LLVMAttributeFunctionIndex,
            enum_attr_kind(name),
        )
    }
}

// ----- functions and blocks -----------------------------------------------------

pub fn params(f: V) -> Vec<V> {
    unsafe {
        let n = LLVMCountParams(f);
        let mut v = vec![std::ptr::null_mut(); n as usize];
        LLVMGetParams(f, v.as_mut_ptr());
        v
    }
}

pub fn fn_type(f: V) -> T {
    unsafe { LLVMGlobalGetValueType(f) }
}

pub fn fn_return_type(f: V) -> T {
    unsafe { LLVMGetReturnType(fn_type(f)) }
}

pub fn is_declaration(f: V) -> bool {
    unsafe { LLVMIsDeclaration(f) != 0 }
}

/// How many instructions `f`'s body holds (a size for inlining and
/// pipeline budgets).
pub fn instruction_count(f: V) -> usize {
    blocks(f).into_iter().map(|b| instructions(b).len()).sum()
}

pub fn blocks(f: V) -> Vec<BB> {
    let mut out = Vec::new();
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

pub fn instructions(bb: BB) -> Vec<V> {
    let mut out = Vec::new();
    unsafe {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
    }
    out
}

/// The instruction before `i` in its block, if any.
pub fn prev_instruction(i: V) -> Option<V> {
    let p = unsafe { LLVMGetPreviousInstruction(i) };
    (!p.is_null()).then_some(p)
}

/// The instruction after `i` in its block, if any.
pub fn next_instruction(i: V) -> Option<V> {
    let n = unsafe { LLVMGetNextInstruction(i) };
    (!n.is_null()).then_some(n)
}

pub fn terminator(bb: BB) -> V {
    unsafe { LLVMGetBasicBlockTerminator(bb) }
}

pub fn successors(bb: BB) -> Vec<BB> {
    let t = terminator(bb);
    if t.is_null() {
        return vec![];
    }
    unsafe {
        (0..LLVMGetNumSuccessors(t))
            .map(|i| LLVMGetSuccessor(t, i))
            .collect()
    }
}

pub fn inst_block(i: V) -> BB {
    unsafe { LLVMGetInstructionParent(i) }
}

pub fn block_fn(bb: BB) -> V {
    unsafe { LLVMGetBasicBlockParent(bb) }
}

pub fn inst_fn(i: V) -> V {
    block_fn(inst_block(i))
}

/// Instructions grouped by the function they are in (in first-seen order).
pub fn by_function(insts: Vec<V>) -> Vec<(V, Vec<V>)> {
    let mut out: Vec<(V, Vec<V>)> = Vec::new();
    for i in insts {
        let f = inst_fn(i);
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some((_, is)) => is.push(i),
            None => out.push((f, vec![i])),
        }
    }
    out
}

/// Blocks of `f` in reverse post-order from the entry: every block comes
/// after its dominators.
pub fn rpo(f: V) -> Vec<BB> {
    let all = blocks(f);
    if all.is_empty() {
        return vec![];
    }
    let mut seen = std::collections::HashSet::new();
    let mut post = Vec::new();
    // iterative DFS
    let mut stack: Vec<(BB, usize)> = vec![(all[0], 0)];
    seen.insert(all[0]);
    while let Some((b, i)) = stack.pop() {
        let succ = successors(b);
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[i];
            if seen.insert(s) {
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

pub fn module_of(f: V) -> LLVMModuleRef {
    unsafe { LLVMGetGlobalParent(f) }
}

pub fn functions(m: LLVMModuleRef) -> Vec<V> {
    let mut out = Vec::new();
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

pub fn globals(m: LLVMModuleRef) -> Vec<V> {
    let mut out = Vec::new();
    unsafe {
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            out.push(g);
            g = LLVMGetNextGlobal(g);
        }
    }
    out
}

pub fn get_function(m: LLVMModuleRef, n: &str) -> Option<V> {
    let c = cstr(n);
    let f = unsafe { LLVMGetNamedFunction(m, c.as_ptr()) };
    if f.is_null() {
        None
    } else {
        Some(f)
    }
}

/// Get or declare a function `n` of type `ty`.
pub fn get_or_declare(m: LLVMModuleRef, n: &str, ty: T) -> V {
    get_function(m, n).unwrap_or_else(|| {
        let c = cstr(n);
        unsafe { LLVMAddFunction(m, c.as_ptr(), ty) }
    })
}

/// Uses (users) of a value.
pub fn has_uses(v: V) -> bool {
    unsafe { !LLVMGetFirstUse(v).is_null() }
}

pub fn users(v: V) -> Vec<V> {
    let mut out = Vec::new();
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
    }
    out
}

pub fn fn_type_of(ret: T, params: &mut [T], vararg: bool) -> T {
    unsafe { LLVMFunctionType(ret, params.as_mut_ptr(), params.len() as u32, vararg as i32) }
}

pub fn ptr_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMPointerTypeInContext(ctx, 0) }
}

pub fn i64_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMInt64TypeInContext(ctx) }
}

pub fn i32_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMInt32TypeInContext(ctx) }
}

pub fn i8_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMInt8TypeInContext(ctx) }
}

pub fn i1_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMInt1TypeInContext(ctx) }
}

pub fn void_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMVoidTypeInContext(ctx) }
}

pub fn struct_type(ctx: LLVMContextRef, fields: &mut [T]) -> T {
    unsafe { LLVMStructTypeInContext(ctx, fields.as_mut_ptr(), fields.len() as u32, 0) }
}

/// Whether `t` has no fixed size: a scalable vector (`<vscale x N x T>`),
/// a target extension type, or an aggregate holding one. LLVM's size and
/// alignment queries abort (or never return) on these: the sizes below
/// are 0 for them, and the modes refuse to differentiate code using them.
pub fn has_unfixed_size(t: T) -> bool {
    match kind(t) {
        LLVMTypeKind::LLVMScalableVectorTypeKind | LLVMTypeKind::LLVMTargetExtTypeKind => true,
        LLVMTypeKind::LLVMStructTypeKind => struct_fields(t).into_iter().any(has_unfixed_size),
        LLVMTypeKind::LLVMArrayTypeKind => has_unfixed_size(elem_type(t)),
        _ => false,
    }
}

/// Size in bytes of a type for the module's data layout (0: no fixed size).
pub fn type_store_size(m: LLVMModuleRef, t: T) -> u64 {
    if has_unfixed_size(t) {
        return 0;
    }
    unsafe {
        let dl = crate::ir::sys::target::LLVMGetModuleDataLayout(m);
        crate::ir::sys::target::LLVMStoreSizeOfType(dl, t)
    }
}

pub fn type_alloc_size(m: LLVMModuleRef, t: T) -> u64 {
    if has_unfixed_size(t) {
        return 0;
    }
    unsafe {
        let dl = crate::ir::sys::target::LLVMGetModuleDataLayout(m);
        crate::ir::sys::target::LLVMABISizeOfType(dl, t)
    }
}

/// Run the verifier on a function; Err with the verifier's message.
pub fn verify_function(f: V) -> Result<(), String> {
    use crate::ir::sys::analysis::*;
    unsafe {
        if LLVMVerifyFunction(f, LLVMVerifierFailureAction::LLVMReturnStatusAction) == 0 {
            return Ok(());
        }
        // Collect the message through the module verifier.
        let m = module_of(f);
        let mut msg = std::ptr::null_mut();
        LLVMVerifyModule(
            m,
            LLVMVerifierFailureAction::LLVMReturnStatusAction,
            &mut msg,
        );
        let s = if msg.is_null() {
            String::from("(no message)")
        } else {
            let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
            LLVMDisposeMessage(msg);
            s
        };
        Err(s)
    }
}

/// Whether call `call` carries string attribute `attr` on the function.
pub fn call_has_string_attr(call: V, attr: &str) -> bool {
    unsafe {
        !LLVMGetCallSiteStringAttribute(
            call,
            crate::ir::sys::LLVMAttributeFunctionIndex,
            attr.as_ptr() as *const _,
            attr.len() as u32,
        )
        .is_null()
    }
}

/// The initializer of global `g`, if it has one.
pub fn global_initializer(g: V) -> Option<V> {
    let init = unsafe { LLVMGetInitializer(g) };
    (!init.is_null()).then_some(init)
}

/// A call to a debug-info intrinsic (`llvm.dbg.*`).
pub fn is_debug_intrinsic(i: V) -> bool {
    called_function(i).is_some_and(|f| name(f).starts_with("llvm.dbg."))
}

/// A call to `llvm.lifetime.start` / `llvm.lifetime.end`.
pub fn is_lifetime_marker(i: V) -> bool {
    called_function(i).is_some_and(|f| name(f).starts_with("llvm.lifetime."))
}

/// A call or an invoke instruction.
pub fn is_call_or_invoke(v: V) -> bool {
    unsafe { !LLVMIsACallInst(v).is_null() || !LLVMIsAInvokeInst(v).is_null() }
}
