//! Gather form of scatter-accumulating loops (issue 13).
//!
//! The reverse of a stencil `b[i] = f(a[i-1], a[i], a[i+1])` accumulates
//! into one shadow at several constant offsets of the induction variable:
//! per iteration `da[i+k] += v_k(i)`. Each element is then updated by
//! several iterations (a memory dependence at distance 1), which no
//! vectorizer takes. After the derivative's cleanup, for a counted loop of
//! one body block whose only accesses to one base `P` are such
//! accumulations (`store (fadd (load P[iv+k]), v), P[iv+k]`), this module
//! versions the loop: when run-time checks pass, the loop becomes
//!
//! 1. a *gather* over the output index `j`: `acc = P[j]; acc += v_k(j-k)`
//!    for each accumulation in the order the original applied them (the
//!    contributions `v_k` recomputed at `iv = j - k`: same operations, same
//!    sums, exact); the interior `j` range unguarded, the `2*(kmax-kmin)`
//!    edge points guarded (an absent contribution adds `-0.0`);
//! 2. the rest of the original loop (its other stores), the accumulations
//!    removed.
//!
//! Otherwise the original loop runs. The checks: the trip count is sane
//! and above the stencil's span; `P`'s accessed range is disjoint from
//! every other access of the loop (all affine in the induction variable or
//! invariant); every load the contributions read sees the loop's entry
//! value (disjoint from the loop's other stores, or the same address stored
//! later in the same iteration). Calls other than pure intrinsics, other
//! phis, values used after the loop, non-constant offsets: not applied.
//! `ENZYME_RS_NO_GATHER` turns it off.
use crate::ir::llvm::*;
use crate::ir::loopgen::{addr, clone_mapped, counted_loop, delete_dead, is_pure_intrinsic};
use crate::ir::Builder;
use std::collections::HashMap;

/// At most this many accumulations and this span of offsets.
const MAX_PAIRS: usize = 8;
const MAX_SPAN: i64 = 8;
/// At most this many run-time range checks per loop.
const MAX_CHECKS: usize = 32;

/// A counted loop: a body block `head` (with the exit test) and a latch
/// that is `head` itself or only steps the induction variable.
struct Loop {
    pre: BB,
    head: BB,
    latch: BB,
    exit: BB,
    iv: V,
    next: V,
    step: i64,
    start: V,
    /// The exit test compares `iv` (true) or `next` (false) with `end`.
    on_iv: bool,
    end: V,
    /// Other phis of `head`: `(phi, value on entry, value from the latch)`
    /// (an adjoint carried to the next iteration in a register).
    recs: Vec<(V, V, V)>,
}

impl Loop {
    fn defines(&self, v: V) -> bool {
        is_instruction(v) && (inst_block(v) == self.head || inst_block(v) == self.latch)
    }
}

/// The variable an index follows: the induction variable, or `x - iv`
/// (`sub`: that instruction, `x` invariant; a loop counting the other way).
#[derive(Clone, Copy, PartialEq)]
enum Var {
    Iv,
    Rev { sub: V, x: V },
}

/// Where an access goes: `base + (var + off) * sizeof(elem)`, or a fixed
/// address. `wrap32: Some(o)`: the index is `(var + o) mod 2^32` (a C
/// `int` index widened), equal to `var + o` when that stays in
/// `[0, 2^32)` over the loop: a run-time condition.
#[derive(Clone, Copy, PartialEq)]
enum Addr {
    Affine {
        base: V,
        elem: T,
        var: Var,
        off: i64,
        wrap32: Option<i64>,
    },
    Invariant(V),
}

/// One memory access of the loop body.
#[derive(Clone, Copy)]
struct Access {
    inst: V,
    addr: Addr,
    ty: T,
    store: bool,
}

/// One accumulation `store (fadd (load P[iv+off]), value), P[iv+off]`.
struct Pair {
    load: V,
    add: V,
    store: V,
    off: i64,
    value: V,
    /// The load is the fadd's first operand.
    load_first: bool,
    /// `fsub (load), value` rather than an fadd.
    sub: bool,
    /// Position in the body (the order of accumulations within an iteration).
    pos: usize,
}

/// Apply the transform to every eligible loop of `f`; returns how many.
pub fn run(f: V) -> usize {
    if crate::options::switches::no_gather() {
        return 0;
    }
    let mut n = 0;
    for bb in blocks(f) {
        let Some(lp) = find_loop(bb) else { continue };
        if let Some(plan) = plan(&lp) {
            log::debug!(
                "enzyme-rs: gather form for a loop in {}: {} accumulations, offsets {}..{}, {} carried value(s), {} run-time check(s)",
                name(f),
                plan.pairs.len(),
                plan.kmin,
                plan.kmax,
                lp.recs.len(),
                plan.checks.len()
            );
            emit(f, &lp, &plan);
            n += 1;
        }
    }
    n
}

fn is_i64(v: V) -> bool {
    type_of(v) == i64_type(context_of(type_of(v)))
}

/// `add x, c` (either order) with a constant `c`.
fn add_const(v: V) -> Option<(V, i64)> {
    if opcode(v) != Some(LLVMOpcode::LLVMAdd) {
        return None;
    }
    let (a, b) = (operand(v, 0), operand(v, 1));
    if let Some(c) = const_int_value(b) {
        return Some((a, c));
    }
    const_int_value(a).map(|c| (b, c))
}

fn find_loop(head: BB) -> Option<Loop> {
    let insts = instructions(head);
    let phis: Vec<V> = insts
        .iter()
        .copied()
        .filter(|i| opcode(*i) == Some(LLVMOpcode::LLVMPHI))
        .collect();
    // The induction variable: `phi [start, pre], [iv +- 1, latch]`.
    let as_iv = |iv: V| {
        let inc = incoming(iv);
        if !is_i64(iv) || inc.len() != 2 {
            return None;
        }
        let (mut pre, mut start, mut latch, mut next, mut step) = (None, None, None, None, 0);
        for (v, b) in inc {
            match add_const(v) {
                Some((x, c)) if x == iv && (c == 1 || c == -1) && next.is_none() => {
                    next = Some(v);
                    latch = Some(b);
                    step = c;
                }
                _ => {
                    pre = Some(b);
                    start = Some(v);
                }
            }
        }
        Some((iv, pre?, start?, latch?, next?, step))
    };
    let (iv, pre, start, latch, next, step) = phis.iter().find_map(|p| as_iv(*p))?;
    if pre == head || pre == latch || successors(pre) != vec![head] {
        return None;
    }
    let mut recs = Vec::new();
    for &p in phis.iter().filter(|p| **p != iv) {
        let inc = incoming(p);
        let init = inc.iter().find(|(_, b)| *b == pre)?.0;
        let back = inc.iter().find(|(_, b)| *b == latch)?.0;
        if inc.len() != 2 || (latch != head && is_instruction(back) && inst_block(back) == latch) {
            return None;
        }
        recs.push((p, init, back));
    }
    if latch != head {
        // The latch only steps: `next = iv + step; br head`.
        let li = instructions(latch);
        if li.len() != 2 || li[0] != next || successors(latch) != vec![head] {
            return None;
        }
    } else if inst_block(next) != head {
        return None;
    }
    let t = terminator(head);
    let succ = successors(head);
    if succ.len() != 2 || num_operands(t) != 3 {
        return None;
    }
    let cond = operand(t, 0);
    if opcode(cond) != Some(LLVMOpcode::LLVMICmp) || inst_block(cond) != head {
        return None;
    }
    let pred = icmp_predicate(cond);
    let exit_on_true = match pred {
        LLVMIntPredicate::LLVMIntEQ => true,
        LLVMIntPredicate::LLVMIntNE => false,
        _ => return None,
    };
    let (exit, stay) = if exit_on_true {
        (succ[0], succ[1])
    } else {
        (succ[1], succ[0])
    };
    if stay != latch || exit == head || exit == latch {
        return None;
    }
    let (x, y) = (operand(cond, 0), operand(cond, 1));
    let lp0 = |on_iv, end| Loop {
        pre,
        head,
        latch,
        exit,
        iv,
        next,
        step,
        start,
        on_iv,
        end,
        recs: recs.clone(),
    };
    let tmp = lp0(true, y);
    let (on_iv, end) = if x == iv && !tmp.defines(y) {
        (true, y)
    } else if y == iv && !tmp.defines(x) {
        (true, x)
    } else if x == next && !tmp.defines(y) {
        (false, y)
    } else if y == next && !tmp.defines(x) {
        (false, x)
    } else {
        return None;
    };
    Some(lp0(on_iv, end))
}

fn decode(p: V, lp: &Loop) -> Option<Addr> {
    if !lp.defines(p) {
        return Some(Addr::Invariant(p));
    }
    if opcode(p) != Some(LLVMOpcode::LLVMGetElementPtr) || num_operands(p) != 2 {
        return None;
    }
    let base = operand(p, 0);
    if lp.defines(base) {
        // `gep i8, q, C` on an affine `q` (LLVM 22 splits `p[i + k]` so):
        // whole elements further.
        let bytes = const_int_value(operand(p, 1))?;
        let m = module_of(block_fn(lp.head));
        let bytes = bytes.checked_mul(type_alloc_size(m, gep_source_type(p)) as i64)?;
        return match decode(base, lp)? {
            Addr::Affine {
                base,
                elem,
                var,
                off,
                wrap32,
            } => {
                let esz = type_alloc_size(m, elem) as i64;
                if esz == 0 || bytes % esz != 0 {
                    return None;
                }
                Some(Addr::Affine {
                    base,
                    elem,
                    var,
                    off: off.checked_add(bytes / esz)?,
                    wrap32,
                })
            }
            Addr::Invariant(_) => None,
        };
    }
    let idx = operand(p, 1);
    // `and (var + c), 0xffffffff`: the 32-bit wrapping index.
    let mask = |v: V| const_int_value(v) == Some(0xffff_ffff);
    let (idx, wrap) = if opcode(idx) == Some(LLVMOpcode::LLVMAnd) && mask(operand(idx, 1)) {
        (operand(idx, 0), true)
    } else if opcode(idx) == Some(LLVMOpcode::LLVMAnd) && mask(operand(idx, 0)) {
        (operand(idx, 1), true)
    } else {
        (idx, false)
    };
    let (x, c) = add_const(idx).unwrap_or((idx, 0));
    let c = if wrap { i64::from(c as i32) } else { c };
    let (var, off) = if x == lp.iv {
        (Var::Iv, c)
    } else if x == lp.next {
        (Var::Iv, c.checked_add(lp.step)?)
    } else if opcode(x) == Some(LLVMOpcode::LLVMSub)
        && operand(x, 1) == lp.iv
        && !lp.defines(operand(x, 0))
    {
        (
            Var::Rev {
                sub: x,
                x: operand(x, 0),
            },
            c,
        )
    } else {
        return None;
    };
    Some(Addr::Affine {
        base,
        elem: gep_source_type(p),
        var,
        off,
        wrap32: wrap.then_some(off),
    })
}

/// What the transform needs, once the loop qualifies.
struct Plan {
    base: V,
    elem: T,
    var: Var,
    pairs: Vec<Pair>,
    kmin: i64,
    kmax: i64,
    /// The address operand of a pair store (its inbounds flag is copied).
    sample_gep: V,
    /// `(var, o)`: `var + o` must stay in `[0, 2^32)` (32-bit indices).
    conds: Vec<(Var, i64)>,
    /// Pairs of accesses whose ranges must not overlap (the first one
    /// `None`: `P`'s accumulated range).
    checks: Vec<(Option<Access>, Access)>,
}

fn plan(lp: &Loop) -> Option<Plan> {
    let body: Vec<V> = instructions(lp.head)
        .into_iter()
        .filter(|i| {
            opcode(*i) != Some(LLVMOpcode::LLVMPHI)
                && *i != terminator(lp.head)
                && !is_debug_intrinsic(*i)
        })
        .collect();
    let in_loop =
        |u: V| is_instruction(u) && (inst_block(u) == lp.head || inst_block(u) == lp.latch);
    // A value of the loop used after it: only through an exit that the
    // loop alone enters (the copy's value then joins it in a phi there).
    let exit_preds = blocks(block_fn(lp.head))
        .into_iter()
        .filter(|bb| successors(*bb).contains(&lp.exit))
        .count();
    let recs = lp.recs.iter().map(|r| r.0);
    for i in body.iter().copied().chain([lp.iv, lp.next]).chain(recs) {
        if exit_preds != 1 && !users(i).into_iter().all(in_loop) {
            return None;
        }
    }
    let mut accesses = Vec::new();
    for &i in &body {
        use LLVMOpcode::*;
        match opcode(i)? {
            LLVMLoad | LLVMStore => {
                if is_volatile(i) || !is_not_atomic(i) {
                    return None;
                }
                let store = opcode(i) == Some(LLVMStore);
                let (p, ty) = if store {
                    (operand(i, 1), type_of(operand(i, 0)))
                } else {
                    (operand(i, 0), type_of(i))
                };
                accesses.push(Access {
                    inst: i,
                    addr: decode(p, lp)?,
                    ty,
                    store,
                });
            }
            LLVMCall if is_pure_intrinsic(i) => {}
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMAdd | LLVMSub
            | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMTrunc
            | LLVMZExt | LLVMSExt | LLVMFPTrunc | LLVMFPExt | LLVMFPToSI | LLVMFPToUI
            | LLVMSIToFP | LLVMUIToFP | LLVMBitCast | LLVMICmp | LLVMFCmp | LLVMSelect
            | LLVMGetElementPtr | LLVMFreeze | LLVMExtractElement | LLVMInsertElement
            | LLVMShuffleVector | LLVMExtractValue | LLVMInsertValue => {}
            _ => return None,
        }
    }
    let pos = |i: V| body.iter().position(|x| *x == i).unwrap_or(usize::MAX);
    // Candidate accumulations, grouped by base.
    let mut by_base: Vec<(V, T, Var, Vec<Pair>)> = Vec::new();
    for a in accesses.iter().filter(|a| a.store) {
        let Addr::Affine {
            base,
            elem,
            var,
            off,
            ..
        } = a.addr
        else {
            continue;
        };
        let add = operand(a.inst, 0);
        let sub = opcode(add) == Some(LLVMOpcode::LLVMFSub);
        if !(sub || opcode(add) == Some(LLVMOpcode::LLVMFAdd))
            || !in_loop(add)
            || users(add).len() != 1
        {
            continue;
        }
        let (x, y) = (operand(add, 0), operand(add, 1));
        let is_acc_load = |l: V| {
            opcode(l) == Some(LLVMOpcode::LLVMLoad)
                && inst_block(l) == lp.head
                && users(l).len() == 1
                && accesses
                    .iter()
                    .any(|b| b.inst == l && b.addr == a.addr && !b.store)
        };
        let (load, value, load_first) = if is_acc_load(x) {
            (x, y, true)
        } else if is_acc_load(y) && !sub {
            (y, x, false)
        } else {
            continue;
        };
        if elem != a.ty || !is_fp_scalar(elem) || pos(load) > pos(a.inst) {
            continue;
        }
        let pair = Pair {
            load,
            add,
            store: a.inst,
            off,
            value,
            load_first,
            sub,
            pos: pos(a.inst),
        };
        match by_base
            .iter_mut()
            .find(|(b, e, w, _)| *b == base && *e == elem && *w == var)
        {
            Some((_, _, _, v)) => v.push(pair),
            None => by_base.push((base, elem, var, vec![pair])),
        }
    }
    let (base, elem, var, mut pairs) = by_base
        .into_iter()
        .filter(|(_, _, _, v)| {
            let k0 = v[0].off;
            v.len() <= MAX_PAIRS && v.iter().any(|p| p.off != k0)
        })
        .max_by_key(|(_, _, _, v)| v.len())?;
    let kmin = pairs.iter().map(|p| p.off).min()?;
    let kmax = pairs.iter().map(|p| p.off).max()?;
    if kmax - kmin > MAX_SPAN || kmin.abs() > 1 << 20 || kmax.abs() > 1 << 20 {
        return None;
    }
    let paired = |i: V| pairs.iter().any(|p| p.load == i || p.store == i);
    let others: Vec<Access> = accesses
        .iter()
        .copied()
        .filter(|a| !paired(a.inst))
        .collect();
    // Nothing else names the base: no other access through it.
    if others
        .iter()
        .any(|a| matches!(a.addr, Addr::Affine { base: b, .. } if b == base))
    {
        return None;
    }
    // The loads the contributions read (their backward slices in the body).
    let mut slice_loads = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // (`under`: reached through a carried phi's previous value; one level.)
    let mut stack: Vec<(V, bool)> = pairs.iter().map(|p| (p.value, false)).collect();
    while let Some((v, under)) = stack.pop() {
        if v == lp.iv || !lp.defines(v) || !seen.insert((v, under)) {
            continue;
        }
        if inst_block(v) != lp.head || paired(v) || pairs.iter().any(|p| p.add == v) {
            return None;
        }
        if let Some(r) = lp.recs.iter().find(|r| r.0 == v) {
            if under {
                return None;
            }
            stack.push((r.2, true));
            continue;
        }
        if opcode(v) == Some(LLVMOpcode::LLVMLoad) && !slice_loads.contains(&v) {
            slice_loads.push(v);
        }
        stack.extend(operands(v).into_iter().map(|o| (o, under)));
    }
    let mut checks: Vec<(Option<Access>, Access)> = others.iter().map(|a| (None, *a)).collect();
    for &l in &slice_loads {
        let la = *others.iter().find(|a| a.inst == l)?;
        for s in others.iter().filter(|a| a.store) {
            let same_later = operand(s.inst, 1) == operand(l, 0) && pos(l) < pos(s.inst);
            if !same_later {
                checks.push((Some(la), *s));
            }
        }
    }
    if checks.len() > MAX_CHECKS {
        return None;
    }
    // Order of accumulation into one element: by iteration, then by
    // position in the body. Iteration order is the variable ascending for
    // a step of +1 (`x - iv`: -1), so `off` descending; the reverse for -1.
    let wstep = if var == Var::Iv { lp.step } else { -lp.step };
    pairs.sort_by_key(|p| (if wstep > 0 { -p.off } else { p.off }, p.pos));
    let sample_gep = operand(pairs[0].store, 1);
    let mut conds = Vec::new();
    for a in &accesses {
        if let Addr::Affine {
            var,
            wrap32: Some(o),
            ..
        } = a.addr
        {
            if !conds.contains(&(var, o)) {
                conds.push((var, o));
            }
        }
    }
    Some(Plan {
        base,
        elem,
        var,
        conds,
        pairs,
        kmin,
        kmax,
        sample_gep,
        checks,
    })
}

/// The loop's induction range, known in the preheader.
struct Bounds {
    min: V,
    max: V,
}

fn c64(b: &Builder, x: i64) -> V {
    const_i64(b.ctx, x)
}

/// `[lo, hi)` in bytes of an access over the whole induction range.
fn range(b: &Builder, a: &Access, bd: &Bounds) -> (V, V) {
    let m = b.module;
    let size = c64(b, type_store_size(m, a.ty) as i64);
    match a.addr {
        Addr::Invariant(p) => {
            let lo = addr(b, p);
            (lo, b.add(lo, size))
        }
        Addr::Affine {
            base,
            elem,
            var,
            off,
            ..
        } => {
            let e = c64(b, type_alloc_size(m, elem) as i64);
            let p = addr(b, base);
            let (lo, hi) = var_range(b, var, bd);
            let first = b.mul(b.add(lo, c64(b, off)), e);
            let last = b.mul(b.add(hi, c64(b, off)), e);
            (b.add(p, first), b.add(b.add(p, last), size))
        }
    }
}

/// The smallest and largest value of `var` over the induction range.
fn var_range(b: &Builder, var: Var, bd: &Bounds) -> (V, V) {
    match var {
        Var::Iv => (bd.min, bd.max),
        Var::Rev { x, .. } => (b.sub(x, bd.max), b.sub(x, bd.min)),
    }
}

fn disjoint(b: &Builder, x: (V, V), y: (V, V)) -> V {
    let a = b.icmp(LLVMIntPredicate::LLVMIntULE, x.1, y.0);
    let c = b.icmp(LLVMIntPredicate::LLVMIntULE, y.1, x.0);
    b.or(a, c)
}

fn emit(f: V, lp: &Loop, plan: &Plan) {
    let b = Builder::for_function(f);
    let ctx = b.ctx;
    let m = b.module;
    // ---- preheader: bounds and checks ----
    let t = terminator(lp.pre);
    b.before(t);
    b.set_debug_loc_from(t);
    let last = if lp.on_iv {
        lp.end
    } else {
        b.sub(lp.end, c64(&b, lp.step))
    };
    let (min, max) = if lp.step > 0 {
        (lp.start, last)
    } else {
        (last, lp.start)
    };
    let bd = Bounds { min, max };
    let span = plan.kmax - plan.kmin;
    // With a carried value, the point whose contribution reads the first
    // iteration is guarded too (one more edge point on the side where the
    // loop starts), so the interior reads the previous iteration plainly.
    let wstep = if plan.var == Var::Iv {
        lp.step
    } else {
        -lp.step
    };
    let extra = i64::from(!lp.recs.is_empty());
    let (extra_lo, extra_hi) = if wstep > 0 { (extra, 0) } else { (0, extra) };
    let sane = b.icmp(LLVMIntPredicate::LLVMIntSLE, min, max);
    let long = b.icmp(
        LLVMIntPredicate::LLVMIntSGE,
        b.sub(max, min),
        c64(&b, span + extra),
    );
    let mut ok = b.and(sane, long);
    // The gather runs over the variable the accumulations follow.
    let (wmin, wmax) = var_range(&b, plan.var, &bd);
    let esz = type_alloc_size(m, plan.elem) as i64;
    let p = addr(&b, plan.base);
    let prange = (
        b.add(p, b.mul(b.add(wmin, c64(&b, plan.kmin)), c64(&b, esz))),
        b.add(p, b.mul(b.add(wmax, c64(&b, plan.kmax + 1)), c64(&b, esz))),
    );
    for (var, o) in &plan.conds {
        let (lo, hi) = var_range(&b, *var, &bd);
        let lo = b.icmp(
            LLVMIntPredicate::LLVMIntSGE,
            b.add(lo, c64(&b, *o)),
            c64(&b, 0),
        );
        let hi = b.icmp(
            LLVMIntPredicate::LLVMIntSLE,
            b.add(hi, c64(&b, *o)),
            c64(&b, 0xffff_ffff),
        );
        ok = b.and(ok, b.and(lo, hi));
    }
    for (x, y) in &plan.checks {
        let rx = match x {
            None => prange,
            Some(a) => range(&b, a, &bd),
        };
        let ry = range(&b, y, &bd);
        ok = b.and(ok, disjoint(&b, rx, ry));
    }
    erase(t);
    b.at_end(lp.pre);
    let g_entry = append_block(f, "gather.left");
    b.cond_br(ok, g_entry, lp.head);
    // ---- gather over the output index ----
    b.at_end(g_entry);
    b.clear_debug_loc();
    let inbounds = is_instruction(plan.sample_gep)
        && opcode(plan.sample_gep) == Some(LLVMOpcode::LLVMGetElementPtr)
        && is_inbounds(plan.sample_gep);
    let point = |b: &Builder, j: V, guarded: bool| {
        let mut idx = [j];
        let ptr = if inbounds {
            b.inbounds_gep(plan.elem, plan.base, &mut idx)
        } else {
            b.gep(plan.elem, plan.base, &mut idx)
        };
        let mut acc = b.load(plan.elem, ptr);
        copy_alignment(plan.pairs[0].load, acc);
        let mut caches: HashMap<i64, HashMap<V, V>> = HashMap::new();
        for pr in &plan.pairs {
            let wp = b.add(j, c64(b, -pr.off));
            let (at, valid) = if guarded {
                let lo = b.icmp(LLVMIntPredicate::LLVMIntSGE, wp, wmin);
                let hi = b.icmp(LLVMIntPredicate::LLVMIntSLE, wp, wmax);
                let valid = b.and(lo, hi);
                (b.select(valid, wp, wmin), Some(valid))
            } else {
                (wp, None)
            };
            let cache = caches.entry(pr.off).or_insert_with(|| {
                // The induction variable (and `x - iv`) at this point.
                let mut c = HashMap::new();
                match plan.var {
                    Var::Iv => {
                        c.insert(lp.iv, at);
                    }
                    Var::Rev { sub, x } => {
                        c.insert(sub, at);
                        c.insert(lp.iv, b.sub(x, at));
                    }
                }
                c
            });
            let mut v = slice_at(b, pr.value, lp, cache, guarded);
            if let Some(valid) = valid {
                // Adding -0.0 (subtracting +0.0) leaves any value as it is.
                let none = const_real(plan.elem, if pr.sub { 0.0 } else { -0.0 });
                v = b.select(valid, v, none);
            }
            acc = if pr.sub {
                b.fsub(acc, v)
            } else if pr.load_first {
                b.fadd(acc, v)
            } else {
                b.fadd(v, acc)
            };
        }
        let st = b.store(acc, ptr);
        copy_alignment(plan.pairs[0].store, st);
    };
    for d in 0..span + extra_lo {
        let j = b.add(wmin, c64(&b, plan.kmin + d));
        point(&b, j, true);
    }
    let lo = b.add(wmin, c64(&b, plan.kmax + extra_lo));
    let hi = b.add(wmax, c64(&b, plan.kmin - extra_hi));
    counted_loop(&b, f, "gather", lo, hi, |b, j| point(b, j, false));
    for d in 0..span + extra_hi {
        let j = b.add(wmax, c64(&b, plan.kmin - extra_hi + 1 + d));
        point(&b, j, true);
    }
    // ---- the rest of the loop, without the accumulations ----
    let g_end = b.block();
    let rh = append_block(f, "gather.rest");
    b.br(rh);
    let rl = if lp.latch == lp.head {
        rh
    } else {
        append_block(f, "gather.rest.latch")
    };
    b.at_end(rh);
    let iv = b.phi(i64_type(ctx));
    let mut map: HashMap<V, V> = HashMap::new();
    map.insert(lp.iv, iv);
    for (r, _, _) in &lp.recs {
        map.insert(*r, b.phi(type_of(*r)));
    }
    let dropped = |i: V| {
        plan.pairs
            .iter()
            .any(|p| p.load == i || p.add == i || p.store == i)
    };
    let term = terminator(lp.head);
    for i in instructions(lp.head) {
        if opcode(i) == Some(LLVMOpcode::LLVMPHI)
            || i == term
            || is_debug_intrinsic(i)
            || dropped(i)
        {
            continue;
        }
        let c = clone_mapped(&b, i, &map);
        map.insert(i, c);
    }
    let to = |s: BB| {
        if s == lp.head {
            rh
        } else if s == lp.latch {
            rl
        } else {
            s
        }
    };
    let succ = successors(lp.head);
    let cond = map[&operand(term, 0)];
    b.cond_br(cond, to(succ[0]), to(succ[1]));
    if rl != rh {
        b.at_end(rl);
        let n = clone_mapped(&b, lp.next, &map);
        map.insert(lp.next, n);
        b.br(rh);
    }
    add_incoming(iv, &[(lp.start, g_end), (map[&lp.next], rl)]);
    for (r, init, back) in &lp.recs {
        let back = map.get(back).copied().unwrap_or(*back);
        add_incoming(map[r], &[(*init, g_end), (back, rl)]);
    }
    // The exit's phis take the copy's values from the copy.
    let old_phis: Vec<V> = instructions(lp.exit)
        .into_iter()
        .take_while(|i| opcode(*i) == Some(LLVMOpcode::LLVMPHI))
        .collect();
    for phi in &old_phis {
        let from_head: Vec<V> = incoming(*phi)
            .into_iter()
            .filter(|(_, bb)| *bb == lp.head)
            .map(|(v, _)| v)
            .collect();
        if let Some(v) = from_head.first() {
            add_incoming(*phi, &[(map.get(v).copied().unwrap_or(*v), rh)]);
        }
    }
    // Other uses after the loop (the exit has no other predecessor): a phi.
    let in_loop = |u: V| inst_block(u) == lp.head || inst_block(u) == lp.latch;
    let mut defs: Vec<V> = instructions(lp.head);
    if lp.latch != lp.head {
        defs.push(lp.next);
    }
    for d in defs {
        let outside: Vec<V> = users(d)
            .into_iter()
            .filter(|u| !in_loop(*u) && !old_phis.contains(u))
            .collect();
        let Some(copy) = map.get(&d).copied() else {
            continue;
        };
        if outside.is_empty() {
            continue;
        }
        b.at_first_non_phi(lp.exit);
        let phi = b.phi(type_of(d));
        add_incoming(phi, &[(d, lp.head), (copy, rh)]);
        for u in outside {
            for k in 0..num_operands(u) {
                if operand(u, k) == d {
                    set_operand(u, k, phi);
                }
            }
        }
    }
    delete_dead(rh);
}

/// The value `v` of the loop body at the point `cache` is seeded with
/// (the induction variable's value there), its in-body operands copied at
/// the builder's position (memoised in `cache`).
/// `guarded`: the point may be the first iteration (else it never is).
fn slice_at(b: &Builder, v: V, lp: &Loop, cache: &mut HashMap<V, V>, guarded: bool) -> V {
    if let Some(c) = cache.get(&v) {
        return *c;
    }
    if !lp.defines(v) {
        return v;
    }
    if let Some((_, init, back)) = lp.recs.iter().find(|r| r.0 == v) {
        // A carried value: the latch value of the previous iteration, or
        // the entry value in the first (there the copy is computed at the
        // first iteration instead: in range, then discarded).
        let iv = cache[&lp.iv];
        let prev = b.add(iv, const_i64(b.ctx, -lp.step));
        if !guarded {
            let mut c2 = HashMap::from([(lp.iv, prev)]);
            let r = slice_at(b, *back, lp, &mut c2, false);
            cache.insert(v, r);
            return r;
        }
        let first = b.icmp(LLVMIntPredicate::LLVMIntEQ, iv, lp.start);
        let at = b.select(first, iv, prev);
        let mut c2 = HashMap::from([(lp.iv, at)]);
        let vp = slice_at(b, *back, lp, &mut c2, true);
        let r = b.select(first, *init, vp);
        cache.insert(v, r);
        return r;
    }
    let mut map = HashMap::new();
    for o in operands(v) {
        let c = slice_at(b, o, lp, cache, guarded);
        if c != o {
            map.insert(o, c);
        }
    }
    let c = clone_mapped(b, v, &map);
    cache.insert(v, c);
    c
}
