//! Vector IR: splats, lane numbers, horizontal reductions, the first lane
//! of a mask, masked loads and stores, and a walk over the lanes a mask
//! holds. LLVM 16's masked intrinsics take their alignment as an `i32`
//! operand, LLVM 22's as an `align` attribute on the pointer: the helpers
//! here read and build whichever the intrinsic has.
use super::llvm::*;
use super::Builder;
use crate::ir::sys::core::*;

/// `v` in each of `n` lanes.
pub fn splat(b: &Builder, v: V, n: u32) -> V {
    if is_constant(v) {
        return const_vector(&vec![v; n as usize]);
    }
    let vt = vector_type(type_of(v), n);
    let one = b.insert_element(poison(vt), v, const_i32(b.ctx, 0));
    b.shuffle(one, poison(vt), zero(vector_type(i32_type(b.ctx), n)))
}

/// The constant `<0, 1, ..., n-1>` (i32 lanes).
pub fn lane_numbers(ctx: LLVMContextRef, n: u32) -> V {
    let lanes: Vec<V> = (0..n).map(|k| const_i32(ctx, k as i64)).collect();
    const_vector(&lanes)
}

/// `llvm.vector.reduce.fadd(start, v)`; with `reassoc` in any order (a
/// sum of derivative terms), else lane by lane from `start`.
pub fn reduce_fadd(b: &Builder, start: V, v: V, reassoc: bool) -> V {
    let r = b.intrinsic("llvm.vector.reduce.fadd", &[type_of(v)], &mut [start, v]);
    if reassoc {
        super::shim::set_reassoc(r);
    }
    r
}

/// `llvm.vector.reduce.fmul(start, v)`, lane by lane from `start`.
pub fn reduce_fmul(b: &Builder, start: V, v: V) -> V {
    b.intrinsic("llvm.vector.reduce.fmul", &[type_of(v)], &mut [start, v])
}

/// The products of the lanes of float vector `v` before and after each
/// lane (`start * v0 * .. * v(k-1)` and `v(k+1) * .. * v(n-1)`), as two
/// vectors: a lane's product with the others, zeros included, with no
/// division.
pub fn exclusive_products(b: &Builder, start: V, v: V) -> (V, V) {
    let t = type_of(v);
    let n = vector_size(t);
    let lane = |k: u32| const_i32(b.ctx, k as i64);
    let elems: Vec<V> = (0..n).map(|k| b.extract_element(v, lane(k))).collect();
    let mut before = poison(t);
    let mut acc = start;
    for k in 0..n as usize {
        before = b.insert_element(before, acc, lane(k as u32));
        if k + 1 < n as usize {
            acc = b.fmul(acc, elems[k]);
        }
    }
    let mut after = poison(t);
    let mut acc: Option<V> = None;
    for k in (0..n as usize).rev() {
        let a = acc.unwrap_or_else(|| const_real(elem_type(t), 1.0));
        after = b.insert_element(after, a, lane(k as u32));
        acc = Some(match acc {
            None => elems[k],
            Some(a) => b.fmul(a, elems[k]),
        });
    }
    (before, after)
}

/// A mask holding only the first lane mask `m` holds (none when it holds
/// none): the bits of `m`, their trailing zeros, compared with the lane
/// numbers.
pub fn first_lane_only(b: &Builder, m: V) -> V {
    let ctx = b.ctx;
    let n = vector_size(type_of(m));
    let bits_t = unsafe { LLVMIntTypeInContext(ctx, n) };
    let bits = b.bitcast(m, bits_t);
    let k = b.intrinsic("llvm.cttz", &[bits_t], &mut [bits, const_i1(ctx, false)]);
    let k = b.int_cast(k, i32_type(ctx), false);
    b.icmp(
        LLVMIntPredicate::LLVMIntEQ,
        splat(b, k, n),
        lane_numbers(ctx, n),
    )
}

/// The type of intrinsic `name` overloaded on `overload`.
fn intrinsic_type(b: &Builder, name: &str, overload: &[T]) -> T {
    unsafe {
        let id = LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
        assert!(id != 0, "unknown intrinsic {name}");
        let mut tys = overload.to_vec();
        LLVMIntrinsicGetType(b.ctx, id, tys.as_mut_ptr(), tys.len())
    }
}

/// Whether the masked intrinsic `name` (`llvm.masked.load`, ...) takes
/// its alignment as an operand (LLVM 16) rather than as an attribute.
fn align_operand(b: &Builder, name: &str, overload: &[T], without: usize) -> bool {
    param_types(intrinsic_type(b, name, overload)).len() > without
}

/// The alignment of masked memory call `call`, whose pointer (or vector of
/// pointers) is argument `ptr_arg`: its `i32` operand (LLVM 16) or the
/// pointer's `align` attribute (LLVM 22); 1 when neither says.
pub fn masked_alignment(call: V, ptr_arg: u32, arity_with_operand: usize) -> u32 {
    let args = call_args(call);
    if args.len() >= arity_with_operand {
        return const_int_value(args[ptr_arg as usize + 1])
            .unwrap_or(1)
            .max(1) as u32;
    }
    unsafe {
        let a = LLVMGetCallSiteEnumAttribute(call, ptr_arg + 1, enum_attr_kind("align"));
        if a.is_null() {
            1
        } else {
            LLVMGetEnumAttributeValue(a).max(1) as u32
        }
    }
}

/// The attribute `align(bytes)` on argument `arg` of call `call`.
fn set_arg_alignment(call: V, arg: u32, bytes: u32) {
    unsafe {
        let ctx = context_of(type_of(call));
        let a = LLVMCreateEnumAttribute(ctx, enum_attr_kind("align"), bytes as u64);
        LLVMAddCallSiteAttribute(call, arg + 1, a);
    }
}

/// `llvm.masked.load` of a `ty` vector at `p`: the lanes `mask` holds,
/// `passthru`'s elsewhere.
pub fn masked_load(b: &Builder, ty: T, p: V, align: u32, mask: V, passthru: V) -> V {
    let name = "llvm.masked.load";
    let over = [ty, type_of(p)];
    if align_operand(b, name, &over, 3) {
        let a = const_i32(b.ctx, align as i64);
        b.intrinsic(name, &over, &mut [p, a, mask, passthru])
    } else {
        let c = b.intrinsic(name, &over, &mut [p, mask, passthru]);
        set_arg_alignment(c, 0, align);
        c
    }
}

/// `llvm.masked.store` of vector `v` at `p`, the lanes `mask` holds.
pub fn masked_store(b: &Builder, v: V, p: V, align: u32, mask: V) -> V {
    let name = "llvm.masked.store";
    let over = [type_of(v), type_of(p)];
    if align_operand(b, name, &over, 3) {
        let a = const_i32(b.ctx, align as i64);
        b.intrinsic(name, &over, &mut [v, p, a, mask])
    } else {
        let c = b.intrinsic(name, &over, &mut [v, p, mask]);
        set_arg_alignment(c, 1, align);
        c
    }
}

/// For each lane `k` of `lanes` that `mask` holds, `body(b, k, carried)`
/// in a block of its own (function `f`), run only when the lane is on; a
/// value carried through the walk (`init`, what `body` returns) meets the
/// skipped path in a phi. Lanes a constant mask holds or not need no
/// branch. The builder ends after the last lane; returns the carried value.
pub fn each_masked_lane(
    b: &Builder,
    f: V,
    mask: V,
    lanes: impl IntoIterator<Item = u32>,
    init: Option<V>,
    mut body: impl FnMut(&Builder, V, Option<V>) -> Option<V>,
) -> Option<V> {
    let ctx = b.ctx;
    let mut carried = init;
    for k in lanes {
        let idx = const_i32(ctx, k as i64);
        let on = b.extract_element(mask, idx);
        match const_int_value(on) {
            Some(0) => continue,
            Some(_) => {
                carried = body(b, idx, carried);
                continue;
            }
            None => {}
        }
        let from = b.block();
        let run = append_block(f, "lane.on");
        let next = append_block(f, "lane.next");
        b.cond_br(on, run, next);
        b.at_end(run);
        let out = body(b, idx, carried);
        let run_end = b.block();
        b.br(next);
        b.at_end(next);
        if let (Some(before), Some(after)) = (carried, out) {
            let p = b.phi(type_of(before));
            add_incoming(p, &[(after, run_end), (before, from)]);
            carried = Some(p);
        }
    }
    carried
}
