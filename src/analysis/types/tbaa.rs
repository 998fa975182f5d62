//! Types from clang's TBAA metadata: the scalar type names of `!tbaa` access
//! tags on loads and stores, and the (offset, size, tag) triples of
//! `!tbaa.struct` on memory copies.
use super::tree::{Base, FloatKind};
use crate::ir::llvm::*;

/// The base type a TBAA scalar type name stands for.
pub fn base_of_name(n: &str) -> Option<Base> {
    Some(match n {
        "double" => Base::Float(FloatKind::Double),
        "float" => Base::Float(FloatKind::Float),
        "long double" => Base::Float(FloatKind::X86Fp80),
        "__float128" | "_Float128" => Base::Float(FloatKind::Fp128),
        "_Float16" | "__fp16" | "half" => Base::Float(FloatKind::Half),
        "any pointer" | "vtable pointer" => Base::Pointer,
        "int" | "long" | "long long" | "short" | "bool" | "_Bool" | "__int128" | "wchar_t"
        | "char16_t" | "char32_t" => Base::Integer,
        _ if n.starts_with("unsigned ") => Base::Integer,
        _ if n.starts_with("p1 ") || n.starts_with("p2 ") || n.ends_with('*') => Base::Pointer,
        _ => return None,
    })
}

/// The scalar type name of a TBAA access tag (struct-path or scalar form).
fn tag_type_name(tag: V) -> Option<String> {
    let ops = md_operands(tag);
    let first = *ops.first()?;
    if let Some(s) = md_string(first) {
        return Some(s); // old scalar form: the tag is the type node
    }
    let access = *ops.get(1)?;
    let aops = md_operands(access);
    md_string(*aops.first()?).or_else(|| aops.get(2).and_then(|v| md_string(*v)))
}

/// The base type of the `!tbaa` tag on a load or store.
pub fn access_type(inst: V) -> Option<Base> {
    let tag = metadata(inst, md_kind(inst, "tbaa"))?;
    base_of_name(&tag_type_name(tag)?)
}

/// `(offset, base)` of each field a memory copy's `!tbaa.struct` describes.
pub fn struct_fields(inst: V) -> Vec<(i64, Base)> {
    let Some(n) = metadata(inst, md_kind(inst, "tbaa.struct")) else {
        return vec![];
    };
    let ops = md_operands(n);
    let mut out = Vec::new();
    for c in ops.chunks(3) {
        if c.len() < 3 {
            break;
        }
        let Some(off) = const_int_value(c[0]) else {
            continue;
        };
        if let Some(b) = tag_type_name(c[2]).and_then(|s| base_of_name(&s)) {
            out.push((off, b));
        }
    }
    out
}
