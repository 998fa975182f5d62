//! A compact record of data-dependent moves (issue 16 item 2).
//!
//! A *move region* is an outermost loop whose only writes are whole
//! floating-point values moved within one buffer `S` of the function's own
//! (an uncaptured malloc/alloca of known size): every store into `S` stores
//! a value loaded from `S` in the loop, or a phi/select of such values
//! (carried through registers, like an insertion sort's `key`). Other
//! instructions (comparisons, index arithmetic, even arithmetic on the
//! loaded values) are left as they are.
//!
//! When the trial pair of a function tapes something for such a loop (its
//! moves are data-dependent: the reverse sweep would otherwise re-run them
//! from taped trip counts or decisions), a copy of the function
//! (`enzyme_rs.moves.F`) is made in which the loop moves *origins* instead
//! of values: an integer array `o` (`o[k] = k` at entry) takes every move
//! (`o[dst] = origin(v)`), each load `S[idx]` reads `S[o[idx]]` (`S` is not
//! written inside the loop any more, so that is the value the slot holds),
//! and at the exit one gather `t[k] = S[o[k]]; S[k] = t[k]` applies the
//! permutation. The copy's loop has no adjoint work left; the gather's
//! reverse is the O(n) scatter `dS[o[k]] += dt[k]` after `dS` has been
//! moved into `dt` and cleared (slots overwritten and never copied get 0),
//! and `o` (n x i32, once per region instance) is re-read, the function's
//! own heap block living until the reverse sweep. The copy's pair replaces
//! the trial's. `ENZYME_RS_MOVE_RECORD=0` turns this off; `-Rpass=enzyme`
//! says which loop records its moves, `-Rpass-missed=enzyme` why a costly
//! loop does not.
use super::aug::Aug;
use super::memory::{is_local_object, is_uncaptured};
use super::{get_pair, Key, Pair};
use crate::analysis::activity::underlying_objects;
use crate::diag::{Error, Result};
use crate::ir::attrs::fn_string_attr;
use crate::ir::blocks::set_successor;
use crate::ir::llvm::*;
use crate::ir::shim::{self, debug_location, remark, remark_enabled, RemarkKind};
use crate::ir::values::{add_incoming, erase, incoming, is_volatile, replace_all_uses, undef};
use crate::ir::Builder;
use crate::modes::Session;
use crate::rules::{self, CallKind};
use std::collections::{HashMap, HashSet};

/// Functions this never applies to (the copies it makes).
const NO_MOVES: &str = "enzyme_rs_no_moves";

/// Whether a move record may be tried for `key` at all.
pub fn may_apply(sess: &Session, key: &Key) -> bool {
    sess.opts.move_record
        && key.width == 1
        && fn_string_attr(key.func, NO_MOVES).is_none()
        // Not at -O0: rewriting an optnone clone after mem2reg leaves
        // LLVM 22's debug records in a state its verifier crashes on.
        && !fn_has_attr(key.func, "optnone")
        && !crate::modes::gpu::is_device(sess.module)
}

/// A loop whose moves can be recorded: its blocks, the buffer, the
/// element type, the loads and stores of the buffer, and the values whose
/// origins are needed (the stored ones and what they are made of).
struct Plan {
    header: BB,
    preheader: BB,
    body: HashSet<BB>,
    exit: BB,
    buf: V,
    bytes: V,
    elem: T,
    loads: Vec<V>,
    stores: Vec<V>,
    moved: Vec<V>,
}

/// The trial `a` of `key` (pair `trial`) is done: if one of its loops
/// taping something only moves values within a buffer, build the pair of
/// a copy that records the moves instead and return it.
pub fn try_moves(sess: &mut Session, key: &Key, a: &Aug, trial: &Pair) -> Result<Option<Pair>> {
    if !users(trial.aug).is_empty() || !users(trial.rev).is_empty() {
        return Ok(None);
    }
    let costs = super::rerun::tape_per_outer_iteration(a);
    if costs.iter().all(|(_, c)| *c == 0) {
        return Ok(None);
    }
    let f = key.func;
    let m = sess.module;
    let copy = copy_function(m, f)?;
    let (loops, tops) = super::rerun::outermost_loops(copy);
    let mut plans = Vec::new();
    if tops.len() == costs.len() {
        for (k, h) in tops.iter().enumerate() {
            if costs[k].1 == 0 {
                continue;
            }
            match check(copy, &loops, *h) {
                Ok(p) => plans.push((p, costs[k].1)),
                Err(why) => missed(f, *h, &why),
            }
        }
    }
    drop(loops);
    if plans.is_empty() {
        crate::ir::globals::delete_function(copy);
        return Ok(None);
    }
    let mut places = Vec::new();
    for (p, est) in plans {
        places.push((super::rerun::loop_place(p.header), est));
        rewrite(m, copy, p);
    }
    verify_function(copy).map_err(|e| {
        Error::internal(format!(
            "moves: the copy of '{}' fails the verifier: {e}",
            name(f)
        ))
    })?;
    let ckey = Key {
        func: copy,
        ..key.clone()
    };
    let pair = get_pair(sess, &ckey, None)?;
    for (at, est) in places {
        if remark_enabled(f, RemarkKind::Passed) {
            let msg = format!(
                "reverse mode of '{}': the {at} only moves values within one buffer: its \
                 moves are recorded as one origin per element (i32), and its reverse is one \
                 scatter (the trial taped about {est} bytes per iteration to re-run them)",
                name(f)
            );
            remark(f, None, RemarkKind::Passed, "MoveRecord", &msg);
        }
        log::debug!("moves: {} records the moves of its {at}", name(f));
    }
    Ok(Some(pair))
}

fn missed(f: V, h: BB, why: &str) {
    super::rerun::missed_remark(
        f,
        h,
        "NoMoveRecord",
        |at| format!("the moves of the {at} are not recorded"),
        why,
    );
}

/// A private copy of `f`, locals in registers, loops in simplified form.
fn copy_function(m: LLVMModuleRef, f: V) -> Result<V> {
    super::rerun::private_copy(m, f, "moves", NO_MOVES, "mem2reg,loop-simplify")
}

fn at(i: V) -> String {
    debug_location(i)
        .map(|(file, l)| format!(" at {file}:{l}"))
        .unwrap_or_default()
}

/// Whether loop `h` of `f` is a move region; the reason when not.
fn check(f: V, loops: &shim::Loops, h: BB) -> std::result::Result<Plan, String> {
    let m = module_of(f);
    let (body, exit) = super::rerun::single_exit_body(f, loops, h)?;
    if instructions(exit)
        .into_iter()
        .any(|i| opcode(i) == Some(LLVMOpcode::LLVMPHI))
    {
        return Err("its exit block has phis".into());
    }
    let preheader = loops.preheader(h).ok_or("it has no preheader")?;
    let mut stores = Vec::new();
    let mut accesses = Vec::new();
    for bb in blocks(f).into_iter().filter(|b| body.contains(b)) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMStore) => stores.push(i),
                Some(LLVMOpcode::LLVMLoad) => accesses.push(i),
                Some(LLVMOpcode::LLVMCall) => {
                    if !touches_no_memory(i) {
                        return Err(format!("it has a call{}", at(i)));
                    }
                }
                Some(LLVMOpcode::LLVMAlloca) => {
                    return Err(format!("it has {}", print_value(i).trim()))
                }
                _ => unfollowable(i)?,
            }
        }
    }
    let Some(first) = stores.first() else {
        return Err("it stores nothing".into());
    };
    let objs = underlying_objects(operand(*first, 1));
    let [buf] = objs[..] else {
        return Err(format!("the store{} may write several objects", at(*first)));
    };
    if !is_local_object(buf) || !is_uncaptured(buf) || body.contains(&inst_block(buf)) {
        return Err(format!(
            "it writes memory other than a buffer of the function's own{}",
            at(*first)
        ));
    }
    let bytes = object_bytes(buf).ok_or("the size of the buffer it writes is not known")?;
    let elem = type_of(operand(*first, 0));
    let size = type_alloc_size(m, elem);
    if !is_fp(elem) || size == 0 || !size.is_power_of_two() {
        return Err(format!(
            "the store{} is not of a floating-point value",
            at(*first)
        ));
    }
    if !count_fits_u32(bytes, size) {
        return Err("its buffer may hold 2^32 elements or more (origins are 32-bit)".into());
    }
    for s in &stores {
        if underlying_objects(operand(*s, 1)) != vec![buf] || type_of(operand(*s, 0)) != elem {
            return Err(format!("it writes other memory or other types{}", at(*s)));
        }
        if byte_offset_parts(operand(*s, 1), buf).is_none() || is_volatile(*s) {
            return Err(format!(
                "the address of the store{} is not understood",
                at(*s)
            ));
        }
    }
    let mut loads = Vec::new();
    for l in accesses {
        let objs = underlying_objects(operand(l, 0));
        if !objs.contains(&buf) {
            continue;
        }
        if objs.len() != 1 || type_of(l) != elem || is_volatile(l) {
            return Err(format!(
                "it reads the buffer otherwise than by element{}",
                at(l)
            ));
        }
        if byte_offset_parts(operand(l, 0), buf).is_none() {
            return Err(format!(
                "the address of the load{} is not understood",
                at(l)
            ));
        }
        loads.push(l);
    }
    // The values whose origins are needed: loads of the buffer in the
    // loop, or phis/selects of them in the loop.
    let mut moved = Vec::new();
    let mut seen = HashSet::new();
    let mut work: Vec<(V, V)> = stores.iter().map(|s| (operand(*s, 0), *s)).collect();
    while let Some((v, st)) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if !is_instruction(v) || !body.contains(&inst_block(v)) {
            return Err(format!(
                "the value stored{} does not come from the buffer inside the loop",
                at(st)
            ));
        }
        match opcode(v) {
            Some(LLVMOpcode::LLVMLoad) if loads.contains(&v) => {}
            Some(LLVMOpcode::LLVMPHI) => {
                moved.push(v);
                work.extend(incoming(v).into_iter().map(|(x, _)| (x, st)));
            }
            Some(LLVMOpcode::LLVMSelect) => {
                moved.push(v);
                work.push((operand(v, 1), st));
                work.push((operand(v, 2), st));
            }
            _ => {
                return Err(format!(
                    "the value stored{} is computed, not moved ({})",
                    at(st),
                    print_value(v).trim()
                ))
            }
        }
    }
    Ok(Plan {
        header: h,
        preheader,
        body,
        exit,
        buf,
        bytes,
        elem,
        loads,
        stores,
        moved,
    })
}

/// Whether a buffer of `bytes` bytes provably holds fewer than 2^32
/// elements of `size` bytes (origins are unsigned 32-bit): a constant, or
/// an integer of at most 32 bits widened, times at most `size`.
fn count_fits_u32(bytes: V, size: u64) -> bool {
    if let Some(c) = const_int_value(bytes) {
        return c >= 0 && (c as u64) / size < (1u64 << 32);
    }
    let narrow = |v: V| {
        matches!(opcode(v), Some(LLVMOpcode::LLVMZExt | LLVMOpcode::LLVMSExt))
            && crate::ir::types::int_width(type_of(operand(v, 0))) <= 32
    };
    if narrow(bytes) {
        return true;
    }
    let scale = match opcode(bytes) {
        Some(LLVMOpcode::LLVMMul) => [(0, 1), (1, 0)]
            .into_iter()
            .find_map(|(c, x)| Some((const_int_value(operand(bytes, c))?, operand(bytes, x)))),
        Some(LLVMOpcode::LLVMShl) => const_int_value(operand(bytes, 1))
            .filter(|k| (0..63).contains(k))
            .map(|k| (1i64 << k, operand(bytes, 0))),
        _ => None,
    };
    matches!(scale, Some((c, x)) if c > 0 && (c as u64) <= size && narrow(x))
}

/// Bytes of local object `o`, when known.
fn object_bytes(o: V) -> Option<V> {
    let m = module_of(inst_fn(o));
    let ctx = module_context(m);
    if opcode(o) == Some(LLVMOpcode::LLVMAlloca) {
        let n = const_int_value(operand(o, 0))?;
        let bytes = type_alloc_size(m, allocated_type(o)) * n.max(0) as u64;
        return Some(const_i64(ctx, bytes as i64));
    }
    match rules::classify(o) {
        CallKind::Alloc(rules::AllocKind::Malloc { size_arg }) => {
            let s = call_args(o).get(size_arg as usize).copied()?;
            is_int(type_of(s)).then_some(s)
        }
        _ => None,
    }
}

/// Address `p` as `buf` plus a sum of `index * scale` terms (single-index
/// GEPs down to `buf`).
fn byte_offset_parts(p: V, buf: V) -> Option<Vec<(V, u64)>> {
    if p == buf {
        return Some(Vec::new());
    }
    if opcode(p) != Some(LLVMOpcode::LLVMGetElementPtr) || num_operands(p) < 2 {
        return None;
    }
    let m = module_of(inst_fn(p));
    let mut t = crate::ir::values::gep_source_type(p);
    let mut parts = byte_offset_parts(operand(p, 0), buf)?;
    parts.push((operand(p, 1), type_alloc_size(m, t)));
    // Further indices step into arrays only (`[N x double]` locals at -O0).
    for k in 2..num_operands(p) {
        if !is_array(t) {
            return None;
        }
        t = elem_type(t);
        parts.push((operand(p, k), type_alloc_size(m, t)));
    }
    Some(parts)
}

/// The element index of address `p` into `buf` (elements of `size`
/// bytes), as i64, built at the builder's position.
fn elem_index(b: &Builder, p: V, buf: V, size: u64) -> V {
    let i64t = i64_type(b.ctx);
    let mut sum = const_i64(b.ctx, 0);
    for (idx, scale) in byte_offset_parts(p, buf).expect("checked") {
        let x = b.int_cast(idx, i64t, true);
        let term = b.mul(x, const_i64(b.ctx, scale as i64));
        sum = b.add(sum, term);
    }
    b.udiv(sum, const_i64(b.ctx, size as i64))
}

/// `for k in 0..n { body(k) }` (n: i64, maybe 0) from the builder's block,
/// which must have no terminator yet; the builder ends at the end of the
/// (new, empty) block after the loop.
fn index_loop(b: &Builder, f: V, tag: &str, n: V, body: impl FnOnce(&Builder, V)) {
    let from = b.block();
    let head = crate::ir::globals::append_block(f, &format!("moves.{tag}"));
    let done = crate::ir::globals::append_block(f, &format!("moves.{tag}.done"));
    let zero = const_i64(b.ctx, 0);
    let any = b.icmp(LLVMIntPredicate::LLVMIntSGT, n, zero);
    b.cond_br(any, head, done);
    b.at_end(head);
    let k = b.phi(i64_type(b.ctx));
    body(b, k);
    let next = b.add(k, const_i64(b.ctx, 1));
    let more = b.icmp(LLVMIntPredicate::LLVMIntSLT, next, n);
    let latch = b.block();
    b.cond_br(more, head, done);
    add_incoming(k, &[(zero, from), (next, latch)]);
    b.at_end(done);
}

/// Rebuild the phis of `bb` with incoming block `from` renamed `to`.
fn retarget_phis(b: &Builder, bb: BB, from: BB, to: BB) {
    for phi in instructions(bb)
        .into_iter()
        .filter(|i| opcode(*i) == Some(LLVMOpcode::LLVMPHI))
    {
        b.before(phi);
        let n = b.phi(type_of(phi));
        let ins: Vec<(V, BB)> = incoming(phi)
            .into_iter()
            .map(|(v, x)| (v, if x == from { to } else { x }))
            .collect();
        add_incoming(n, &ins);
        replace_all_uses(phi, n);
        erase(phi);
    }
}

/// Make loop `p` of `f` move origins, and apply them at its exit.
fn rewrite(m: LLVMModuleRef, f: V, p: Plan) {
    let b = Builder::new(m);
    let ctx = module_context(m);
    let (i32t, i64t) = (i32_type(ctx), i64_type(ctx));
    let size = type_alloc_size(m, p.elem);
    // Before the loop: o[k] = k.
    let term = terminator(p.preheader);
    let header_loc = instructions(p.header)
        .into_iter()
        .find(|i| debug_location(*i).is_some());
    if let Some(at) = header_loc {
        b.set_debug_loc_from(at);
    }
    // The preheader's branch is kept (erasing a terminator would strand
    // the debug records before it): it leads to the new code instead.
    let entry = crate::ir::globals::append_block(f, "moves.init.entry");
    for (k, s) in successors(p.preheader).into_iter().enumerate() {
        if s == p.header {
            set_successor(term, k as u32, entry);
        }
    }
    b.at_end(entry);
    let bytes = b.int_cast(p.bytes, i64t, false);
    let n = b.udiv(bytes, const_i64(ctx, size as i64));
    let o = b.malloc(b.mul(n, const_i64(ctx, 4)));
    index_loop(&b, f, "init", n, |b, k| {
        let slot = b.gep(i32t, o, &mut [k]);
        b.store(b.int_cast(k, i32t, false), slot);
    });
    let init_done = b.block();
    b.br(p.header);
    retarget_phis(&b, p.header, p.preheader, init_done);
    // Loads read the slot's origin, then the value at the origin.
    let mut origin: HashMap<V, V> = HashMap::new();
    for l in &p.loads {
        b.before(*l);
        b.set_debug_loc_from(*l);
        let k = elem_index(&b, operand(*l, 0), p.buf, size);
        let ov = b.load(i32t, b.gep(i32t, o, &mut [k]));
        let src = b.gep(p.elem, p.buf, &mut [b.int_cast(ov, i64t, false)]);
        let v = b.load(p.elem, src);
        crate::ir::values::copy_alignment(*l, v);
        replace_all_uses(*l, v);
        erase(*l);
        origin.insert(v, ov);
    }
    // Phis and selects of moved values carry origins too.
    let moved: Vec<V> = p.moved.clone();
    for v in &moved {
        b.before(*v);
        let ov = if opcode(*v) == Some(LLVMOpcode::LLVMPHI) {
            b.phi(i32t)
        } else {
            // Operands are filled below, once every origin exists.
            b.select(operand(*v, 0), undef(i32t), undef(i32t))
        };
        origin.insert(*v, ov);
    }
    for v in &moved {
        let ov = origin[v];
        if opcode(*v) == Some(LLVMOpcode::LLVMPHI) {
            let ins: Vec<(V, BB)> = incoming(*v)
                .into_iter()
                .map(|(x, bb)| (origin[&x], bb))
                .collect();
            add_incoming(ov, &ins);
        } else {
            crate::ir::values::set_operand(ov, 1, origin[&operand(*v, 1)]);
            crate::ir::values::set_operand(ov, 2, origin[&operand(*v, 2)]);
        }
    }
    // Stores move origins.
    for s in &p.stores {
        b.before(*s);
        b.set_debug_loc_from(*s);
        let k = elem_index(&b, operand(*s, 1), p.buf, size);
        b.store(origin[&operand(*s, 0)], b.gep(i32t, o, &mut [k]));
        erase(*s);
    }
    // Moved phis/selects used only by each other are dead now.
    let set: HashSet<V> = moved.iter().copied().collect();
    let dead: Vec<V> = moved
        .iter()
        .copied()
        .filter(|v| users(*v).iter().all(|u| set.contains(u)))
        .collect();
    let all_dead = dead.len() == moved.len();
    if all_dead {
        for v in &dead {
            replace_all_uses(*v, undef(type_of(*v)));
        }
        for v in dead {
            erase(v);
        }
    }
    // At the exit: t[k] = S[o[k]]; S[k] = t[k]; free both.
    let apply = crate::ir::globals::append_block(f, "moves.apply");
    for bb in blocks(f).into_iter().filter(|x| p.body.contains(x)) {
        let t = terminator(bb);
        for (k, s) in successors(bb).into_iter().enumerate() {
            if s == p.exit {
                set_successor(t, k as u32, apply);
            }
        }
    }
    b.at_end(apply);
    if let Some(at) = header_loc {
        b.set_debug_loc_from(at);
    }
    let t = b.malloc(bytes);
    index_loop(&b, f, "gather", n, |b, k| {
        let ov = b.load(i32t, b.gep(i32t, o, &mut [k]));
        let v = b.load(
            p.elem,
            b.gep(p.elem, p.buf, &mut [b.int_cast(ov, i64t, false)]),
        );
        b.store(v, b.gep(p.elem, t, &mut [k]));
    });
    index_loop(&b, f, "put", n, |b, k| {
        let v = b.load(p.elem, b.gep(p.elem, t, &mut [k]));
        b.store(v, b.gep(p.elem, p.buf, &mut [k]));
    });
    b.free(t);
    b.free(o);
    b.br(p.exit);
    b.clear_debug_loc();
}

/// Whether call `i` neither reads nor writes memory: a scalar rule of
/// values (no pointer arguments), a debug or lifetime marker, or a pure
/// intrinsic. The record rewrites (this one and `pickrec`) allow only
/// these calls in the loops they rewrite.
pub(super) fn touches_no_memory(i: V) -> bool {
    match rules::classify(i) {
        CallKind::Rule(r) => r.is_pure() && !call_args(i).iter().any(|a| is_ptr(type_of(*a))),
        _ => called_function(i).is_some_and(|c| {
            let n = name(c);
            n.starts_with("llvm.dbg.")
                || n.starts_with("llvm.lifetime.")
                || crate::ir::loopgen::is_pure_intrinsic(i)
        }),
    }
}

/// Instructions none of the loop rewrites (this one, `pickrec`, `rerun`)
/// can follow: atomics, fences, invokes, `va_arg`, `callbr`. The error
/// names the instruction.
pub(super) fn unfollowable(i: V) -> std::result::Result<(), String> {
    match opcode(i) {
        Some(
            LLVMOpcode::LLVMAtomicRMW
            | LLVMOpcode::LLVMAtomicCmpXchg
            | LLVMOpcode::LLVMFence
            | LLVMOpcode::LLVMInvoke
            | LLVMOpcode::LLVMVAArg
            | LLVMOpcode::LLVMCallBr,
        ) => Err(format!("it has {}", print_value(i).trim())),
        _ => Ok(()),
    }
}
