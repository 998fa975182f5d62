//! Frees the augmented sweep cannot place: memory the primal frees through
//! a pointer it loaded (storage a callee allocated and stored into a
//! container or an out parameter, `free(v.data)`), whose allocation the
//! reverse sweep cannot name. The primal's free is taken out of the
//! augmented sweep (the reverse sweep may still read the memory and its
//! shadow); instead the pointer, each lane's shadow and the deallocator
//! go on a per-thread list, and the gradient's call site frees everything
//! pushed after its mark once its reverse sweeps are done.
//!
//! The list is `{ptr data, i64 len, i64 cap}` of entries `{ptr p, ptr
//! dealloc, i64 extra, i64 nargs}` (`dealloc(p)`, or `dealloc(p, extra)`
//! for an aligned or sized `operator delete`). Marks nest, so a gradient
//! called inside differentiated code (whose call site is itself cloned,
//! see [`keep_nested`]) leaves its entries to the outermost gradient.
//! Not on GPU devices (no thread-local list there): such frees stay
//! dropped. The old block of a `realloc` of a loaded pointer goes on the
//! list too ([`defer_free`]), and where a gradient is differentiated in
//! turn, its pushes take their blocks' shadows along ([`push_shadows_too`]):
//! a third-order gradient's tape blocks are freed that way.
//!
//! Where the augmented and the reverse sweep are not one call site's two
//! calls (split mode's `__enzyme_augmentfwd` / `__enzyme_reverse`, an
//! OpenMP region's per-thread workers), the entries an augmented call
//! pushed are detached from the list into a block of their own, whose
//! address goes on that call's tape; the reverse call pops it and settles
//! it (frees its entries) once its sweep is done. In a nested clone the
//! settling only puts the entries back on the list (its release is taken
//! out, see [`keep_nested`]).
use crate::analysis::activity::underlying_objects;
use crate::analysis::ptruse::{self, Flow};
use crate::ir::attrs::set_fn_string_attr;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::rules::{self, CallKind};

const LIST: &str = "enzyme_rs.freelist";
const PUSH: &str = "enzyme_rs.freelist.push";
const MARK: &str = "enzyme_rs.freelist.mark";
const RELEASE: &str = "enzyme_rs.freelist.release";
const DETACH: &str = "enzyme_rs.freelist.detach";
const REATTACH: &str = "enzyme_rs.freelist.reattach";

/// Bytes of one entry.
const ENTRY_BYTES: i64 = 32;

fn list_type(ctx: LLVMContextRef) -> T {
    struct_type(ctx, &mut [ptr_type(ctx), i64_type(ctx), i64_type(ctx)])
}

fn entry_type(ctx: LLVMContextRef) -> T {
    struct_type(
        ctx,
        &mut [ptr_type(ctx), ptr_type(ctx), i64_type(ctx), i64_type(ctx)],
    )
}

fn list_global(m: LLVMModuleRef) -> V {
    if let Some(g) = named_global(m, LIST) {
        return g;
    }
    let ty = list_type(module_context(m));
    let g = add_global(m, ty, LIST);
    set_initializer(g, zero(ty));
    set_internal(g);
    set_thread_local(g);
    g
}

/// A helper function `name` of type `fty`, internal and inactive (a
/// gradient nested in differentiated code calls them), or None when it
/// exists already.
fn new_helper(m: LLVMModuleRef, name: &str, fty: T) -> Result<V, V> {
    if let Some(f) = get_function(m, name) {
        return Err(f);
    }
    let f = get_or_declare(m, name, fty);
    set_internal(f);
    set_fn_string_attr(f, "enzyme_inactive", "");
    Ok(f)
}

/// `void push(ptr p, ptr dealloc, i64 extra, i64 nargs)`.
fn push_fn(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p, p, i64t, i64t], false);
    let f = match new_helper(m, PUSH, fty) {
        Ok(f) => f,
        Err(f) => return f,
    };
    let ps = params(f);
    let b = Builder::new(m);
    let (entry, grow, done) = (
        append_block(f, "entry"),
        append_block(f, "grow"),
        append_block(f, "done"),
    );
    let (lt, et) = (list_type(ctx), entry_type(ctx));
    let g = list_global(m);
    let field = |k: i64| b.gep(lt, g, &mut [const_i32(ctx, 0), const_i32(ctx, k)]);
    b.at_end(entry);
    let len = b.load(i64t, field(1));
    let cap = b.load(i64t, field(2));
    let full = b.icmp(LLVMIntPredicate::LLVMIntUGE, len, cap);
    b.cond_br(full, grow, done);
    b.at_end(grow);
    let dbl = b.add(cap, cap);
    let small = b.icmp(LLVMIntPredicate::LLVMIntULT, dbl, const_i64(ctx, 16));
    let newcap = b.select(small, const_i64(ctx, 16), dbl);
    let data = b.load(p, g);
    let bytes = b.mul(newcap, const_i64(ctx, ENTRY_BYTES));
    let nd = b.realloc(data, bytes);
    b.store(nd, g);
    b.store(newcap, field(2));
    b.br(done);
    b.at_end(done);
    let data = b.load(p, g);
    let e = b.gep(et, data, &mut [len]);
    for (k, v) in ps.iter().enumerate() {
        let slot = b.gep(et, e, &mut [const_i32(ctx, 0), const_i32(ctx, k as i64)]);
        b.store(*v, slot);
    }
    b.store(b.add(len, const_i64(ctx, 1)), field(1));
    b.ret_void();
    f
}

/// `i64 mark()`: the list's length now.
fn mark_fn(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let fty = fn_type_of(i64_type(ctx), &mut [], false);
    let f = match new_helper(m, MARK, fty) {
        Ok(f) => f,
        Err(f) => return f,
    };
    let b = Builder::new(m);
    b.at_end(append_block(f, "entry"));
    let g = list_global(m);
    let lt = list_type(ctx);
    let len_p = b.gep(lt, g, &mut [const_i32(ctx, 0), const_i32(ctx, 1)]);
    b.ret(b.load(i64_type(ctx), len_p));
    f
}

/// `void release(i64 mark)`: free the entries above `mark`, last first;
/// the list's buffer too once it is empty.
fn release_fn(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [i64t], false);
    let f = match new_helper(m, RELEASE, fty) {
        Ok(f) => f,
        Err(f) => return f,
    };
    let mark = params(f)[0];
    let b = Builder::new(m);
    let [entry, head, body, one, two, exit, empty, done] = [
        "entry", "head", "body", "one", "two", "exit", "empty", "done",
    ]
    .map(|n| append_block(f, n));
    let (lt, et) = (list_type(ctx), entry_type(ctx));
    let g = list_global(m);
    let field = |k: i64| b.gep(lt, g, &mut [const_i32(ctx, 0), const_i32(ctx, k)]);
    b.at_end(entry);
    b.br(head);
    b.at_end(head);
    let len = b.load(i64t, field(1));
    let more = b.icmp(LLVMIntPredicate::LLVMIntUGT, len, mark);
    b.cond_br(more, body, exit);
    b.at_end(body);
    let nl = b.sub(len, const_i64(ctx, 1));
    b.store(nl, field(1));
    let data = b.load(p, g);
    let e = b.gep(et, data, &mut [nl]);
    let at = |k: i64, t: T| {
        let slot = b.gep(et, e, &mut [const_i32(ctx, 0), const_i32(ctx, k)]);
        b.load(t, slot)
    };
    let (q, d, x, n) = (at(0, p), at(1, p), at(2, i64t), at(3, i64t));
    let is1 = b.icmp(LLVMIntPredicate::LLVMIntEQ, n, const_i64(ctx, 1));
    b.cond_br(is1, one, two);
    b.at_end(one);
    let t1 = fn_type_of(void_type(ctx), &mut [p], false);
    b.call(t1, d, &mut [q]);
    b.br(head);
    b.at_end(two);
    let t2 = fn_type_of(void_type(ctx), &mut [p, i64t], false);
    b.call(t2, d, &mut [q, x]);
    b.br(head);
    b.at_end(exit);
    let is_empty = b.icmp(LLVMIntPredicate::LLVMIntEQ, len, const_i64(ctx, 0));
    b.cond_br(is_empty, empty, done);
    b.at_end(empty);
    b.free(b.load(p, g));
    b.store(zero(p), g);
    b.store(const_i64(ctx, 0), field(2));
    b.br(done);
    b.at_end(done);
    b.ret_void();
    f
}

/// `ptr detach(i64 mark)`: the entries above `mark` moved into a new block
/// `{i64 n, entries...}` (null when there are none); the list keeps those
/// below (its buffer freed once empty).
fn detach_fn(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(p, &mut [i64t], false);
    let f = match new_helper(m, DETACH, fty) {
        Ok(f) => f,
        Err(f) => return f,
    };
    let mark = params(f)[0];
    let b = Builder::new(m);
    let [entry, some, empty, done] = ["entry", "some", "empty", "done"].map(|n| append_block(f, n));
    let (lt, et) = (list_type(ctx), entry_type(ctx));
    let g = list_global(m);
    let field = |k: i64| b.gep(lt, g, &mut [const_i32(ctx, 0), const_i32(ctx, k)]);
    b.at_end(entry);
    let len = b.load(i64t, field(1));
    let more = b.icmp(LLVMIntPredicate::LLVMIntUGT, len, mark);
    b.cond_br(more, some, done);
    b.at_end(some);
    let n = b.sub(len, mark);
    let bytes = b.mul(n, const_i64(ctx, ENTRY_BYTES));
    let blk = b.malloc(b.add(bytes, const_i64(ctx, 8)));
    b.store(n, blk);
    let data = b.load(p, g);
    let from = b.gep(et, data, &mut [mark]);
    let to = b.gep(i8_type(ctx), blk, &mut [const_i64(ctx, 8)]);
    b.memcpy(to, from, bytes, 8);
    b.store(mark, field(1));
    let is_empty = b.icmp(LLVMIntPredicate::LLVMIntEQ, mark, const_i64(ctx, 0));
    b.cond_br(is_empty, empty, done);
    b.at_end(empty);
    b.free(data);
    b.store(zero(p), g);
    b.store(const_i64(ctx, 0), field(2));
    b.br(done);
    b.at_end(done);
    let r = b.phi(p);
    add_incoming(r, &[(zero(p), entry), (blk, some), (blk, empty)]);
    b.ret(r);
    f
}

/// `void reattach(ptr blk)`: push a detached block's entries back on the
/// list, in their order, and free the block (null: nothing).
fn reattach_fn(m: LLVMModuleRef) -> V {
    let ctx = module_context(m);
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p], false);
    let f = match new_helper(m, REATTACH, fty) {
        Ok(f) => f,
        Err(f) => return f,
    };
    let push = push_fn(m);
    let blk = params(f)[0];
    let b = Builder::new(m);
    let [entry, some, head, body, exit, done] =
        ["entry", "some", "head", "body", "exit", "done"].map(|n| append_block(f, n));
    let et = entry_type(ctx);
    b.at_end(entry);
    let is_null = b.icmp(LLVMIntPredicate::LLVMIntEQ, blk, zero(p));
    b.cond_br(is_null, done, some);
    b.at_end(some);
    let n = b.load(i64t, blk);
    let es = b.gep(i8_type(ctx), blk, &mut [const_i64(ctx, 8)]);
    b.br(head);
    b.at_end(head);
    let k = b.phi(i64t);
    let more = b.icmp(LLVMIntPredicate::LLVMIntULT, k, n);
    b.cond_br(more, body, exit);
    b.at_end(body);
    let e = b.gep(et, es, &mut [k]);
    let mut args: Vec<V> = [p, p, i64t, i64t]
        .iter()
        .enumerate()
        .map(|(j, t)| {
            let slot = b.gep(et, e, &mut [const_i32(ctx, 0), const_i32(ctx, j as i64)]);
            b.load(*t, slot)
        })
        .collect();
    b.call_fn(push, &mut args);
    let k1 = b.add(k, const_i64(ctx, 1));
    b.br(head);
    add_incoming(k, &[(const_i64(ctx, 0), some), (k1, body)]);
    b.at_end(exit);
    b.free(blk);
    b.br(done);
    b.at_end(done);
    b.ret_void();
    f
}

/// Whether calls of the augmented function `aug` may defer frees (it or a
/// function it calls directly pushes on the list). Split mode's two call
/// sites and an OpenMP region's two workers ask it of the same function,
/// so they agree.
pub fn defers(aug: V) -> bool {
    let mut seen = std::collections::HashSet::new();
    crate::analysis::callgraph::find_callee(vec![aug], &mut seen, |c| name(c) == PUSH)
}

/// Before an augmented call that [`defers`]: the list's mark.
pub fn mark_before(b: &Builder) -> V {
    b.call_fn(mark_fn(b.module), &mut [])
}

/// After that augmented call: detach what it pushed since `mark` and put
/// the block's address on the tape object `tp` (the last 8 bytes pushed).
pub fn detach_onto_tape(b: &Builder, tp: V, mark: V) {
    let m = b.module;
    let ctx = b.ctx;
    let blk = b.call_fn(detach_fn(m), &mut [mark]);
    let slot = b.call_fn(super::tape::reserve_fn(m), &mut [tp, const_i64(ctx, 8)]);
    b.store(blk, slot);
}

/// Before the matching reverse call: pop the block's address off `tp`.
pub fn pop_detached(b: &Builder, tp: V) -> V {
    let m = b.module;
    let ctx = b.ctx;
    let slot = b.call_fn(super::tape::pop_fn(m), &mut [tp, const_i64(ctx, 8)]);
    b.load(ptr_type(ctx), slot)
}

/// After the reverse call: free the block's entries (last first) and the
/// block: put back on the list above a new mark, then released (in a
/// nested clone the release is taken out and they stay on the list).
pub fn settle(b: &Builder, blk: V) {
    let m = b.module;
    let mark = b.call_fn(mark_fn(m), &mut []);
    b.call_fn(reattach_fn(m), &mut [blk]);
    release_at(b, mark);
}

/// Around an OpenMP region's per-thread augmented or reverse call. The
/// reverse call's block is not settled by its thread (the enclosing reverse
/// sweep may still read the memory): the thread leaves it in its tape
/// slot's spare bytes (`tp + TAPE_OBJECT_BYTES`), and the region puts the
/// blocks back on the list of the thread that forked it after the join
/// ([`reattach_threads`]), for the enclosing gradient to release.
pub enum Worker {
    /// Nothing to do (reverse: the block was popped before the call, the
    /// augmented call having pushed it last).
    None,
    /// Augmented: the mark before it.
    Aug(V),
}

impl Worker {
    pub fn before(b: &Builder, tp: V, reverse: bool, defers: bool) -> Worker {
        match (defers, reverse) {
            (false, _) => Worker::None,
            (true, false) => Worker::Aug(mark_before(b)),
            (true, true) => {
                let blk = pop_detached(b, tp);
                b.store(blk, spare(b, tp));
                Worker::None
            }
        }
    }

    pub fn after(self, b: &Builder, tp: V) {
        if let Worker::Aug(mark) = self {
            detach_onto_tape(b, tp, mark);
        }
    }
}

fn spare(b: &Builder, tp: V) -> V {
    let ctx = b.ctx;
    b.gep(
        i8_type(ctx),
        tp,
        &mut [const_i64(ctx, super::tape::TAPE_OBJECT_BYTES)],
    )
}

/// After an OpenMP region's reverse join, on the forking thread: put the
/// blocks its `n` threads left (thread t's tape object at `first + t *
/// stride`) back on the list.
pub fn reattach_threads(b: &Builder, first: V, n: V, stride: i64) {
    let m = b.module;
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let name = "enzyme_rs.freelist.reattach_threads";
    let fty = fn_type_of(void_type(ctx), &mut [p, i64t, i64t], false);
    let f = match new_helper(m, name, fty) {
        Err(f) => f,
        Ok(f) => {
            let ps = params(f);
            let (first, n, stride) = (ps[0], ps[1], ps[2]);
            let h = Builder::new(m);
            let [entry, head, body, exit] =
                ["entry", "head", "body", "exit"].map(|x| append_block(f, x));
            h.at_end(entry);
            h.br(head);
            h.at_end(head);
            let k = h.phi(i64t);
            let more = h.icmp(LLVMIntPredicate::LLVMIntSLT, k, n);
            h.cond_br(more, body, exit);
            h.at_end(body);
            let tp = h.gep(i8_type(ctx), first, &mut [h.mul(k, stride)]);
            let blk = h.load(p, spare(&h, tp));
            h.call_fn(reattach_fn(m), &mut [blk]);
            let k1 = h.add(k, const_i64(ctx, 1));
            h.br(head);
            add_incoming(k, &[(const_i64(ctx, 0), entry), (k1, body)]);
            h.at_end(exit);
            h.ret_void();
            f
        }
    };
    let n = b.int_cast(n, i64t, true);
    b.call_fn(f, &mut [first, n, const_i64(ctx, stride)]);
}

/// Whether the free of `p` goes through the list: `p` may have been
/// loaded from memory that code other than this function wrote or that
/// holds one of several blocks (a slot whose address reaches a call, as a
/// container's or an out parameter's does; a list node's `next`), so the
/// allocations the function names do not say which block is freed. (`p`
/// based only on such loads and this function's allocations: frees of
/// arguments and globals are left alone.)
pub fn frees_loaded(m: LLVMModuleRef, p: V) -> bool {
    if crate::ir::gpu::device_of(m).is_some() {
        return false;
    }
    let objs = underlying_objects(p);
    let is_load = |o: &V| opcode(*o) == Some(LLVMOpcode::LLVMLoad);
    let local_alloc = |o: &V| is_call(*o) && matches!(rules::classify(*o), CallKind::Alloc(_));
    objs.iter().all(|o| is_load(o) || local_alloc(o))
        && objs.iter().any(|o| {
            is_load(o)
                && !underlying_objects(operand(*o, 0))
                    .iter()
                    .all(|slot| private_slot(*slot))
        })
}

/// The base of address `v` under its GEPs and casts.
pub fn address_base(mut v: V) -> V {
    while matches!(
        opcode(v),
        Some(
            LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast
        )
    ) {
        v = operand(v, 0);
    }
    v
}

/// A local alloca only loaded and stored through (directly or through
/// GEPs/casts), never passed to a call.
fn private_slot(slot: V) -> bool {
    if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
        return false;
    }
    ptruse::walk([slot], |u, v, w| match opcode(u) {
        Some(LLVMOpcode::LLVMLoad) => Flow::Continue,
        Some(LLVMOpcode::LLVMStore) if operand(u, 1) == v => Flow::Continue,
        Some(
            LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast,
        ) => {
            w.follow(u);
            Flow::Continue
        }
        _ if is_call(u) && is_lifetime_marker(u) => Flow::Continue,
        _ => Flow::Stop,
    })
}

/// How to call the deallocator `d` of a free call `free_call` later:
/// `(extra, nargs)`, or None for one the list cannot call (three
/// parameters: a sized aligned `operator delete`).
fn dealloc_args(b: &Builder, free_call: V, d: V) -> Option<(V, V)> {
    let ctx = b.ctx;
    match params(d).len() {
        1 => Some((const_i64(ctx, 0), const_i64(ctx, 1))),
        2 if is_int(type_of(params(d)[1])) => {
            let x = b.int_cast(operand(free_call, 1), i64_type(ctx), false);
            Some((x, const_i64(ctx, 2)))
        }
        _ => None,
    }
}

/// Before the free call `free_call` (which the augmented sweep takes out),
/// put `p` and its `shadows` on the list, to be freed with the same
/// deallocator after the gradient's reverse sweeps. Whether it did (not
/// on devices, nor for deallocators it cannot call).
pub fn defer(b: &Builder, free_call: V, p: V, shadows: &[V]) -> bool {
    let m = b.module;
    let Some(d) = known_target(free_call) else {
        return false;
    };
    b.before(free_call);
    b.set_debug_loc_from(free_call);
    let Some((x, n)) = dealloc_args(b, free_call, d) else {
        return false;
    };
    let push = push_fn(m);
    for q in std::iter::once(p).chain(shadows.iter().copied()) {
        b.call_fn(push, &mut [q, d, x, n]);
    }
    true
}

/// Whether `i` calls the list's push: in a gradient that is itself
/// differentiated, the frees its derivatives deferred.
pub fn is_push(i: V) -> bool {
    is_call(i) && called_function(i).is_some_and(|c| name(c) == PUSH)
}

/// After the push call `push` (in a clone being differentiated), put each
/// of `shadows` (the pushed pointer's shadows) on the list too, with the
/// same deallocator: the outer gradient's release frees them with it.
pub fn push_shadows_too(b: &Builder, push: V, shadows: &[V]) {
    b.after(push);
    b.set_debug_loc_from(push);
    for s in shadows {
        b.clone_call_with(push, &[(0, *s)]);
    }
}

/// Put `p` (a block of `malloc`'s) and its `shadows` on the list, to be
/// freed after the gradient's reverse sweeps: the old block of a `realloc`
/// of a loaded pointer (a growing buffer's, as the tape's own when a
/// gradient is differentiated), which the reverse sweep still reads. Not
/// on devices (nothing is pushed there).
pub fn defer_free(b: &Builder, p: V, shadows: &[V]) {
    if crate::ir::gpu::device_of(b.module).is_some() {
        return;
    }
    let ctx = b.ctx;
    let fty = fn_type_of(void_type(ctx), &mut [ptr_type(ctx)], false);
    let d = get_or_declare(b.module, "free", fty);
    let push = push_fn(b.module);
    for q in std::iter::once(p).chain(shadows.iter().copied()) {
        b.call_fn(push, &mut [q, d, const_i64(ctx, 0), const_i64(ctx, 1)]);
    }
}

/// At a gradient's call site: the list's mark before its augmented sweep,
/// when some derivative of the module defers frees (else None).
pub fn mark_at(b: &Builder) -> Option<V> {
    get_function(b.module, PUSH)?;
    Some(b.call_fn(mark_fn(b.module), &mut []))
}

/// At a gradient's call site, after its reverse sweeps: free what its
/// derivatives deferred (since `mark`).
pub fn release_at(b: &Builder, mark: V) {
    b.call_fn(release_fn(b.module), &mut [mark]);
}

/// In a clone being differentiated (a gradient nested in differentiated
/// code): its gradients' releases are taken out, so what their derivatives
/// deferred stays until the outermost gradient's release (the outer
/// reverse sweep may still read it).
pub fn keep_nested(f: V) {
    for bb in blocks(f) {
        for i in instructions(bb) {
            if is_call(i) && called_function(i).is_some_and(|c| name(c) == RELEASE) {
                erase(i);
            }
        }
    }
}
