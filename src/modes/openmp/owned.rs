//! Which shared memory one thread owns in a parallel region, so its
//! adjoints need no atomic add.
//!
//! In a region whose worksharing loops are all statically scheduled
//! without chunks over the same iteration space (same bounds), iteration
//! i runs on the same thread in every loop, and each thread runs one
//! contiguous chunk [lb, ub]. When every shared float access of the region
//! is `base[i + k]` (k a constant, i the counter of one of those loops;
//! the region's own frame slots aside) and the distinct bases cannot
//! overlap at an offset (`restrict` pointers, or bases the region writes:
//! overlapping those would race in the primal), element e of any array is touched by
//! iterations e - kmax ..= e - kmin only (kmin, kmax: the smallest and
//! largest k). So e belongs to this thread alone when
//! lb + kmax <= e <= ub + kmin: its adjoint is added plainly there, and
//! atomically near the chunk's ends, where neighbours' accesses meet.
//! With only k = 0 every element is owned. Anything else (other
//! schedules, other bounds, other access shapes, calls receiving shared
//! pointers) leaves every shared adjoint atomic.
use crate::ir::llvm::*;
use crate::ir::Builder;

/// One worksharing loop: its counter, and the values holding this
/// thread's first and last iteration.
#[derive(Clone, Copy)]
pub struct OwnLoop {
    pub counter: V,
    pub lb: V,
    pub ub: V,
}

/// Ownership facts of a region (see the module comment).
pub struct Owned {
    loops: Vec<OwnLoop>,
    kmin: i64,
    kmax: i64,
}

/// How an adjoint into shared element `p` may be added.
pub enum Access {
    /// Always this thread's own.
    Plain,
    /// This thread's own when `lb + lo <= counter` and `counter <= ub - hi`.
    Guarded { l: OwnLoop, lo: i64, hi: i64 },
}

impl Owned {
    pub fn access(&self, p: V) -> Option<Access> {
        let (c, k) = element_index(p)?;
        let l = *self.loops.iter().find(|l| l.counter == c)?;
        if self.kmin == 0 && self.kmax == 0 {
            return Some(Access::Plain);
        }
        Some(Access::Guarded {
            l,
            lo: self.kmax - k,
            hi: k - self.kmin,
        })
    }
}

/// The ownership facts of function `f`, if it qualifies.
pub fn owned_counter(f: V) -> Option<Owned> {
    let mut inits = Vec::new();
    let mut accesses = Vec::new();
    let mut written = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMCall) => {
                    let n = called_function(i).map(name).unwrap_or_default();
                    if n.starts_with("__kmpc_for_static_init")
                        || n.starts_with("__kmpc_dispatch_init")
                        || n.starts_with("__kmpc_distribute")
                    {
                        inits.push(i);
                    } else if !is_harmless_call(i, &n)
                        && call_args(i)
                            .iter()
                            .any(|a| is_ptr(type_of(*a)) && shared(*a))
                    {
                        return None;
                    }
                }
                Some(LLVMOpcode::LLVMLoad) if contains_fp(type_of(i)) => {
                    accesses.push(operand(i, 0))
                }
                Some(LLVMOpcode::LLVMStore) if contains_fp(type_of(operand(i, 0))) => {
                    accesses.push(operand(i, 1));
                    let t = operand(i, 1);
                    if opcode(t) == Some(LLVMOpcode::LLVMGetElementPtr) {
                        written.push(operand(t, 0));
                    }
                }
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    accesses.push(operand(i, 0))
                }
                _ => {}
            }
        }
    }
    if inits.is_empty() {
        return None;
    }
    let loops_info = crate::ir::shim::Loops::new(f);
    let mut loops = Vec::new();
    let mut space: Option<[V; 3]> = None;
    for init in inits {
        let n = called_function(init).map(name).unwrap_or_default();
        if !n.starts_with("__kmpc_for_static_init") || const_int_value(operand(init, 2)) != Some(34)
        {
            return None;
        }
        // (loc, gtid, sched, plast, plb, pub, pstride, incr, chunk)
        let (plb, pub_) = (operand(init, 4), operand(init, 5));
        let s = [
            stored_before(init, plb)?,
            stored_before(init, pub_)?,
            operand(init, 7),
        ];
        match space {
            None => space = Some(s),
            Some(t) => {
                if !(0..3).all(|k| same_value(s[k], t[k], 3)) {
                    return None;
                }
            }
        }
        let counter = counter_phi(f, plb, &loops_info)?;
        let lb = counter_start(counter, plb)?;
        let ub = thread_upper(init, pub_)?;
        loops.push(OwnLoop { counter, lb, ub });
    }
    let (mut kmin, mut kmax) = (0i64, 0i64);
    let mut bases: Vec<V> = Vec::new();
    for p in accesses {
        if !shared(p) || (is_argument(p) && super::slots::is_frame_slot(p)) {
            continue;
        }
        let (c, k, base) = element(p)?;
        if !loops.iter().any(|l| l.counter == c) {
            return None;
        }
        if !is_argument(base) {
            return None;
        }
        if !bases.contains(&base) {
            bases.push(base);
        }
        kmin = kmin.min(k);
        kmax = kmax.max(k);
    }
    // Distinct arrays must not overlap at an offset. Overlapping arrays
    // one of which the region writes would race in the primal already; two
    // only read would not, so at most one read-only base may be a pointer
    // that is not `restrict`.
    let loose_readonly = bases
        .iter()
        .filter(|b| !is_restrict(**b) && !written.contains(*b))
        .count();
    if loose_readonly > 1 {
        return None;
    }
    Some(Owned { loops, kmin, kmax })
}

fn is_restrict(a: V) -> bool {
    let f = crate::ir::values::param_parent(a);
    let k = params(f).iter().position(|p| *p == a).unwrap_or(0) as u32;
    super::slots::is_restrict(a) || crate::ir::globals::param_has_attr(f, k, "noalias")
}

/// The value last stored into `slot` before `init` in its block.
fn stored_before(init: V, slot: V) -> Option<V> {
    let mut found = None;
    for i in instructions(inst_block(init)) {
        if i == init {
            return found;
        }
        if opcode(i) == Some(LLVMOpcode::LLVMStore) && operand(i, 1) == slot {
            found = Some(operand(i, 0));
        }
    }
    None
}

/// This thread's last iteration: stored into `pub_` after `init` in its
/// block (the bound clamped to the loop's), else loaded from it.
fn thread_upper(init: V, pub_: V) -> Option<V> {
    let insts = instructions(inst_block(init));
    let at = insts.iter().position(|i| *i == init)?;
    let mut loaded = None;
    let mut stored = None;
    for i in &insts[at + 1..] {
        match opcode(*i) {
            Some(LLVMOpcode::LLVMStore) if operand(*i, 1) == pub_ => stored = Some(operand(*i, 0)),
            Some(LLVMOpcode::LLVMLoad) if operand(*i, 0) == pub_ && loaded.is_none() => {
                loaded = Some(*i)
            }
            Some(LLVMOpcode::LLVMCall) => break,
            _ => {}
        }
    }
    stored.or(loaded)
}

/// The same value, or the same computation over the same values.
fn same_value(a: V, b: V, depth: u32) -> bool {
    if a == b {
        return true;
    }
    if let (Some(x), Some(y)) = (const_int_value(a), const_int_value(b)) {
        return x == y && type_of(a) == type_of(b);
    }
    if depth == 0 || !is_instruction(a) || !is_instruction(b) {
        return false;
    }
    let pure = matches!(
        opcode(a),
        Some(
            LLVMOpcode::LLVMAdd
                | LLVMOpcode::LLVMSub
                | LLVMOpcode::LLVMMul
                | LLVMOpcode::LLVMSExt
                | LLVMOpcode::LLVMZExt
                | LLVMOpcode::LLVMTrunc
        )
    );
    pure && opcode(a) == opcode(b)
        && num_operands(a) == num_operands(b)
        && (0..num_operands(a)).all(|k| same_value(operand(a, k), operand(b, k), depth - 1))
}

/// `base[i + k]` (one index; k a constant, through integer extensions)
/// -> (i, k).
fn element_index(p: V) -> Option<(V, i64)> {
    element(p).map(|(i, k, _)| (i, k))
}

/// `base[i + k]` -> (i, k, base); also `(i8*)&base[i + k0] + c` with `c`
/// a multiple of the element size (clang-22 writes `x[i + 1]` as a byte
/// offset from `&x[i]`): k = k0 + c / size.
fn element(p: V) -> Option<(V, i64, V)> {
    if opcode(p) != Some(LLVMOpcode::LLVMGetElementPtr) || num_operands(p) != 2 {
        return None;
    }
    let inner = operand(p, 0);
    if opcode(inner) == Some(LLVMOpcode::LLVMGetElementPtr) {
        let bytes = const_int_value(operand(p, 1))?;
        let m = module_of(inst_fn(p));
        if type_store_size(m, crate::ir::values::gep_source_type(p)) != 1 {
            return None;
        }
        let size = type_store_size(m, crate::ir::values::gep_source_type(inner)) as i64;
        let (i, k0, base) = element(inner)?;
        return (size > 0 && bytes % size == 0).then(|| (i, k0 + bytes / size, base));
    }
    let mut idx = strip_ext(operand(p, 1));
    let mut k = 0;
    if opcode(idx) == Some(LLVMOpcode::LLVMAdd) {
        if let Some(c) = const_int_value(operand(idx, 1)) {
            k = c;
            idx = strip_ext(operand(idx, 0));
        }
    }
    Some((idx, k, inner))
}

fn strip_ext(mut v: V) -> V {
    while matches!(opcode(v), Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt)) {
        v = operand(v, 0);
    }
    v
}

/// The loop counter starting at the value loaded from `lower` (the bound
/// static_init wrote) and stepping by one, in a loop nested in no other.
fn counter_phi(f: V, lower: V, loops: &crate::ir::shim::Loops) -> Option<V> {
    for bb in blocks(f) {
        if loops.header(bb) != Some(bb) || loops.depth(bb) != 1 {
            continue;
        }
        for phi in instructions(bb) {
            if opcode(phi) != Some(LLVMOpcode::LLVMPHI) {
                break;
            }
            let ins = operands(phi);
            if ins.len() != 2 {
                continue;
            }
            let starts_at_lower = counter_start(phi, lower).is_some();
            let steps_by_one = ins.iter().any(|v| {
                opcode(*v) == Some(LLVMOpcode::LLVMAdd)
                    && operand(*v, 0) == phi
                    && const_int_value(operand(*v, 1)) == Some(1)
            });
            if starts_at_lower && steps_by_one {
                return Some(phi);
            }
        }
    }
    None
}

/// The incoming value of counter `phi` loaded from `lower`.
fn counter_start(phi: V, lower: V) -> Option<V> {
    operands(phi).into_iter().find(|v| {
        let l = strip_ext(*v);
        opcode(l) == Some(LLVMOpcode::LLVMLoad) && operand(l, 0) == lower
    })
}

/// Memory other threads may see: not this function's own allocations.
fn shared(p: V) -> bool {
    super::needs_atomic(p)
}

/// Calls that cannot add into shared adjoints.
fn is_harmless_call(i: V, n: &str) -> bool {
    n.starts_with("llvm.lifetime.")
        || n.starts_with("llvm.dbg.")
        || crate::rules::openmp::openmp_call(n).is_some()
        || n.starts_with("enzyme_rs.")
        || matches!(
            crate::rules::classify::classify(i),
            crate::rules::classify::CallKind::Inactive | crate::rules::classify::CallKind::Rule(_)
        )
}

/// `*sp += d`: plainly when `own` holds, else atomically (`f`: the
/// function being built; the builder ends in the join block). False when
/// `d`'s type has no atomic add.
pub fn guarded_accumulate(b: &Builder, f: V, own: V, sp: V, d: V) -> bool {
    if !is_fp_scalar(type_of(d)) {
        return false;
    }
    let plain = super::fork::append_block(f, "own.plain");
    let atomic = super::fork::append_block(f, "own.atomic");
    let join = super::fork::append_block(f, "own.join");
    b.cond_br(own, plain, atomic);
    b.at_end(plain);
    let old = b.load(type_of(d), sp);
    let new = b.fadd(old, d);
    b.store(new, sp);
    b.br(join);
    b.at_end(atomic);
    super::atomic_accumulate(b, sp, d);
    b.br(join);
    b.at_end(join);
    true
}

/// `lb + lo <= i && i <= ub - hi` (signed).
pub fn own_condition(b: &Builder, i: V, lb: V, ub: V, lo: i64, hi: i64) -> V {
    let t = type_of(i);
    let lb = b.int_cast(lb, t, true);
    let ub = b.int_cast(ub, t, true);
    let c = |v: i64| crate::ir::consts::const_int(t, v as u64);
    let a = b.icmp(LLVMIntPredicate::LLVMIntSLE, b.add(lb, c(lo)), i);
    let z = b.icmp(LLVMIntPredicate::LLVMIntSLE, i, b.sub(ub, c(hi)));
    b.and(a, z)
}
