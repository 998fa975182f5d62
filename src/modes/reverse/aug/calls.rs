//! The augmented sweep over calls: differentiable callees (their augmented
//! functions), custom gradients, allocation, `realloc`, and the pointer
//! fields that calls copy.
use super::{act_of, AugGen, CallInfo};
use crate::analysis::activity::underlying_allocations;
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::modes::reverse::{Act, AugRet, Key};
use crate::rules::{self, AllocKind, CallKind, MemKind};

/// The flag on the copies `lower_realloc` makes (the old block's bytes
/// and each lane's shadow bytes into the new blocks).
pub(super) const REALLOC_COPY: &str = "enzyme_rs.realloc_copy";

impl AugGen<'_> {
    pub(super) fn visit_call(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        let any_arg_varied = args.iter().any(|a| self.varied(*a));
        let is_varied = self.varied(i);
        let kind = rules::classify(i);
        match kind {
            CallKind::Alloc(AllocKind::Free) if self.a.listed_free.contains(&i) => {
                // Freed at the gradient's call site (freelist.rs).
                self.defer_loaded_free(i)?;
                self.erase(i);
                return Ok(());
            }
            CallKind::Alloc(AllocKind::Free)
                if underlying_allocations(operand(i, 0))
                    .iter()
                    .any(|o| self.a.deferred_free.contains(o)) =>
            {
                // Deferred to the reverse sweep (which frees it after its last use).
                self.erase(i);
                return Ok(());
            }
            CallKind::Mpi(_) if self.a.lanes() > 1 => {
                return Err(self.lanes_unsupported(i, "MPI calls"));
            }
            CallKind::Mpi(k) => {
                if let Some(kept) = crate::modes::mpi::augment(self, i, k)? {
                    self.a.shadow.insert(i, kept); // read back by the reverse sweep
                }
                return Ok(());
            }
            CallKind::AllocOut => return self.each_lane(|g| g.alloc_out(i)).map(drop),
            CallKind::ShadowReplay => return self.each_lane(|g| g.run_on_shadow(i)).map(drop),
            _ => {}
        }
        // Shadow pointers of copied pointer bytes, from the type analysis
        // (else from the IR types at the copy, below).
        let shadows_copied = matches!(kind, CallKind::MemTransfer(MemKind::Copy | MemKind::Move))
            && self
                .each_lane(|g| g.copy_shadow_pointers(i))?
                .contains(&true);
        // A callee moving adjoints between globals needs its derivative
        // even without active arguments or result.
        let quiet = !any_arg_varied && !is_varied && !self.a.act.call_touches_reached_global(i);
        if crate::modes::reverse::freelist::is_push(i) {
            // A nested gradient's deferred free: the block's shadows go
            // on the list with it (the outer gradient's release frees them).
            let shadows = self.freed_shadows(operand(i, 0))?;
            crate::modes::reverse::freelist::push_shadows_too(&self.b, i, &shadows);
            return Ok(());
        }
        if matches!(kind, CallKind::Inactive) || quiet {
            return Ok(());
        }
        match kind {
            CallKind::Custom(c) if c.gradient.is_some() && self.a.lanes() > 1 => {
                Err(self.lanes_unsupported(i, "calls with a registered custom gradient"))
            }
            CallKind::Custom(c) if c.gradient.is_some() => self.visit_custom_call(i),
            CallKind::Blas(k) => {
                crate::modes::blas::check(i, k, self.a.lanes() as u32)
                    .map_err(|m| self.err(i, m))?;
                self.visit_custom_call(i)
            }
            CallKind::Custom(_) => self.visit_call_kind(i, kind.without_custom(), shadows_copied),
            k => self.visit_call_kind(i, k, shadows_copied),
        }
    }

    /// The error for a call vector reverse mode (`enzyme_width` > 1) does
    /// not handle yet.
    fn lanes_unsupported(&self, i: V, what: &str) -> Error {
        self.err(
            i,
            format!(
                "vector reverse mode (enzyme_width {}) through {what} is not supported yet",
                self.a.lanes()
            ),
        )
    }

    /// `posix_memalign`: an allocation returned through memory. When that
    /// memory has a shadow, allocate a zeroed shadow block into it the same way.
    pub(super) fn alloc_out(&mut self, i: V) -> Result<()> {
        if let Some(sslot) = self.address_shadow(operand(i, 0)) {
            self.b.after(i);
            self.b.clone_call_with(i, &[(0, sslot)]);
            let ctx = self.b.ctx;
            let sb = self.b.load(ptr_type(ctx), sslot);
            self.b.zero_bytes(sb, operand(i, 2));
        }
        Ok(())
    }

    pub(super) fn visit_call_kind(
        &mut self,
        i: V,
        kind: CallKind,
        shadows_copied: bool,
    ) -> Result<()> {
        let is_varied = self.varied(i);
        match kind {
            CallKind::MemTransfer(MemKind::Copy | MemKind::Move) => {
                self.each_lane(|g| {
                    g.copy_pointer_fields(i, shadows_copied);
                    Ok(())
                })?;
                Ok(())
            }
            // Pointer fields: their shadows are set alike here; float
            // bytes are the reverse sweep's.
            CallKind::MemTransfer(MemKind::Set) => {
                self.each_lane(|g| g.set_shadow_pointers(i))?;
                Ok(())
            }
            // Handled by the reverse sweep.
            CallKind::Rule(_) => Ok(()),
            CallKind::Alloc(k) => self.visit_alloc(i, k, is_varied),
            CallKind::Inactive | CallKind::AllocOut | CallKind::ShadowReplay | CallKind::Mpi(_) => {
                Ok(())
            }
            CallKind::Custom(_) | CallKind::Blas(_) => {
                unreachable!("custom and BLAS calls are resolved by the caller")
            }
            CallKind::Indirect
            | CallKind::InlineAsm
            | CallKind::Defined(_)
            | CallKind::Unknown(_) => self.visit_differentiable_call(i),
            CallKind::OpenMp(crate::rules::openmp::OmpCall::Fork) if self.a.lanes() > 1 => {
                Err(self.lanes_unsupported(i, "OpenMP parallel regions"))
            }
            CallKind::OpenMp(crate::rules::openmp::OmpCall::Fork) => self.visit_fork(i),
            CallKind::OpenMp(_) => Ok(()),
            CallKind::Gpu(k) => crate::modes::gpu::check_call(i, k),
            CallKind::LoopDriver(_) => Err(self.err(
                i,
                "reverse mode over the gradient of a checkpointed loop or fixed point (a driver of its loop runtime) is not supported",
            )),
        }
    }

    /// A parallel region (`modes/openmp/fork.rs`).
    fn visit_fork(&mut self, i: V) -> Result<()> {
        let cap = call_args(i)[3..].to_vec();
        let varied: Vec<bool> = (0..cap.len())
            .map(|k| {
                self.varied(cap[k])
                    && !crate::modes::openmp::slots::inactive_slot(i, k, &|v| self.varied(v))
            })
            .collect();
        let acts: Vec<Act> = cap
            .iter()
            .zip(&varied)
            .map(|(a, v)| act_of(type_of(*a), *v))
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
            varied,
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
    pub(super) fn copy_pointer_fields(&mut self, i: V, shadows_copied: bool) {
        let (dst, src) = (operand(i, 0), operand(i, 1));
        let Some(l) = crate::modes::reverse::memlayout::copy_layout(
            self.sess.module,
            &[dst, src],
            operand(i, 2),
        )
        .filter(|_| !shadows_copied) else {
            return;
        };
        if !l.has_ptr() {
            return;
        }
        if let (Some(sd), Some(ss)) = (self.shadow_of(dst), self.shadow_of(src)) {
            let h = crate::modes::reverse::memlayout::helper(
                self.sess.module,
                &l,
                crate::modes::reverse::memlayout::Sweep::ForwardPointers,
            );
            self.b.after(i);
            let len = self.b.int_cast(operand(i, 2), i64_type(self.b.ctx), false);
            self.b.call_fn(h, &mut [sd, ss, len]);
        }
    }

    /// A free of a pointer loaded from memory a callee may have written
    /// (storage a callee allocated and stored into a container or an out
    /// parameter): no allocation of this function names the block. The
    /// gradient's call site frees it and its shadows after the reverse
    /// sweeps (`freelist.rs`).
    fn defer_loaded_free(&mut self, i: V) -> Result<()> {
        let p = operand(i, 0);
        let shadows = self.freed_shadows(p)?;
        if !crate::modes::reverse::freelist::defer(&self.b, i, p, &shadows) {
            log::debug!("free of a loaded pointer dropped (deallocator not callable later)");
        }
        Ok(())
    }

    /// Each lane's shadow of the freed pointer `p` (none where it has
    /// none, or is its own).
    fn freed_shadows(&mut self, p: V) -> Result<Vec<V>> {
        let shadows = self.each_lane(|g| {
            Ok(g.shadow_of(p).or_else(|| {
                // A load without a shadow from a slot with one.
                if opcode(p) != Some(LLVMOpcode::LLVMLoad) {
                    return None;
                }
                let slot = g.address_shadow(operand(p, 0))?;
                g.b.after(p);
                Some(g.b.load(type_of(p), slot))
            }))
        })?;
        Ok(shadows.into_iter().flatten().filter(|s| *s != p).collect())
    }

    /// The shadow of address `v`: its own, or the same GEPs and casts
    /// over its base's shadow (-O0's field address used by one load).
    pub(super) fn address_shadow(&mut self, v: V) -> Option<V> {
        if let Some(s) = self.shadow_of(v) {
            return Some(s);
        }
        let op = opcode(v)?;
        if op == LLVMOpcode::LLVMExtractValue {
            // A pointer field of a call's `{primal, shadow}` result that
            // nothing active uses (a nested gradient's popped tape slot).
            let agg = self.shadow_of(operand(v, 0))?;
            self.b.after(v);
            return Some(
                indices(v)
                    .into_iter()
                    .fold(agg, |a, k| self.b.extract_value(a, k)),
            );
        }
        let base = match op {
            LLVMOpcode::LLVMGetElementPtr
            | LLVMOpcode::LLVMBitCast
            | LLVMOpcode::LLVMAddrSpaceCast => self.address_shadow(operand(v, 0))?,
            _ => return None,
        };
        self.b.after(v);
        Some(if op == LLVMOpcode::LLVMGetElementPtr {
            let mut idx: Vec<V> = operands(v)[1..].to_vec();
            self.b.gep(gep_source_type(v), base, &mut idx)
        } else {
            self.b.cast(op, base, type_of(v))
        })
    }

    /// A heap allocation that carries no derivative itself but meets
    /// active pointers (returned as a duplicated result, say) gets a zeroed
    /// shadow made right after it.
    pub(super) fn late_alloc_shadow(&mut self, v: V) -> Option<V> {
        if opcode(v) == Some(LLVMOpcode::LLVMLoad) {
            return self.late_alloc_out_shadow(v);
        }
        // Only calls classify (an argument or a GEP crashed it).
        if !is_call(v) && !is_invoke(v) {
            return None;
        }
        let CallKind::Alloc(AllocKind::Malloc { size_arg }) = rules::classify(v) else {
            return None;
        };
        let b = crate::ir::Builder::for_function(self.a.func);
        b.after(v);
        b.clear_debug_loc();
        let c = b.clone_call_with(v, &[]);
        set_name(c, &format!("{}'", name(v)));
        b.zero_bytes(c, operand(v, size_arg));
        self.a.shadow.insert(v, c);
        Some(c)
    }

    /// The same for `v = load ptr, %slot` right after `posix_memalign(%slot,
    /// align, size)` in its block (std's System allocator inlined by rustc
    /// for a size below the alignment): the same call again into a slot
    /// of the shadow's own, zeroed.
    fn late_alloc_out_shadow(&mut self, v: V) -> Option<V> {
        let pm = crate::modes::common::posix_memalign_of(v)?;
        let b = crate::ir::Builder::for_function(self.a.func);
        let ptr = ptr_type(b.ctx);
        b.at_entry_allocas(self.a.func);
        let sslot = b.alloca(ptr);
        b.after(v);
        b.clear_debug_loc();
        b.store(zero(ptr), sslot);
        b.clone_call_with(pm, &[(0, sslot)]);
        let c = b.load(ptr, sslot);
        set_name(c, &format!("{}'", name(v)));
        b.zero_bytes(c, operand(pm, 2));
        self.a.shadow.insert(v, c);
        Some(c)
    }

    pub(super) fn visit_alloc(&mut self, i: V, k: AllocKind, is_varied: bool) -> Result<()> {
        match k {
            AllocKind::Free => {
                if self.varied(operand(i, 0)) {
                    self.erase(i);
                }
            }
            AllocKind::Malloc { size_arg } => {
                if is_varied {
                    let keep = self.keeps_shadow(i);
                    self.each_lane(|g| {
                        g.b.after(i);
                        let bytes = operand(i, size_arg);
                        let c = if keep {
                            g.kept_shadow(i, bytes)?
                        } else {
                            g.b.clone_call_with(i, &[])
                        };
                        set_name(c, &format!("{}'", name(i)));
                        if may_be_reallocated(g.sess.module, i) && !keep {
                            // The realloc lowering copies the usable size.
                            let all = g.b.malloc_usable_size(c);
                            g.b.zero_bytes(c, all);
                        } else {
                            g.b.zero_bytes(c, bytes);
                        }
                        g.a.shadow.insert(i, c);
                        Ok(())
                    })?;
                }
            }
            AllocKind::Calloc => {
                if is_varied {
                    let keep = self.keeps_shadow(i);
                    self.each_lane(|g| {
                        g.b.after(i);
                        let c = if keep {
                            let i64t = i64_type(g.b.ctx);
                            let n = g.b.int_cast(operand(i, 0), i64t, false);
                            let size = g.b.int_cast(operand(i, 1), i64t, false);
                            let bytes = g.b.mul(n, size);
                            let c = g.kept_shadow(i, bytes)?;
                            g.b.zero_bytes(c, bytes);
                            c
                        } else {
                            g.b.clone_call_with(i, &[])
                        };
                        g.a.shadow.insert(i, c);
                        Ok(())
                    })?;
                }
            }
            AllocKind::Realloc { size_arg } => {
                if is_varied || self.varied(operand(i, 0)) {
                    self.lower_realloc(i, size_arg)?;
                }
            }
        }
        Ok(())
    }

    /// Whether allocation `i`'s shadow comes from a slot (keep.rs): the
    /// reverse sweep of this function frees it, as plain memory.
    fn keeps_shadow(&self, i: V) -> bool {
        let deferred_plain = self.a.deferred_free.contains(&i) && !self.a.free_fn.contains_key(&i);
        crate::modes::reverse::keep::may_keep(
            self.sess.module,
            i,
            deferred_plain,
            self.sess.opts.keep_shadow,
        )
    }

    /// The current lane's shadow block of `bytes` bytes for allocation `i`,
    /// taken from a new slot (not zeroed yet).
    fn kept_shadow(&mut self, i: V, bytes: V) -> Result<V> {
        use crate::modes::reverse::keep;
        let slot = keep::new_slot(self.sess.module);
        self.a.kept.insert((i, self.a.lane), slot);
        self.b.set_debug_loc_from(i);
        keep::take(&self.b, slot, bytes)
    }

    /// A call of a function differentiated in turn (its augmented forward
    /// sweep replaces the call; the reverse sweep calls its reverse).
    pub(super) fn visit_differentiable_call(&mut self, i: V) -> Result<()> {
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
        let mut acts: Vec<Act> = args
            .iter()
            .map(|a| act_of(type_of(*a), self.varied(*a)))
            .collect();
        crate::modes::check_no_float_bits_args(&args, callee, |a| self.a.act.is_float_bits(a))
            .map_err(|m| self.err(i, m))?;
        // A null pointer beside shadowed ones (`iterator(nullptr)` of a
        // container's `end()` at -O0) is passed with its shadow, null: the
        // callee may store it where its shadow is read back.
        if acts.contains(&Act::Dup) {
            for k in crate::modes::null_pointer_args(&args) {
                acts[k] = Act::Dup;
            }
        }
        let ret_ty = type_of(i);
        // Stack slots passed to the callee count as overwritten (its
        // reverse sweep runs after this frame is gone): `for_call`.
        let (overwritten, globals_overwritten) = self.overwritten_after(i, &args);
        let key = Key {
            func: callee,
            acts: acts.clone(),
            ret_active: is_varied && contains_fp(ret_ty) && !contains_ptr(ret_ty),
            ret_shadow: is_varied
                && (is_ptr(ret_ty) || is_ptr_aggregate(ret_ty))
                && !acts.contains(&Act::Dup),
            overwritten,
            globals_overwritten,
            others_overwritten: self.others_overwritten_after(i),
            distinct: crate::modes::reverse::distinct::distinct_args(&args),
            width: self.a.key.width,
        };
        if !self.sess.arg_trees.contains_key(&callee) {
            let trees = self.a.act.arg_trees(i);
            self.sess.arg_trees.insert(callee, trees);
        }
        let pair = crate::modes::reverse::get_pair(self.sess, &key, None)?;
        self.b.before(i);
        let mut new_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            new_args.push(*a);
            if acts[k] == Act::Dup {
                new_args.extend(self.each_lane(|g| g.shadow_or_null(*a, i))?);
            }
        }
        new_args.push(self.a.tape_arg);
        self.b.before(i);
        let nc = self.b.call_fn(pair.aug, &mut new_args);
        let primal_value = match pair.aug_ret {
            AugRet::Void | AugRet::Primal => {
                replace_all_uses(i, nc);
                nc
            }
            AugRet::PrimalShadow => {
                let p = self.b.extract_value(nc, 0);
                replace_all_uses(i, p);
                self.each_lane(|g| {
                    let s = g.b.extract_value(nc, 1 + g.a.lane as u32);
                    g.a.shadow.insert(p, s);
                    Ok(())
                })?;
                p
            }
        };
        if is_varied {
            self.a.act.varied.insert(primal_value);
        }
        // Memory the callee returns that the primal frees: the reverse
        // sweep frees it after the callee's reverse (`free_returned_alloc`).
        if self.a.deferred_free.remove(&i) {
            self.a.deferred_free.insert(primal_value);
            if let Some(d) = self.a.free_fn.remove(&i) {
                self.a.free_fn.insert(primal_value, d);
            }
        }
        self.a.calls.insert(nc, CallInfo { pair, key, args });
        self.erase(i);
        Ok(())
    }

    /// `q = realloc(p, n)` of active memory. The reverse sweep still needs
    /// the old block's shadow (adjoints of what was stored there before),
    /// so the augmented sweep allocates a fresh block instead and copies:
    ///
    ///   k  = min(malloc_usable_size(p), n)
    ///   q  = malloc(n);  memcpy(q, p, k)
    ///   q' = malloc(n);  memset(q', 0, usable(q'));
    ///   memcpy(q', p', min(k, usable(p')))
    ///
    /// The whole usable block of q' is zeroed: k counts the old block's
    /// slack past the size it was asked for (glibc's usable size exceeds
    /// it), which the next realloc copies; the shadow's slack must then
    /// hold zero adjoints, not what a recycled block held (a third-order
    /// gradient's tape, grown past its old capacity, accumulated adjoints
    /// into those bytes). Rust's `__rust_realloc(p, old, align, n)` names
    /// the old size: k = min(old, n), q' zeroed over its n bytes, and k
    /// bytes of p' copied (a `__rust_alloc` shadow is zeroed only over the
    /// size asked for).
    ///
    /// The old block's free is deferred like any other free of active
    /// memory (it is freed where the reverse sweep undoes its allocation,
    /// or, a loaded pointer's, at the gradient's call site: `freelist.rs`).
    /// The reverse sweep needs no rule of its own: the primal memcpy's
    /// adjoint adds q''s adjoints of the k copied bytes back into p', and
    /// the malloc frees q and q' where its own free was deferred.
    ///
    /// Both copies are flagged [`REALLOC_COPY`]: differentiated again (a
    /// higher-order gradient's tape helpers), each copies its own shadow
    /// forward the same way (`shadow.rs`), whatever the type analysis
    /// says the bytes hold. A tape block holds pointers among its floats;
    /// the grown block's shadow must keep their shadows.
    pub(super) fn lower_realloc(&mut self, i: V, size_arg: u32) -> Result<()> {
        let ctx = self.b.ctx;
        let (p, n) = (operand(i, 0), operand(i, size_arg));
        let sps = self.each_lane(|g| g.shadow_or_null(p, i))?;
        self.b.before(i);
        let i64t = i64_type(ctx);
        // Rust's `__rust_realloc(p, old_size, align, new_size)` names the
        // old block's size: exactly the bytes to copy (the shadow of a
        // block allocated by `__rust_alloc` is zeroed only that far). C's
        // realloc does not: the usable size of the block.
        let old_size = (size_arg == 3).then(|| self.b.int_cast(operand(i, 1), i64t, false));
        let old = match old_size {
            Some(s) => s,
            None => self.b.malloc_usable_size(p),
        };
        let n64 = self.b.int_cast(n, i64t, false);
        let fits = self.b.icmp(LLVMIntPredicate::LLVMIntULT, old, n64);
        let k = self.b.select(fits, old, n64);
        let q = self.b.malloc(n64);
        let qname = name(i);
        set_name(i, "");
        set_name(q, &qname);
        let c = self.b.memcpy(q, p, k, 1);
        crate::ir::metadata::set_flag(c, REALLOC_COPY);
        self.each_lane(|g| {
            let sq = g.b.malloc(n64);
            set_name(sq, &format!("{qname}'"));
            let sp = sps[g.a.lane];
            let c = if old_size.is_some() {
                // The old shadow holds `k` bytes (the primal's old size
                // or less): they, and zeros after them.
                g.b.zero_bytes(sq, n64);
                g.b.memcpy(sq, sp, k, 1)
            } else {
                let sq_usable = g.b.malloc_usable_size(sq);
                g.b.zero_bytes(sq, sq_usable);
                let sp_usable = g.b.malloc_usable_size(sp);
                let fits = g.b.icmp(LLVMIntPredicate::LLVMIntULT, sp_usable, k);
                let ks = g.b.select(fits, sp_usable, k);
                g.b.memcpy(sq, sp, ks, 1)
            };
            crate::ir::metadata::set_flag(c, REALLOC_COPY);
            g.a.shadow.insert(q, sq);
            Ok(())
        })?;
        if crate::modes::reverse::freelist::frees_loaded(self.sess.module, p)
            && underlying_allocations(p)
                .iter()
                .all(|o| opcode(*o) == Some(LLVMOpcode::LLVMLoad))
        {
            // The old block is a loaded pointer's (a growing buffer's, as
            // the tape's own in a differentiated gradient): no allocation
            // here names it, so it and its shadows are freed after the
            // gradient's reverse sweeps.
            let olds: Vec<V> = sps
                .iter()
                .copied()
                .filter(|s| *s != p && !is_null(*s))
                .collect();
            crate::modes::reverse::freelist::defer_free(&self.b, p, &olds);
        }
        replace_all_uses(i, q);
        if self.a.deferred_free.remove(&i) {
            self.a.deferred_free.insert(q);
        }
        self.a.act.varied.remove(&i);
        self.a.act.varied.insert(q);
        self.erase(i);
        Ok(())
    }

    /// A call to a function with a custom gradient: its pair has a fixed
    /// activity (float parameters active, pointers duplicated with a null
    /// shadow when they have none, a float result active), so the user's
    /// functions have one signature wherever they are used.
    pub(super) fn visit_custom_call(&mut self, i: V) -> Result<()> {
        let callee = called_function(i).unwrap();
        let args = call_args(i);
        let acts: Vec<Act> = args.iter().map(|a| act_of(type_of(*a), true)).collect();
        let ret_ty = type_of(i);
        let key = Key {
            func: callee,
            acts: acts.clone(),
            ret_active: is_fp(ret_ty),
            ret_shadow: false,
            // A custom gradient keeps what it needs on its own tape.
            overwritten: vec![false; args.len()],
            globals_overwritten: false,
            others_overwritten: false,
            distinct: vec![false; args.len()],
            width: 1,
        };
        let pair = crate::modes::reverse::get_pair(self.sess, &key, None)?;
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
        if pair.aug_ret == AugRet::PrimalShadow {
            // A returned pointer and its shadow (`{result, shadow}`).
            let p = self.b.extract_value(nc, 0);
            let s = self.b.extract_value(nc, 1);
            replace_all_uses(i, p);
            self.a.shadow.insert(p, s);
            if self.varied(i) {
                self.a.act.varied.insert(p);
            }
        } else if !is_void(ret_ty) {
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

impl crate::modes::mpi::Sweep for AugGen<'_> {
    fn builder(&self) -> &crate::ir::Builder {
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

/// Whether allocation `i` may be passed to a realloc (whose lowering
/// copies the old shadow by the primal's usable size: `lower_realloc`, so
/// the shadow's slack must hold zeros): passed directly, or the new block
/// a lower order's realloc lowering copied into ([`REALLOC_COPY`]: a grown
/// tape's block, copied the same way when it grows again), or, where the
/// pointer goes through memory first (a growing buffer in a struct, Rust's
/// `Vec` at any opt-level), whenever the module calls a realloc at all.
pub fn may_be_reallocated(m: LLVMModuleRef, i: V) -> bool {
    let direct = users(i).into_iter().any(|u| {
        is_call(u)
            && (matches!(
                rules::classify(u),
                CallKind::Alloc(AllocKind::Realloc { .. })
            ) || (crate::ir::metadata::has_flag(u, REALLOC_COPY) && operand(u, 0) == i))
    });
    // (The backend's own runtimes, the free list's growth, do not count.)
    let user_code = |u: &V| {
        is_call_or_invoke(*u) && {
            let n = name(inst_fn(*u));
            !n.starts_with("enzyme_rs.") && !n.starts_with("__enzyme_rs_")
        }
    };
    direct
        || functions(m).into_iter().any(|f| {
            users(f).iter().any(user_code)
                && matches!(
                    rules::classify::classify_function(f),
                    CallKind::Alloc(AllocKind::Realloc { .. })
                )
        })
}
