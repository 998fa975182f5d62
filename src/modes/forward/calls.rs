//! Forward mode over calls: differentiable callees, custom derivatives,
//! memory transfers, allocation and deallocation.
use super::{derivative, Gen, Key, Ret};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::rules::classify::LoopDriver;
use crate::rules::openmp::OmpCall;
use crate::rules::{self, AllocKind, CallKind};

impl Gen<'_> {
    pub(super) fn visit_call(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        let any_arg_varied = args.iter().any(|a| self.varied(*a));
        let is_varied = self.act.is_varied(i);
        let kind = rules::classify(i);
        if let CallKind::Mpi(k) = kind {
            return crate::modes::mpi::forward(&mut MpiLanes { g: self, lane: 0 }, i, k);
        }
        if let CallKind::Alloc(AllocKind::Free) = kind {
            // Shadows are freed with their primal, even when the freed
            // pointer itself carries no derivative.
            return self.visit_alloc(i, AllocKind::Free);
        }
        if let CallKind::Rule(r) = kind {
            if r.masked.is_some() {
                // A masked load or store: as for the instruction.
                return self.visit_masked(i);
            }
        }
        // A callee moving derivatives between globals needs its derivative
        // even without active arguments or result.
        if !any_arg_varied && !is_varied && !self.act.call_touches_reached_global(i) {
            return Ok(());
        }
        let kind = match kind {
            CallKind::Custom(c) if c.forward.is_some() => return self.visit_diff_call(i, true),
            CallKind::Blas(k) => {
                crate::modes::blas::check(i, k, self.width as u32).map_err(|m| self.err(i, m))?;
                return self.visit_diff_call(i, true);
            }
            k => k.without_custom(),
        };
        match kind {
            CallKind::Inactive => Ok(()),
            CallKind::MemTransfer(k) => self.visit_mem(i, k),
            CallKind::Alloc(k) => self.visit_alloc(i, k),
            CallKind::AllocOut => self.visit_alloc_out(i),
            CallKind::ShadowReplay => self.replay_on_tangents(i),
            CallKind::Rule(_) => {
                if is_varied {
                    if let Some(t) = self.apply_rule(i, &rules::rule_args(i))? {
                        self.tan.insert(i, t);
                    }
                }
                Ok(())
            }
            CallKind::Custom(_) | CallKind::Blas(_) => unreachable!("resolved above"),
            CallKind::Indirect
            | CallKind::InlineAsm
            | CallKind::Defined(_)
            | CallKind::Unknown(_) => self.visit_diff_call(i, false),
            CallKind::Mpi(_) => Ok(()), // handled above
            CallKind::OpenMp(OmpCall::Fork) => self.visit_fork(i),
            CallKind::OpenMp(_) => Ok(()),
            CallKind::Gpu(k) => crate::modes::gpu::check_call(i, k),
            CallKind::LoopDriver(k) => self.visit_loop_driver(i, k),
        }
    }

    /// A driver of the loop runtime, in the gradient of a checkpointed
    /// loop (forward over reverse): the same schedule runs on tangent
    /// thunks, with the env's and the regions' tangents
    /// (`modes::loops::tangent`).
    fn visit_loop_driver(&mut self, i: V, k: LoopDriver) -> Result<()> {
        use crate::modes::loops::tangent::{rewrite, ENV_ARG, REGIONS_ARG};
        if k == LoopDriver::FixedPoint {
            return Err(self.err(
                i,
                "forward mode over the gradient of a fixed point (__enzyme_fixed_point) is not supported",
            ));
        }
        let args = call_args(i);
        let env = self.tangent_or_zero(args[ENV_ARG[k as usize]], i)?;
        let regions = match k {
            LoopDriver::Forward => self.tangent(args[REGIONS_ARG]),
            _ => None,
        };
        self.act.forget(i);
        self.b.before(i);
        self.b.set_debug_loc_from(i);
        let width = self.width as u32;
        rewrite(self.sess, &self.b, i, k, &env, regions.as_deref(), width)
            .map_err(|m| self.err(i, m))
    }

    /// A parallel region: the captured pointers' shadows go along.
    fn visit_fork(&mut self, i: V) -> Result<()> {
        let mut tans = Vec::new();
        for a in &call_args(i)[3..] {
            tans.push(if self.varied(*a) {
                self.tangent_or_zero(*a, i)?
            } else {
                vec![]
            });
        }
        self.act.forget(i);
        crate::modes::openmp::fork::forward_fork(self.sess, i, &tans, self.width as u32)
    }

    /// `posix_memalign`: when the slot the allocation is returned through
    /// has tangent slots, allocate a zeroed tangent block into each.
    pub(super) fn visit_alloc_out(&mut self, i: V) -> Result<()> {
        let Some(slots) = self.tangent(operand(i, 0)) else {
            return Ok(());
        };
        self.b.after(i);
        let ctx = self.b.ctx;
        for s in slots {
            self.b.clone_call_with(i, &[(0, s)]);
            let block = self.b.load(ptr_type(ctx), s);
            self.b.zero_bytes(block, operand(i, 2));
        }
        Ok(())
    }

    /// A pointer-only library function (libstdc++'s tree helpers): run it
    /// again on each lane's tangent pointers; a returned pointer's tangent
    /// is that call's result.
    pub(super) fn replay_on_tangents(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        if !args.iter().any(|a| self.tangent(*a).is_some()) {
            return Ok(());
        }
        let mut per_arg = Vec::new();
        for a in &args {
            per_arg.push(if is_ptr(type_of(*a)) {
                Some(self.tangent_or_zero(*a, i)?)
            } else {
                None
            });
        }
        self.b.after(i);
        let mut lanes = Vec::new();
        for l in 0..self.width {
            let ops: Vec<(u32, V)> = per_arg
                .iter()
                .enumerate()
                .filter_map(|(k, t)| t.as_ref().map(|t| (k as u32, t[l])))
                .collect();
            lanes.push(self.b.clone_call_with(i, &ops));
        }
        if is_ptr(type_of(i)) {
            self.tan.insert(i, lanes);
        }
        Ok(())
    }

    /// A fixed point (`__enzyme_fixed_point`) given a control function, in
    /// vector forward mode: the iterations themselves are differentiated
    /// (the tangents converge with them; scalar forward mode iterates the
    /// tangent at the fixed point: loops/fwdfp.rs) and the control
    /// function is never called. Said, not silent.
    fn warn_fixed_point_control(&mut self, i: V, callee: V) {
        use crate::modes::loops::{shape, Kind};
        if self.width <= 1 || shape(callee).map(|s| s.kind) != Some(Kind::FixedPoint) {
            return;
        }
        let control = strip_casts(operand(i, 2));
        if is_constant(control) && is_null_or_undef(control) {
            return;
        }
        let msg = format!(
            "vector forward mode of '{}': the fixed point's control function (enzyme_fp_control) \
             is not called: vector forward mode differentiates the iterations themselves, and the \
             tangents converge with them",
            crate::ir::demangle::demangle(&name(self.primal))
        );
        if self.sess.warned.insert(msg.clone()) {
            crate::ir::shim::diagnose_warning(self.primal, Some(i), &msg);
        }
    }

    /// A call of a function differentiated in turn (or of its registered
    /// forward derivative when `custom`).
    pub(super) fn visit_diff_call(&mut self, i: V, custom: bool) -> Result<()> {
        let callee = known_target(i);
        let cname = callee.map(name).unwrap_or_default();
        let args = call_args(i);
        let is_varied = self.act.is_varied(i);
        let callee = crate::modes::callee_to_differentiate(i, callee, self.primal_fn())?;
        self.warn_fixed_point_control(i, callee);
        if is_declaration(callee) && !custom {
            return Err(Error::new(
                ErrorKind::UnknownFunction(cname),
                self.primal,
                Some(i),
            ));
        }
        // A call to a function with a body: differentiate it in turn.
        let ps = params(callee);
        if ps.len() != args.len() || is_vararg(fn_type(callee)) {
            return Err(self.err(
                i,
                format!("call to variadic function '{cname}' with active arguments"),
            ));
        }
        crate::modes::check_no_float_bits_args(&args, callee, |a| self.act.is_float_bits(a))
            .map_err(|m| self.err(i, m))?;
        let mut shadow: Vec<bool> = args
            .iter()
            .map(|a| {
                self.varied(*a)
                    && (is_fp(type_of(*a))
                        || is_ptr(type_of(*a))
                        || may_carry_derivative(type_of(*a)))
            })
            .collect();
        null_pointers_with_shadows(&args, &mut shadow);
        let key = Key {
            func: callee,
            shadow: shadow.clone(),
            ret_tangent: is_varied,
            width: self.width as u32,
            noneed: Vec::new(),
        };
        // What this caller knows about the arguments' types (-O0's
        // untyped field copies in the callee need it, as in reverse mode).
        if !self.sess.arg_trees.contains_key(&callee) {
            let trees = self.act.arg_trees(i);
            self.sess.arg_trees.insert(callee, trees);
        }
        let d = derivative(self.sess, &key, None)?;
        self.b.before(i);
        let mut new_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            new_args.push(*a);
            if shadow[k] {
                let t = self.tangent_or_zero(*a, i)?;
                new_args.extend(t);
            }
        }
        let nc = self.b.call_fn(d.func, &mut new_args);
        match d.ret {
            Ret::Void | Ret::Primal => replace_all_uses(i, nc),
            Ret::Both => {
                let p = self.b.extract_value(nc, 0);
                let t = self.b.extract_value(nc, 1);
                let lanes = if self.width == 1 {
                    vec![t]
                } else {
                    (0..self.width)
                        .map(|l| self.b.extract_value(t, l as u32))
                        .collect()
                };
                replace_all_uses(i, p);
                self.act.varied.insert(p);
                self.tan.insert(p, lanes);
            }
        }
        erase(i);
        Ok(())
    }

    pub(super) fn visit_mem(&mut self, i: V, k: rules::MemKind) -> Result<()> {
        let dst = operand(i, 0);
        let Some(sdst) = self.tangent(dst) else {
            if k != rules::MemKind::Set && self.varied(operand(i, 1)) {
                return Err(self.err(i, "active memory is copied into memory that has no shadow"));
            }
            return Ok(());
        };
        let len = operand(i, 2);
        self.b.after(i);
        let ctx = self.b.ctx;
        let zero_byte = const_int(i8_type(ctx), 0);
        let ssrc = match k {
            rules::MemKind::Set => None,
            _ => self.tangent(operand(i, 1)),
        };
        for l in 0..self.width {
            match (k, &ssrc) {
                (rules::MemKind::Copy, Some(s)) => {
                    self.b.memcpy(sdst[l], s[l], len, 1);
                }
                (rules::MemKind::Move, Some(s)) => {
                    self.b.memmove(sdst[l], s[l], len, 1);
                }
                _ => {
                    self.b.memset(sdst[l], zero_byte, len, 1);
                }
            }
        }
        if !is_void(type_of(i)) {
            self.tan.insert(i, sdst);
        }
        Ok(())
    }

    /// A copy of call `i` placed after it (after the previous copy).
    pub(super) fn clone_call_after(&mut self, i: V) -> V {
        self.b.insert_clone(i)
    }

    pub(super) fn visit_alloc(&mut self, i: V, k: rules::AllocKind) -> Result<()> {
        use rules::AllocKind::*;
        match k {
            Free => {
                let p = operand(i, 0);
                let mut sp = self.tangent(p);
                if sp.is_none() && opcode(p) == Some(LLVMOpcode::LLVMLoad) && is_ptr(type_of(p)) {
                    // The freed pointer was loaded from a slot with a shadow
                    // (clang -O0's locals) but carries no derivative itself:
                    // its shadow is in the slot's shadow.
                    if let Some(slots) = self.tangent(operand(p, 0)) {
                        self.b.after(p);
                        sp = Some(slots.iter().map(|s| self.b.load(type_of(p), *s)).collect());
                    } else if let Some(v) = only_stored_value(operand(p, 0)) {
                        // -O0's copy of a parameter (`deallocate(p, n)` in
                        // libstdc++) in a slot without a shadow: the
                        // parameter's shadow (unless the caller passed the
                        // primal pointer for it).
                        if let Some(ts) = self.tangent(v) {
                            self.b.before(i);
                            let null = zero(type_of(p));
                            let eq = LLVMIntPredicate::LLVMIntEQ;
                            let own =
                                |b: &crate::ir::Builder, t: V| b.select(b.icmp(eq, t, p), null, t);
                            sp = Some(ts.iter().map(|t| own(&self.b, *t)).collect());
                        }
                    }
                }
                if let Some(sp) = sp {
                    self.b.after(i);
                    for s in sp {
                        let c = self.clone_call_after(i);
                        set_operand(c, 0, s);
                        // The shadow may be null (`own` above; a slot
                        // whose primal held an inactive pointer).
                        drop_call_arg_nonnull(c, 0);
                    }
                } else if !is_null_or_undef(p) {
                    // Rebuilt from its operands' shadows at the end
                    // (freed.rs): a destructor's walk over elements.
                    self.pending_frees.push(i);
                }
            }
            Malloc { size_arg } => {
                if self.act.is_varied(i) {
                    self.b.after(i);
                    let mut lanes = Vec::new();
                    for l in 0..self.width {
                        let c = self.clone_call_after(i);
                        set_name(c, &self.lane_name(i, l));
                        self.b.zero_bytes(c, operand(i, size_arg));
                        lanes.push(c);
                    }
                    self.tan.insert(i, lanes);
                }
            }
            Calloc => {
                if self.act.is_varied(i) {
                    self.b.after(i);
                    let lanes = (0..self.width).map(|_| self.clone_call_after(i)).collect();
                    self.tan.insert(i, lanes);
                }
            }
            Realloc { .. } => {
                if self.act.is_varied(i) {
                    let p = operand(i, 0);
                    let sp = self.tangent_or_zero(p, i)?;
                    self.b.after(i);
                    let mut lanes = Vec::new();
                    for s in sp {
                        let c = self.clone_call_after(i);
                        set_operand(c, 0, s);
                        lanes.push(c);
                    }
                    self.tan.insert(i, lanes);
                }
            }
        }
        Ok(())
    }
}

/// The forward sweep as MPI derivatives see it: the shadows of one lane.
struct MpiLanes<'a, 's> {
    g: &'a mut Gen<'s>,
    lane: usize,
}

impl crate::modes::mpi::Sweep for MpiLanes<'_, '_> {
    fn builder(&self) -> &crate::ir::Builder {
        &self.g.b
    }
    fn user_fn(&self) -> V {
        self.g.primal
    }
    fn shadow_ptr(&mut self, p: V) -> Result<Option<V>> {
        Ok(self.g.tangent(p).and_then(|t| t.get(self.lane).copied()))
    }
    fn value(&mut self, v: V) -> Result<V> {
        Ok(v)
    }
    fn lanes(&self) -> usize {
        self.g.width
    }
    fn set_lane(&mut self, lane: usize) {
        self.lane = lane;
    }
}

/// The one value stored into the alloca `slot`, when every other use of
/// it is a load (clang -O0's slot of a parameter).
fn only_stored_value(slot: V) -> Option<V> {
    if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
        return None;
    }
    let mut stored = None;
    for u in users(slot) {
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) => {}
            Some(LLVMOpcode::LLVMStore) if operand(u, 1) == slot && stored.is_none() => {
                stored = Some(operand(u, 0));
            }
            _ => return None,
        }
    }
    stored.filter(|v| is_argument(*v))
}

/// A null (or undef) pointer passed beside shadowed arguments gets its
/// shadow, null, as in the augmented sweep: the callee may store it where
/// a shadow pointer is read back (Eigen's default evaluator constructor
/// `m_d(0, stride)` storing the null data pointer into the shadowed
/// evaluator at -O0). Without one, the callee's parameter would count as
/// a constant pointer stored into shadowed memory.
fn null_pointers_with_shadows(args: &[V], shadow: &mut [bool]) {
    if !shadow.contains(&true) {
        return;
    }
    for k in crate::modes::null_pointer_args(args) {
        shadow[k] = true;
    }
}
