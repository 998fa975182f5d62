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
