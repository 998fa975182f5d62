//! What LLVM's own types say: the tree of a first-class type, the byte
//! offsets of GEP and aggregate indices (through the module's data layout).
use super::tree::{Base, FloatKind, Off, TypeTree};
use crate::ir::llvm::*;

pub fn float_kind(t: T) -> Option<FloatKind> {
    use LLVMTypeKind::*;
    Some(match kind(t) {
        LLVMHalfTypeKind => FloatKind::Half,
        LLVMBFloatTypeKind => FloatKind::BFloat,
        LLVMFloatTypeKind => FloatKind::Float,
        LLVMDoubleTypeKind => FloatKind::Double,
        LLVMX86_FP80TypeKind => FloatKind::X86Fp80,
        LLVMFP128TypeKind => FloatKind::Fp128,
        LLVMPPC_FP128TypeKind => FloatKind::PpcFp128,
        _ => return None,
    })
}

/// Data layout queries for one module.
#[derive(Clone, Copy)]
pub struct Layout {
    m: LLVMModuleRef,
}

impl Layout {
    pub fn new(m: LLVMModuleRef) -> Layout {
        Layout { m }
    }
    pub fn alloc_size(&self, t: T) -> u64 {
        if !sized(t) {
            return 0;
        }
        type_alloc_size(self.m, t)
    }
    pub fn store_size(&self, t: T) -> u64 {
        if !sized(t) {
            return 0;
        }
        type_store_size(self.m, t)
    }
    pub fn field_offset(&self, st: T, i: u32) -> u64 {
        field_offset(self.m, st, i)
    }

    /// The tree LLVM's type alone implies for a value of type `t`: floats and
    /// pointers are certain; integers are not (they may hold anything's
    /// bits) unless `ints` is set.
    pub fn type_tree(&self, t: T, ints: bool) -> TypeTree {
        let mut out = TypeTree::new();
        self.add_type(&mut out, t, 0, ints, 0);
        out
    }

    fn add_type(&self, out: &mut TypeTree, t: T, off: i64, ints: bool, depth: u32) {
        if depth > 4 {
            return;
        }
        if let Some(k) = float_kind(t) {
            out.insert(vec![Off::exact(off)], Base::Float(k));
        } else if is_ptr(t) {
            out.insert(vec![Off::exact(off)], Base::Pointer);
        } else if is_int(t) {
            if ints || int_width(t) == 1 {
                out.insert(vec![Off::exact(off)], Base::Integer);
            }
        } else if is_struct(t) {
            for (i, f) in struct_fields(t).into_iter().enumerate() {
                let o = off + self.field_offset(t, i as u32) as i64;
                self.add_type(out, f, o, ints, depth + 1);
            }
        } else if is_array(t) || kind(t) == LLVMTypeKind::LLVMVectorTypeKind {
            let e = elem_type(t);
            let n = seq_len(t);
            let es = self.alloc_size(e) as i64;
            if es == 0 {
                return;
            }
            if n <= 16 {
                for k in 0..n {
                    self.add_type(out, e, off + k * es, ints, depth + 1);
                }
            } else {
                let mut inner = TypeTree::new();
                self.add_type(&mut inner, e, 0, ints, depth + 1);
                out.merge(&inner.fold(es).shift(off));
            }
        }
    }

    /// Byte offsets of the scalars of a value of type `t`.
    pub fn scalar_offsets(&self, t: T) -> Vec<i64> {
        let mut out = Vec::new();
        self.add_offsets(&mut out, t, 0, 0);
        if out.is_empty() {
            out.push(0);
        }
        out
    }

    fn add_offsets(&self, out: &mut Vec<i64>, t: T, off: i64, depth: u32) {
        if out.len() > 64 || depth > 4 {
            return;
        }
        if is_struct(t) {
            for (i, f) in struct_fields(t).into_iter().enumerate() {
                self.add_offsets(
                    out,
                    f,
                    off + self.field_offset(t, i as u32) as i64,
                    depth + 1,
                );
            }
        } else if is_array(t) || kind(t) == LLVMTypeKind::LLVMVectorTypeKind {
            let e = elem_type(t);
            let n = seq_len(t);
            let es = self.alloc_size(e) as i64;
            for k in 0..n.min(64) {
                self.add_offsets(out, e, off + k * es, depth + 1);
            }
        } else {
            out.push(off);
        }
    }

    /// Byte offset of an aggregate index path (extractvalue/insertvalue)
    /// and the type found there.
    pub fn aggregate_offset(&self, mut t: T, idx: &[u32]) -> (i64, T) {
        let mut off = 0i64;
        for &i in idx {
            if is_struct(t) {
                off += self.field_offset(t, i) as i64;
                t = struct_fields(t)[i as usize];
            } else {
                let e = elem_type(t);
                off += i as i64 * self.alloc_size(e) as i64;
                t = e;
            }
        }
        (off, t)
    }

    /// A GEP's offset from its base: the constant part, and the strides of
    /// its variable indices.
    pub fn gep_offset(&self, gep: V, src_ty: T, indices: &[V]) -> (i64, Vec<i64>) {
        let _ = gep;
        let mut off = 0i64;
        let mut strides = Vec::new();
        let mut t = src_ty;
        for (n, &ix) in indices.iter().enumerate() {
            let (step_ty, scale) = if n == 0 {
                (t, self.alloc_size(t) as i64)
            } else if is_struct(t) {
                let i = const_int_value(ix).unwrap_or(0) as u32;
                off += self.field_offset(t, i) as i64;
                t = struct_fields(t)[i as usize];
                continue;
            } else {
                let e = elem_type(t);
                (e, self.alloc_size(e) as i64)
            };
            match const_int_value(ix) {
                Some(c) => off += c * scale,
                None => {
                    if !is_constant(ix) || !is_const_int(ix) {
                        strides.push(scale)
                    }
                }
            }
            if n > 0 {
                t = step_ty;
            }
        }
        (off, strides)
    }
}

fn sized(t: T) -> bool {
    is_sized(t)
}

/// The element count of an array or vector type.
fn seq_len(t: T) -> i64 {
    if is_array(t) {
        array_len(t) as i64
    } else {
        vector_size(t) as i64
    }
}
