//! Parallel regions: `__kmpc_fork_call(loc, n, outlined, captured...)`.
//!
//! Forward mode forks the outlined function's forward derivative with the
//! captured pointers' shadows after them.
//!
//! Reverse mode replaces the fork by a pair of functions that the
//! surrounding derivative treats like any differentiated callee:
//!
//!   aug_fork(pushed, captured+shadows..., tape):
//!     tapes = zeroed array of one tape object per possible thread
//!     fork(aug_wrapper, captured+shadows..., tapes)   // thread t: aug(.., tapes[t])
//!     push tapes on tape
//!   rev_fork(pushed, captured+shadows..., tape):
//!     tapes = pop; push_num_threads(team size of the forward fork)
//!     fork(rev_wrapper, captured+shadows..., tapes)   // thread t: rev(.., tapes[t])
//!     free tapes
//!
//! Each thread's tape holds what it pushed (its loop bounds included), so
//! its reverse replays its own iterations, whatever the schedule.
use super::super::forward;
use super::super::reverse::{self, aug::CallInfo, tape, Act, AugRet, Key, Pair};
use super::super::Session;
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::omp as ir;
use crate::ir::Builder;

/// Bytes per thread's tape object in the array (a cache line each).
const STRIDE: i64 = 64;
// A thread's slot: its tape object, then a free-list block (freelist.rs).
const _: () = assert!(STRIDE >= tape::TAPE_OBJECT_BYTES + 8);

pub fn append_block(f: V, n: &str) -> BB {
    crate::ir::globals::append_block(f, n)
}

/// The outlined function a fork runs, checked against its captured values.
fn outlined_of(i: V) -> Result<V> {
    let f = strip_casts(operand(i, 2));
    if !is_function(f) || is_declaration(f) {
        return Err(Error::unsupported(
            i,
            "parallel region whose outlined function is unknown",
        ));
    }
    if params(f).len() != call_num_args(i) as usize - 1 {
        return Err(Error::unsupported(
            i,
            "parallel region: outlined function and captured values disagree",
        ));
    }
    Ok(f)
}

fn check_captured(i: V, varied: &[bool]) -> Result<()> {
    for (a, v) in call_args(i)[3..].iter().zip(varied) {
        if *v && !is_ptr(type_of(*a)) {
            return Err(Error::unsupported(
                i,
                "parallel region capturing an active value by copy (firstprivate); capture it by reference (shared)",
            ));
        }
    }
    Ok(())
}

/// Whether pointer `p` may point into its function's stack frame.
fn in_frame(p: V) -> bool {
    is_ptr(type_of(p))
        && crate::analysis::activity::underlying_objects(p)
            .into_iter()
            .any(|o| opcode(o) == Some(LLVMOpcode::LLVMAlloca))
}

/// A call of the varargs `__kmpc_fork_call` with `outlined` and `args`.
fn emit_fork(b: &Builder, loc: V, outlined: V, args: &[V]) -> V {
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    let fty = fn_type_of(void_type(ctx), &mut [p, i32_type(ctx), p], true);
    let f = get_or_declare(b.module, "__kmpc_fork_call", fty);
    let mut all = vec![loc, const_i32(ctx, args.len() as i64), outlined];
    all.extend_from_slice(args);
    b.call(fty, f, &mut all)
}

fn runtime_fn(b: &Builder, n: &str, ret: T, ps: &mut [T]) -> (T, V) {
    let fty = fn_type_of(ret, ps, false);
    (fty, get_or_declare(b.module, n, fty))
}

/// Forward mode: fork the forward derivative of the outlined function.
/// `tangents[k]`: the shadows (one per lane) of captured value k, empty
/// when it has none.
pub fn forward_fork(sess: &mut Session, i: V, tangents: &[Vec<V>], width: u32) -> Result<()> {
    let outlined = outlined_of(i)?;
    let varied: Vec<bool> = tangents.iter().map(|t| !t.is_empty()).collect();
    check_captured(i, &varied)?;
    let mut shadow = vec![false, false];
    shadow.extend(varied.iter().copied());
    let key = forward::Key {
        func: outlined,
        shadow,
        ret_tangent: false,
        width,
        noneed: Vec::new(),
    };
    let d = forward::derivative(sess, &key, None)?;
    let b = Builder::new(sess.module);
    b.before(i);
    b.set_debug_loc_from(i);
    let mut args = Vec::new();
    for (a, t) in call_args(i)[3..].iter().zip(tangents) {
        args.push(*a);
        args.extend(t.iter().copied());
    }
    emit_fork(&b, operand(i, 0), d.func, &args);
    ir::erase_instruction(i);
    Ok(())
}

/// What the augmented sweep needs to know about one fork.
pub struct ForkSite {
    pub call: V,
    /// Per captured value: its activity and (for `Dup`) its shadow.
    pub acts: Vec<Act>,
    /// Per captured value: whether it carries a derivative.
    pub varied: Vec<bool>,
    pub shadows: Vec<Option<V>>,
    /// Per captured value: may the caller overwrite its memory later.
    pub overwritten: Vec<bool>,
    pub globals_overwritten: bool,
    pub tape: V,
}

/// Reverse mode, augmented sweep: replace the fork by a call of
/// `aug_fork` (the caller erases the fork); the returned call info makes
/// the reverse sweep call `rev_fork` with the same arguments.
pub fn augment_fork(sess: &mut Session, s: ForkSite) -> Result<(V, CallInfo)> {
    let i = s.call;
    let outlined = outlined_of(i)?;
    check_captured(i, &s.varied)?;
    let mut acts = vec![Act::Const, Act::Const];
    acts.extend(s.acts.iter().copied());
    // The caller's locals a region captures live in the augmented sweep's
    // frame, gone when the reverse runs: the region's reverse must not
    // read them again (it keeps what it reads there on its tape).
    let mut overwritten = vec![false, false];
    for (a, o) in call_args(i)[3..].iter().zip(&s.overwritten) {
        overwritten.push(*o || in_frame(*a));
    }
    let okey = Key {
        func: outlined,
        acts,
        ret_active: false,
        ret_shadow: false,
        overwritten: overwritten.clone(),
        globals_overwritten: s.globals_overwritten,
        others_overwritten: true,
        distinct: vec![false; overwritten.len()],
        width: 1,
    };
    let opair = reverse::get_pair(sess, &okey, None)?;
    let m = sess.module;
    let b = Builder::new(m);
    let ctx = b.ctx;
    let p = ptr_type(ctx);
    let loc = operand(i, 0);
    // Captured values and their shadows, as the wrappers take them.
    let cap = call_args(i)[3..].to_vec();
    let mut cap_tys = Vec::new();
    for (a, act) in cap.iter().zip(&s.acts) {
        cap_tys.push(type_of(*a));
        if *act == Act::Dup {
            cap_tys.push(type_of(*a));
        }
    }
    let base = name(outlined);
    let defers = reverse::freelist::defers(opair.aug);
    let wrapper = |n: &str, inner: V, reverse: bool| -> V {
        let mut tys = vec![p, p];
        tys.extend(cap_tys.iter().copied());
        tys.push(p);
        let f = ir::add_internal_function(
            m,
            &format!("enzyme_rs.omp.{n}.{base}"),
            fn_type_of(void_type(ctx), &mut tys, false),
        );
        thread_wrapper(&b, f, inner, reverse, defers);
        f
    };
    let aug_w = wrapper("aug", opair.aug, false);
    let rev_w = wrapper("rev", opair.rev, true);
    let mut tys = vec![i32_type(ctx)];
    tys.extend(cap_tys.iter().copied());
    tys.push(p);
    let fty = fn_type_of(void_type(ctx), &mut tys, false);
    let aug_f = ir::add_internal_function(m, &format!("enzyme_rs.omp.aug_fork.{base}"), fty);
    let rev_f = ir::add_internal_function(m, &format!("enzyme_rs.omp.rev_fork.{base}"), fty);
    fork_body(&b, aug_f, loc, aug_w, false, defers);
    fork_body(&b, rev_f, loc, rev_w, true, defers);
    crate::ir::attrs::set_fn_string_attr(aug_f, super::deadslot::REV_FORK, &name(rev_f));
    for f in [aug_w, rev_w, aug_f, rev_f] {
        verify_function(f).map_err(|e| Error::internal(format!("OpenMP wrapper: {e}")))?;
        sess.created.push(f);
    }
    // The call replacing the fork.
    let pushed = pushed_threads(i).unwrap_or_else(|| const_i32(ctx, 0));
    b.before(i);
    b.set_debug_loc_from(i);
    let mut args = vec![pushed];
    for (k, a) in cap.iter().enumerate() {
        args.push(*a);
        if s.acts[k] == Act::Dup {
            args.push(s.shadows[k].unwrap_or_else(|| zero(type_of(*a))));
        }
    }
    args.push(s.tape);
    let nc = b.call_fn(aug_f, &mut args);
    let mut info_acts = vec![Act::Const];
    info_acts.extend(s.acts.iter().copied());
    let mut info_over = vec![false];
    info_over.extend(s.overwritten.iter().copied());
    let mut info_args = vec![pushed];
    info_args.extend(cap.iter().copied());
    let info = CallInfo {
        pair: Pair {
            aug: aug_f,
            rev: rev_f,
            aug_ret: AugRet::Void,
            active_params: vec![],
            takes_seed: false,
            lane_revs: vec![],
        },
        key: Key {
            func: outlined,
            acts: info_acts,
            ret_active: false,
            ret_shadow: false,
            distinct: vec![false; info_over.len()],
            overwritten: info_over,
            globals_overwritten: s.globals_overwritten,
            others_overwritten: true,
            width: 1,
        },
        args: info_args,
    };
    Ok((nc, info))
}

/// The thread count a `__kmpc_push_num_threads` right before the fork asks for.
fn pushed_threads(fork: V) -> Option<V> {
    let mut cur = prev_instruction(fork);
    while let Some(x) = cur {
        if is_call(x) {
            let n = called_function(x).map(name).unwrap_or_default();
            if n == "__kmpc_push_num_threads" {
                return Some(operand(x, 2));
            }
            if n == "__kmpc_fork_call" {
                return None;
            }
        }
        cur = prev_instruction(x);
    }
    None
}

fn prev_instruction(i: V) -> Option<V> {
    let bb = inst_block(i);
    let insts = instructions(bb);
    let k = insts.iter().position(|x| *x == i)?;
    (k > 0).then(|| insts[k - 1])
}

/// `wrapper(gtid, btid, captured+shadows..., tapes)`: this thread's tape
/// object, then `inner(gtid, btid, captured+shadows..., tape)`. The
/// forward one records the team size (thread 0) and starts the thread's
/// tape with its cached buffer; the reverse one checks the team size and
/// gives the buffer back to the thread's cache after.
/// When the region's augmented function defers frees (`defers`), each
/// thread detaches them onto its tape and its reverse settles them
/// (reverse/freelist.rs).
fn thread_wrapper(b: &Builder, f: V, inner: V, reverse: bool, defers: bool) {
    let ctx = b.ctx;
    let (i32t, i64t, p) = (i32_type(ctx), i64_type(ctx), ptr_type(ctx));
    let ps = params(f);
    let tapes = *ps.last().unwrap();
    let entry = append_block(f, "entry");
    let body = append_block(f, "body");
    b.at_end(entry);
    b.clear_debug_loc();
    let (tty, tfn) = runtime_fn(b, "omp_get_thread_num", i32t, &mut []);
    let tid = b.call(tty, tfn, &mut []);
    let (nty, nfn) = runtime_fn(b, "omp_get_num_threads", i32t, &mut []);
    let nth = b.call(nty, nfn, &mut []);
    if reverse {
        let rec = b.load(i32t, tapes);
        let ok = b.icmp(LLVMIntPredicate::LLVMIntEQ, rec, nth);
        let bad = append_block(f, "bad_team");
        b.cond_br(ok, body, bad);
        b.at_end(bad);
        let msg = ir::global_string(
            b,
            "enzyme-rs: the reverse of a parallel region got a team of another size than its forward sweep (set OMP_DYNAMIC=false)",
        );
        let (pty, pfn) = runtime_fn(b, "puts", i32t, &mut [p]);
        b.call(pty, pfn, &mut [msg]);
        let (aty, afn) = runtime_fn(b, "abort", void_type(ctx), &mut []);
        b.call(aty, afn, &mut []);
        b.unreachable();
    } else {
        let is0 = b.icmp(LLVMIntPredicate::LLVMIntEQ, tid, const_i32(ctx, 0));
        let rec = append_block(f, "record");
        b.cond_br(is0, rec, body);
        b.at_end(rec);
        b.store(nth, tapes);
        b.br(body);
    }
    b.at_end(body);
    let slot = b.add(b.int_cast(tid, i64t, true), const_i64(ctx, 1));
    let off = b.mul(slot, const_i64(ctx, STRIDE));
    let tp = b.gep(i8_type(ctx), tapes, &mut [off]);
    if !reverse {
        // The buffer this (pooled) thread used last time, if any.
        tape::take_cached_buffer(b, tp);
    }
    let mut args: Vec<V> = ps[..ps.len() - 1].to_vec();
    args.push(tp);
    let fl = reverse::freelist::Worker::before(b, tp, reverse, defers);
    b.call_fn(inner, &mut args);
    fl.after(b, tp);
    if reverse {
        tape::return_cached_buffer(b, tp);
    }
    b.ret_void();
}

/// `aug_fork` / `rev_fork` bodies (see the module comment).
fn fork_body(b: &Builder, f: V, loc: V, wrapper: V, reverse: bool, defers: bool) {
    let ctx = b.ctx;
    let (i32t, i64t, p) = (i32_type(ctx), i64_type(ctx), ptr_type(ctx));
    let ps = params(f);
    let tape_p = *ps.last().unwrap();
    let cap: Vec<V> = ps[1..ps.len() - 1].to_vec();
    b.at_end(append_block(f, "entry"));
    b.clear_debug_loc();
    let m = b.module;
    if !reverse {
        let (mty, mfn) = runtime_fn(b, "omp_get_max_threads", i32t, &mut []);
        let nmax = b.call(mty, mfn, &mut []);
        let pushed = ps[0];
        let more = b.icmp(LLVMIntPredicate::LLVMIntSGT, pushed, nmax);
        let n = b.select(more, pushed, nmax);
        let slots = b.add(b.int_cast(n, i64t, true), const_i64(ctx, 1));
        let bytes = b.mul(slots, const_i64(ctx, STRIDE));
        let tapes = b.malloc(bytes);
        b.zero_bytes(tapes, bytes);
        let mut args = cap.clone();
        args.push(tapes);
        emit_fork(b, loc, wrapper, &args);
        let slot = b.call_fn(tape::reserve_fn(m), &mut [tape_p, const_i64(ctx, 8)]);
        b.store(tapes, slot);
    } else {
        let slot = b.call_fn(tape::pop_fn(m), &mut [tape_p, const_i64(ctx, 8)]);
        let tapes = b.load(p, slot);
        let nth = b.load(i32t, tapes);
        let (gty, gfn) = runtime_fn(b, "__kmpc_global_thread_num", i32t, &mut [p]);
        let gtid = b.call(gty, gfn, &mut [loc]);
        let (nty, nfn) = runtime_fn(
            b,
            "__kmpc_push_num_threads",
            void_type(ctx),
            &mut [p, i32t, i32t],
        );
        b.call(nty, nfn, &mut [loc, gtid, nth]);
        let mut args = cap.clone();
        args.push(tapes);
        emit_fork(b, loc, wrapper, &args);
        if defers {
            let first = b.gep(i8_type(ctx), tapes, &mut [const_i64(ctx, STRIDE)]);
            reverse::freelist::reattach_threads(b, first, nth, STRIDE);
        }
        b.free(tapes);
    }
    b.ret_void();
}

/// The `__kmpc_fork_call`s of `f`.
pub fn fork_calls(f: V) -> Vec<V> {
    blocks(f)
        .into_iter()
        .flat_map(instructions)
        .filter(|i| {
            is_call(*i) && called_function(*i).is_some_and(|c| name(c) == "__kmpc_fork_call")
        })
        .collect()
}

/// Floats captured by value (`firstprivate`): clang passes their bits as an
/// integer, which no derivative can follow through the runtime. Before
/// any analysis, such captures of `f`'s forks become captures by reference
/// of a slot holding the float, through a wrapper that loads it and runs
/// the outlined function (inlined into the wrapper).
pub fn capture_floats_by_reference(f: V) -> Result<()> {
    let forks = fork_calls(f);
    let m = module_of(f);
    let b = Builder::new(m);
    for i in forks {
        let cap = call_args(i)[3..].to_vec();
        let src: Vec<Option<V>> = cap.iter().map(|a| float_bits_source(m, *a)).collect();
        if src.iter().all(|s| s.is_none()) {
            continue;
        }
        let outlined = outlined_of(i)?;
        let mut args = Vec::new();
        for (a, s) in cap.iter().zip(&src) {
            match s {
                Some(x) => {
                    b.at_entry_allocas(f);
                    b.clear_debug_loc();
                    let slot = b.alloca(type_of(*x));
                    b.before(i);
                    b.store(*x, slot);
                    args.push(slot);
                }
                None => args.push(*a),
            }
        }
        let w = byref_wrapper(&b, outlined, &src)
            .ok_or_else(|| Error::unsupported(i, "parallel region capturing a float by copy (firstprivate) whose outlined function could not be inlined"))?;
        b.before(i);
        b.set_debug_loc_from(i);
        emit_fork(&b, operand(i, 0), w, &args);
        ir::erase_instruction(i);
    }
    Ok(())
}

/// The float whose bits an integer captured value carries: `bitcast`
/// (optimized code) or a load right after a store of the float (-O0).
fn float_bits_source(m: LLVMModuleRef, a: V) -> Option<V> {
    let t = type_of(a);
    if !is_int(t) {
        return None;
    }
    let size = type_store_size(m, t);
    let x = match opcode(a) {
        Some(LLVMOpcode::LLVMBitCast) => operand(a, 0),
        Some(LLVMOpcode::LLVMLoad) => {
            let prev = prev_instruction(a)?;
            if opcode(prev) != Some(LLVMOpcode::LLVMStore) || operand(prev, 1) != operand(a, 0) {
                return None;
            }
            operand(prev, 0)
        }
        _ => return None,
    };
    (is_fp_scalar(type_of(x)) && type_store_size(m, type_of(x)) == size).then_some(x)
}

/// `wrapper(gtid, btid, captured...)` where the captures with a float
/// source are pointers to the float: load, reinterpret, run `outlined`.
fn byref_wrapper(b: &Builder, outlined: V, src: &[Option<V>]) -> Option<V> {
    let m = b.module;
    let ctx = b.ctx;
    let mask: String = src
        .iter()
        .map(|s| if s.is_some() { '1' } else { '0' })
        .collect();
    let n = format!("enzyme_rs.omp.byref.{}.{mask}", name(outlined));
    if let Some(w) = get_function(m, &n) {
        return Some(w);
    }
    let ops = params(outlined);
    let mut tys: Vec<T> = ops.iter().map(|p| type_of(*p)).collect();
    for (k, s) in src.iter().enumerate() {
        if s.is_some() {
            tys[k + 2] = ptr_type(ctx);
        }
    }
    let w = ir::add_internal_function(m, &n, fn_type_of(void_type(ctx), &mut tys, false));
    b.at_end(append_block(w, "entry"));
    b.clear_debug_loc();
    let wps = params(w);
    let mut args = Vec::new();
    for (k, p) in wps.iter().enumerate() {
        match src.get(k.wrapping_sub(2)).copied().flatten() {
            Some(x) if k >= 2 => {
                let v = b.load(type_of(x), *p);
                args.push(b.bitcast(v, type_of(ops[k])));
            }
            _ => args.push(*p),
        }
    }
    let c = b.call_fn(outlined, &mut args);
    b.ret_void();
    if !crate::ir::shim::inline_call(c) {
        ir::erase_function(w);
        return None;
    }
    Some(w)
}
