//! Shadows of globals the program reads and seeds itself:
//!
//! - `__enzyme_shadow(&g, width, lane)`: the address of the shadow of the
//!   global holding `&g` (a global, or a member/element of one) that
//!   derivatives of that width use for that lane. Width 1 is the shadow both
//!   reverse mode (adjoints accumulate there) and forward mode (tangents are
//!   read from there) use; each wider forward mode has a shadow per lane.
//! - `__enzyme_context(width)`: a new set of shadows of every global with a
//!   shadow at that width, all zero. `__enzyme_shadow(ctx, &g, lane)` is
//!   the context's shadow of `&g`; `__enzyme_zero_shadows(ctx)` zeroes them
//!   all; `enzyme_context, ctx` in an `__enzyme_*` call makes that
//!   derivative use the context's shadows (runtime/shadows_rt.c swaps them
//!   with the shadow globals around the call). Contexts live until the
//!   program ends.
//!
//! In a module that uses any of them (`Session::user_shadows`), forward
//! mode uses the reverse-mode shadow at width 1 (as Enzyme does) and a
//! shadow per (width, lane) above it.
//!
//! Descriptor globals ([`init_descriptor_shadow`]): the shadow of a global
//! whose initializer holds pointers to other globals (`static double *p =
//! a;`, a struct `{data, n}`) starts as that initializer with each pointer
//! to a global replaced by the pointer into that global's shadow of the
//! same mode and lane, floats zero and integers copied: derivative code
//! reading the pointer from the shadow of `p` reaches the shadow of `a`.
//! Context buffers (`__enzyme_context`) start zero, but a descriptor's
//! starts as that initializer with its pointers into the context's
//! buffers (the runtime translates them to the shadow globals while the
//! context is swapped in, and back); `__enzyme_zero_shadows` restores it.
use super::{calls_named, fail};
use crate::callsite::convert_arg;
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::Session;

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/shadows_rt.bc"));
const PREFIX: &str = "__enzyme_rs_shadows_";

/// Whether module `m` queries shadows of globals itself (then every
/// writable global holding floats is active: `registry::shadowed_globals`).
pub fn module_queries_shadows(m: LLVMModuleRef) -> bool {
    crate::rules::registry::queries_shadows(m)
}

/// The shadow of global `g` for (width, lane) in a module that queries
/// shadows: the reverse-mode shadow at width 1, else one per (width, lane).
pub fn user_shadow_lane(sess: &mut Session, g: V, width: u32, lane: u32) -> V {
    if width <= 1 {
        return sess.shadow_global(g);
    }
    if let Some(s) = sess.width_shadow_globals.get(&(g, width, lane)) {
        return *s;
    }
    let n = format!("{}_shadow_w{width}_{lane}", name(g));
    let s = add_zeroed_global_like(sess.module, g, &n);
    sess.width_shadow_globals.insert((g, width, lane), s);
    init_descriptor_shadow(sess, g, s, Some(crate::modes::fwd_lane(width, lane)));
    s
}

/// Give shadow `s` of global `g` (just made, zero, already recorded in the
/// session) the initializer of a descriptor's shadow when `g`'s initializer
/// holds pointers: pointers to globals become pointers into their shadows
/// for `lane` (None: the reverse-mode shadow; as `Session::global_ptr_shadow`
/// takes it). Cycles end because `s` is recorded before this runs.
pub fn init_descriptor_shadow(sess: &mut Session, g: V, s: V, lane: Option<u32>) {
    let Some(init) = crate::ir::link::initializer(g) else {
        return;
    };
    if !contains_ptr(type_of(init)) || crate::ir::gpu::global_addr_space(s) != 0 {
        return;
    }
    let shadow = shadow_constant(sess, init, lane);
    set_initializer(s, shadow);
}

/// The shadow of constant `c` inside a descriptor's initializer.
fn shadow_constant(sess: &mut Session, c: V, lane: Option<u32>) -> V {
    let t = type_of(c);
    if !contains_ptr(t) {
        // floats start zero; integers (sizes, tags) as in the primal
        return if contains_fp(t) || is_undef(c) {
            zero(t)
        } else {
            c
        };
    }
    if is_ptr(t) {
        if is_null_or_undef(c) || is_function(strip_casts(c)) {
            return c;
        }
        return sess
            .global_ptr_shadow(c, lane, &|_| true)
            .unwrap_or_else(|| zero(t));
    }
    if is_const_struct(c) || is_const_array(c) {
        let fields: Vec<V> = (0..num_operands(c))
            .map(|i| shadow_constant(sess, operand(c, i), lane))
            .collect();
        return if is_struct(t) {
            const_struct_of(t, &fields)
        } else {
            const_array(elem_type(t), &fields)
        };
    }
    zero(t)
}

fn helper(m: LLVMModuleRef, n: &str) -> Result<V> {
    let full = format!("{PREFIX}{n}");
    if let Some(f) = get_function(m, &full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, PREFIX)
        .map_err(|e| Error::internal(format!("shadow runtime: {e}")))?;
    get_function(m, &full).ok_or_else(|| Error::internal(format!("shadow runtime has no {full}")))
}

/// `enzyme_context, ctx` in a request: swap the context's shadows in
/// before the call and out after it (the derivative replaces the call in
/// between).
pub fn enter_context(sess: &mut Session, call: V, ctx: V) -> Result<()> {
    let swap = helper(sess.module, "swap")?;
    let b = Builder::new(sess.module);
    b.before(call);
    b.set_debug_loc_from(call);
    let c = as_ptr(&b, call, ctx)?;
    b.call_fn(swap, &mut [c]);
    b.after(call);
    b.call_fn(swap, &mut [c]);
    Ok(())
}

fn as_ptr(b: &Builder, call: V, v: V) -> Result<V> {
    convert_arg(b, v, ptr_type(b.ctx)).ok_or_else(|| {
        Error::bad_call(
            call,
            "a context (__enzyme_context's result) must be a pointer",
        )
    })
}

/// The global `p` points into (a global, or a constant GEP/cast of one).
fn base_global(p: V) -> Option<V> {
    let mut v = strip_casts(p);
    while is_const_gep(v) {
        v = strip_casts(operand(v, 0));
    }
    is_global_var(v).then_some(v)
}

fn int_arg(call: V, v: Option<&V>, what: &str) -> Result<u32> {
    // Through the slots of always-inlined wrappers (the C++ header at -O0).
    v.and_then(|v| const_int_value(crate::callsite::slot_value(*v)))
        .filter(|w| (0..=64).contains(w))
        .map(|w| w as u32)
        .ok_or_else(|| {
            Error::bad_call(
                call,
                format!("the {what} must be an integer constant (0 to 64)"),
            )
        })
}

/// Rewrite the shadow queries once every derivative exists (the contexts
/// hold the shadows the derivatives use).
pub fn lower_after(sess: &mut Session) -> bool {
    if !sess.user_shadows {
        return false;
    }
    let m = sess.module;
    let contexts = calls_named(m, "__enzyme_context");
    let queries = calls_named(m, "__enzyme_shadow");
    let zeros = calls_named(m, "__enzyme_zero_shadows");
    // The widths of the contexts made here.
    let mut widths = vec![1u32];
    for c in &contexts {
        if let Ok(w) = int_arg(*c, call_args(*c).first(), "width of __enzyme_context") {
            if w >= 1 && !widths.contains(&w) {
                widths.push(w);
            }
        }
    }
    // Globals queried through a context get shadows at every such width.
    for q in &queries {
        let args = call_args(*q);
        if args.len() == 3 && is_ptr(type_of(args[0])) && is_ptr(type_of(args[1])) {
            if let Some(g) = base_global(args[1]) {
                for w in &widths {
                    for l in 0..*w {
                        user_shadow_lane(sess, g, *w, l);
                    }
                }
            }
        }
    }
    for q in queries {
        if let Err(e) = lower_query(sess, q) {
            fail(e, q);
        }
    }
    for c in contexts {
        if let Err(e) = lower_context(sess, c) {
            fail(e, c);
        }
    }
    if let Err(e) = note_global_allocations(sess) {
        log::warn!("enzyme-rs: shadows of globals' memory: {e}");
    }
    // The C++ header's `autodiff(context, ...)`: the context's shadows are
    // swapped in around the derivative (as `enzyme_context, ctx` does).
    let swaps = calls_named(m, "__enzyme_rs_swap_context");
    for (z, what) in zeros
        .into_iter()
        .map(|z| (z, "zero"))
        .chain(swaps.into_iter().map(|z| (z, "swap")))
    {
        let r = (|| {
            let f = helper(m, what)?;
            let b = Builder::new(m);
            b.before(z);
            let arg = call_args(z)
                .first()
                .copied()
                .ok_or_else(|| Error::bad_call(z, "__enzyme_zero_shadows takes the context"))?;
            let c = as_ptr(&b, z, arg)?;
            b.call_fn(f, &mut [c]);
            erase(z);
            Ok(())
        })();
        if let Err(e) = r {
            fail(e, z);
        }
    }
    true
}

/// A pointer global with a shadow whose memory the program allocates
/// outside differentiated code (`a = aligned_alloc(64, n)`, as newer flang
/// does for ALLOCATE): after each such store the runtime notes the block's
/// size, and the global's shadow gets a zeroed block of that size (the
/// module's shadow at once if it has none; a context's when it is zeroed
/// or used), as in Enzyme.
fn note_global_allocations(sess: &mut Session) -> Result<()> {
    use crate::rules::{classify, AllocKind, CallKind};
    let m = sess.module;
    let mut shadowed: Vec<(V, V)> = sess
        .shadow_globals
        .iter()
        .filter(|(g, _)| is_ptr(global_type(**g)))
        .map(|(g, s)| (*g, *s))
        .collect();
    shadowed.sort_by_key(|(g, _)| name(*g));
    for (g, s) in shadowed {
        let stores: Vec<V> = users(g)
            .into_iter()
            .filter(|u| {
                opcode(*u) == Some(LLVMOpcode::LLVMStore)
                    && strip_casts(operand(*u, 1)) == g
                    && !sess.created.contains(&inst_fn(*u))
            })
            .collect();
        for st in stores {
            let p = strip_casts(operand(st, 0));
            if !is_call(p) {
                continue;
            }
            let b = Builder::new(m);
            b.after(st);
            b.set_debug_loc_from(st);
            let ctx = b.ctx;
            let i64t = i64_type(ctx);
            let size = match classify(p) {
                CallKind::Alloc(AllocKind::Malloc { size_arg }) => operand(p, size_arg),
                CallKind::Alloc(AllocKind::Realloc { size_arg }) => operand(p, size_arg),
                CallKind::Alloc(AllocKind::Calloc) => {
                    let n = convert_arg(&b, operand(p, 0), i64t);
                    let e = convert_arg(&b, operand(p, 1), i64t);
                    match (n, e) {
                        (Some(n), Some(e)) => b.mul(n, e),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let Some(size) = convert_arg(&b, size, i64t) else {
                continue;
            };
            let f = helper(m, "note")?;
            b.call_fn(f, &mut [g, s, operand(st, 0), size]);
        }
    }
    Ok(())
}

/// `__enzyme_context(width)`: a new context holding a zero shadow of each
/// shadow global of that width.
fn lower_context(sess: &mut Session, call: V) -> Result<()> {
    let w = int_arg(call, call_args(call).first(), "width of __enzyme_context")?;
    if w == 0 {
        return Err(Error::bad_call(
            call,
            "__enzyme_context needs a width of at least 1",
        ));
    }
    let m = sess.module;
    let (new, add) = (helper(m, "new")?, helper(m, "add")?);
    let (desc, finish) = (helper(m, "descriptor")?, helper(m, "finish")?);
    let b = Builder::new(m);
    b.before(call);
    b.set_debug_loc_from(call);
    let ctx = b.ctx;
    let c = b.call_fn(new, &mut [const_i32(ctx, w as i64)]);
    let mut entries: Vec<(V, V, u32)> = if w == 1 {
        sess.shadow_globals
            .iter()
            .map(|(g, s)| (*g, *s, 0))
            .collect()
    } else {
        sess.width_shadow_globals
            .iter()
            .filter(|((_, ww, _), _)| *ww == w)
            .map(|((g, _, l), s)| (*g, *s, *l))
            .collect()
    };
    // A stable order (the maps are hashed).
    entries.sort_by_key(|(g, _, l)| (name(*g), *l));
    for (g, s, l) in entries {
        let bytes = type_alloc_size(m, global_type(g));
        b.call_fn(
            add,
            &mut [
                c,
                g,
                s,
                const_i64(ctx, bytes as i64),
                const_i32(ctx, l as i64),
            ],
        );
        // A pointer global: the context's shadow of it points to a block
        // of its own when the program allocates the global's memory.
        if is_ptr(global_type(g)) {
            b.call_fn(helper(m, "heap")?, &mut [c]);
        }
        // A descriptor's shadow: the context's buffer starts as the
        // shadow's initializer, its pointers into the context's buffers.
        let init = crate::ir::link::initializer(s).filter(|i| !is_null_or_undef(*i));
        let mut offs = Vec::new();
        pointer_offsets(m, global_type(g), 0, &mut offs);
        if let (Some(init), false) = (init, offs.is_empty()) {
            let img = crate::ir::link::add_global(
                m,
                &format!("{}.context_init", name(s)),
                type_of(init),
                Some(init),
                true,
            );
            set_linkage(img, LLVMLinkage::LLVMPrivateLinkage);
            let i64t = i64_type(ctx);
            let vals: Vec<V> = offs.iter().map(|o| const_i64(ctx, *o as i64)).collect();
            let arr = const_array(i64t, &vals);
            let og = crate::ir::link::add_global(
                m,
                &format!("{}.pointer_offsets", name(s)),
                type_of(arr),
                Some(arr),
                true,
            );
            set_linkage(og, LLVMLinkage::LLVMPrivateLinkage);
            b.call_fn(desc, &mut [c, img, og, const_i64(ctx, offs.len() as i64)]);
        }
    }
    b.call_fn(finish, &mut [c]);
    let r = if type_of(call) == ptr_type(ctx) || is_void(type_of(call)) {
        c
    } else {
        convert_arg(&b, c, type_of(call)).ok_or_else(|| {
            Error::bad_call(call, "__enzyme_context must return a pointer (void *)")
        })?
    };
    if !is_void(type_of(call)) {
        replace_all_uses(call, r);
    }
    erase(call);
    Ok(())
}

/// The byte offsets of the pointers in a value of type `t` at `at`.
fn pointer_offsets(m: LLVMModuleRef, t: T, at: u64, out: &mut Vec<u64>) {
    if out.len() > 4096 {
        return;
    }
    if is_ptr(t) {
        out.push(at);
    } else if is_struct(t) {
        for (i, f) in struct_fields(t).into_iter().enumerate() {
            pointer_offsets(m, f, at + field_offset(m, t, i as u32), out);
        }
    } else if is_array(t) && contains_ptr(t) {
        let e = elem_type(t);
        let size = type_alloc_size(m, e);
        for i in 0..array_len(t) as u64 {
            pointer_offsets(m, e, at + i * size, out);
        }
    }
}

/// `__enzyme_shadow(&g, width, lane)` or `__enzyme_shadow(ctx, &g, lane)`.
fn lower_query(sess: &mut Session, call: V) -> Result<()> {
    let args = call_args(call);
    let m = sess.module;
    let b = Builder::new(m);
    b.before(call);
    b.set_debug_loc_from(call);
    let ctx = b.ctx;
    let form = || {
        Error::bad_call(
            call,
            "__enzyme_shadow takes (&global, width, lane) or (context, &global, lane)",
        )
    };
    if args.len() != 3 {
        return Err(form());
    }
    let with_context = is_ptr(type_of(args[1]));
    let r = if with_context {
        let get = helper(m, "get")?;
        let c = as_ptr(&b, call, args[0])?;
        let lane = b.int_cast(args[2], i32_type(ctx), false);
        b.call_fn(get, &mut [c, args[1], lane])
    } else {
        if !is_ptr(type_of(args[0])) {
            return Err(form());
        }
        let g = base_global(args[0]).ok_or_else(|| {
            Error::bad_call(call, "__enzyme_shadow(p, width, lane): p must be the address of a global (or of a part of one)")
        })?;
        let w = int_arg(call, args.get(1), "width of __enzyme_shadow")?.max(1);
        let l = int_arg(call, args.get(2), "lane of __enzyme_shadow")?;
        if l >= w {
            return Err(Error::bad_call(
                call,
                format!("__enzyme_shadow: lane {l} is not below the width {w}"),
            ));
        }
        let s = user_shadow_lane(sess, g, w, l);
        let i64t = i64_type(ctx);
        let off = b.sub(
            b.cast(LLVMOpcode::LLVMPtrToInt, args[0], i64t),
            b.cast(LLVMOpcode::LLVMPtrToInt, g, i64t),
        );
        b.gep(i8_type(ctx), s, &mut [off])
    };
    if !is_void(type_of(call)) {
        let r = convert_arg(&b, r, type_of(call))
            .ok_or_else(|| Error::bad_call(call, "__enzyme_shadow must return a pointer"))?;
        replace_all_uses(call, r);
    }
    erase(call);
    Ok(())
}
