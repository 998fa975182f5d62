//! Safe constructors of constants beyond the scalar ones in `llvm.rs`.
use super::llvm::{T, V};
use crate::ir::sys::core::*;

/// An integer constant of type `t` (zero-extended from `x`).
pub fn const_int(t: T, x: u64) -> V {
    unsafe { LLVMConstInt(t, x, 0) }
}

/// A constant vector of the given elements (all of one type).
pub fn const_vector(elems: &[V]) -> V {
    let mut e = elems.to_vec();
    unsafe { LLVMConstVector(e.as_mut_ptr(), e.len() as u32) }
}

/// A constant GEP `base[idx..]` over source element type `t`.
pub fn const_gep(t: T, base: V, idx: &[V], inbounds: bool) -> V {
    let mut idx = idx.to_vec();
    let n = idx.len() as u32;
    unsafe {
        if inbounds {
            LLVMConstInBoundsGEP2(t, base, idx.as_mut_ptr(), n)
        } else {
            LLVMConstGEP2(t, base, idx.as_mut_ptr(), n)
        }
    }
}

/// A constant pointer cast of `v` to `t`.
pub fn const_pointer_cast(v: V, t: T) -> V {
    unsafe { LLVMConstPointerCast(v, t) }
}

/// A constant array of `elems` (each of type `elem`).
pub fn const_array(elem: T, elems: &[V]) -> V {
    let mut e = elems.to_vec();
    unsafe { LLVMConstArray(elem, e.as_mut_ptr(), e.len() as u32) }
}

/// A private constant global holding the NUL-terminated string `s`.
pub fn const_cstring_global(m: super::llvm::LLVMModuleRef, s: &str, name: &str) -> V {
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let init = LLVMConstStringInContext(ctx, s.as_ptr() as *const _, s.len() as u32, 0);
        let g = super::link::add_global(m, name, LLVMTypeOf(init), Some(init), true);
        super::globals::set_linkage(g, crate::ir::sys::LLVMLinkage::LLVMPrivateLinkage);
        g
    }
}

/// A constant of struct type `t` (named or literal) with fields `elems`.
pub fn const_struct_of(t: T, elems: &[V]) -> V {
    let mut e = elems.to_vec();
    let n = e.len() as u32;
    unsafe {
        if LLVMIsLiteralStruct(t) != 0 {
            LLVMConstStructInContext(
                LLVMGetTypeContext(t),
                e.as_mut_ptr(),
                n,
                LLVMIsPackedStruct(t),
            )
        } else {
            LLVMConstNamedStruct(t, e.as_mut_ptr(), n)
        }
    }
}
