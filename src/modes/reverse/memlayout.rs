//! Memory copies (memcpy/memmove) of data that mixes floats with pointers
//! or integers (arrays of structs such as `{int id; double v; double *p}`).
//! The copy is split by field, as Enzyme does per type: pointer fields
//! carry their shadow pointers forward (the augmented sweep copies them
//! from the source's shadow to the destination's), float fields carry
//! adjoints backward (the reverse sweep moves them from the destination's
//! shadow into the source's), other fields carry nothing. Data made of one
//! float type alone keeps the plain element-wise adjoint (rev.rs).
use crate::ir::llvm::*;
use crate::ir::Builder;
use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    F64,
    F32,
    Ptr,
}

/// One period of the copied data: its size and its float/pointer fields
/// (byte offset, kind); bytes not listed carry no derivative.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout {
    pub size: u64,
    pub fields: Vec<(u64, Field)>,
}

impl Layout {
    pub fn has_ptr(&self) -> bool {
        self.fields.iter().any(|f| f.1 == Field::Ptr)
    }
    /// Anything but a run of one float type with no gaps (those keep the
    /// plain element-wise helper).
    pub fn is_mixed(&self) -> bool {
        let kinds: HashSet<Field> = self.fields.iter().map(|f| f.1).collect();
        if self.has_ptr() || kinds.len() != 1 {
            return true;
        }
        let w = if kinds.contains(&Field::F64) { 8 } else { 4 };
        (self.fields.len() as u64) * w < self.size
    }
    fn name(&self) -> String {
        let f: Vec<String> = self
            .fields
            .iter()
            .map(|(o, k)| {
                format!(
                    "{}{o}",
                    match k {
                        Field::F64 => "d",
                        Field::F32 => "f",
                        Field::Ptr => "p",
                    }
                )
            })
            .collect();
        format!("s{}.{}", self.size, f.join("."))
    }
}

/// The layout of the aggregate (struct or pointer) the copied memory
/// holds, from the IR types at the copy's pointers themselves: the
/// allocation they are, the element type a GEP producing them points to,
/// or the struct type of GEPs indexing from them. None when that is not
/// a struct or a pointer (flat arrays of one float type are not mixed),
/// or when a constant length is not a whole number of elements.
pub fn copy_layout(m: LLVMModuleRef, ptrs: &[V], len: V) -> Option<Layout> {
    // A struct of integers alone (two `uint32_t` holding a double's
    // halves) says nothing: the type analysis found floats in the copy.
    let l = ptrs
        .iter()
        .find_map(|p| layout_at(m, *p).filter(|l| !l.fields.is_empty()))?;
    if let Some(n) = const_int_value(len) {
        if l.size == 0 || (n as u64) % l.size != 0 {
            return None;
        }
    }
    Some(l)
}

fn layout_at(m: LLVMModuleRef, p: V) -> Option<Layout> {
    let q = strip_casts(p);
    match opcode(q) {
        Some(LLVMOpcode::LLVMAlloca) => {
            return layout_of(m, allocated_type(q));
        }
        Some(LLVMOpcode::LLVMGetElementPtr) => {
            if let Some(t) = gep_result_type(q) {
                return layout_of(m, t);
            }
        }
        _ => {}
    }
    let mut work = vec![q];
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        for u in users(v) {
            use LLVMOpcode::*;
            match opcode(u) {
                Some(LLVMGetElementPtr) if operand(u, 0) == v => {
                    let t = gep_source_type(u);
                    if is_struct(t) {
                        return layout_of(m, t);
                    }
                }
                Some(LLVMBitCast | LLVMAddrSpaceCast) => work.push(u),
                _ => {}
            }
        }
    }
    None
}

/// The type a GEP's result points to: its source element type stepped
/// into by every index after the first (constant indices into structs).
fn gep_result_type(g: V) -> Option<T> {
    let mut t = gep_source_type(g);
    for k in 2..num_operands(g) {
        t = if is_struct(t) {
            let i = const_int_value(operand(g, k))?;
            *struct_fields(t).get(i as usize)?
        } else if is_array(t) || is_vector(t) {
            elem_type(t)
        } else {
            return None;
        };
    }
    Some(t)
}

/// The layout of a struct or pointer type (arrays of them: of their
/// element).
fn layout_of(m: LLVMModuleRef, t: T) -> Option<Layout> {
    let mut t = t;
    while is_array(t) {
        t = elem_type(t);
    }
    if is_ptr(t) {
        // An array of pointers.
        return Some(Layout {
            size: type_alloc_size(m, t),
            fields: vec![(0, Field::Ptr)],
        });
    }
    if !is_struct(t) {
        return None;
    }
    let mut fields = Vec::new();
    flatten(m, t, 0, &mut fields)?;
    Some(Layout {
        size: type_alloc_size(m, t),
        fields,
    })
}

fn flatten(m: LLVMModuleRef, t: T, base: u64, out: &mut Vec<(u64, Field)>) -> Option<()> {
    match kind(t) {
        LLVMTypeKind::LLVMDoubleTypeKind => out.push((base, Field::F64)),
        LLVMTypeKind::LLVMFloatTypeKind => out.push((base, Field::F32)),
        LLVMTypeKind::LLVMPointerTypeKind => out.push((base, Field::Ptr)),
        LLVMTypeKind::LLVMIntegerTypeKind => {}
        LLVMTypeKind::LLVMStructTypeKind => {
            for (k, f) in struct_fields(t).into_iter().enumerate() {
                let off = field_offset(m, t, k as u32);
                flatten(m, f, base + off, out)?;
            }
        }
        LLVMTypeKind::LLVMArrayTypeKind => {
            let e = elem_type(t);
            let sz = type_alloc_size(m, e);
            let n = array_len(t) as u64;
            if n > 64 {
                return None;
            }
            for k in 0..n {
                flatten(m, e, base + k * sz, out)?;
            }
        }
        // x86_fp80, vectors...: not handled here.
        _ => return None,
    }
    Some(())
}

/// Which half of the copy a helper performs.
#[derive(Clone, Copy, PartialEq)]
pub enum Sweep {
    /// Augmented sweep: dshadow.ptr_fields = sshadow.ptr_fields.
    ForwardPointers,
    /// Reverse sweep: for float fields t = dshadow; dshadow = 0;
    /// sshadow += t (against the copy's direction, for memmove overlap).
    ReverseFloats,
}

/// `void helper(ptr dshadow, ptr sshadow, i64 bytes)` for `layout`.
pub fn helper(m: LLVMModuleRef, layout: &Layout, sweep: Sweep) -> V {
    let fname = format!(
        "enzyme_rs.memcpy.{}.{}",
        if sweep == Sweep::ForwardPointers {
            "ptrs"
        } else {
            "adjoint"
        },
        layout.name()
    );
    if let Some(f) = get_function(m, &fname) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t, i8t) = (ptr_type(ctx), i64_type(ctx), i8_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p, p, i64t], false);
    let f = get_or_declare(m, &fname, fty);
    set_internal(f);
    let dbl = double_type(ctx);
    let flt = float_type(ctx);
    // The forward copy of pointers runs like the primal copy (ascending
    // when the destination is below); the adjoint runs against it.
    element_loops(
        f,
        layout.size as i64,
        sweep == Sweep::ForwardPointers,
        |b, k, dst, src| {
            let base = b.mul(k, const_i64(ctx, layout.size as i64));
            for (off, fk) in &layout.fields {
                let o = b.add(base, const_i64(ctx, *off as i64));
                let dp = b.gep(i8t, dst, &mut [o]);
                let sp = b.gep(i8t, src, &mut [o]);
                match (sweep, fk) {
                    (Sweep::ForwardPointers, Field::Ptr) => {
                        let v = b.load(p, sp);
                        b.store(v, dp);
                    }
                    (Sweep::ReverseFloats, Field::F64 | Field::F32) => {
                        let t = if *fk == Field::F64 { dbl } else { flt };
                        let dv = b.load(t, dp);
                        b.store(const_real(t, 0.0), dp);
                        let sv = b.load(t, sp);
                        b.store(b.fadd(sv, dv), sp);
                    }
                    _ => {}
                }
            }
        },
    );
    f
}

/// The body of `void f(ptr dst, ptr src, i64 bytes)`: `step(b, k, dst, src)`
/// for each element `k` of `elem` bytes, ascending or descending: when
/// `dst` is below `src` ascending if `below_ascends`, else descending (so a
/// copy between overlapping ranges, or its adjoint, reads each element
/// before it is overwritten).
pub(crate) fn element_loops(
    f: V,
    elem: i64,
    below_ascends: bool,
    step: impl Fn(&Builder, V, V, V),
) {
    let b = Builder::new(module_of(f));
    let ctx = b.ctx;
    let i64t = i64_type(ctx);
    let ps = params(f);
    let (dst, src, n) = (ps[0], ps[1], ps[2]);
    let block = |s: &str| append_block(f, s);
    let (entry, pick, up, down, done) = (
        block("entry"),
        block("pick"),
        block("up"),
        block("down"),
        block("done"),
    );
    b.at_end(entry);
    let cnt = b.udiv(n, const_i64(ctx, elem));
    set_name(cnt, "n");
    let empty = b.icmp(LLVMIntPredicate::LLVMIntEQ, cnt, const_i64(ctx, 0));
    b.cond_br(empty, done, pick);
    b.at_end(pick);
    let below = b.icmp(LLVMIntPredicate::LLVMIntULT, dst, src);
    let (below_bb, above_bb) = if below_ascends {
        (up, down)
    } else {
        (down, up)
    };
    b.cond_br(below, below_bb, above_bb);
    // Ascending: k = 0 .. cnt-1.
    b.at_end(up);
    let k = b.phi(i64t);
    step(&b, k, dst, src);
    let k1 = b.add(k, const_i64(ctx, 1));
    let more = b.icmp(LLVMIntPredicate::LLVMIntULT, k1, cnt);
    b.cond_br(more, up, done);
    add_incoming(k, &[(const_i64(ctx, 0), pick), (k1, up)]);
    // Descending: k = cnt-1 .. 0.
    b.at_end(down);
    let j = b.phi(i64t);
    let j1 = b.sub(j, const_i64(ctx, 1));
    step(&b, j1, dst, src);
    let more = b.icmp(LLVMIntPredicate::LLVMIntNE, j1, const_i64(ctx, 0));
    b.cond_br(more, down, done);
    add_incoming(j, &[(cnt, pick), (j1, down)]);
    b.at_end(done);
    b.ret_void();
}
