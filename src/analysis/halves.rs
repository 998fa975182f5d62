//! Doubles moved as two 32-bit halves: a union of `double` and
//! `uint32_t[2]` (or two `uint32_t` fields) read and written half by half,
//! as clang leaves it at -O0. Type analysis gives each `i32` half the
//! double's kind (`types/pieces.rs`); this module says which accesses form
//! the pairs the derivative needs.
//!
//! A half is never a float or an integer by itself: its derivative is the
//! matching half of the double's derivative, moved bit for bit. Forward
//! mode copies the shadow's halves like the primal's (a bit copy, exact
//! for any move). The reverse sweep moves adjoint bits back and must add
//! them into the source double as one double, so it needs the two half
//! loads of each source and the two half stores of each destination to be
//! pairs ([`pair_of`]): the same double, both halves, in one block, nothing
//! else touching that memory in between. Anything else is refused.
use crate::analysis::activity::underlying_objects;
use crate::analysis::types::layout::Layout;
use crate::analysis::types::{pieces, Base, FloatKind, TypeResults};
use crate::ir::llvm::*;

/// Bits of a half: only `i32` halves of `double`s are supported.
pub const HALF_BITS: u32 = 32;

/// What an integer value holds, by type analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Not part of a wider float (an integer, a whole float's bits, ...).
    None,
    /// A 32-bit half of a double.
    Half,
    /// A piece of a float of some other size (refused).
    Other(FloatKind),
}

/// Whether integer value `v` holds a piece of a wider float.
pub fn piece(types: &TypeResults, v: V) -> Piece {
    let t = type_of(v);
    if !is_int(t) {
        return Piece::None;
    }
    let w = int_width(t);
    if w == 1 {
        // A flag (`icmp`, stored as a 0/1 byte) never carries a float's bits.
        return Piece::None;
    }
    match types.base(v) {
        Base::Float(k) if (pieces::float_bytes(k) * 8) as u32 > w => {
            if k == FloatKind::Double && w == HALF_BITS {
                Piece::Half
            } else {
                Piece::Other(k)
            }
        }
        _ => Piece::None,
    }
}

/// The two half accesses (both loads or both stores) of one double.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    /// The access of bytes 0..4 (the low half on x86-64) and of 4..8.
    pub lo: V,
    pub hi: V,
    /// The one of the two that comes first in their block.
    pub first: V,
}

/// Pointer operand of a load or store.
pub fn access_ptr(i: V) -> V {
    if opcode(i) == Some(LLVMOpcode::LLVMStore) {
        operand(i, 1)
    } else {
        operand(i, 0)
    }
}

fn access_type(i: V) -> T {
    if opcode(i) == Some(LLVMOpcode::LLVMStore) {
        type_of(operand(i, 0))
    } else {
        type_of(i)
    }
}

/// Pointer `p` as a base pointer plus a constant byte offset (through
/// constant GEPs and casts).
pub fn base_and_offset(lay: &Layout, mut p: V) -> (V, i64) {
    let mut off = 0;
    loop {
        match opcode(p) {
            Some(LLVMOpcode::LLVMGetElementPtr) => {
                let idx: Vec<V> = operands(p)[1..].to_vec();
                if !idx.iter().all(|x| is_const_int(*x)) {
                    return (p, off);
                }
                let (o, strides) = lay.gep_offset(p, gep_source_type(p), &idx);
                if !strides.is_empty() {
                    return (p, off);
                }
                off += o;
                p = operand(p, 0);
            }
            Some(LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) => p = operand(p, 0),
            _ => return (p, off),
        }
    }
}

/// Whether instruction `i` may read or write the memory of `objs` (the
/// underlying objects of a pair's base pointer).
fn touches(i: V, objs: &[V]) -> bool {
    let p = match opcode(i) {
        Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore) => access_ptr(i),
        Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => operand(i, 0),
        Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke) => {
            let name = called_function(i).map(name).unwrap_or_default();
            return !(name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime."));
        }
        _ => return false,
    };
    let other = underlying_objects(p);
    let local = |o: &V| opcode(*o) == Some(LLVMOpcode::LLVMAlloca);
    other.iter().any(|o| objs.contains(o))
        || (other.iter().any(|o| !local(o)) && objs.iter().any(|o| !local(o)))
}

/// Whether store `s` is overwritten, later in its block, by a store of the
/// same type to the same place, with nothing reading that memory between
/// (stores to other offsets of the same base do not read it): its adjoint
/// is zero (-O1 keeps such dead stores of swapped halves).
pub fn is_dead_store(s: V) -> bool {
    if opcode(s) != Some(LLVMOpcode::LLVMStore) {
        return false;
    }
    let lay = Layout::new(module_of(inst_fn(s)));
    let ty = access_type(s);
    let (base, off) = base_and_offset(&lay, access_ptr(s));
    let objs = underlying_objects(base);
    let block = instructions(inst_block(s));
    let at = block.iter().position(|x| *x == s).unwrap_or(0);
    for x in &block[at + 1..] {
        if opcode(*x) == Some(LLVMOpcode::LLVMStore) && !is_volatile(*x) {
            let (b, o) = base_and_offset(&lay, access_ptr(*x));
            let size = type_store_size(module_of(inst_fn(s)), access_type(*x)) as i64;
            let mine = type_store_size(module_of(inst_fn(s)), ty) as i64;
            if b == base && o == off && access_type(*x) == ty {
                return true;
            }
            if b == base && (o + size <= off || off + mine <= o) {
                continue;
            }
        }
        if touches(*x, &objs) {
            return false;
        }
    }
    false
}

/// The declared type tree of the local or global access `i` reaches at a
/// constant offset, and that offset (None for any other pointer).
fn declared_tree(i: V) -> Option<(crate::analysis::types::TypeTree, i64)> {
    let lay = Layout::new(module_of(inst_fn(i)));
    let (base, off) = base_and_offset(&lay, access_ptr(i));
    let ty = match opcode(base) {
        Some(LLVMOpcode::LLVMAlloca) => allocated_type(base),
        _ if is_global_var(base) => global_type(base),
        _ => return None,
    };
    Some((lay.type_tree(ty, false), off))
}

/// Whether half access `i` provably touches a double: its pointer is a
/// constant offset into a local or global whose declared type has a
/// `double` at that offset or 4 bytes before. Unpaired halves are refused
/// only then; elsewhere (an `int` typed as a double's half by type
/// analysis through shared library code, e.g. `std::map<int, double>`'s
/// nodes) the access is left to the rules for integers.
pub fn declared_double(i: V) -> bool {
    let Some((tt, off)) = declared_tree(i) else {
        return false;
    };
    let at = |o: i64| tt.base_at(o) == Base::Float(FloatKind::Double);
    at(off) || at(off - (HALF_BITS / 8) as i64)
}

/// Whether access `i` provably touches a float's bytes: its pointer is a
/// constant offset into a local or global whose declared type has a float
/// covering that offset. A piece of a float of another size
/// ([`Piece::Other`]) is refused only then, like unpaired halves.
pub fn declared_float(i: V) -> bool {
    let Some((tt, off)) = declared_tree(i) else {
        return false;
    };
    (off - 15..=off).any(|o| match tt.base_at(o) {
        Base::Float(k) => o + pieces::float_bytes(k) > off,
        _ => false,
    })
}

/// `what` for messages: "read" or "written".
fn verb(i: V) -> &'static str {
    if opcode(i) == Some(LLVMOpcode::LLVMStore) {
        "written"
    } else {
        "read"
    }
}

/// The pair a half load or store `i` belongs to, or why there is none.
pub fn pair_of(types: &TypeResults, i: V) -> Result<Pair, String> {
    let m = module_of(inst_fn(i));
    let lay = Layout::new(m);
    let ty = access_type(i);
    let bytes = (HALF_BITS / 8) as i64;
    let (base, off) = base_and_offset(&lay, access_ptr(i));
    let op = opcode(i);
    let block = instructions(inst_block(i));
    let candidates: Vec<(V, i64)> = block
        .iter()
        .copied()
        .filter(|j| *j != i && opcode(*j) == op && access_type(*j) == ty && !is_volatile(*j))
        .filter(|j| !is_dead_store(*j))
        .filter_map(|j| {
            let (b, o) = base_and_offset(&lay, access_ptr(j));
            (b == base && (o == off - bytes || o == off + bytes)).then_some((j, o))
        })
        .collect();
    // Two halves of one double: prefer the partner that makes the pair
    // start at a multiple of the double's size from the base, then the
    // nearest (a half swapped twice is stored twice in one block).
    let pos = |x: V| block.iter().position(|y| *y == x).unwrap_or(0);
    let aligned = |o: i64| off.min(o).rem_euclid(2 * bytes) == 0;
    let any_aligned = candidates.iter().any(|(_, o)| aligned(*o));
    let partner = candidates
        .iter()
        .filter(|(_, o)| !any_aligned || aligned(*o))
        .min_by_key(|(j, _)| pos(*j).abs_diff(pos(i)))
        .copied();
    let Some((j, joff)) = partner else {
        return Err(format!(
            "only one 32-bit half of a double is {} here (the other half is not {} in the same block); the derivative of a double moves as a whole: copy both halves, or copy the double itself",
            verb(i),
            verb(i)
        ));
    };
    let (lo, hi) = if off < joff { (i, j) } else { (j, i) };
    if types.base_at(access_ptr(lo), 0) != Base::Float(FloatKind::Double) {
        return Err(format!(
            "two 32-bit halves are {} here that do not form one double in memory",
            verb(i)
        ));
    }
    let (a, b) = if pos(i) < pos(j) { (i, j) } else { (j, i) };
    let objs = underlying_objects(base);
    if block[pos(a) + 1..pos(b)].iter().any(|x| touches(*x, &objs)) {
        return Err(format!(
            "the memory of a double is accessed between the {} of its two 32-bit halves; the derivative of a double moves as a whole: keep the two halves' accesses together",
            if verb(i) == "read" { "reads" } else { "writes" }
        ));
    }
    Ok(Pair { lo, hi, first: a })
}
