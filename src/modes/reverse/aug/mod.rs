//! The augmented forward sweep: the primal, plus shadow pointers (so the
//! reverse sweep knows where adjoints of memory live), shadow allocations
//! (on the heap, since the reverse sweep runs after this function returns),
//! deferred frees, calls to callees' augmented functions, and the pushes
//! of everything the reverse sweep reads from the tape.
use super::freelist;
use super::tape::{self, Layout};
use super::{Act, AugRet, Key, Pair};
use crate::analysis::activity::{underlying_allocations, Activity};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use crate::modes::common::lower_byval_params;
use crate::modes::Session;
use crate::rules::{self, AllocKind, CallKind};
use std::collections::{HashMap, HashSet};

mod calls;
pub use calls::may_be_reallocated;
mod errno;
mod joinroute;
mod region;
mod shadow;
use crate::modes::common::{null_based, points_into_float_free_constant};

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
    /// Shadow of each varied pointer value (and argument) in the current
    /// lane ([`Aug::set_lane`]).
    pub shadow: HashMap<V, V>,
    /// The shadow maps of the other vector lanes (the current lane's entry
    /// is empty while it lives in `shadow`).
    pub lane_shadows: Vec<HashMap<V, V>>,
    /// The lane `shadow` belongs to.
    pub lane: usize,
    /// Per block with several predecessors: a phi giving the index of the
    /// predecessor taken (into `preds[block]`).
    pub pred_index: HashMap<BB, V>,
    pub preds: HashMap<BB, Vec<BB>>,
    /// Values each block pushes (filled by the reverse sweep), in order.
    pub pushes: HashMap<BB, Vec<V>>,
    pub calls: HashMap<V, CallInfo>,
    /// Heap allocations whose frees were deferred to the reverse sweep.
    pub deferred_free: HashSet<V>,
    /// Frees of loaded pointers deferred to the gradient's call site
    /// (`freelist.rs`).
    pub listed_free: HashSet<V>,
    /// The deallocation function of deferred frees that do not call plain
    /// `free` (C++ delete, registered free-like functions), by allocation.
    pub free_fn: HashMap<V, V>,
    /// Heap shadows taken from a slot of their allocation site (keep.rs),
    /// by (allocation, lane): the slot the reverse sweep gives them back to.
    pub kept: HashMap<(V, usize), V>,
    /// Blocks ending in `ret`, in order.
    pub ret_blocks: Vec<BB>,
    pub tape_arg: V,
    pub key: Key,
    /// The original parameter index of each `aug` parameter.
    pub param_map: Vec<V>,
    /// Layouts chosen for each block's pushes (by finish_pushes).
    pub layouts: HashMap<BB, Layout>,
    /// The pop call of each block in each lane's reverse function, sized
    /// by `rev::finish_pops` once every lane has said what it reads.
    /// With the iteration slot of the block's loop when that loop is
    /// counted (`packed.rs`).
    pub pop_calls: Vec<(BB, V, Option<V>)>,
    /// Blocks whose narrow pushes share 8 bytes across iterations (set by
    /// `rev::finish_pops`, see `packed.rs`).
    pub packed: HashMap<BB, super::packed::Group>,
    /// Loops of `func` (after loop-simplify: preheaders, one latch,
    /// dedicated exits).
    pub loops: shim::Loops,
    /// Counted loops, by header: the iteration counter phi (0 on entry
    /// from the preheader), the preheader and the latch. The reverse sweep
    /// runs such a loop backwards by counting down instead of reading the
    /// branch taken from the tape.
    pub counted: HashMap<BB, Counted>,
    /// Loop-header phis that replay a load recurrence (`x[i+1]` carried to
    /// the next iteration is `x[i]` there): the reverse sweep loads them
    /// again when the memory is not written.
    pub recurrences: HashMap<V, shim::LoadRecurrence>,
    /// Why each taped value is not recomputed (for remarks).
    pub why: HashMap<V, String>,
}

impl Aug {
    /// Make `shadow` the shadow map of vector lane `lane`.
    pub fn set_lane(&mut self, lane: usize) {
        if lane == self.lane {
            return;
        }
        std::mem::swap(&mut self.shadow, &mut self.lane_shadows[self.lane]);
        self.lane = lane;
        std::mem::swap(&mut self.shadow, &mut self.lane_shadows[lane]);
    }

    /// Number of vector lanes.
    pub fn lanes(&self) -> usize {
        self.lane_shadows.len()
    }

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
    let lanes = key.lanes();
    let mut lane_shadows = vec![HashMap::new(); lanes];
    let mut seeds = Vec::new();
    let mut j = 0;
    for (i, p) in ps.iter().enumerate() {
        let primal = nps[j];
        primal_params.push(primal);
        set_name(primal, &name(*p));
        if key.acts[i] != Act::Const {
            seeds.push(primal);
        }
        j += 1;
        if key.acts[i] == Act::Dup {
            for (lane, map) in lane_shadows.iter_mut().enumerate() {
                map.insert(primal, nps[j]);
                let n = if lanes == 1 {
                    format!("{}'", name(*p))
                } else {
                    format!("{}'{lane}", name(*p))
                };
                set_name(nps[j], &n);
                j += 1;
            }
        }
    }
    let shadow = std::mem::take(&mut lane_shadows[0]);
    let tape_arg = nps[j];
    set_name(tape_arg, "tape");
    let vmap = shim::clone_into(aug, f, &mut primal_params);
    drop(vmap);
    crate::modes::iface::iter::step_in_clone(aug);
    shim::strip_derivative_attrs(aug);
    crate::modes::reverse::rev::mark_recompute_as(aug, f);
    remove_fn_attr(aug, "alwaysinline");
    let unoptimized = fn_has_attr(aug, "optnone");
    remove_fn_attr(aug, "optnone");
    make_internal(aug);
    let dup: Vec<bool> = key.acts.iter().map(|a| *a == Act::Dup).collect();
    super::distinct::mark_aug_params(aug, f, &key.distinct, &dup, lanes);
    // The clone inherits the primal's calling convention (fastcc for
    // internal functions at -O1 and above), but is called with the C one.
    set_c_call_conv(aug);
    lower_byval_params(aug, &primal_params);
    shim::invokes_to_calls(aug);
    strip_threadlocal_address(aug);
    crate::modes::dispatch::prepare_calls(sess, aug);
    let nested = crate::modes::openmp::runs_in_parallel(sess.module, f);
    crate::modes::openmp::prepare_in(aug, true, nested)?;
    crate::modes::gpu::prepare_aug(aug)?;
    if unoptimized {
        // Local variables of an -O0 clone in registers: loads of their
        // stack slots (the loop counter, the pointer parameters) would
        // otherwise go on the tape every iteration.
        shim::run_function_pipeline(&mut [aug], "mem2reg").map_err(Error::internal)?;
    }
    let dropped = errno::drop_errno_only_calls(aug).map_err(Error::internal)?;
    if dropped > 0 {
        log::debug!(
            "enzyme-rs: {}: {dropped} errno-only libm call(s) dropped",
            name(f)
        );
    }
    let promoted = super::promote::heap_allocas_for_custom_calls(aug);
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
            arg_trees.extend(std::iter::repeat(t.clone()).take(lanes));
        }
        arg_trees.push(t);
    }
    if key.ret_shadow {
        seeds.extend(crate::modes::common::returned_sources(aug));
    }
    let (trips, recurrences) = exit_counts(aug);
    let mut act = Activity::analyse_args(aug, &seeds, f, &arg_trees, &sess.activity_cx())?;
    // Active indirect calls go through a dispatcher over their possible
    // targets; the activity is then worked out again on the new calls.
    if crate::modes::dispatch::dispatch_active_indirect_calls(sess, aug, f, |v| act.is_varied(v))
        > 0
    {
        act = Activity::analyse_args(aug, &seeds, f, &arg_trees, &sess.activity_cx())?;
    }
    if sess.opts.print_type {
        if let Some(types) = &act.types {
            crate::analysis::printer::print_types(
                aug,
                types,
                &format!("reverse derivative of {}", name(f)),
            );
        }
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
        lane_shadows,
        lane: 0,
        pred_index: HashMap::new(),
        preds,
        pushes: HashMap::new(),
        calls: HashMap::new(),
        // Promoted stack slots live until the reverse sweep, active or not.
        deferred_free: promoted.into_iter().collect(),
        listed_free: HashSet::new(),
        free_fn: HashMap::new(),
        kept: HashMap::new(),
        ret_blocks: Vec::new(),
        tape_arg,
        key: key.clone(),
        param_map: nps.clone(),
        layouts: HashMap::new(),
        pop_calls: Vec::new(),
        packed: HashMap::new(),
        loops: shim::Loops::new(aug),
        counted: HashMap::new(),
        recurrences,
        why: HashMap::new(),
    };
    let later = super::memory::LaterWrites::of(aug);
    let mut g = AugGen {
        trips,
        later,
        later_keeping: None,
        sess,
        a: &mut a,
        b: Builder::for_function(aug),
        phis: Vec::new(),
        aug_ret: pair.aug_ret,
    };
    g.run(&order)?;
    Ok(a)
}

/// The integer type of a predecessor index among `n`: i8 up to 256.
fn index_type(ctx: LLVMContextRef, n: usize) -> T {
    if n <= 256 {
        i8_type(ctx)
    } else {
        i32_type(ctx)
    }
}

/// Backedge-taken counts of `f`'s loops that exit from one block and whose
/// count SCEV can express, each computed (as i64) in the loop's preheader;
/// and the loop-header phis that replay load recurrences.
#[allow(clippy::type_complexity)]
fn exit_counts(f: V) -> (HashMap<BB, V>, HashMap<V, shim::LoadRecurrence>) {
    let scev = shim::Scev::new(f);
    let mut recs = HashMap::new();
    for bb in blocks(f) {
        for p in instructions(bb) {
            if opcode(p) != Some(LLVMOpcode::LLVMPHI) {
                break;
            }
            if is_fp(type_of(p)) || is_int(type_of(p)) {
                if let Some(r) = scev.load_recurrence(p) {
                    recs.insert(p, r);
                }
            }
        }
    }
    let mut out = HashMap::new();
    let b = crate::ir::Builder::for_function(f);
    for bb in blocks(f) {
        if let Some(mut v) = scev.expand_exit_count(bb) {
            // A count that is a call's result (the bound `n = size(x)`)
            // or a load: the augmented sweep replaces such instructions
            // (a call by the callee's augmented call) and the map would
            // keep the deleted one. A freeze of it follows the
            // replacement.
            if is_instruction(v) && (is_call(v) || opcode(v) == Some(LLVMOpcode::LLVMLoad)) {
                b.after(v);
                v = b.freeze(v);
            }
            out.insert(bb, v);
        }
    }
    (out, recs)
}

struct AugGen<'a> {
    /// Exit counts of the loops that have one, by header (`exit_counts`).
    trips: HashMap<BB, V>,
    /// What the function may write after each of its calls.
    later: super::memory::LaterWrites,
    /// `later` without the frees the function defers, for calls of
    /// functions with annotated loops (built by `run` when there are).
    later_keeping: Option<super::memory::LaterWrites>,
    sess: &'a mut Session,
    a: &'a mut Aug,
    b: Builder,
    /// Shadow phis to fill once every block is done: (primal phi, shadow
    /// phi, lane).
    phis: Vec<(V, V, usize)>,
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

    /// Whether memory at `slot` has a shadow: `slot` is varied, or a
    /// derivative reaches it and it has a shadow pointer.
    fn shadowed_slot(&mut self, slot: V) -> bool {
        self.varied(slot) || (self.a.act.is_reached(slot) && self.shadow_of(slot).is_some())
    }

    fn shadow_of(&mut self, v: V) -> Option<V> {
        if let Some(s) = self.a.shadow.get(&v) {
            return Some(*s);
        }
        let act = &self.a.act;
        let lane = crate::modes::rev_lane(self.a.lane);
        if let Some(s) = self.sess.global_ptr_shadow(v, lane, &|g| act.is_varied(g)) {
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
                return Ok(match crate::modes::rev_lane(self.a.lane) {
                    None => self.sess.shadow_global(v),
                    Some(l) => self.sess.shadow_global_lane(v, l),
                });
            }
            if let Some(s) = self.late_alloc_shadow(v) {
                return Ok(s);
            }
            if matches!(
                opcode(v),
                Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast)
            ) {
                // A field address of shadowed memory that carries no
                // derivative itself (Rust's `SetLenOnDrop` holds `&mut
                // vec.len` beside the buffer pointer): the same field of
                // the shadow.
                if let Some(s) = self.address_shadow(v) {
                    return Ok(s);
                }
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

    fn run(&mut self, order: &[BB]) -> Result<()> {
        let ctx = self.b.ctx;
        // Freed heap allocations: frees are deferred to the reverse sweep.
        // A realloc of active memory frees its old block too: that free is
        // deferred as well (see `lower_realloc`). Frees of loaded pointers
        // wait for the gradient's call site (`freelist.rs`), unless a free
        // the reverse sweep redoes names the same allocation.
        let mut listed = Vec::new();
        for bb in order {
            for i in instructions(*bb) {
                let kind = if is_call(i) {
                    rules::classify(i)
                } else {
                    CallKind::Inactive
                };
                if let CallKind::Alloc(k @ (AllocKind::Free | AllocKind::Realloc { .. })) = kind {
                    let p = operand(i, 0);
                    // Also when only the allocation is active (the freed
                    // pointer itself may be an inactive copy, e.g. an LCSSA
                    // phi used by nothing else).
                    // Or a pointer loaded again from a slot with a shadow
                    // (-O0/-O1: the load only the free uses is not varied;
                    // its shadow is in the slot's shadow, see
                    // `defer_loaded_free`).
                    // The slot need not be varied: a derivative reaching
                    // it with a shadow is enough (a callee that only frees
                    // what its parameter holds, as a nested gradient's
                    // `tape.give.nocache` frees its tape's buffer: the
                    // buffer's shadow must go with it).
                    let from_shadowed_slot = opcode(p) == Some(LLVMOpcode::LLVMLoad)
                        && self.shadowed_slot(freelist::address_base(operand(p, 0)))
                        && freelist::frees_loaded(self.sess.module, p);
                    if self.varied(p)
                        || from_shadowed_slot
                        || underlying_allocations(p).iter().any(|o| self.varied(*o))
                    {
                        if k == AllocKind::Free && freelist::frees_loaded(self.sess.module, p) {
                            listed.push(i);
                            continue;
                        }
                        let callee = known_target(i).unwrap();
                        let user_free = k == AllocKind::Free
                            && name(callee) != "free"
                            && !name(callee).starts_with("_Zd");
                        for o in underlying_allocations(p) {
                            self.a.deferred_free.insert(o);
                            // Memory a callee allocated (and returned) is
                            // freed in the reverse sweep as the primal
                            // freed it, with its shadow.
                            let from_callee =
                                is_call(o) && !matches!(rules::classify(o), CallKind::Alloc(_));
                            if user_free || from_callee {
                                self.a.free_fn.insert(o, callee);
                            }
                        }
                    }
                }
            }
        }
        for i in listed {
            let named = underlying_allocations(operand(i, 0));
            if named.iter().any(|o| self.a.deferred_free.contains(o)) {
                self.a.deferred_free.extend(named);
            } else {
                self.a.listed_free.insert(i);
            }
        }
        // For calls of functions with loops annotated for checkpointing:
        // what the function writes after each call, without the frees it
        // defers. Their memory outlives the reverse sweeps of the calls
        // before them, so a callee's checkpointed loop can restore it.
        // (Other callees keep the frees as writes: they tape what they
        // read of such memory, which fft's in-place shadow relies on.)
        let annotated_callee = order.iter().any(|bb| {
            instructions(*bb)
                .into_iter()
                .any(|i| called_function(i).is_some_and(crate::modes::loops::annotated::any_in))
        });
        if annotated_callee {
            let (deferred, listed) = (&self.a.deferred_free, &self.a.listed_free);
            self.later_keeping = Some(super::memory::LaterWrites::of_keeping(self.a.func, |i| {
                if !is_call(i) || !matches!(rules::classify(i), CallKind::Alloc(AllocKind::Free)) {
                    return false;
                }
                let objs = underlying_allocations(operand(i, 0));
                listed.contains(&i)
                    || (!objs.is_empty() && objs.iter().all(|o| deferred.contains(o)))
            }));
        }
        // The CFG as it is before the blocks are edited, for `joinroute`.
        let succs = joinroute::successor_map(order);
        // Blocks no path reaches (dead code a lower order's sweep left,
        // e.g. under a sanitizer's aborting checks): their edges count
        // for the verifier though they never run.
        let live: HashSet<BB> = order.iter().copied().collect();
        let dead: Vec<BB> = blocks(self.a.func)
            .into_iter()
            .filter(|b| !live.contains(b))
            .collect();
        for &bb in order {
            // Which predecessor was taken, for blocks with several.
            let preds = self.a.preds.get(&bb).cloned().unwrap_or_default();
            if let Some(c) = self.counted_loop(bb, &preds) {
                self.a.counted.insert(bb, c);
            } else if let Some(sel) = self.branch_pred_index(bb, &preds) {
                self.a.pred_index.insert(bb, sel);
            } else if let Some(sel) = self.routed_pred_index(&succs, bb, &preds) {
                self.a.pred_index.insert(bb, sel);
            } else if preds.len() > 1 {
                self.b.at_first_non_phi(bb);
                self.b.clear_debug_loc();
                // As narrow as the number of predecessors allows (it may
                // go on the tape once per execution of the block).
                let it = index_type(ctx, preds.len());
                let phi = self.b.phi(it);
                set_name(phi, "pred.index");
                for (k, p) in preds.iter().enumerate() {
                    let v = const_int(it, k as u64);
                    // One incoming entry per edge (a switch may branch twice).
                    let edges = successors(*p).into_iter().filter(|s| *s == bb).count();
                    for _ in 0..edges {
                        add_incoming(phi, &[(v, *p)]);
                    }
                }
                for d in &dead {
                    let edges = successors(*d).into_iter().filter(|s| *s == bb).count();
                    for _ in 0..edges {
                        add_incoming(phi, &[(const_int(it, 0), *d)]);
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
        for (p, sp, lane) in std::mem::take(&mut self.phis) {
            self.a.set_lane(lane);
            for (v, bb) in incoming(p) {
                let sv = self.shadow_or_null(v, p)?;
                add_incoming(sp, &[(sv, bb)]);
            }
        }
        self.a.set_lane(0);
        Ok(())
    }

    /// Run `f` once per vector lane, with that lane's shadow map current
    /// (lane 0's again afterwards).
    pub(super) fn each_lane<R>(
        &mut self,
        mut f: impl FnMut(&mut Self) -> Result<R>,
    ) -> Result<Vec<R>> {
        let mut out = Vec::new();
        for lane in 0..self.a.lanes() {
            self.a.set_lane(lane);
            let r = f(self);
            if r.is_err() {
                self.a.set_lane(0);
            }
            out.push(r?);
        }
        self.a.set_lane(0);
        Ok(out)
    }

    /// For a call about to be differentiated: which of its pointer
    /// arguments' memory may be overwritten before the callee's reverse
    /// sweep runs (by this function after the call, or by this function's
    /// own caller, as this function's key says), and whether globals may.
    fn overwritten_after(&self, call: V, args: &[V]) -> (Vec<bool>, bool) {
        let mine = self.a.key.overwritten_params(self.a.func);
        let any_mine = !mine.is_empty() || self.a.key.globals_overwritten;
        let later = match &self.later_keeping {
            Some(l)
                if called_function(call).is_some_and(crate::modes::loops::annotated::any_in) =>
            {
                l
            }
            _ => &self.later,
        };
        later.for_call(
            call,
            args,
            |o| mine.contains(&o) || (any_mine && super::memory::is_unknown_object(o)),
            self.a.key.globals_overwritten,
        )
    }

    /// For a call about to be differentiated: whether memory the callee
    /// reaches through pointers it loads may be overwritten before its
    /// reverse sweep (`LaterWrites::others_after`).
    fn others_overwritten_after(&self, call: V) -> bool {
        let k = &self.a.key;
        let inherited =
            k.others_overwritten || k.globals_overwritten || k.overwritten.iter().any(|o| *o);
        self.later.others_after(call, inherited)
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
        let it = index_type(ctx, 2);
        let sel = self.b.select(
            operand(br, 0),
            const_int(it, on_t as u64),
            const_int(it, 1 - on_t as u64),
        );
        set_name(sel, "pred.index");
        Some(sel)
    }

    /// The join `m` below a small tree of branches decided at its
    /// immediate dominator (`joinroute`): the index as selects there.
    fn routed_pred_index(
        &mut self,
        succs: &HashMap<BB, Vec<BB>>,
        m: BB,
        preds: &[BB],
    ) -> Option<V> {
        if !self.sess.opts.route_joins {
            return None;
        }
        let (d, r) = joinroute::route(&self.a.loops, succs, m, preds)?;
        let it = index_type(self.b.ctx, preds.len());
        log::debug!(
            "enzyme-rs: {}: join of {} predecessors routed by branch conditions",
            name(self.a.primal),
            preds.len()
        );
        Some(joinroute::emit(&self.b, &self.a.loops, d, &r, it))
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
                    self.each_lane(|g| {
                        if let Some(sp) = g.shadow_of(p) {
                            let sv = g.shadow_or_null(v, i)?;
                            g.b.after(i);
                            let s = g.b.store(sv, sp);
                            copy_mem_flags(i, s);
                        }
                        Ok(())
                    })?;
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
                    let mut vals = vec![v];
                    vals.extend(self.each_lane(|g| g.shadow_or_null(v, i))?);
                    self.b.before(i);
                    let st = fn_return_type(self.a.func);
                    let r = self.b.make_struct(st, &vals);
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
        self.each_lane(|g| g.lane_shadow(i, op, t))?;
        Ok(())
    }

    /// The shadow of pointer instruction `i` in the current lane.
    fn lane_shadow(&mut self, i: V, op: LLVMOpcode, t: T) -> Result<()> {
        use LLVMOpcode::*;
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
                self.phis.push((i, sp, self.a.lane));
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
}

impl AugGen<'_> {}

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
            let bytes = super::packed::bytes(self, bb);
            if depth > 0 {
                total_loop += bytes;
            }
            let vals: Vec<String> = self.pushes[&bb]
                .iter()
                .map(|v| format!("{} {}", print_type(type_of(*v)), name(*v)))
                .collect();
            out.push_str(&format!(
                "  block {} (loop depth {depth}): {} bytes [{}]\n",
                block_name(bb),
                bytes,
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
        let packed = self.packed.clone();
        let blocks: Vec<BB> = self.pushes.keys().copied().collect();
        // One capacity check for the straight-line region at the entry.
        let unchecked = self.unchecked_region(sess.module);
        let push_fn = |bb: BB| {
            if unchecked.contains(&bb) {
                tape::bump_fn(sess.module)
            } else {
                reserve
            }
        };
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
            let group = packed.get(&bb).copied();
            let (n, step) = match group {
                Some(g) => {
                    let (n, step) = super::packed::step(&b, self.counted[&g.header].counter, g);
                    (n, Some(step))
                }
                None => (const_i64(ctx, layout.total as i64), None),
            };
            let mut base = b.call_fn(push_fn(bb), &mut [self.tape_arg, n]);
            if let Some(step) = step {
                base = b.gep(i8_type(ctx), base, &mut [step]);
            }
            for (k, v) in vals.iter().enumerate() {
                let off = layout.offsets[k];
                let p = b.gep(i8_type(ctx), base, &mut [const_i64(ctx, off as i64)]);
                let s = b.store(*v, p);
                set_alignment(
                    s,
                    group.map_or(tape::offset_align(off), |g| super::packed::align(g, off)),
                );
            }
        }
        if self.ret_blocks.len() > 1 {
            for (k, bb) in self.ret_blocks.iter().enumerate() {
                b.before(terminator(*bb));
                b.clear_debug_loc();
                let base = b.call_fn(push_fn(*bb), &mut [self.tape_arg, const_i64(ctx, 8)]);
                let s = b.store(const_i64(ctx, k as i64), base);
                set_alignment(s, 8);
            }
        }
        Ok(())
    }
}

impl Aug {
    /// The pushing blocks of the entry's straight-line region
    /// (`region.rs`), after emitting the region's one capacity check at
    /// the entry; empty when that is not worth it, on a GPU (whose
    /// static tape bound counts `reserve` calls), or with
    /// `ENZYME_RS_TAPE_REGION=0` (for measurements).
    fn unchecked_region(&self, m: LLVMModuleRef) -> HashSet<BB> {
        if crate::ir::gpu::device_of(m).is_some() || !crate::options::switches::tape_region() {
            return HashSet::new();
        }
        let multi_ret = self.ret_blocks.len() > 1;
        let bytes = |bb: &BB| -> u64 {
            let pushed = match self.pushes.get(bb) {
                Some(v) if !v.is_empty() => self.layouts.get(bb).map_or(0, |l| l.total),
                _ => 0,
            };
            let index = if multi_ret && self.ret_blocks.contains(bb) {
                8
            } else {
                0
            };
            pushed + index
        };
        let region: HashSet<BB> =
            region::unchecked_blocks(self.func, &rpo(self.func), self.tape_arg)
                .into_iter()
                .filter(|bb| bytes(bb) > 0)
                .collect();
        if !region::worth_it(region.len()) {
            return HashSet::new();
        }
        let total: u64 = region.iter().map(bytes).sum();
        let b = Builder::new(m);
        b.at_entry_allocas(self.func);
        b.clear_debug_loc();
        b.call_fn(
            tape::ensure_fn(m),
            &mut [self.tape_arg, const_i64(b.ctx, total as i64)],
        );
        log::debug!(
            "enzyme-rs: {}: {} blocks push {total} tape bytes under one check",
            name(self.func),
            region.len()
        );
        region
    }
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

impl AugGen<'_> {}
