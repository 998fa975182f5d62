//! Pointers into the middle of a float: a `double` read or written as two
//! 32-bit halves (a union of `double` and `uint32_t[2]` at -O0). The GEP to
//! the high half points at bytes 4..8 of a double; the tree of the memory
//! only has the double at offset 0, so without this rule the half's type
//! is unknown. The pointer is given the float's kind at its offset 0 (it
//! points at a piece of that float: an integer loaded there carries the
//! float's bits), and that piece is not written back into the base's tree
//! as a second float (which would overlap the first).
use super::tree::{Base, FloatKind, Off, TypeTree};

/// Bytes of a float of kind `k` (its store size).
pub fn float_bytes(k: FloatKind) -> i64 {
    match k {
        FloatKind::Half | FloatKind::BFloat => 2,
        FloatKind::Float => 4,
        FloatKind::Double => 8,
        FloatKind::X86Fp80 => 10,
        FloatKind::Fp128 | FloatKind::PpcFp128 => 16,
    }
}

/// The float (of `pointee`, the memory a base pointer points to) that
/// strictly contains byte `off` (starts before it, ends after it).
fn containing_float(pointee: &TypeTree, off: i64) -> Option<FloatKind> {
    pointee.first_level().find_map(|(o, b)| match b {
        Base::Float(k) if o.is_exact() && o.start < off && o.start + float_bytes(k) > off => {
            Some(k)
        }
        _ => None,
    })
}

/// What a constant-offset GEP `base + off` adds to its view of the memory
/// when `off` falls inside a float: that float's kind at offset 0.
pub fn piece_view(base_pointee: &TypeTree, off: i64) -> Option<TypeTree> {
    let k = containing_float(base_pointee, off)?;
    Some(TypeTree::pointer_to(&TypeTree::scalar(Base::Float(k))))
}

/// `back` (what a GEP's result says about its base) without the pieces:
/// first-level floats that fall inside a float the base already holds.
pub fn drop_pieces(back: &TypeTree, base_pointee: &TypeTree) -> TypeTree {
    let mut out = TypeTree::new();
    for (path, b) in back.entries() {
        let piece = path.len() == 2
            && path[0] == Off::exact(0)
            && path[1].is_exact()
            && b.is_float()
            && containing_float(base_pointee, path[1].start).is_some();
        if !piece {
            out.insert(path.clone(), *b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double_at_0() -> TypeTree {
        TypeTree::at(Base::Float(FloatKind::Double), &[0])
    }

    #[test]
    fn high_half_of_a_double_is_a_piece() {
        let v = piece_view(&double_at_0(), 4).expect("inside");
        assert_eq!(v.pointee().base_at(0), Base::Float(FloatKind::Double));
        assert!(piece_view(&double_at_0(), 8).is_none());
        assert!(piece_view(&double_at_0(), 0).is_none());
    }

    #[test]
    fn pieces_are_not_written_back() {
        let back = TypeTree::pointer_to(&TypeTree::at(Base::Float(FloatKind::Double), &[4]));
        // The pointer itself stays; the piece under it goes.
        assert!(drop_pieces(&back, &double_at_0()).pointee().is_empty());
        let other = TypeTree::pointer_to(&TypeTree::at(Base::Float(FloatKind::Double), &[8]));
        assert!(!drop_pieces(&other, &double_at_0()).pointee().is_empty());
    }
}
