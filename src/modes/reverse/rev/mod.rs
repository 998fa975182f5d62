//! The reverse sweep. For each block B of the augmented function there is
//! a reverse block rB (preceded by its pop prologue): it pops what B pushed,
//! runs the adjoint of each instruction of B from last to first, then takes
//! the adjoints of B's phis to the edge of the predecessor B was entered
//! from (read from the tape when B has several) and continues there.
//!
//! Adjoints of SSA values live in allocas of the reverse function (promoted
//! to registers by the cleanup); adjoints of memory live in shadow memory.
//! A primal value the adjoint code needs is recomputed in rB when that is
//! cheap and safe (`memory.rs`), else read from the tape.
use super::aug::Aug;
use super::memory::{self, Written};
use super::tape::{self, Layout};
use super::{Act, Key, Pair};
use crate::diag::{Error, Result};
use crate::ir::builder::{add_case, Builder};
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::strictfp::{self, FpEnv};
use crate::ir::vector;
use crate::modes::Session;
use crate::rules::{self, Partial, RuleCtx};
use std::collections::HashMap;
use zeroslot::zeroed_just_before;

mod apart;
mod cache;
mod calls;
mod halves;
mod lanes;
mod loops;
mod recompute;
pub mod shadowtape;
mod vecmem;
mod zeroslot;
pub use cache::mark_recompute_as;
pub use lanes::{build, finish_pops};

pub(super) fn build_lane(
    sess: &mut Session,
    key: &Key,
    pair: &Pair,
    a: &mut Aug,
    lane: usize,
) -> Result<()> {
    let rev = pair.rev_of(lane);
    let b = Builder::new(sess.module);
    let pb = Builder::new(sess.module);
    let ctx = b.ctx;
    let rps = params(rev);
    let aps = params(a.func);
    for (k, p) in aps.iter().enumerate() {
        if k + 1 < aps.len() {
            set_name(rps[k], &name(*p));
        }
    }
    let tape_param = *rps.last().unwrap();
    set_name(tape_param, "tape");
    let seed = if pair.takes_seed {
        Some(rps[rps.len() - 2])
    } else {
        None
    };
    let entry = append_block(rev, "rev.entry");
    let written = Written::of(
        a.func,
        key.overwritten_params(a.func),
        key.globals_overwritten,
        key.others_overwritten,
    );
    let parallel = crate::modes::openmp::runs_in_parallel(sess.module, key.func)
        || crate::modes::gpu::is_device(sess.module);
    let owned = (parallel && crate::modes::openmp::top_level_region(sess.module, key.func))
        .then(|| crate::modes::openmp::owned::owned_counter(a.func))
        .flatten();
    let later = Some(memory::LaterWrites::of_matching(a.func, |i| {
        opcode(i) == Some(LLVMOpcode::LLVMLoad)
    }));
    let sess_zeroed = sess
        .zeroed_for_rev
        .take()
        .filter(|_| lane == 0 && key.lanes() == 1);
    let mut g = RevGen {
        sess,
        a,
        rev,
        b,
        pb,
        entry,
        adj: HashMap::new(),
        memo: HashMap::new(),
        prologue: HashMap::new(),
        rblock: HashMap::new(),
        cur: std::ptr::null_mut(),
        written,
        tape: tape_param,
        rev_params: rps.clone(),
        rc_slot: HashMap::new(),
        hoisted: HashMap::new(),
        hoisted_order: Vec::new(),
        entries: Vec::new(),
        landing_loops: Default::default(),
        landings: HashMap::new(),
        landing_order: Vec::new(),
        in_edge: false,
        parallel,
        deferred: Vec::new(),
        later,
        owned,
        cut: Default::default(),
        planned: Default::default(),
        forwards: Default::default(),
        libm_chains: Default::default(),
        zt: sess_zeroed.map(shadowtape::Zeroed::new),
        visiting: None,
        origins: HashMap::new(),
        fp_envs: HashMap::new(),
    };
    let order = rpo(g.a.func);
    g.landing_loops = loops::several_entry_loops(&g, &order);
    // Create the reverse blocks (prologue + body) for every reachable block.
    for &bb in &order {
        let pro = append_block(rev, &format!("rev.pop.{}", name_of_block(bb)));
        let body = append_block(rev, &format!("rev.{}", name_of_block(bb)));
        g.pb.at_end(pro);
        g.pb.clear_debug_loc();
        let base = g.pb.call_fn(
            tape::pop_fn(g.sess.module),
            &mut [tape_param, const_i64(ctx, 0)],
        );
        let layout = g.a.layouts.get(&bb).cloned().unwrap_or_default();
        g.prologue.insert(bb, (pro, base, layout));
        g.rblock.insert(bb, body);
    }
    let exit = append_block(rev, "rev.exit");
    // Entry: seed the returned value's adjoint, go to the returning block.
    g.b.at_end(entry);
    g.b.clear_debug_loc();
    let rets = g.a.ret_blocks.clone();
    if rets.is_empty() {
        g.b.br(exit);
    } else if rets.len() == 1 {
        if let Some(s) = seed {
            let rv = operand(terminator(rets[0]), 0);
            g.b.at_end(entry);
            g.add_adjoint(rv, s)?;
        }
        g.b.at_end(entry);
        g.b.br(g.prologue[&rets[0]].0);
    } else {
        let base = g.b.call_fn(
            tape::pop_fn(g.sess.module),
            &mut [tape_param, const_i64(ctx, 8)],
        );
        let id = g.b.load(i64_type(ctx), base);
        let sw = g.b.switch(id, exit, rets.len() as u32);
        for (k, rb) in rets.iter().enumerate() {
            let eb = append_block(rev, "rev.seed");
            add_case(sw, const_i64(ctx, k as i64), eb);
            g.b.at_end(eb);
            if let Some(s) = seed {
                let rv = operand(terminator(*rb), 0);
                g.add_adjoint(rv, s)?;
            }
            g.b.br(g.prologue[rb].0);
        }
    }
    // Reverse blocks.
    for &bb in &order {
        g.cur = bb;
        let body = g.rblock[&bb];
        g.b.at_end(body);
        g.b.clear_debug_loc();
        let insts: Vec<V> = instructions(bb).into_iter().rev().collect();
        for i in insts {
            if opcode(i) == Some(LLVMOpcode::LLVMPHI) {
                continue;
            }
            g.visiting = Some(i);
            g.visit(i)?;
        }
        g.visiting = None;
        g.finish_block(bb, exit)?;
    }
    g.fill_loop_entries()?;
    g.finish_landings();
    // Prologues: pop the block's bytes, then fall into the body.
    let keys: Vec<BB> = g.prologue.keys().copied().collect();
    for bb in keys {
        let (pro, base, layout) = g.prologue[&bb].clone();
        g.pb.at_end(pro);
        g.pb.br(g.rblock[&bb]);
        let iter =
            g.a.loops
                .header(bb)
                .filter(|h| g.a.counted.contains_key(h))
                .map(|h| g.rc_slot(h));
        g.a.pop_calls.push((bb, base, iter));
        g.a.layouts.insert(bb, layout);
    }
    // Exit: return the adjoints of the active parameters.
    g.b.at_end(exit);
    for (slot, sp, at) in std::mem::take(&mut g.deferred) {
        let v = g.b.load(at, slot);
        if !crate::modes::openmp::atomic_accumulate(&g.b, sp, v) {
            return Err(Error::internal("deferred adjoint of an unsupported type"));
        }
    }
    let mut outs = Vec::new();
    for &pi in &pair.active_params {
        let ap = aug_param(g.a, key, pi);
        let v = g.take_adjoint(ap)?;
        let v = if is_fp(type_of(v)) {
            g.b.fadd(v, zero(type_of(v)))
        } else {
            v
        };
        outs.push(v);
    }
    let rt = fn_return_type(rev);
    match outs.len() {
        0 => {
            g.b.ret_void();
        }
        1 => {
            g.b.ret(outs[0]);
        }
        _ => {
            let s = g.b.make_struct(rt, &outs);
            g.b.ret(s);
        }
    }
    if let Some(zt) = &g.zt {
        g.sess.zeroed_kept |= zt.keeps();
    }
    if strictfp::is_strictfp(key.func) {
        // No plain floating-point operation beside constrained ones.
        add_fn_attr(rev, "strictfp");
        strictfp::constrain_function(rev, &g.fp_envs, strictfp::default_env(key.func));
    }
    // Allocas for adjoints are zeroed at the entry.
    Ok(())
}

fn name_of_block(bb: BB) -> String {
    let n = block_name(bb);
    if n.is_empty() {
        "bb".into()
    } else {
        n
    }
}

/// The `aug` parameter holding original parameter `pi`.
fn aug_param(a: &Aug, key: &Key, pi: usize) -> V {
    let mut j = 0;
    for k in 0..pi {
        j += 1;
        if key.acts[k] == Act::Dup {
            j += key.lanes();
        }
    }
    params(a.func)[j]
}

struct RevGen<'a> {
    sess: &'a mut Session,
    a: &'a mut Aug,
    rev: V,
    b: Builder,
    /// Builder for prologue blocks.
    pb: Builder,
    entry: BB,
    /// Adjoint alloca of each aug value.
    adj: HashMap<V, V>,
    /// Values made available in the reverse block of an aug block.
    memo: HashMap<(BB, V), V>,
    /// Per aug block: (prologue block, pop call, layout of its pops).
    prologue: HashMap<BB, (BB, V, Layout)>,
    rblock: HashMap<BB, BB>,
    cur: BB,
    written: Written,
    tape: V,
    rev_params: Vec<V>,
    /// Per counted loop (by header): the reverse iteration counter slot.
    rc_slot: HashMap<BB, V>,
    /// Loop-invariant values the reverse of a loop reads: (header, value)
    /// -> slot, set on every reverse edge entering the loop.
    hoisted: HashMap<(BB, V), V>,
    /// The keys of `hoisted` in the order they were made: the order the
    /// slots are filled (and so the tape's layout) must not depend on
    /// hash order, or the output changes from one compile to the next.
    hoisted_order: Vec<(BB, V)>,
    /// Reverse edges entering loops: (edge block, exit block X, header).
    entries: Vec<(BB, BB, BB)>,
    /// Counted loops whose reverse is entered through a landing block
    /// (several exiting blocks, `loops.rs`), and their landings.
    landing_loops: std::collections::HashSet<BB>,
    landings: HashMap<BB, loops::Landing>,
    landing_order: Vec<BB>,
    /// Set while emitting into an edge block (values made there are not
    /// reused elsewhere).
    in_edge: bool,
    /// Whether the function may run inside an OpenMP parallel region
    /// (adjoints of shared memory are then added atomically).
    parallel: bool,
    /// Per shadow of shared read-only memory: the local slot its adjoints
    /// add up in, added (atomically) into the shadow at the exit.
    deferred: Vec<(V, V, T)>,
    /// The counter of the worksharing loop whose iterations own the shared
    /// elements they access (`openmp/owned.rs`): no atomics for those.
    owned: Option<crate::modes::openmp::owned::Owned>,
    /// What may be written after each load (`recompute.rs`).
    later: Option<memory::LaterWrites>,
    /// Cache-or-recompute decisions (`cache.rs`): per (reverse of block,
    /// value), taped or recomputed.
    cut: std::collections::HashSet<(BB, V)>,
    planned: std::collections::HashSet<(BB, V)>,
    /// Loads of scratch arrays recomputed from their stores (`recompute.rs`).
    forwards: std::cell::RefCell<HashMap<V, Option<std::rc::Rc<recompute::Forward>>>>,
    /// Per (reverse of block, libm result in a loop): whether recomputing
    /// it would need the tape anyway or redo more than one libm call
    /// (`cache.rs`, `libm_chain_taped`).
    libm_chains: std::cell::RefCell<HashMap<(BB, V), bool>>,
    /// Set when the caller zeroes a shadow first (`shadowtape.rs`).
    zt: Option<shadowtape::Zeroed>,
    /// The instruction whose reverse is being built.
    visiting: Option<V>,
    /// Per shadow store of the reverse (a store's zeroing, a load's add):
    /// the augmented function's shadow pointer it stores through
    /// (`zeroed_just_before` compares those with `apart.rs`).
    origins: HashMap<V, (V, V)>,
    /// In a `strictfp` function: the rounding and exception arguments of
    /// the adjoint code of each constrained operation.
    fp_envs: HashMap<V, FpEnv>,
}

/// The empty adjoint: -0.0 for floats, so that `-0.0 + x` folds to `x`
/// (the sign of a zero derivative is immaterial; returned adjoints are
/// normalized with `+ 0.0`).
fn adj_zero(t: T) -> V {
    if is_fp(t) {
        const_real(t, -0.0)
    } else {
        zero(t)
    }
}

/// The float type holding the adjoint of a value of type `t` (integers that
/// carry a float's bits through a copy take the float of their width).
fn adj_type(t: T) -> T {
    let ctx = context_of(t);
    if is_int(t) {
        let w = int_width(t);
        return match w {
            32 => float_type(ctx),
            16 => half_type(ctx),
            _ => double_type(ctx),
        };
    }
    if is_vector(t) && is_int(elem_type(t)) {
        return vector_type(adj_type(elem_type(t)), vector_size(t));
    }
    t
}

impl RevGen<'_> {
    fn err(&self, inst: V, msg: impl Into<String>) -> Error {
        self.a.unsupported(inst, msg)
    }

    fn varied(&self, v: V) -> bool {
        self.a.act.is_varied(v)
    }

    /// Whether values of type `t` have adjoints.
    fn has_adjoint_type(t: T) -> bool {
        contains_fp(t) && !contains_ptr(t)
    }

    fn adj_slot(&mut self, v: V) -> V {
        if let Some(s) = self.adj.get(&v) {
            return *s;
        }
        let t = adj_type(type_of(v));
        let s = self.entry_alloca(t, &format!("d.{}", name(v)));
        let eb = Builder::new(self.sess.module);
        eb.after(s);
        eb.clear_debug_loc();
        eb.store(adj_zero(t), s);
        self.adj.insert(v, s);
        s
    }

    /// adjoint(v) += delta
    fn add_adjoint(&mut self, v: V, delta: V) -> Result<()> {
        if is_constant(v) || !self.varied(v) {
            return Ok(());
        }
        let t = adj_type(type_of(v));
        if !Self::has_adjoint_type(t) {
            return Ok(());
        }
        let slot = self.adj_slot(v);
        let old = self.b.load(t, slot);
        let new = add_values(&self.b, old, delta);
        if self.sess.opts.reassoc_sums && is_fp_scalar(t) && self.sums_across_loop(v) {
            // Its terms, one per iteration, may be added in any order: the
            // reverse loop then may vectorize (a softmax's max: each
            // iteration's `x[i] - m` adds to m's adjoint).
            shim::set_reassoc(new);
        }
        self.b.store(new, slot);
        Ok(())
    }

    /// Whether `v` is defined outside the loop of the block being reversed
    /// (its adjoint sums a term from every iteration).
    fn sums_across_loop(&self, v: V) -> bool {
        if self.cur.is_null() || self.in_edge {
            return false;
        }
        let Some(h) = self.a.loops.header(self.cur) else {
            return false;
        };
        is_argument(v) || (is_instruction(v) && !self.a.loops.contains(h, inst_block(v)))
    }

    /// Read and clear adjoint(v).
    fn take_adjoint(&mut self, v: V) -> Result<V> {
        let t = adj_type(type_of(v));
        let slot = self.adj_slot(v);
        let d = self.b.load(t, slot);
        self.b.store(adj_zero(t), slot);
        Ok(d)
    }

    /// The value of aug value `w` inside the current reverse block:
    /// constants and parameters directly, cheap pure instructions and
    /// loads of unwritten memory recomputed, anything else from the tape.
    fn avail(&mut self, w: V) -> Result<V> {
        let v = self.avail_raw(w)?;
        Ok(super::inplace::tag(self.sess, self.a, w, v))
    }

    fn avail_raw(&mut self, w: V) -> Result<V> {
        if is_constant(w) || strictfp::is_metadata_value(w) {
            return Ok(w);
        }
        if is_argument(w) {
            let idx = params(self.a.func)
                .iter()
                .position(|p| *p == w)
                .ok_or_else(|| Error::internal("unknown argument"))?;
            if w == self.a.tape_arg {
                return Ok(self.tape);
            }
            return Ok(self.rev_params[idx]);
        }
        if let Some(v) = self.memo.get(&(self.cur, w)) {
            return Ok(*v);
        }
        if let Some(v) = self.loop_value(w)? {
            if !self.in_edge {
                self.memo.insert((self.cur, w), v);
            }
            return Ok(v);
        }
        if let Some(v) = self.shadow_tape(w)? {
            self.memo.insert((self.cur, w), v);
            return Ok(v);
        }
        let recompute = self.recompute_or_tape(w);
        let forward = if recompute { self.forwarded(w) } else { None };
        let again = if recompute {
            cache::should_recompute(w)
        } else {
            None
        };
        let v = if let Some(f) = forward {
            self.rebuild_forwarded(w, &f)?
        } else if let Some((f, n)) = again {
            // A function registered with __enzyme_shouldrecompute: called
            // again (its primal, not its augmented forward).
            let mut args = Vec::new();
            for a in &call_args(w)[..n] {
                args.push(self.avail(*a)?);
            }
            self.b.call_fn(f, &mut args)
        } else if recompute {
            let ops = operands(w);
            let mut new_ops = Vec::new();
            for o in &ops {
                if is_block_value(*o) {
                    new_ops.push(*o);
                } else {
                    new_ops.push(self.avail(*o)?);
                }
            }
            let c = clone_inst(w);
            for (k, o) in new_ops.into_iter().enumerate() {
                set_operand(c, k as u32, o);
            }
            clear_inst_debug_loc(c);
            cache::recomputed_as_intrinsic(c);
            self.b.insert(c);
            c
        } else {
            self.pop(w)
        };
        if !self.in_edge || !recompute {
            self.memo.insert((self.cur, w), v);
        }
        Ok(v)
    }

    /// Ask block `cur` to push `w`, and read it back in its prologue.
    fn pop(&mut self, w: V) -> V {
        let ctx = self.b.ctx;
        let t = type_of(w);
        let size = tape::slot_size(self.sess.module, t);
        if !self.a.why.contains_key(&w) {
            let why = self.why_taped(w);
            self.a.why.insert(w, why);
        }
        let (pro, base, layout) = self.prologue.get_mut(&self.cur).unwrap();
        let pushes = self.a.pushes.entry(self.cur).or_default();
        // Taped already for another vector lane: read it there.
        let off = match pushes.iter().position(|x| *x == w) {
            Some(k) => layout.offsets[k],
            None => {
                pushes.push(w);
                layout.add(size)
            }
        };
        let (pro, base) = (*pro, *base);
        // A kept libm result is read where it is used (as its
        // recomputation was): nothing writes the tape meanwhile, and it
        // then lives across none of the block's calls.
        let b = if !self.in_edge && self.kept_libm_result(w) {
            &self.b
        } else {
            self.pb.at_end(pro);
            &self.pb
        };
        let p = b.gep(i8_type(ctx), base, &mut [const_i64(ctx, off as i64)]);
        let l = b.load(t, p);
        set_alignment(l, tape::offset_align(off));
        set_name(l, &format!("{}.tape", name(w)));
        l
    }

    fn shadow_avail(&mut self, p: V) -> Result<Option<V>> {
        match self.a.shadow.get(&p).copied() {
            Some(s) => Ok(Some(self.avail(s)?)),
            None => {
                let act = &self.a.act;
                let lane = crate::modes::rev_lane(self.a.lane);
                Ok(self.sess.global_ptr_shadow(p, lane, &|g| act.is_varied(g)))
            }
        }
    }

    fn finish_block(&mut self, bb: BB, exit: BB) -> Result<()> {
        let ctx = self.b.ctx;
        // Adjoints of this block's phis, read before leaving.
        let phis: Vec<V> = instructions(bb)
            .into_iter()
            .filter(|i| {
                opcode(*i) == Some(LLVMOpcode::LLVMPHI)
                    && self.varied(*i)
                    && Self::has_adjoint_type(adj_type(type_of(*i)))
            })
            .collect();
        let mut dphis = Vec::new();
        for p in &phis {
            dphis.push(self.take_adjoint(*p)?);
        }
        let preds = self.a.preds.get(&bb).cloned().unwrap_or_default();
        if preds.is_empty() {
            self.b.br(exit);
            return Ok(());
        }
        let edge = |g: &mut Self, pred: BB, back: Option<BB>| -> Result<()> {
            for (k, p) in phis.iter().enumerate() {
                if let Some((v, _)) = incoming(*p).into_iter().find(|(_, b)| *b == pred) {
                    g.add_adjoint(v, dphis[k])?;
                }
            }
            let target = g.enter_target(bb, pred, back);
            g.b.br(target);
            Ok(())
        };
        if let Some(c) = self.a.counted.get(&bb).copied() {
            // Count the reverse iterations down: at 0 the loop was entered
            // from the preheader, else from the latch (one iteration back).
            let slot = self.rc_slot(bb);
            let i64t = i64_type(ctx);
            let rc = self.b.load(i64t, slot);
            let first = self
                .b
                .icmp(LLVMIntPredicate::LLVMIntEQ, rc, const_i64(ctx, 0));
            let to_pre = append_block(self.rev, "rev.loop.exit");
            let to_latch = append_block(self.rev, "rev.loop.back");
            self.b.cond_br(first, to_pre, to_latch);
            self.b.at_end(to_latch);
            let dec = self.b.sub(rc, const_i64(ctx, 1));
            self.b.store(dec, slot);
            // (A latch inside an inner loop: this edge enters that loop.)
            self.edge_block_if_entering(bb, c.latch);
            edge(self, c.latch, Some(bb))?;
            // The branch back to the reverse of the latch: the reverse
            // loop's own latch.
            let back = terminator(self.b.block());
            if !back.is_null() && self.commuting(bb) {
                shim::mark_commuting_loop(back);
            }
            self.b.at_end(to_pre);
            self.edge_block_if_entering(bb, c.preheader);
            edge(self, c.preheader, None)?;
            return Ok(());
        }
        if preds.len() == 1 {
            self.edge_block_if_entering(bb, preds[0]);
            edge(self, preds[0], None)?;
            return Ok(());
        }
        let idx_phi = self.a.pred_index[&bb];
        let idx = self.avail(idx_phi)?;
        let sw = self.b.switch(idx, exit, preds.len() as u32);
        for (k, pred) in preds.iter().enumerate() {
            let eb = append_block(self.rev, "rev.edge");
            add_case(sw, const_int(type_of(idx), k as u64), eb);
            self.b.at_end(eb);
            self.edge_block_if_entering(bb, *pred);
            edge(self, *pred, None)?;
        }
        Ok(())
    }

    fn rc_slot(&mut self, header: BB) -> V {
        if let Some(s) = self.rc_slot.get(&header) {
            return *s;
        }
        let s = self.entry_alloca(i64_type(self.b.ctx), "rev.iter");
        self.rc_slot.insert(header, s);
        s
    }

    /// The local slot (zeroed at the entry) collecting adjoints for shadow
    /// `sp` until the exit (see `deferred`).
    fn deferred_slot(&mut self, sp: V, at: T) -> V {
        if let Some((s, _, _)) = self.deferred.iter().find(|(_, p, t)| *p == sp && *t == at) {
            return *s;
        }
        let s = self.entry_alloca(at, "deferred");
        let eb = Builder::new(self.sess.module);
        eb.after(s);
        eb.clear_debug_loc();
        eb.store(adj_zero(at), s);
        self.deferred.push((s, sp, at));
        s
    }

    fn entry_alloca(&mut self, t: T, n: &str) -> V {
        let eb = Builder::new(self.sess.module);
        match first_instruction(self.entry) {
            None => eb.at_end(self.entry),
            Some(first) => eb.before(first),
        }
        eb.clear_debug_loc();
        let s = eb.alloca(t);
        set_name(s, n);
        s
    }

    fn visit(&mut self, i: V) -> Result<()> {
        use LLVMOpcode::*;
        let op = opcode(i).unwrap();
        match op {
            LLVMRet | LLVMBr | LLVMSwitch | LLVMUnreachable => return Ok(()),
            LLVMStore => return self.visit_store(i),
            LLVMCall => return self.visit_call(i),
            _ => {}
        }
        if op == LLVMAtomicRMW && operands(i).iter().any(|o| self.varied(*o)) {
            // `omp atomic` updates: d v (+|-)= shadow of *p.
            let sp = self
                .shadow_avail(operand(i, 0))?
                .ok_or_else(|| self.err(i, "atomic update of active memory without a shadow"))?;
            let d = crate::modes::openmp::reverse_atomic(&self.b, i, sp)?;
            if self.varied(operand(i, 1)) {
                self.add_adjoint(operand(i, 1), d)?;
            }
            return Ok(());
        }
        if !self.varied(i) {
            if matches!(op, LLVMAtomicRMW | LLVMAtomicCmpXchg)
                && operands(i).iter().any(|o| self.varied(*o))
            {
                return Err(self.err(i, "atomic read-modify-write of active memory is not supported in reverse mode yet"));
            }
            return Ok(());
        }
        let t = type_of(i);
        match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMFPExt
            | LLVMFPTrunc => {
                self.apply_rule(i, &operands(i))?;
            }
            LLVMLoad => {
                if !Self::has_adjoint_type(adj_type(t)) || self.reverse_half_load(i)? {
                    return Ok(());
                }
                let d = self.take_adjoint(i)?;
                let sp = self
                    .shadow_avail(operand(i, 0))?
                    .ok_or_else(|| self.err(i, "load of active memory without a shadow"))?;
                let at = adj_type(t);
                if self.parallel
                    && is_argument(operand(i, 0))
                    && !self.written.function_may_write(operand(i, 0))
                {
                    // Shared memory only read here (a shared scalar read
                    // by every iteration): this thread's adjoints add up
                    // in a local, added atomically once at the exit.
                    let slot = self.deferred_slot(sp, at);
                    let old = self.b.load(at, slot);
                    let new = add_values(&self.b, old, d);
                    self.b.store(new, slot);
                    return Ok(());
                }
                if self.parallel && crate::modes::openmp::needs_atomic(operand(i, 0)) {
                    use crate::modes::openmp::owned::{self, Access};
                    let access = self.owned.as_ref().and_then(|o| o.access(operand(i, 0)));
                    if let Some(Access::Guarded { l, lo, hi }) = access {
                        // Owned away from the chunk's ends (openmp/owned.rs).
                        let (c, lb, ub) =
                            (self.avail(l.counter)?, self.avail(l.lb)?, self.avail(l.ub)?);
                        let own = owned::own_condition(&self.b, c, lb, ub, lo, hi);
                        if owned::guarded_accumulate(&self.b, self.rev, own, sp, d) {
                            return Ok(());
                        }
                    }
                }
                if self.parallel
                    && crate::modes::openmp::needs_atomic(operand(i, 0))
                    && !matches!(
                        self.owned.as_ref().and_then(|o| o.access(operand(i, 0))),
                        Some(crate::modes::openmp::owned::Access::Plain)
                    )
                    && !crate::modes::gpu::private::thread_private(operand(i, 0))
                {
                    // Other threads may add into the same shadow.
                    if !crate::modes::openmp::atomic_accumulate(&self.b, sp, d) {
                        return Err(self.err(
                            i,
                            "load of shared active memory of this type in a parallel region",
                        ));
                    }
                    return Ok(());
                }
                let old = self.b.load(at, sp);
                let origin = self.a.shadow.get(&operand(i, 0)).copied();
                let bb = inst_block(i);
                let apart = |q: V, ps: u64, qs: u64| {
                    let lay = crate::analysis::types::layout::Layout::new(module_of(self.rev));
                    match (origin, self.origin_of(q)) {
                        (Some(p), Some(oq)) => apart::apart(&self.a.loops, &lay, bb, p, ps, oq, qs),
                        _ => false,
                    }
                };
                let zs = if type_of(d) == at {
                    zeroed_just_before(old, sp, at, &apart)
                } else {
                    None
                };
                if let Some(z) = zs {
                    // The slot holds the zero the reverse of a store just
                    // put there: store the adjoint itself (`0.0 + d` would
                    // stay, as LLVM may not fold it; the sign of a zero
                    // derivative is immaterial).
                    erase(old);
                    let st = self.b.store(d, sp);
                    copy_alignment(i, st);
                    self.note_origin(st, operand(i, 0));
                    if crate::options::switches::dead_zeros()
                        && self.read_apart_between(z, st, sp, at, origin, bb)
                    {
                        // Nothing reads the zero: the store is dead (LLVM
                        // may not see that the loads between, of the other
                        // half of a butterfly or of a distinct table, do
                        // not read it).
                        self.origins.remove(&z);
                        erase(z);
                    }
                    return Ok(());
                }
                let mut new = add_values(&self.b, old, d);
                if is_int_or_int_vector(t) && type_of(d) == at {
                    // An integer the types take for a float's bits may be
                    // integer data (a hash table's bucket count at -O0):
                    // a zero adjoint leaves its shadow's bits as they are
                    // (`bits + 0.0` flushes a denormal to zero under
                    // -ffast-math's denormals-are-zero, quiets a NaN).
                    let nz = self.b.fcmp(LLVMRealPredicate::LLVMRealUNE, d, zero(at));
                    new = self.b.select(nz, new, old);
                }
                let st = self.b.store(new, sp);
                copy_alignment(i, old);
                copy_alignment(i, st);
                self.note_origin(old, operand(i, 0));
                self.note_origin(st, operand(i, 0));
            }
            LLVMSelect => {
                if !Self::has_adjoint_type(adj_type(t)) {
                    return Ok(());
                }
                let d = self.take_adjoint(i)?;
                let c = self.avail(operand(i, 0))?;
                let z = zero(type_of(d));
                let (x, y) = (operand(i, 1), operand(i, 2));
                let dx = self.b.select(c, d, z);
                let dy = self.b.select(c, z, d);
                self.add_adjoint(x, dx)?;
                self.add_adjoint(y, dy)?;
            }
            LLVMExtractValue => {
                if !Self::has_adjoint_type(adj_type(t)) {
                    return Ok(());
                }
                let d = self.take_adjoint(i)?;
                let agg = operand(i, 0);
                let z = zero(type_of(agg));
                let delta = insert_nested(&self.b, z, d, &indices(i));
                self.add_adjoint(agg, delta)?;
            }
            LLVMInsertValue => {
                if !Self::has_adjoint_type(t) {
                    return Ok(());
                }
                let d = self.take_adjoint(i)?;
                let (agg, v) = (operand(i, 0), operand(i, 1));
                let idx = indices(i);
                let mut dv = d;
                for k in &idx {
                    dv = self.b.extract_value(dv, *k);
                }
                self.add_adjoint(v, dv)?;
                let cleared = insert_nested(&self.b, d, zero(type_of(v)), &idx);
                self.add_adjoint(agg, cleared)?;
            }
            LLVMExtractElement => {
                let d = self.take_adjoint(i)?;
                let (vec, idx) = (operand(i, 0), operand(i, 1));
                let ii = self.avail(idx)?;
                let delta = self
                    .b
                    .insert_element(adj_zero(adj_type(type_of(vec))), d, ii);
                self.add_adjoint(vec, delta)?;
            }
            LLVMInsertElement => {
                let d = self.take_adjoint(i)?;
                let (vec, v, idx) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let ii = self.avail(idx)?;
                let dv = self.b.extract_element(d, ii);
                self.add_adjoint(v, dv)?;
                let cleared = self.b.insert_element(d, adj_zero(adj_type(type_of(v))), ii);
                self.add_adjoint(vec, cleared)?;
            }
            LLVMShuffleVector => self.shuffle_adjoint(i)?,
            LLVMFreeze => {
                let d = self.take_adjoint(i)?;
                self.add_adjoint(operand(i, 0), d)?;
            }
            LLVMBitCast => {
                let o = operand(i, 0);
                if Self::has_adjoint_type(adj_type(t))
                    && Self::has_adjoint_type(adj_type(type_of(o)))
                {
                    let d = self.take_adjoint(i)?;
                    let c = self.b.bitcast(d, adj_type(type_of(o)));
                    self.add_adjoint(o, c)?;
                }
            }
            LLVMAlloca => {
                // Free the heap shadow made by the augmented sweep.
                if let Some(s) = self.a.shadow.get(&i).copied() {
                    let sv = self.avail(s)?;
                    self.b.free(sv);
                }
            }
            LLVMPHI | LLVMGetElementPtr | LLVMAddrSpaceCast | LLVMICmp | LLVMFCmp => {}
            _ => {
                if Self::has_adjoint_type(adj_type(t)) {
                    return Err(self.err(
                        i,
                        format!(
                            "no reverse-mode rule for instruction '{}' ({}) carrying a derivative",
                            opcode_name(op),
                            print_value(i).trim()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Adjoint of a shufflevector: each result lane's adjoint goes back to
    /// the operand lane it was taken from.
    fn shuffle_adjoint(&mut self, i: V) -> Result<()> {
        let d = self.take_adjoint(i)?;
        let (x, y) = (operand(i, 0), operand(i, 1));
        let n = vector_size(type_of(x));
        // Integer vectors carrying float bits have float adjoints.
        let mut dx = adj_zero(adj_type(type_of(x)));
        let mut dy = adj_zero(adj_type(type_of(y)));
        let ctx = self.b.ctx;
        for (j, m) in shuffle_mask_elems(i).into_iter().enumerate() {
            let Some(m) = m else {
                continue;
            };
            let dj = self.b.extract_element(d, const_i32(ctx, j as i64));
            let (target, lane) = if (m as u32) < n {
                (&mut dx, m as u32)
            } else {
                (&mut dy, m as u32 - n)
            };
            let li = const_i32(ctx, lane as i64);
            let old = self.b.extract_element(*target, li);
            let sum = self.b.fadd(old, dj);
            *target = self.b.insert_element(*target, sum, li);
        }
        self.add_adjoint(x, dx)?;
        self.add_adjoint(y, dy)?;
        Ok(())
    }

    /// Adjoints through the rule table: d x_k += partial_k * d out.
    fn apply_rule(&mut self, i: V, args: &[V]) -> Result<()> {
        let rule = rules::lookup(i).ok_or_else(|| self.err(i, "no derivative rule"))?;
        let need: Vec<bool> = args
            .iter()
            .map(|a| is_fp(type_of(*a)) && self.varied(*a))
            .collect();
        if !need.iter().any(|n| *n) {
            return Ok(());
        }
        let block = self.b.block();
        let before = last_instruction(block);
        let d = self.take_adjoint(i)?;
        let (uses_args, uses_out) = (rule.reads)(&need);
        let mut avail_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            if uses_args.get(k).copied().unwrap_or(true) {
                avail_args.push(self.avail(*a)?);
            } else {
                avail_args.push(undef(type_of(*a)));
            }
        }
        let out = if uses_out {
            self.avail(i)?
        } else {
            undef(type_of(i))
        };
        let ctx = RuleCtx::new(&self.b, &rule, &avail_args, out, &need);
        let partials = (rule.partials)(&ctx);
        let strong_zero = self.sess.opts.strong_zero || rule.seed_checked;
        for (k, p) in partials.iter().enumerate() {
            if !need.get(k).copied().unwrap_or(false) {
                continue;
            }
            let contrib = match p {
                Partial::Zero => continue,
                Partial::One => d,
                // A reduction's: each lane its share of d.
                Partial::LaneSum | Partial::Lanes(_) | Partial::Pick(_) => {
                    let n = vector_size(type_of(args[k]));
                    let ds = vector::splat(&self.b, d, n);
                    match p {
                        Partial::Lanes(v) => self.b.fmul(*v, ds),
                        Partial::Pick(m) => self.b.select(*m, ds, adj_zero(type_of(ds))),
                        _ => ds,
                    }
                }
                Partial::NegOne => self.b.fneg(d),
                Partial::Val(v) => self.b.fmul(self.b.float_to(*v, type_of(d)), d),
                // As (m / q) * d: the division reads primal values only, so
                // it stays off the adjoint's dependency chain (a reverse
                // recurrence, LSTM's, is latency-bound; d / q on the chain
                // cost its gradient 3%). Forward mode divides the seed.
                Partial::Quot(q, m) => {
                    let ty = type_of(d);
                    let q = self.b.float_to(*q, ty);
                    let p = match m {
                        Some(m) => self.b.fdiv(self.b.float_to(*m, ty), q),
                        None => self.b.fdiv(self.b.real_like(d, 1.0), q),
                    };
                    self.b.fmul(p, d)
                }
            };
            let contrib = match p {
                Partial::Val(_) | Partial::Quot(..) | Partial::Lanes(_) if strong_zero => {
                    rules::strong_zero_term(&self.b, d, contrib)
                }
                _ => contrib,
            };
            let contrib = self.b.float_to(contrib, type_of(args[k]));
            self.add_adjoint(args[k], contrib)?;
        }
        if let Some(env) = strictfp::env_of(i) {
            // The adjoint's arithmetic, constrained like `i` (`build_lane`).
            if self.b.block() == block {
                for e in strictfp::emitted_between(before, block, None) {
                    self.fp_envs.insert(e, env);
                }
            }
        }
        Ok(())
    }

    fn visit_store(&mut self, i: V) -> Result<()> {
        let (v, p) = (operand(i, 0), operand(i, 1));
        let vt = type_of(v);
        // A store of an inactive value (a constant, an integer) still
        // overwrites the memory: its shadow is zeroed below.
        if !Self::has_adjoint_type(adj_type(vt)) || self.reverse_half_store(i)? {
            return Ok(());
        }
        let Some(sp) = self.shadow_avail(p)? else {
            return Ok(());
        };
        if !self.varied(v) {
            // Exactly the stored bytes become zero in the shadow.
            let s = self.b.store(zero(vt), sp);
            copy_alignment(i, s);
            self.note_origin(s, p);
            return Ok(());
        }
        let at = adj_type(vt);
        let t = self.b.load(at, sp);
        copy_alignment(i, t);
        self.note_origin(t, p);
        let s = self.b.store(zero(at), sp);
        copy_alignment(i, s);
        self.note_origin(s, p);
        if self.varied(v) {
            self.add_adjoint(v, t)?;
        }
        Ok(())
    }
}

fn is_declaration_complete(f: V) -> bool {
    // A reverse function is complete once it has a return in its exit.
    blocks(f).iter().any(|b| {
        let t = terminator(*b);
        !t.is_null() && opcode(t) == Some(LLVMOpcode::LLVMRet)
    })
}

/// a + b for floats, vectors, and aggregates of them.
pub fn add_values(b: &Builder, x: V, y: V) -> V {
    let t = type_of(x);
    if is_struct(t) || is_array(t) {
        let n = if is_struct(t) {
            struct_fields(t).len() as u32
        } else {
            array_len(t)
        };
        let mut out = x;
        for k in 0..n {
            let s = add_values(b, b.extract_value(x, k), b.extract_value(y, k));
            out = b.insert_value(out, s, k);
        }
        return out;
    }
    if !is_fp(t) {
        // Integer fields of an aggregate carry no adjoint.
        return x;
    }
    let y = if type_of(y) != t && is_fp(t) && is_fp(type_of(y)) {
        b.float_to(y, t)
    } else {
        y
    };
    b.fadd(x, y)
}

/// An integer, or a vector of integers (a value the types may take for a
/// float's bits).
fn is_int_or_int_vector(t: T) -> bool {
    is_int(t) || (is_vector(t) && is_int(elem_type(t)))
}
