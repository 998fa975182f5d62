//! Safe helpers over types: widths, lengths, function signatures, the
//! floating-point types, and data-layout sizes.
use super::llvm::{LLVMContextRef, LLVMModuleRef, T};
use crate::ir::sys::core::*;

/// Bit width of an integer type.
pub fn int_width(t: T) -> u32 {
    unsafe { LLVMGetIntTypeWidth(t) }
}

/// Whether `t` is an integer type of exactly `bits` bits.
pub fn is_int_of(t: T, bits: u32) -> bool {
    super::llvm::is_int(t) && int_width(t) == bits
}

pub fn array_len(t: T) -> u32 {
    unsafe { LLVMGetArrayLength(t) }
}

pub fn array_type(elem: T, n: u32) -> T {
    unsafe { LLVMArrayType(elem, n) }
}

pub fn vector_type(elem: T, n: u32) -> T {
    unsafe { LLVMVectorType(elem, n) }
}

pub fn is_sized(t: T) -> bool {
    unsafe { LLVMTypeIsSized(t) != 0 }
}

/// Return type of a function type.
pub fn ret_type(fty: T) -> T {
    unsafe { LLVMGetReturnType(fty) }
}

/// Parameter types of a function type.
pub fn param_types(fty: T) -> Vec<T> {
    unsafe {
        let n = LLVMCountParamTypes(fty);
        let mut v = vec![std::ptr::null_mut(); n as usize];
        LLVMGetParamTypes(fty, v.as_mut_ptr());
        v
    }
}

pub fn num_param_types(fty: T) -> u32 {
    unsafe { LLVMCountParamTypes(fty) }
}

/// Whether a function type takes variable arguments.
pub fn is_vararg(fty: T) -> bool {
    unsafe { LLVMIsFunctionVarArg(fty) != 0 }
}

pub fn module_context(m: LLVMModuleRef) -> LLVMContextRef {
    unsafe { LLVMGetModuleContext(m) }
}

pub fn double_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMDoubleTypeInContext(ctx) }
}

pub fn float_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMFloatTypeInContext(ctx) }
}

pub fn half_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMHalfTypeInContext(ctx) }
}

pub fn bfloat_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMBFloatTypeInContext(ctx) }
}

pub fn x86_fp80_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMX86FP80TypeInContext(ctx) }
}

pub fn fp128_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMFP128TypeInContext(ctx) }
}

pub fn ppc_fp128_type(ctx: LLVMContextRef) -> T {
    unsafe { LLVMPPCFP128TypeInContext(ctx) }
}

/// Byte offset of field `i` of struct type `st` in the module's data layout.
pub fn field_offset(m: LLVMModuleRef, st: T, i: u32) -> u64 {
    unsafe {
        let dl = crate::ir::sys::target::LLVMGetModuleDataLayout(m);
        crate::ir::sys::target::LLVMOffsetOfElement(dl, st, i)
    }
}
