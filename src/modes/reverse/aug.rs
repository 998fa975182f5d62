//! The augmented forward sweep: the primal, plus shadow pointers (so the
//! reverse sweep knows where adjoints of memory live), shadow allocations
//! (on the heap, since the reverse sweep runs after this function returns),
//! deferred frees, calls to callees' augmented functions, and the pushes
//! of everything the reverse sweep reads from the tape.
use super::tape::{self, Layout};
use super::{Act, AugRet, Key, Pair};
use crate::analysis::activity::{underlying_allocations, Activity, CopyLayout};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use crate::modes::common::lower_byval_params;
use crate::modes::Session;
use crate::rules::{self, AllocKind, CallKind, MemKind};
use std::collections::{HashMap, HashSet};

/// A call in `aug` to a callee's augmented function.
#[derive(Clone, Debug)]
pub struct CallInfo {
    pub pair: Pair,
    pub key: Key,
    /// The call's arguments (values in `aug`).
    pub args: Vec<V>,
}

pub struct Aug {
    pub primal: V,
    pub func: V,
    pub act: Activity,
    /// Shadow of each varied pointer value (and argument).
    pub shadow: HashMap<V, V>,
    /// Per block with several predecessors: a phi giving the index of the
    /// predecessor taken (into `preds[block]`).
    pub pred_index: HashMap<BB, V>,
    pub preds: HashMap<BB, Vec<BB>>,
    /// Values each block pushes (filled by the reverse sweep), in order.
    pub pushes: HashMap<BB, Vec<V>>,
    pub calls: HashMap<V, CallInfo>,
    /// Heap allocations whose frees were deferred to the reverse sweep.
    pub deferred_free: HashSet<V>,
    /// The deallocation function of deferred frees that do not call plain
    /// `free` (C++ delete, registered free-like functions), by allocation.
    pub free_fn: HashMap<V, V>,
    /// Blocks ending in `ret`, in order.
    pub ret_blocks: Vec<BB>,
    pub tape_arg: V,
    pub key: Key,
    /// The original parameter index of each `aug` parameter.
    pub param_map: Vec<V>,
    /// Layouts chosen for each block's pushes (by finish_pushes).
    pub layouts: HashMap<BB, Layout>,
    /// Loops of `func` (after loop-simplify: preheaders, one latch,
    /// dedicated exits).
    pub loops: shim::Loops,
    /// Counted loops, by header: the iteration counter phi (0 on entry
    /// from the preheader), the preheader and the latch. The reverse sweep
    /// runs such a loop backwards by counting down instead of reading the
    /// branch taken from the tape.
    pub counted: HashMap<BB, Counted>,
}

impl Aug {
    /// "cannot differentiate: msg" at `inst` of the primal function.
    pub fn unsupported(&self, inst: V, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported(msg.into()), self.primal, Some(inst))
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Counted {
    pub counter: V,
    /// The counter's value at the loop's exit, computed in the preheader
    /// from the loop bounds (SCEV's exit count) when that is known: the
    /// reverse sweep recomputes it from there instead of taping the count.
    pub trip: Option<V>,
    pub preheader: BB,
    pub latch: BB,
}

pub fn build(sess: &mut Session, key: &Key, pair: &Pair) -> Result<Aug> {
    let f = key.func;
    let aug = pair.aug;
    let ps = params(f);
    let nps = params(aug);
    let mut primal_params = Vec::new();
    let mut shadow = HashMap::new();
    let mut seeds = Vec::new();
    let mut j = 0;
    for (i, p) in ps.iter().enumerate() {
        primal_params.push(nps[j]);
        set_name(nps[j], &name(*p));
        if key.acts[i] != Act::Const {
            seeds.push(nps[j]);
        }
        j += 1;
        if key.acts[i] == Act::Dup {
            shadow.insert(nps[j - 1], nps[j]);
            set_name(nps[j], &format!("{}'", name(*p)));
            j += 1;
        }
    }
    let tape_arg = nps[j];
    set_name(tape_arg, "tape");
    let vmap = shim::clone_into(aug, f, &mut primal_params);
    drop(vmap);
    shim::strip_derivative_attrs(aug);
    remove_fn_attr(aug, "alwaysinline");
    remove_fn_attr(aug, "optnone");
    make_internal(aug);
    // The clone inherits the primal's calling convention (fastcc for
    // internal functions at -O1 and above), but is called with the C one.
    set_c_call_conv(aug);
    lower_byval_params(aug, &primal_params);
    shim::invokes_to_calls(aug);
    crate::modes::dispatch::prepare_calls(sess, aug);
    crate::modes::openmp::prepare(aug, true)?;
    super::promote::heap_allocas_for_custom_calls(aug);
    // Canonical loop shape: preheaders, a single latch, dedicated exits.
    shim::run_function_pipeline(&mut [aug], "loop-simplify").map_err(Error::internal)?;
    if sess.opts.dedup_loads {
        let n = super::dedup::dedup_loads(aug);
        if n > 0 {
            log::debug!(
                "enzyme-rs: {}: {n} duplicate load(s) share one cache",
                name(f)
            );
        }
    }
    // What the first caller knew about the arguments, for each parameter
    // of `aug` (a shadow shares its primal's tree; the tape has none).
    let caller_trees = sess.arg_trees.get(&f).cloned().unwrap_or_default();
    let mut arg_trees = Vec::new();
    for (k, act) in key.acts.iter().enumerate() {
        let t = caller_trees.get(k).cloned().unwrap_or_default();
        if *act == Act::Dup {
            arg_trees.push(t.clone());
        }
        arg_trees.push(t);
    }
    let trips = exit_counts(aug);
    let mut act = Activity::analyse_args(aug, &seeds, f, &arg_trees)?;
    // Active indirect calls go through a dispatcher over their possible
    // targets; the activity is then worked out again on the new calls.
    if crate::modes::dispatch::dispatch_active_indirect_calls(sess, aug, |v| act.is_varied(v)) > 0 {
        act = Activity::analyse_args(aug, &seeds, f, &arg_trees)?;
    }
    if sess.opts.print_activity {
        crate::analysis::printer::print_activity(
            aug,
            &act,
            &format!("reverse derivative of {}", name(f)),
        );
    }
    let mut preds: HashMap<BB, Vec<BB>> = HashMap::new();
    let order = rpo(aug);
    for b in &order {
        for s in successors(*b) {
            let e = preds.entry(s).or_default();
            if !e.contains(b) {
                e.push(*b);
            }
        }
    }
    let mut a = Aug {
        primal: f,
        func: aug,
        act,
        shadow,
        pred_index: HashMap::new(),
        preds,
        pushes: HashMap::new(),
        calls: HashMap::new(),
        deferred_free: HashSet::new(),
        free_fn: HashMap::new(),
        ret_blocks: Vec::new(),
        tape_arg,
        key: key.clone(),
        param_map: nps.clone(),
        layouts: HashMap::new(),
        loops: shim::Loops::new(aug),
        counted: HashMap::new(),
    };
    let later = super::memory::LaterWrites::of(aug);
    let mut g = AugGen {
        trips,
        later,
        sess,
        a: &mut a,
        b: Builder::for_function(aug),
        phis: Vec::new(),
        aug_ret: pair.aug_ret,
    };
    g.run(&order)?;
    Ok(a)
}

/// Backedge-taken counts of `f`'s loops that exit from one block and whose
/// count SCEV can express, each computed (as i64) in the loop's preheader.
fn exit_counts(f: V) -> HashMap<BB, V> {
    let scev = shim::Scev::new(f);
    let mut out = HashMap::new();
    for bb in blocks(f) {
        if let Some(v) = scev.expand_exit_count(bb) {
            out.insert(bb, v);
        }
    }
    out
}

struct AugGen<'a> {
    /// Exit counts of the loops that have one, by header (`exit_counts`).
    trips: HashMap<BB, V>,
    /// What the function may write after each of its calls.
    later: super::memory::LaterWrites,
    sess: &'a mut Session,
    a: &'a mut Aug,
    b: Builder,
    phis: Vec<(V, V)>,
    aug_ret: AugRet,
}

impl AugGen<'_> {
    fn primal_fn(&self) -> V {
        self.a.primal
    }

    fn err(&self, inst: V, msg: impl Into<String>) -> Error {
        self.a.unsupported(inst, msg)
    }

    fn varied(&self, v: V) -> bool {
        self.a.act.is_varied(v)
    }

    fn shadow_of(&mut self, v: V) -> Option<V> {
        if let Some(s) = self.a.shadow.get(&v) {
            return Some(*s);
        }
        let act = &self.a.act;
        if let Some(s) = self.sess.global_ptr_shadow(v, None, &|g| act.is_varied(g)) {
            self.a.shadow.insert(v, s);
            return Some(s);
        }
        None
    }

    fn shadow_or_null(&mut self, v: V, at: V) -> Result<V> {
        if let Some(s) = self.shadow_of(v) {
            return Ok(s);
        }
        let t = type_of(v);
        if is_ptr(t) && !is_null_or_undef(v) {
            if is_global_var(v) {
                return Ok(self.sess.shadow_global(v));
            }
            if let Some(s) = self.late_alloc_shadow(v) {
                return Ok(s);
            }
            if points_into_float_free_constant(v) || null_based(v) {
                // A vtable (or other read-only table without floats): its
                // memory never gets a derivative; the shadow is itself. A
                // GEP off null (the end of an empty std::vector after
                // instcombine) is its own shadow too: the shadow of null is
                // null, moved by the same offset.
                return Ok(v);
            }
            return Err(self.err(
                at,
                format!("pointer {} has no shadow here but is mixed with active pointers (pass its memory with enzyme_dup)", print_value(v).trim()),
            ));
        }
        if is_ptr_aggregate(t) && !is_null_or_undef(v) {
            return Err(self.err(
                at,
                format!("pointers in {} have no shadow here but are mixed with active pointers (pass their memory with enzyme_dup)", print_value(v).trim()),
            ));
        }
        Ok(zero(t))
    }

    /// A heap allocation that carries no derivative itself but meets
    /// active pointers (returned as a duplicated result, say) gets a zeroed
    /// shadow made right after it.
    fn late_alloc_shadow(&mut self, v: V) -> Option<V> {
        // Only calls classify (an argument or a GEP crashed it).
        if !is_call(v) && !is_invoke(v) {
            return None;
        }
        let CallKind::Alloc(AllocKind::Malloc { size_arg }) = rules::classify(v) else {
            return None;
        };
        let b = Builder::for_function(self.a.func);
        b.after(v);
        b.clear_debug_loc();
        let c = b.clone_call_with(v, &[]);
        set_name(c, &format!("{}'", name(v)));
        b.zero_bytes(c, operand(v, size_arg));
        self.a.shadow.insert(v, c);
        Some(c)
    }

    fn run(&mut self, order: &[BB]) -> Result<()> {
        let ctx = self.b.ctx;
        // Freed heap allocations: frees are deferred to the reverse sweep.
        // A realloc of active memory frees its old block too: that free is
        // deferred as well (see `lower_realloc`).
        for bb in order {
            for i in instructions(*bb) {
                let kind = if is_call(i) {
                    rules::classify(i)
                } else {
                    CallKind::Inactive
                };
                if let CallKind::Alloc(k @ (AllocKind::Free | AllocKind::Realloc)) = kind {
                    let p = operand(i, 0);
                    // Also when only the allocation is active (the freed
                    // pointer itself may be an inactive copy, e.g. an LCSSA
                    // phi used by nothing else).
                    if self.varied(p) || underlying_allocations(p).iter().any(|o| self.varied(*o)) {
                        let callee = known_target(i).unwrap();
                        let user_free = k == AllocKind::Free
                            && name(callee) != "free"
                            && !name(callee).starts_with("_Zd");
                        for o in underlying_allocations(p) {
                            self.a.deferred_free.insert(o);
                            if user_free {
                                self.a.free_fn.insert(o, callee);
                            }
                        }
                    }
                }
            }
        }
        for &bb in order {
            // Which predecessor was taken, for blocks with several.
            let preds = self.a.preds.get(&bb).cloned().unwrap_or_default();
            if let Some(c) = self.counted_loop(bb, &preds) {
                self.a.counted.insert(bb, c);
            } else if let Some(sel) = self.branch_pred_index(bb, &preds) {
                self.a.pred_index.insert(bb, sel);
            } else if preds.len() > 1 {
                self.b.at_first_non_phi(bb);
                self.b.clear_debug_loc();
                let i64t = i64_type(ctx);
                let phi = self.b.phi(i64t);
                set_name(phi, "pred.index");
                for (k, p) in preds.iter().enumerate() {
                    let v = const_i64(ctx, k as i64);
                    // One incoming entry per edge (a switch may branch twice).
                    let edges = successors(*p).into_iter().filter(|s| *s == bb).count();
                    for _ in 0..edges {
                        add_incoming(phi, &[(v, *p)]);
                    }
                }
                self.a.pred_index.insert(bb, phi);
            }
            if opcode(terminator(bb)) == Some(LLVMOpcode::LLVMRet) {
                self.a.ret_blocks.push(bb);
            }
            for i in instructions(bb) {
                if self.a.pred_index.get(&bb) == Some(&i)
                    || self.a.counted.get(&bb).map(|c| c.counter) == Some(i)
                {
                    continue;
                }
                self.b.set_debug_loc_from(i);
                self.visit(i)?;
            }
        }
        for (p, sp) in std::mem::take(&mut self.phis) {
            for (v, bb) in incoming(p) {
                let sv = self.shadow_or_null(v, p)?;
                add_incoming(sp, &[(sv, bb)]);
            }
        }
        Ok(())
    }

    /// For a call about to be differentiated: which of its pointer
    /// arguments' memory may be overwritten before the callee's reverse
    /// sweep runs (by this function after the call, or by this function's
    /// own caller, as this function's key says), and whether globals may.
    fn overwritten_after(&self, call: V, args: &[V]) -> (Vec<bool>, bool) {
        let mine = self.a.key.overwritten_params(self.a.func);
        let any_mine = !mine.is_empty() || self.a.key.globals_overwritten;
        self.later.for_call(
            call,
            args,
            |o| mine.contains(&o) || (any_mine && super::memory::is_unknown_object(o)),
            self.a.key.globals_overwritten,
        )
    }

    /// The join `m` of a two-way branch (`br c, t, f` in m's immediate
    /// dominator d, t and f each entered only from d, one predecessor of m
    /// under t and the other under f, or d itself on a direct edge): which
    /// predecessor was taken follows from the last value of `c`, so the
    /// index is `select c` in d, which the reverse sweep can recompute
    /// instead of reading it from the tape.
    fn branch_pred_index(&mut self, m: BB, preds: &[BB]) -> Option<V> {
        if preds.len() != 2 {
            return None;
        }
        let d = self.a.loops.idom(m)?;
        let br = terminator(d);
        if opcode(br) != Some(LLVMOpcode::LLVMBr) || num_operands(br) != 3 {
            return None;
        }
        let succ = successors(d);
        let (t, f) = (succ[0], succ[1]);
        if t == f {
            return None;
        }
        let single_pred = |s: BB| -> bool {
            self.a.preds.get(&s).map(|p| p.as_slice()) == Some(&[d][..])
                && successors(d).iter().filter(|x| **x == s).count() == 1
        };
        // Which side of the branch each predecessor of m is on.
        let side = |p: BB, s: BB| -> bool {
            if s == m {
                p == d
            } else {
                single_pred(s) && self.a.loops.block_dominates(s, p)
            }
        };
        let on_t = if side(preds[0], t) && side(preds[1], f) {
            0
        } else if side(preds[1], t) && side(preds[0], f) {
            1
        } else {
            return None;
        };
        let ctx = self.b.ctx;
        self.b.before(br);
        self.b.clear_debug_loc();
        let sel = self.b.select(
            operand(br, 0),
            const_i64(ctx, on_t),
            const_i64(ctx, 1 - on_t),
        );
        set_name(sel, "pred.index");
        Some(sel)
    }

    /// If `h` heads a loop with a preheader and a single latch (its only
    /// two predecessors), add an iteration counter and describe the loop.
    fn counted_loop(&mut self, h: BB, preds: &[BB]) -> Option<Counted> {
        if self.a.loops.header(h) != Some(h) || preds.len() != 2 {
            return None;
        }
        let pre = self.a.loops.preheader(h)?;
        let latch = *preds.iter().find(|p| **p != pre)?;
        if !preds.contains(&pre) || !self.a.loops.contains(h, latch) {
            return None;
        }
        let ctx = self.b.ctx;
        let i64t = i64_type(ctx);
        self.b.at_first_non_phi(h);
        self.b.clear_debug_loc();
        let c = self.b.phi(i64t);
        set_name(c, "iter");
        self.b.before(terminator(latch));
        let next = self.b.nuw_add(c, const_i64(ctx, 1));
        set_name(next, "iter.next");
        for (v, b) in [(const_i64(ctx, 0), pre), (next, latch)] {
            let edges = successors(b).into_iter().filter(|s| *s == h).count();
            for _ in 0..edges {
                add_incoming(c, &[(v, b)]);
            }
        }
        Some(Counted {
            counter: c,
            trip: self.trips.get(&h).copied(),
            preheader: pre,
            latch,
        })
    }

    fn visit(&mut self, i: V) -> Result<()> {
        use LLVMOpcode::*;
        let op = opcode(i).unwrap();
        let t = type_of(i);
        match op {
            LLVMStore => {
                let (v, p) = (operand(i, 0), operand(i, 1));
                if is_ptr(type_of(v)) {
                    if let Some(sp) = self.shadow_of(p) {
                        let sv = self.shadow_or_null(v, i)?;
                        self.b.after(i);
                        let s = self.b.store(sv, sp);
                        copy_mem_flags(i, s);
                    }
                } else if self.varied(v) && self.shadow_of(p).is_none() && !self.a.act.is_reached(p)
                {
                    return Err(self.err(
                        i,
                        "an active value is stored into memory that has no shadow",
                    ));
                }
                return Ok(());
            }
            LLVMCall => return self.visit_call(i),
            LLVMInvoke | LLVMLandingPad | LLVMResume | LLVMCallBr | LLVMCatchPad
            | LLVMCleanupPad => {
                if self.varied(i) || operands(i).iter().any(|o| self.varied(*o)) {
                    return Err(self.err(i, "exception handling (invoke/landingpad) with active values is not supported; compile with -fno-exceptions or keep exceptions out of the differentiated code"));
                }
                return Ok(());
            }
            LLVMRet => {
                if self.aug_ret == AugRet::PrimalShadow {
                    let v = operand(i, 0);
                    let sv = self.shadow_or_null(v, i)?;
                    self.b.before(i);
                    let st = fn_return_type(self.a.func);
                    let r = self.b.make_struct(st, &[v, sv]);
                    self.b.ret(r);
                    self.erase(i);
                }
                return Ok(());
            }
            _ => {}
        }
        if !((is_ptr(t) || is_ptr_aggregate(t)) && self.varied(i)) {
            return Ok(());
        }
        self.b.after(i);
        let s = match op {
            LLVMGetElementPtr => match self.shadow_of(operand(i, 0)) {
                Some(sb) => {
                    let mut idx: Vec<V> = operands(i)[1..].to_vec();
                    let src_ty = gep_source_type(i);
                    let g = self.b.gep(src_ty, sb, &mut idx);
                    copy_inbounds(i, g);
                    Some(g)
                }
                None => None,
            },
            LLVMBitCast | LLVMAddrSpaceCast => {
                self.shadow_of(operand(i, 0)).map(|s| self.b.cast(op, s, t))
            }
            LLVMPHI => {
                self.b.at_first_non_phi(inst_block(i));
                let sp = self.b.phi(t);
                set_name(sp, &format!("{}'", name(i)));
                self.phis.push((i, sp));
                Some(sp)
            }
            LLVMSelect => {
                let (c, x, y) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let sx = self.shadow_or_null(x, i)?;
                let sy = self.shadow_or_null(y, i)?;
                Some(self.b.select(c, sx, sy))
            }
            LLVMLoad => match self.shadow_of(operand(i, 0)) {
                Some(sp) => {
                    let l = self.b.load(t, sp);
                    copy_mem_flags(i, l);
                    Some(l)
                }
                None => None,
            },
            LLVMAlloca => {
                // The reverse sweep outlives this frame: shadow on the heap.
                let ty = allocated_type(i);
                let n = operand(i, 0);
                let ctx = self.b.ctx;
                let size = type_alloc_size(self.sess.module, ty);
                let len = self.b.mul(
                    const_i64(ctx, size as i64),
                    self.b.int_cast(n, i64_type(ctx), false),
                );
                let s = self.b.malloc(len);
                set_name(s, &format!("{}'", name(i)));
                self.b.zero_bytes(s, len);
                Some(s)
            }
            LLVMFreeze => self.shadow_of(operand(i, 0)),
            // Aggregates of pointers (Rust's slices): the shadow aggregate.
            LLVMExtractValue => {
                let mut s = self.shadow_or_null(operand(i, 0), i)?;
                for k in indices(i) {
                    s = self.b.extract_value(s, k);
                }
                Some(s)
            }
            LLVMInsertValue => {
                let (agg, v) = (operand(i, 0), operand(i, 1));
                let sa = self.shadow_or_null(agg, i)?;
                let sv = if contains_ptr(type_of(v)) {
                    self.shadow_or_null(v, i)?
                } else {
                    v
                };
                Some(insert_nested(&self.b, sa, sv, &indices(i)))
            }
            _ => {
                return Err(self.err(
                    i,
                    format!(
                        "no reverse-mode rule for pointer instruction '{}'",
                        opcode_name(op)
                    ),
                ))
            }
        };
        if let Some(s) = s {
            self.a.shadow.insert(i, s);
        }
        Ok(())
    }

    fn visit_call(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        let any_arg_varied = args.iter().any(|a| self.varied(*a));
        let is_varied = self.varied(i);
        let kind = rules::classify(i);
        match kind {
            CallKind::Alloc(AllocKind::Free)
                if underlying_allocations(operand(i, 0))
                    .iter()
                    .any(|o| self.a.deferred_free.contains(o)) =>
            {
                // Deferred to the reverse sweep (which frees it after its last use).
                self.erase(i);
                return Ok(());
            }
            CallKind::Mpi(k) => {
                if let Some(kept) = crate::modes::mpi::augment(self, i, k)? {
                    self.a.shadow.insert(i, kept); // read back by the reverse sweep
                }
                return Ok(());
            }
            CallKind::AllocOut => return self.alloc_out(i),
            CallKind::ShadowReplay => return self.run_on_shadow(i),
            _ => {}
        }
        // Shadow pointers of copied pointer bytes, from the type analysis
        // (else from the IR types at the copy, below).
        let shadows_copied = matches!(kind, CallKind::MemTransfer(MemKind::Copy | MemKind::Move))
            && self.copy_shadow_pointers(i)?;
        if matches!(kind, CallKind::Inactive) || (!any_arg_varied && !is_varied) {
            return Ok(());
        }
        match kind {
            CallKind::Custom(c) if c.gradient.is_some() => self.visit_custom_call(i),
            CallKind::Custom(_) => self.visit_call_kind(i, kind.without_custom(), shadows_copied),
            k => self.visit_call_kind(i, k, shadows_copied),
        }
    }

    /// `posix_memalign`: an allocation returned through memory. When that
    /// memory has a shadow, allocate a zeroed shadow block into it the same way.
    fn alloc_out(&mut self, i: V) -> Result<()> {
        if let Some(sslot) = self.shadow_of(operand(i, 0)) {
            self.b.after(i);
            self.b.clone_call_with(i, &[(0, sslot)]);
            let ctx = self.b.ctx;
            let sb = self.b.load(ptr_type(ctx), sslot);
            self.b.zero_bytes(sb, operand(i, 2));
        }
        Ok(())
    }

    fn visit_call_kind(&mut self, i: V, kind: CallKind, shadows_copied: bool) -> Result<()> {
        let is_varied = self.varied(i);
        match kind {
            CallKind::MemTransfer(MemKind::Copy | MemKind::Move) => {
                self.copy_pointer_fields(i, shadows_copied);
                Ok(())
            }
            // Handled by the reverse sweep.
            CallKind::MemTransfer(MemKind::Set) | CallKind::Rule(_) => Ok(()),
            CallKind::Alloc(k) => self.visit_alloc(i, k, is_varied),
            CallKind::Inactive | CallKind::AllocOut | CallKind::ShadowReplay | CallKind::Mpi(_) => {
                Ok(())
            }
            CallKind::Custom(_) => unreachable!("custom calls are resolved by the caller"),
            CallKind::Indirect
            | CallKind::InlineAsm
            | CallKind::Defined(_)
            | CallKind::Unknown(_) => self.visit_differentiable_call(i),
            CallKind::OpenMp(crate::rules::openmp::OmpCall::Fork) => self.visit_fork(i),
            CallKind::OpenMp(_) => Ok(()),
        }
    }

    /// A parallel region (`modes/openmp/fork.rs`).
    fn visit_fork(&mut self, i: V) -> Result<()> {
        let cap = call_args(i)[3..].to_vec();
        let acts: Vec<Act> = cap
            .iter()
            .map(|a| act_of(type_of(*a), self.varied(*a)))
            .collect();
        let mut shadows = Vec::new();
        for (a, act) in cap.iter().zip(&acts) {
            shadows.push(match act {
                Act::Dup => Some(self.shadow_or_null(*a, i)?),
                _ => None,
            });
        }
        let (overwritten, globals_overwritten) = self.overwritten_after(i, &cap);
        let site = crate::modes::openmp::fork::ForkSite {
            call: i,
            varied: cap.iter().map(|a| self.varied(*a)).collect(),
            acts,
            shadows,
            overwritten,
            globals_overwritten,
            tape: self.a.tape_arg,
        };
        let (nc, info) = crate::modes::openmp::fork::augment_fork(self.sess, site)?;
        self.a.calls.insert(nc, info);
        self.erase(i);
        Ok(())
    }

    /// Pointer fields of copied structs take their shadow pointers along
    /// (memlayout.rs); floats are handled by the reverse sweep.
    fn copy_pointer_fields(&mut self, i: V, shadows_copied: bool) {
        let (dst, src) = (operand(i, 0), operand(i, 1));
        let Some(l) = super::memlayout::copy_layout(self.sess.module, &[dst, src], operand(i, 2))
            .filter(|_| !shadows_copied)
        else {
            return;
        };
        if !l.has_ptr() {
            return;
        }
        if let (Some(sd), Some(ss)) = (self.shadow_of(dst), self.shadow_of(src)) {
            let h = super::memlayout::helper(
                self.sess.module,
                &l,
                super::memlayout::Sweep::ForwardPointers,
            );
            self.b.after(i);
            let len = self.b.int_cast(operand(i, 2), i64_type(self.b.ctx), false);
            self.b.call_fn(h, &mut [sd, ss, len]);
        }
    }

    fn visit_alloc(&mut self, i: V, k: AllocKind, is_varied: bool) -> Result<()> {
        match k {
            AllocKind::Free => {
                if self.varied(operand(i, 0)) {
                    self.erase(i);
                }
            }
            AllocKind::Malloc { size_arg } => {
                if is_varied {
                    self.b.after(i);
                    let c = self.b.clone_call_with(i, &[]);
                    set_name(c, &format!("{}'", name(i)));
                    self.b.zero_bytes(c, operand(i, size_arg));
                    self.a.shadow.insert(i, c);
                }
            }
            AllocKind::Calloc => {
                if is_varied {
                    self.b.after(i);
                    let c = self.b.clone_call_with(i, &[]);
                    self.a.shadow.insert(i, c);
                }
            }
            AllocKind::Realloc => {
                if is_varied || self.varied(operand(i, 0)) {
                    self.lower_realloc(i)?;
                }
            }
        }
        Ok(())
    }

    /// A call of a function differentiated in turn (its augmented forward
    /// sweep replaces the call; the reverse sweep calls its reverse).
    fn visit_differentiable_call(&mut self, i: V) -> Result<()> {
        let callee = known_target(i);
        let cname = callee.map(name).unwrap_or_default();
        let args = call_args(i);
        let is_varied = self.varied(i);
        let callee = crate::modes::callee_to_differentiate(i, callee, self.primal_fn())?;
        if is_declaration(callee) {
            return Err(Error::new(
                ErrorKind::UnknownFunction(cname),
                self.a.primal,
                Some(i),
            ));
        }
        if is_vararg(fn_type(callee)) {
            return Err(self.err(
                i,
                format!("call to variadic function '{cname}' with active arguments"),
            ));
        }
        let acts: Vec<Act> = args
            .iter()
            .map(|a| act_of(type_of(*a), self.varied(*a)))
            .collect();
        let ret_ty = type_of(i);
        let (overwritten, globals_overwritten) = self.overwritten_after(i, &args);
        let key = Key {
            func: callee,
            acts: acts.clone(),
            ret_active: is_varied && contains_fp(ret_ty) && !contains_ptr(ret_ty),
            overwritten,
            globals_overwritten,
        };
        if !self.sess.arg_trees.contains_key(&callee) {
            let trees = self.a.act.arg_trees(i);
            self.sess.arg_trees.insert(callee, trees);
        }
        let pair = super::get_pair(self.sess, &key, None)?;
        self.b.before(i);
        let mut new_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            new_args.push(*a);
            if acts[k] == Act::Dup {
                let s = self.shadow_or_null(*a, i)?;
                new_args.push(s);
            }
        }
        new_args.push(self.a.tape_arg);
        let nc = self.b.call_fn(pair.aug, &mut new_args);
        let primal_value = match pair.aug_ret {
            AugRet::Void | AugRet::Primal => {
                replace_all_uses(i, nc);
                nc
            }
            AugRet::PrimalShadow => {
                let p = self.b.extract_value(nc, 0);
                let s = self.b.extract_value(nc, 1);
                replace_all_uses(i, p);
                self.a.shadow.insert(p, s);
                p
            }
        };
        if is_varied {
            self.a.act.varied.insert(primal_value);
        }
        self.a.calls.insert(nc, CallInfo { pair, key, args });
        self.erase(i);
        Ok(())
    }
}

impl AugGen<'_> {
    /// `q = realloc(p, n)` of active memory. The reverse sweep still needs
    /// the old block's shadow (adjoints of what was stored there before),
    /// so the augmented sweep allocates a fresh block instead and copies:
    ///
    ///   k  = min(malloc_usable_size(p), n)
    ///   q  = malloc(n);  memcpy(q, p, k)
    ///   q' = malloc(n);  memset(q', 0, n);  memcpy(q', p', k)
    ///
    /// The old block's free is deferred like any other free of active
    /// memory (it is freed where the reverse sweep undoes its allocation).
    /// The reverse sweep needs no rule of its own: the primal memcpy's
    /// adjoint adds q''s adjoints of the k copied bytes back into p', and
    /// the malloc frees q and q' where its own free was deferred.
    fn lower_realloc(&mut self, i: V) -> Result<()> {
        let ctx = self.b.ctx;
        let (p, n) = (operand(i, 0), operand(i, 1));
        let sp = self.shadow_or_null(p, i)?;
        self.b.before(i);
        let i64t = i64_type(ctx);
        let pt = ptr_type(ctx);
        let usable_ty = fn_type_of(i64t, &mut [pt], false);
        let usable = get_or_declare(self.sess.module, "malloc_usable_size", usable_ty);
        let old = self.b.call(usable_ty, usable, &mut [p]);
        let n64 = self.b.int_cast(n, i64t, false);
        let fits = self.b.icmp(LLVMIntPredicate::LLVMIntULT, old, n64);
        let k = self.b.select(fits, old, n64);
        let q = self.b.malloc(n64);
        let qname = name(i);
        set_name(i, "");
        set_name(q, &qname);
        self.b.memcpy(q, p, k, 1);
        let sq = self.b.malloc(n64);
        set_name(sq, &format!("{qname}'"));
        self.b.zero_bytes(sq, n64);
        self.b.memcpy(sq, sp, k, 1);
        replace_all_uses(i, q);
        if self.a.deferred_free.remove(&i) {
            self.a.deferred_free.insert(q);
        }
        self.a.act.varied.remove(&i);
        self.a.act.varied.insert(q);
        self.a.shadow.insert(q, sq);
        self.erase(i);
        Ok(())
    }

    /// A call to a function with a custom gradient: its pair has a fixed
    /// activity (float parameters active, pointers duplicated with a null
    /// shadow when they have none, a float result active), so the user's
    /// functions have one signature wherever they are used.
    fn visit_custom_call(&mut self, i: V) -> Result<()> {
        let callee = called_function(i).unwrap();
        let args = call_args(i);
        let acts: Vec<Act> = args.iter().map(|a| act_of(type_of(*a), true)).collect();
        let ret_ty = type_of(i);
        let key = Key {
            func: callee,
            acts: acts.clone(),
            ret_active: is_fp(ret_ty),
            // A custom gradient keeps what it needs on its own tape.
            overwritten: vec![false; args.len()],
            globals_overwritten: false,
        };
        let pair = super::get_pair(self.sess, &key, None)?;
        self.b.before(i);
        let mut new_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            new_args.push(*a);
            if acts[k] == Act::Dup {
                let s = match self.shadow_of(*a) {
                    Some(s) => s,
                    None => self
                        .sess
                        .global_ptr_shadow(*a, None, &|_| true)
                        .unwrap_or_else(|| zero(type_of(*a))),
                };
                new_args.push(s);
            }
        }
        new_args.push(self.a.tape_arg);
        let nc = self.b.call_fn(pair.aug, &mut new_args);
        if !is_void(ret_ty) {
            replace_all_uses(i, nc);
            if self.varied(i) {
                self.a.act.varied.insert(nc);
            }
        }
        self.a.calls.insert(nc, CallInfo { pair, key, args });
        self.erase(i);
        Ok(())
    }
}

/// The activity a callee parameter gets from an argument of type `t`:
/// active float, duplicated pointer, else constant.
fn act_of(t: T, varied: bool) -> Act {
    if !varied {
        Act::Const
    } else if is_fp(t) {
        Act::Active
    } else if is_ptr(t) {
        Act::Dup
    } else {
        Act::Const
    }
}

impl Aug {
    /// The tape layout: bytes each block pushes per execution, with the
    /// block's loop depth (a block at depth > 0 pushes once per iteration).
    pub fn tape_report(&self) -> String {
        let mut out = format!("enzyme-rs tape: {}\n", name(self.func));
        let mut total_loop = 0;
        for bb in blocks(self.func) {
            let Some(l) = self.layouts.get(&bb) else {
                continue;
            };
            if l.total == 0 {
                continue;
            }
            let depth = self.loops.depth(bb);
            if depth > 0 {
                total_loop += l.total;
            }
            let vals: Vec<String> = self.pushes[&bb]
                .iter()
                .map(|v| format!("{} {}", print_type(type_of(*v)), name(*v)))
                .collect();
            out.push_str(&format!(
                "  block {} (loop depth {depth}): {} bytes [{}]\n",
                block_name(bb),
                l.total,
                vals.join(", ")
            ));
        }
        out.push_str(&format!("  per innermost iteration: {total_loop} bytes\n"));
        out
    }

    /// Emit each block's pushes (now that the reverse sweep has said what
    /// it needs) just before the block's terminator, then the return-block
    /// index for functions with several returns.
    pub fn finish_pushes(&mut self, sess: &mut Session) -> Result<()> {
        let b = Builder::new(sess.module);
        let ctx = b.ctx;
        let reserve = tape::reserve_fn(sess.module);
        let blocks: Vec<BB> = self.pushes.keys().copied().collect();
        for bb in blocks {
            let vals = self.pushes[&bb].clone();
            if vals.is_empty() {
                continue;
            }
            let layout = self
                .layouts
                .get(&bb)
                .cloned()
                .ok_or_else(|| Error::internal("missing tape layout"))?;
            b.before(terminator(bb));
            b.clear_debug_loc();
            let base = b.call_fn(
                reserve,
                &mut [self.tape_arg, const_i64(ctx, layout.total as i64)],
            );
            for (k, v) in vals.iter().enumerate() {
                let p = b.gep(
                    i8_type(ctx),
                    base,
                    &mut [const_i64(ctx, layout.offsets[k] as i64)],
                );
                let s = b.store(*v, p);
                set_alignment(s, 8);
            }
        }
        if self.ret_blocks.len() > 1 {
            for (k, bb) in self.ret_blocks.iter().enumerate() {
                b.before(terminator(*bb));
                b.clear_debug_loc();
                let base = b.call_fn(reserve, &mut [self.tape_arg, const_i64(ctx, 8)]);
                let s = b.store(const_i64(ctx, k as i64), base);
                set_alignment(s, 8);
            }
        }
        Ok(())
    }
}

impl AugGen<'_> {
    /// A memcpy/memmove of memory holding pointers into memory that has a
    /// shadow: the shadow pointers are copied along (as a pointer store
    /// stores its shadow). Float bytes are left alone: their adjoints move
    /// back in the reverse sweep.
    /// Returns whether it copied.
    fn copy_shadow_pointers(&mut self, i: V) -> Result<bool> {
        let (dst, src) = (operand(i, 0), operand(i, 1));
        let Some(sd) = self.shadow_of(dst) else {
            return Ok(false);
        };
        let layout = self.a.act.copy_layout(i);
        let ptrs =
            match &layout {
                CopyLayout::Pointers => None,
                CopyLayout::Mixed { ptrs, .. } if !ptrs.is_empty() => Some(ptrs.clone()),
                // The IR types at the copy's pointers may still say which
                // fields are pointers (memlayout.rs, below in visit_call).
                CopyLayout::MixedUnknown
                    if super::memlayout::copy_layout(
                        self.sess.module,
                        &[dst, operand(i, 1)],
                        operand(i, 2),
                    )
                    .is_some() =>
                {
                    return Ok(false)
                }
                CopyLayout::MixedUnknown => return Err(self.err(
                    i,
                    "memory transfer of floats mixed with pointers at offsets not known exactly",
                )),
                _ => return Ok(false),
            };
        let Some(ss) = self.shadow_of(src) else {
            return Ok(false);
        };
        self.b.after(i);
        match ptrs {
            None => {
                let c = self.b.insert_clone(i);
                set_operand(c, 0, sd);
                set_operand(c, 1, ss);
            }
            Some(offs) => {
                let ctx = self.b.ctx;
                for o in offs {
                    let from = self.b.gep(i8_type(ctx), ss, &mut [const_i64(ctx, o)]);
                    let to = self.b.gep(i8_type(ctx), sd, &mut [const_i64(ctx, o)]);
                    let v = self.b.load(ptr_type(ctx), from);
                    self.b.store(v, to);
                }
            }
        }
        Ok(true)
    }
}

/// Whether `v` is a function, or a constant expression into a constant
/// global whose contents hold no floats (a C++ vtable, a table of function
/// pointers). (A call through such a pointer with active arguments is still
/// an error: see `callee_to_differentiate`.)
fn points_into_float_free_constant(v: V) -> bool {
    let mut g = strip_casts(v);
    while is_const_gep(g) {
        g = strip_casts(operand(g, 0));
    }
    is_function(g) || (is_global_var(g) && is_global_constant(g) && !contains_fp(global_type(g)))
}

/// Whether `v` is null moved by GEPs (`gep T, ptr null, %n`).
fn null_based(v: V) -> bool {
    let mut p = strip_casts(v);
    while opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr) {
        p = strip_casts(operand(p, 0));
    }
    p != v && is_const_null_ptr(p)
}

impl AugGen<'_> {
    /// Erase primal instruction `i`, forgetting it in the activity sets: a
    /// later instruction (a loop counter, say) may be allocated at the same
    /// address and must not inherit its activity.
    fn erase(&mut self, i: V) {
        self.a.act.forget(i);
        erase(i);
    }
}

impl AugGen<'_> {
    /// A pointer-only library function (see `rules::runs_on_shadow`) whose
    /// pointer arguments have shadows: call it on the shadows too, right
    /// after the primal call; a returned pointer's shadow is that call's
    /// result.
    fn run_on_shadow(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        if !args.iter().any(|a| self.shadow_of(*a).is_some()) {
            return Ok(());
        }
        let mut shadows = Vec::new();
        for a in &args {
            shadows.push(if is_ptr(type_of(*a)) {
                self.shadow_or_null(*a, i)?
            } else {
                *a
            });
        }
        self.b.after(i);
        let c = self.b.insert_clone(i);
        for (k, s) in shadows.into_iter().enumerate() {
            set_operand(c, k as u32, s);
        }
        if is_ptr(type_of(i)) {
            set_name(c, &format!("{}'", name(i)));
            self.a.shadow.insert(i, c);
        }
        Ok(())
    }
}

impl crate::modes::mpi::Sweep for AugGen<'_> {
    fn builder(&self) -> &Builder {
        &self.b
    }
    fn user_fn(&self) -> V {
        self.a.primal
    }
    fn shadow_ptr(&mut self, p: V) -> Result<Option<V>> {
        Ok(self.shadow_of(p))
    }
    fn value(&mut self, v: V) -> Result<V> {
        Ok(v)
    }
}
