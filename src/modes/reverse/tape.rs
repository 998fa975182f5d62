//! The tape: a growable byte stack `{ptr data, i64 top, i64 cap}` shared by
//! an augmented forward sweep (which pushes what the reverse sweep needs)
//! and the reverse sweep (which pops it back in reverse order). Calls inside
//! a differentiated function push onto the same tape, so recursion needs
//! nothing special. Each block pushes all of its values at once (one
//! capacity check per block execution, or one for a whole straight-line
//! region: `aug/region.rs`) at fixed offsets.
use crate::ir::llvm::*;
use crate::ir::typed::{in_module, Scope, Type};
use crate::ir::Builder;

pub const RESERVE: &str = "enzyme_rs.tape.reserve";
pub const POP: &str = "enzyme_rs.tape.pop";

/// `{ptr data, i64 top, i64 cap, i64 tag}`: the tag names the function
/// pair a split-mode tape belongs to (checked by `__enzyme_reverse`).
pub fn tape_type(ctx: LLVMContextRef) -> T {
    struct_type(
        ctx,
        &mut [ptr_type(ctx), i64_type(ctx), i64_type(ctx), i64_type(ctx)],
    )
}

/// Bytes of the tape object `__enzyme_augmentfwd` returns.
pub const TAPE_OBJECT_BYTES: i64 = 32;

/// `ptr ensure(ptr tape, i64 n)`: make room for n bytes without bumping
/// the top (the result is unused). A straight-line region of the augmented
/// sweep calls it once for all of its pushes, which then [`BUMP`].
pub const ENSURE: &str = "enzyme_rs.tape.ensure";
/// `ptr bump(ptr tape, i64 n)`: bump the top by n bytes the tape is known
/// to have room for (an [`ENSURE`] dominates it), return their address.
pub const BUMP: &str = "enzyme_rs.tape.bump";

/// Whether `name` is a function returning the address of pushed bytes.
pub fn is_push_fn(name: &str) -> bool {
    name == RESERVE || name == BUMP
}

/// `ptr reserve(ptr tape, i64 n)`: make room for n bytes, bump the top,
/// return the address of the reserved bytes.
pub fn reserve_fn(m: LLVMModuleRef) -> V {
    grow_fn(m, RESERVE, true)
}

/// [`ENSURE`]: [`reserve_fn`] that leaves the top alone.
pub fn ensure_fn(m: LLVMModuleRef) -> V {
    grow_fn(m, ENSURE, false)
}

/// [`BUMP`]: [`pop_fn`] the other way, with no capacity check.
pub fn bump_fn(m: LLVMModuleRef) -> V {
    move_top_fn(m, BUMP, true)
}

/// The capacity check and growth of [`reserve_fn`], named `fname`; with
/// `bump` false the top stays where it was.
fn grow_fn(m: LLVMModuleRef, fname: &str, bump: bool) -> V {
    in_module(m, |s| {
        if let Some(f) = s.function(fname) {
            return f.raw();
        }
        let (p, i64t) = (s.ptr_type(), s.i64_type());
        let f = s.internal_function(fname, p, &[p, i64t]);
        let ps = s.params(f);
        let (tape, n) = (ps[0], ps[1]);
        let tt = typed_tape_type(s);
        let entry = s.append_block(f, "entry");
        let grow = s.append_block(f, "grow");
        let done = s.append_block(f, "done");
        let b = s.builder();
        b.at_end(entry);
        let top_p = b.field(tt, tape, 1);
        let cap_p = b.field(tt, tape, 2);
        let top = b.load(i64t, top_p);
        let cap = b.load(i64t, cap_p);
        let end = b.add(top, n);
        let full = b.icmp(LLVMIntPredicate::LLVMIntUGT, end, cap);
        b.cond_br(full, grow, done);
        b.at_end(grow);
        let dbl = b.add(cap, cap);
        let c1 = b.select(b.icmp(LLVMIntPredicate::LLVMIntUGT, end, dbl), end, dbl);
        let min = s.i64(4096);
        let newcap = b.select(b.icmp(LLVMIntPredicate::LLVMIntULT, c1, min), min, c1);
        if crate::ir::gpu::device_of(m).is_some() {
            // A device tape starts on a local buffer; it grows into device
            // malloc memory (no realloc on devices) only without a static bound.
            crate::modes::gpu::grow_device_tape(
                b.raw(),
                tape.raw(),
                top.raw(),
                cap.raw(),
                newcap.raw(),
            );
        } else {
            let data = b.load(p, tape);
            let nd = b.realloc(data, newcap);
            b.store(nd, tape);
            b.store(newcap, cap_p);
        }
        b.br(done);
        b.at_end(done);
        let data = b.load(p, tape);
        if bump {
            b.store(end, top_p);
        }
        let r = b.gep(s.i8_type(), data, &[top]);
        b.ret(r);
        f.raw()
    })
}

/// `ptr pop(ptr tape, i64 n)`: drop n bytes from the top, return their address.
pub fn pop_fn(m: LLVMModuleRef) -> V {
    move_top_fn(m, POP, false)
}

/// Move the tape's top by n bytes (up: [`BUMP`], returning the old top's
/// address; down: [`POP`], returning the new top's), unchecked.
fn move_top_fn(m: LLVMModuleRef, name: &str, up: bool) -> V {
    in_module(m, |s| {
        if let Some(f) = s.function(name) {
            return f.raw();
        }
        let (p, i64t) = (s.ptr_type(), s.i64_type());
        let f = s.internal_function(name, p, &[p, i64t]);
        let ps = s.params(f);
        let (tape, n) = (ps[0], ps[1]);
        let tt = typed_tape_type(s);
        let b = s.builder();
        b.at_end(s.append_block(f, "entry"));
        let top_p = b.field(tt, tape, 1);
        let top = b.load(i64t, top_p);
        let (nt, at) = if up {
            let nt = b.add(top, n);
            (nt, top)
        } else {
            let nt = b.sub(top, n);
            (nt, nt)
        };
        b.store(nt, top_p);
        let data = b.load(p, tape);
        let r = b.gep(s.i8_type(), data, &[at]);
        b.ret(r);
        f.raw()
    })
}

/// [`tape_type`] on the typed layer.
fn typed_tape_type<'m>(s: &Scope<'m>) -> Type<'m> {
    let (p, i64t) = (s.ptr_type(), s.i64_type());
    s.struct_type(&[p, i64t, i64t, i64t])
}

/// Bytes a value of type `t` takes on the tape: its allocation size, but
/// a pointer takes 8 bytes in every address space. (A device's 32-bit
/// shared-memory pointer would otherwise share its 8 bytes with the next
/// value, and the host-run GPU harness, which retargets device IR to the
/// host's 64-bit pointers, would read it back torn.) The min-cut weighs
/// values by this too, so it prefers taping a narrow index to a pointer.
pub fn slot_size(m: LLVMModuleRef, t: T) -> u64 {
    let size = type_alloc_size(m, t);
    if is_ptr(t) {
        size.max(8)
    } else {
        size
    }
}

/// Byte layout of a block's pushed values: each at an offset aligned to its
/// size (up to 8), so narrow values (an `i1` branch decision, an `i32`
/// index) take the bytes they need; the block's total is a multiple of 8,
/// so every block's values start 8-aligned.
#[derive(Default, Clone)]
pub struct Layout {
    pub offsets: Vec<u64>,
    pub total: u64,
    /// Bytes used (before rounding the total up to 8).
    pub used: u64,
}

/// The alignment a value at `off` of an 8-aligned block has.
pub fn offset_align(off: u64) -> u32 {
    if off == 0 {
        8
    } else {
        1 << off.trailing_zeros().min(3)
    }
}

impl Layout {
    pub fn add(&mut self, size: u64) -> u64 {
        let align = size.clamp(1, 8).next_power_of_two().min(8);
        let off = self.used.div_ceil(align) * align;
        self.offsets.push(off);
        self.used = off + size;
        self.total = self.used.div_ceil(8) * 8;
        off
    }
}

/// `void check(ptr tag_slot, i64 tag, ptr msg)`: abort with `msg` when the
/// tape's tag is not `tag`.
pub fn check_fn(m: LLVMModuleRef) -> V {
    const NAME: &str = "enzyme_rs.tape.check";
    if let Some(f) = get_function(m, NAME) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p, i64t, p], false);
    let f = get_or_declare(m, NAME, fty);
    set_internal(f);
    let ps = params(f);
    let entry = append_block(f, "entry");
    let fail = append_block(f, "fail");
    let ok = append_block(f, "ok");
    b.at_end(entry);
    let got = b.load(i64t, ps[0]);
    let bad = b.icmp(LLVMIntPredicate::LLVMIntNE, got, ps[1]);
    b.cond_br(bad, fail, ok);
    b.at_end(fail);
    let puts_ty = fn_type_of(i32_type(ctx), &mut [p], false);
    let puts = get_or_declare(m, "puts", puts_ty);
    b.call(puts_ty, puts, &mut [ps[2]]);
    let abort_ty = fn_type_of(void_type(ctx), &mut [], false);
    let abort = get_or_declare(m, "abort", abort_ty);
    b.call(abort_ty, abort, &mut []);
    b.unreachable();
    b.at_end(ok);
    b.ret_void();
    f
}

/// The per-thread cache of one tape buffer: `{ptr data, i64 cap}`.
fn cache_global(m: LLVMModuleRef) -> V {
    const NAME: &str = "enzyme_rs.tape.cache";
    if let Some(g) = named_global(m, NAME) {
        return g;
    }
    let ctx = module_context(m);
    let ty = struct_type(ctx, &mut [ptr_type(ctx), i64_type(ctx)]);
    let g = add_global(m, ty, NAME);
    set_initializer(g, zero(ty));
    set_internal(g);
    set_thread_local(g);
    g
}

/// Start the tape object at `tp` with the cached buffer (emptying the
/// cache, so a nested gradient cannot share it): a call of [`TAKE`].
pub fn take_cached_buffer(b: &Builder, tp: V) {
    let f = take_fn(b.module, false);
    b.call_fn(f, &mut [tp]);
}

pub const TAKE: &str = "enzyme_rs.tape.take";
pub const GIVE: &str = "enzyme_rs.tape.give";
const TAKE_NOCACHE: &str = "enzyme_rs.tape.take.nocache";
const GIVE_NOCACHE: &str = "enzyme_rs.tape.give.nocache";

/// `void take(ptr tp)`: start the tape object at `tp`, with the thread's
/// cached buffer, or (`nocache`) with no buffer.
fn take_fn(m: LLVMModuleRef, nocache: bool) -> V {
    let fname = if nocache { TAKE_NOCACHE } else { TAKE };
    if let Some(f) = get_function(m, fname) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let fty = fn_type_of(void_type(ctx), &mut [ptr_type(ctx)], false);
    let f = get_or_declare(m, fname, fty);
    set_internal(f);
    let tp = params(f)[0];
    b.at_end(append_block(f, "entry"));
    let tt = tape_type(ctx);
    if nocache {
        b.store(zero(tt), tp);
        b.ret_void();
        return f;
    }
    let cache = cache_global(b.module);
    let cty = struct_type(ctx, &mut [ptr_type(ctx), i64_type(ctx)]);
    let cap_p = b.gep(cty, cache, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    let data = b.load(ptr_type(ctx), cache);
    let cap = b.load(i64_type(ctx), cap_p);
    b.store(zero(ptr_type(ctx)), cache);
    b.store(const_i64(ctx, 0), cap_p);
    b.store(zero(tt), tp);
    b.store(data, tp);
    let tcap = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    b.store(cap, tcap);
    b.ret_void();
    f
}

/// `void give(ptr tp)`: give the buffer of the tape at `tp` back to the
/// cache, or free it when the cache was refilled meanwhile (by a nested
/// gradient); (`nocache`) free it.
fn give_fn(m: LLVMModuleRef, nocache: bool) -> V {
    let fname = if nocache { GIVE_NOCACHE } else { GIVE };
    if let Some(f) = get_function(m, fname) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p], false);
    let f = get_or_declare(m, fname, fty);
    set_internal(f);
    let tp = params(f)[0];
    b.at_end(append_block(f, "entry"));
    let data = b.load(p, tp);
    if nocache {
        b.free(data);
        b.ret_void();
        return f;
    }
    let cache = cache_global(b.module);
    let cty = struct_type(ctx, &mut [p, i64t]);
    let cap_p = b.gep(cty, cache, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    let tt = tape_type(ctx);
    let tcap = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 2)]);
    let cap = b.load(i64t, tcap);
    let old = b.load(p, cache);
    let old_cap = b.load(i64t, cap_p);
    let keep = b.icmp(LLVMIntPredicate::LLVMIntEQ, old, zero(p));
    b.store(b.select(keep, data, old), cache);
    b.store(b.select(keep, cap, old_cap), cap_p);
    b.free(b.select(keep, zero(p), data));
    b.ret_void();
    f
}

/// In a function that is itself being differentiated (a gradient nested in
/// differentiated code), a tape must not go through the thread's cache:
/// the cache is state its derivative cannot mirror (which buffer is
/// cached, and its shadow, differ between the outer derivatives). Redirect
/// the clone's take/give calls to versions that allocate and free.
pub fn uncache_nested_tapes(m: LLVMModuleRef, f: V) {
    for bb in blocks(f) {
        for i in instructions(bb) {
            let Some(c) = (if is_call(i) { called_function(i) } else { None }) else {
                continue;
            };
            let n = name(c);
            let to = if n == TAKE {
                take_fn(m, true)
            } else if n == GIVE {
                give_fn(m, true)
            } else {
                continue;
            };
            let last = num_operands(i) - 1;
            set_operand(i, last, to);
        }
    }
}

/// Empty the tape at `tp`, keeping its buffer.
pub fn reset_top(b: &Builder, tp: V) {
    let ctx = b.ctx;
    let tt = tape_type(ctx);
    let top = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    b.store(const_i64(ctx, 0), top);
}

/// The tape's top (bytes in use), as an i64.
pub fn top(b: &Builder, tp: V) -> V {
    let ctx = b.ctx;
    let tt = tape_type(ctx);
    let top = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    b.load(i64_type(ctx), top)
}

/// Put the tape's top back to `v` (from [`top`]): each lane's reverse
/// sweep pops the same bytes again.
pub fn set_top(b: &Builder, tp: V, v: V) {
    let ctx = b.ctx;
    let tt = tape_type(ctx);
    let top = b.gep(tt, tp, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    b.store(v, top);
}

/// Give the buffer of the tape at `tp` back to the cache: a call of
/// [`GIVE`].
pub fn return_cached_buffer(b: &Builder, tp: V) {
    let f = give_fn(b.module, false);
    b.call_fn(f, &mut [tp]);
}
