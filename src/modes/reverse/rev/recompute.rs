//! Loads the reverse sweep reads again rather than tapes: loads of memory
//! that nothing the function runs after them writes. The function's own
//! later writes are known (`memory::LaterWrites`); what its caller writes
//! before the reverse sweep runs is `Written::persistent`'s; heap blocks
//! the function allocates and frees stay alive until the reverse sweep
//! (their frees are deferred there). The min-cut of `cache.rs` treats such
//! a load as recomputable, and float arithmetic over it is recomputed
//! there within its bound. In a parallel region (OpenMP, GPU) the same
//! rule keeps a load of memory another thread writes later from being
//! replayed: a write by another thread after the load that the code does
//! not order after it would be a race, and one it orders after it (a
//! barrier) appears after the load in the function.
use super::loops::affine_iv;
use super::RevGen;
use crate::analysis::activity::underlying_objects;
use crate::analysis::mincut;
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::modes::reverse::memory;
use crate::rules::{self, AllocKind, CallKind};
use std::collections::HashMap;
use std::rc::Rc;

impl RevGen<'_> {
    /// Whether load `w` can be read again in the reverse sweep: its memory
    /// outlives the augmented sweep and nothing the function (in any
    /// thread) runs after the load writes it.
    pub(super) fn reload_ok(&self, w: V) -> bool {
        let p = operand(w, 0);
        let alive = underlying_objects(p)
            .into_iter()
            .all(|o| self.a.deferred_free.contains(&o) || self.written.persistent_object(o));
        alive
            && self
                .later
                .as_ref()
                .is_some_and(|l| !l.may_write_after(w, p))
    }
}

/// A load of a scratch array the reverse sweep recomputes from the store
/// that wrote the value it read (`RevGen::forwarded`): the stored value
/// with the store loop's induction variable replaced by the load's index.
pub(super) struct Forward {
    /// The store.
    store: V,
    /// The store loop's induction variable, and the load's index (an
    /// induction variable of a loop around the load) that stands for it.
    store_iv: V,
    load_iv: V,
    /// The values computing the stored value that depend on `store_iv`,
    /// operands first.
    nodes: Vec<V>,
    /// The stored value.
    value: V,
    /// What the recomputation takes as it is: values defined outside the
    /// store loop, before it, and `load_iv`.
    pub deps: Vec<V>,
    /// Floating-point work of `nodes` (as `mincut::float_work` counts it).
    pub work: u32,
}

/// At most this many values are redone for one forwarded load.
const MAX_FORWARD_NODES: usize = 24;

/// `gep E, base, idx` with one index: (base, idx, E).
fn one_index_gep(p: V) -> Option<(V, V, T)> {
    (opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr) && num_operands(p) == 2)
        .then(|| (operand(p, 0), operand(p, 1), gep_source_type(p)))
}

/// Memory of this function alone: an alloca or a fresh heap block.
fn is_local_object(o: V) -> bool {
    opcode(o) == Some(LLVMOpcode::LLVMAlloca)
        || (is_call(o)
            && matches!(
                rules::classify(o),
                CallKind::Alloc(AllocKind::Malloc { .. } | AllocKind::Calloc)
            ))
}

/// The blocks of `f` from which `to` can be reached (`to` included).
fn reaching(f: V, to: BB) -> std::collections::HashSet<BB> {
    let mut preds: HashMap<BB, Vec<BB>> = HashMap::new();
    for bb in blocks(f) {
        for s in successors(bb) {
            preds.entry(s).or_default().push(bb);
        }
    }
    let mut seen = std::collections::HashSet::from([to]);
    let mut work = vec![to];
    while let Some(b) = work.pop() {
        for q in preds.get(&b).into_iter().flatten() {
            if seen.insert(*q) {
                work.push(*q);
            }
        }
    }
    seen
}

/// The same loop bound: one value, equal constants, or the same cast of
/// one value.
fn same_bound(a: V, b: V) -> bool {
    use LLVMOpcode::*;
    if a == b {
        return true;
    }
    if let (Some(x), Some(y)) = (const_int_value(a), const_int_value(b)) {
        return x == y && type_of(a) == type_of(b);
    }
    matches!(opcode(a), Some(LLVMZExt | LLVMSExt | LLVMTrunc))
        && opcode(a) == opcode(b)
        && type_of(a) == type_of(b)
        && operand(a, 0) == operand(b, 0)
}

impl RevGen<'_> {
    /// The recomputation of load `w` from the one store that wrote what it
    /// read, when that is sure and cheap; cached per load.
    pub(super) fn forwarded(&self, w: V) -> Option<Rc<Forward>> {
        if let Some(f) = self.forwards.borrow().get(&w) {
            return f.clone();
        }
        let f = self.find_forward(w).map(Rc::new);
        self.forwards.borrow_mut().insert(w, f.clone());
        f
    }

    /// Load `w` reads `base[i]` of memory local to the function that
    /// exactly one store writes: `base[j] = v(j)` in loop LS, j counting
    /// from the same start by one to the same bound as `i` in its loop
    /// around the load. The store's block dominates the load, LS does not
    /// contain it and every loop around LS does, the store runs on every
    /// iteration of LS, and LS leaves only by its count: so the last write
    /// of `base[i]` before the load is that store at j = i, in the same
    /// iteration of the loops around both. Its value is `v` with j := i,
    /// recomputed from values defined before LS.
    fn find_forward(&self, w: V) -> Option<Forward> {
        if opcode(w) != Some(LLVMOpcode::LLVMLoad) || is_volatile(w) || !is_not_atomic(w) {
            return None;
        }
        let p = operand(w, 0);
        let (base, load_iv, elem) = one_index_gep(p)?;
        let objs = underlying_objects(p);
        if objs.len() != 1 || !is_local_object(objs[0]) {
            return None;
        }
        let s = self.only_writer(w, p)?;
        let (sbase, store_iv, selem) = one_index_gep(operand(s, 1))?;
        if sbase != base
            || selem != elem
            || type_of(operand(s, 0)) != type_of(w)
            || type_of(store_iv) != type_of(load_iv)
        {
            return None;
        }
        let loops = &self.a.loops;
        let (lb, sb) = (inst_block(w), inst_block(s));
        let ls = loops.header(sb)?;
        let phi = |v: V| is_instruction(v) && opcode(v) == Some(LLVMOpcode::LLVMPHI);
        if !phi(load_iv) || !phi(store_iv) {
            return None;
        }
        let l2 = loops.header(inst_block(load_iv))?;
        let ok = inst_block(store_iv) == ls
            && inst_block(load_iv) == l2
            && !loops.contains(ls, lb)
            && !loops.contains(l2, sb)
            && loops.contains(l2, lb)
            && loops
                .parent_header(ls)
                .is_none_or(|h| loops.contains(h, lb))
            && loops.block_dominates(sb, lb);
        if !ok {
            return None;
        }
        let (s_start, s_bound) = self.unit_iv(store_iv, ls, Some(sb))?;
        let (l_start, l_bound) = self.unit_iv(load_iv, l2, None)?;
        let invariant = |v: V| {
            !is_instruction(v)
                || !(loops.contains(ls, inst_block(v)) || loops.contains(l2, inst_block(v)))
        };
        if s_start != l_start || !same_bound(s_bound, l_bound) || !invariant(s_bound) {
            return None;
        }
        self.stored_value(s, store_iv, load_iv, ls, w)
    }

    /// The one store that may write the memory `w` reads at `p` (frees of
    /// it aside), if there is exactly one. Writers in blocks from which
    /// `w` cannot be reached do not count: what they write is never what
    /// `w` reads (a scratch array cleared or refilled after its last
    /// reader).
    fn only_writer(&self, w: V, p: V) -> Option<V> {
        let before = reaching(self.a.func, inst_block(w));
        let mut found = None;
        for bb in blocks(self.a.func) {
            if !before.contains(&bb) {
                continue;
            }
            for i in instructions(bb) {
                if i == w || !memory::may_write_through(i, p) {
                    continue;
                }
                if is_call(i) && matches!(rules::classify(i), CallKind::Alloc(AllocKind::Free)) {
                    continue;
                }
                let simple =
                    opcode(i) == Some(LLVMOpcode::LLVMStore) && !is_volatile(i) && is_not_atomic(i);
                if !simple || found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }

    /// Induction variable `phi` of the counted loop at `header`: starts at
    /// a constant, steps by one, and the loop leaves from one block, when
    /// its next value equals a bound. Returns (start, bound). `every`: a
    /// block that must run on every iteration.
    fn unit_iv(&self, phi: V, header: BB, every: Option<BB>) -> Option<(i64, V)> {
        let c = *self.a.counted.get(&header)?;
        let (start, step) = affine_iv(phi, c)?;
        if const_int_value(step) != Some(1) {
            return None;
        }
        let start = const_int_value(start)?;
        let next = incoming(phi).into_iter().find(|(_, b)| *b == c.latch)?.0;
        let loops = &self.a.loops;
        let exiting: Vec<BB> = blocks(self.a.func)
            .into_iter()
            .filter(|b| {
                loops.contains(header, *b)
                    && successors(*b).iter().any(|s| !loops.contains(header, *s))
            })
            .collect();
        let [e] = exiting[..] else { return None };
        if every.is_some_and(|b| !loops.block_dominates(b, e)) {
            return None;
        }
        let t = terminator(e);
        let succ = successors(e);
        if opcode(t) != Some(LLVMOpcode::LLVMBr) || succ.len() != 2 {
            return None;
        }
        let cond = operand(t, 0);
        if opcode(cond) != Some(LLVMOpcode::LLVMICmp) {
            return None;
        }
        // The successor taken when next == bound must leave the loop.
        let leave_on = match icmp_predicate(cond) {
            LLVMIntPredicate::LLVMIntEQ => 0,
            LLVMIntPredicate::LLVMIntNE => 1,
            _ => return None,
        };
        if loops.contains(header, succ[leave_on]) || !loops.contains(header, succ[1 - leave_on]) {
            return None;
        }
        let (a, b) = (operand(cond, 0), operand(cond, 1));
        let bound = if a == next {
            b
        } else if b == next {
            a
        } else {
            return None;
        };
        Some((start, bound))
    }

    /// The stored value of `s` as a function of `store_iv` (see `Forward`).
    fn stored_value(&self, s: V, store_iv: V, load_iv: V, ls: BB, w: V) -> Option<Forward> {
        let value = operand(s, 0);
        let mut f = Forward {
            store: s,
            store_iv,
            load_iv,
            nodes: Vec::new(),
            value,
            deps: vec![load_iv],
            work: 0,
        };
        let mut seen = HashMap::new();
        self.visit_stored(value, ls, w, &mut f, &mut seen)?;
        (f.work <= mincut::MAX_WORK && f.nodes.len() <= MAX_FORWARD_NODES).then_some(f)
    }

    /// Whether `x` depends on the store loop's variable (None: it cannot
    /// be recomputed at the load).
    fn visit_stored(
        &self,
        x: V,
        ls: BB,
        w: V,
        f: &mut Forward,
        seen: &mut HashMap<V, bool>,
    ) -> Option<bool> {
        if let Some(d) = seen.get(&x) {
            return Some(*d);
        }
        if x == f.store_iv {
            return Some(true);
        }
        if is_constant(x) || is_block_value(x) {
            return Some(false);
        }
        let loops = &self.a.loops;
        if !is_instruction(x) || !loops.contains(ls, inst_block(x)) {
            // Taken as it is: defined before the store loop, in a loop
            // around it (the same iteration as the load) or none.
            if is_instruction(x) {
                let mut h = loops.header(inst_block(x));
                while let Some(hh) = h {
                    if !loops.contains(hh, ls) {
                        return None;
                    }
                    h = loops.parent_header(hh);
                }
                if !loops.dominates(x, w) {
                    return None;
                }
            }
            if !f.deps.contains(&x) {
                f.deps.push(x);
            }
            seen.insert(x, false);
            return Some(false);
        }
        if opcode(x) == Some(LLVMOpcode::LLVMPHI) || f.nodes.len() >= MAX_FORWARD_NODES {
            return None;
        }
        let mut dep = false;
        for o in operands(x) {
            dep |= self.visit_stored(o, ls, w, f, seen)?;
        }
        // A value of the store loop that does not depend on its variable
        // is not at hand at the load.
        if !dep {
            return None;
        }
        let work = if memory::is_cheap_pure(x) {
            0
        } else if opcode(x) == Some(LLVMOpcode::LLVMLoad) {
            let reload = !is_volatile(x)
                && (self.written.unwritten_and_persistent(operand(x, 0)) || self.reload_ok(x));
            if !reload {
                return None;
            }
            0
        } else {
            mincut::float_work(x, &super::cache::pure_rule_call)?
        };
        f.work += work;
        f.nodes.push(x);
        seen.insert(x, true);
        Some(true)
    }

    /// Build the recomputation of a forwarded load in the current reverse
    /// block.
    pub(super) fn rebuild_forwarded(&mut self, w: V, f: &Forward) -> Result<V> {
        crate::modes::reverse::remarks::forwarded(self.a.primal, self.a.func, w, f.store);
        let mut map: HashMap<V, V> = HashMap::new();
        let iv = self.avail(f.load_iv)?;
        map.insert(f.store_iv, iv);
        for &n in &f.nodes {
            let c = clone_inst(n);
            for (k, o) in operands(n).into_iter().enumerate() {
                if is_block_value(o) || is_constant(o) {
                    continue;
                }
                let v = match map.get(&o) {
                    Some(v) => *v,
                    None => self.avail(o)?,
                };
                set_operand(c, k as u32, v);
            }
            clear_inst_debug_loc(c);
            super::cache::recomputed_as_intrinsic(c);
            self.b.insert(c);
            map.insert(n, c);
        }
        match map.get(&f.value) {
            Some(v) => Ok(*v),
            None => self.avail(f.value),
        }
    }
}
