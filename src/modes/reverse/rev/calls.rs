//! The reverse sweep over calls: memory transfers (adjoint copies),
//! allocation and deallocation of shadows, and calls of differentiable
//! callees (their reverse functions).
use super::{is_declaration_complete, RevGen};
use crate::analysis::activity::CopyLayout;
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::reverse::{Act, AugRet};
use crate::rules::{self, AllocKind, CallKind, MemKind};

impl RevGen<'_> {
    pub(super) fn visit_call(&mut self, i: V) -> Result<()> {
        if let Some(info) = self.a.calls.get(&i).cloned() {
            return self.visit_diff_call(i, info);
        }
        match rules::classify(i).without_custom() {
            CallKind::Mpi(k) => {
                let kept = self.a.shadow.get(&i).copied();
                let kept = kept.map(|v| self.avail(v)).transpose()?;
                crate::modes::mpi::reverse(self, i, k, kept)
            }
            CallKind::MemTransfer(k) => self.reverse_mem_transfer(i, k),
            CallKind::Alloc(k) => self.reverse_alloc(i, k),
            // A masked load or store (rules/vecmem.rs): as for the
            // instruction, whether or not it is varied (vecmem.rs).
            CallKind::Rule(r) if r.masked.is_some() => self.reverse_masked(i),
            CallKind::Rule(_) => {
                if self.varied(i) {
                    self.apply_rule(i, &rules::rule_args(i))?;
                }
                Ok(())
            }
            // Nothing to do in the reverse sweep: no derivative, or handled
            // in the augmented forward sweep (differentiated calls are in
            // `self.a.calls`).
            CallKind::Inactive
            | CallKind::AllocOut
            | CallKind::ShadowReplay
            | CallKind::Custom(_)
            | CallKind::Blas(_)
            | CallKind::Indirect
            | CallKind::InlineAsm
            | CallKind::Defined(_)
            | CallKind::Unknown(_)
            | CallKind::LoopDriver(_) => Ok(()),
            // Barriers again, critical sections in the opposite order.
            CallKind::OpenMp(_) => {
                let mut ops = Vec::new();
                for o in crate::modes::openmp::reverse_mirror_operands(i) {
                    ops.push(self.avail(o)?);
                }
                crate::modes::openmp::reverse_mirror(&self.b, i, &ops);
                Ok(())
            }
            // Block barriers again at the mirrored point.
            CallKind::Gpu(k) => {
                let mut ops = Vec::new();
                for o in crate::modes::gpu::mirror_operands(i) {
                    ops.push(self.avail(o)?);
                }
                crate::modes::gpu::reverse_mirror(&self.b, i, k, &ops)
            }
        }
    }

    /// memcpy/memmove/memset: adjoints of the copied bytes move back from
    /// the destination's shadow to the source's; the destination's shadow
    /// bytes are zeroed.
    pub(super) fn reverse_mem_transfer(&mut self, i: V, k: MemKind) -> Result<()> {
        {
            let dst = operand(i, 0);
            let Some(sd) = self.shadow_avail(dst)? else {
                return Ok(());
            };
            let len = self.avail(operand(i, 2))?;
            let ctx = self.b.ctx;
            match k {
                rules::MemKind::Set => {
                    self.b.memset(sd, const_int(i8_type(ctx), 0), len, 1);
                }
                rules::MemKind::Copy | rules::MemKind::Move => match self
                    .shadow_avail(operand(i, 1))?
                {
                    // Pointer bytes carry no adjoint; their shadows were
                    // copied in the forward sweep.
                    Some(_) if self.a.act.copy_layout(i) == CopyLayout::Pointers => {}
                    Some(ss) if matches!(self.a.act.copy_layout(i), CopyLayout::Mixed { .. }) => {
                        let CopyLayout::Mixed { floats, .. } = self.a.act.copy_layout(i) else {
                            unreachable!()
                        };
                        for (o, k) in floats {
                            let ft = float_kind_type(ctx, k);
                            let at = |b: &Builder, p: V| {
                                b.gep(i8_type(ctx), p, &mut [const_i64(ctx, o)])
                            };
                            let (pd, ps) = (at(&self.b, sd), at(&self.b, ss));
                            let dv = self.b.load(ft, pd);
                            self.b.store(zero(ft), pd);
                            let sv = self.b.load(ft, ps);
                            let sum = self.b.fadd(sv, dv);
                            self.b.store(sum, ps);
                        }
                    }
                    Some(ss) => {
                        let m = self.sess.module;
                        let f = match crate::modes::reverse::memlayout::copy_layout(
                            m,
                            &[operand(i, 0), operand(i, 1)],
                            operand(i, 2),
                        ) {
                            // Structs mixing floats with pointers/integers:
                            // only the float fields carry adjoints.
                            Some(l) if l.is_mixed() => crate::modes::reverse::memlayout::helper(
                                m,
                                &l,
                                crate::modes::reverse::memlayout::Sweep::ReverseFloats,
                            ),
                            _ => {
                                let et = fp_elem_type(&[operand(i, 0), operand(i, 1)]);
                                memcpy_adjoint_fn(m, et)
                            }
                        };
                        self.b
                            .call_fn(f, &mut [sd, ss, self.b.int_cast(len, i64_type(ctx), false)]);
                    }
                    None => {
                        self.b.memset(sd, const_int(i8_type(ctx), 0), len, 1);
                    }
                },
            }
            return Ok(());
        }
    }

    /// The reverse of an allocation whose free was deferred to the reverse
    /// sweep: free it (and its shadow) here.
    pub(super) fn reverse_alloc(&mut self, i: V, k: AllocKind) -> Result<()> {
        {
            if matches!(
                k,
                rules::AllocKind::Malloc { .. } | rules::AllocKind::Calloc
            ) && self.a.deferred_free.contains(&i)
            {
                // The primal's free was deferred to here (the reverse sweep
                // may read this memory); free the shadow with it.
                // Every vector lane frees its own shadow; the last lane's
                // reverse sweep frees the primal memory.
                let last_lane = self.a.lane + 1 == self.a.lanes();
                let p = self.avail(i)?;
                if self.registered_dealloc(i, p)? {
                    return Ok(());
                }
                let dealloc = self.a.free_fn.get(&i).copied();
                let release = |b: &Builder, v: V| match dealloc {
                    Some(d) if params(d).len() == 1 => {
                        b.call_fn(d, &mut [v]);
                    }
                    _ => {
                        b.free(v);
                    }
                };
                if let Some(s) = self.a.shadow.get(&i).copied() {
                    let sv = self.avail(s)?;
                    // A shadow taken from its site's slot goes back there.
                    let kept = self.a.kept.get(&(i, self.a.lane)).copied();
                    match (kept, dealloc) {
                        (Some(slot), _) => crate::modes::reverse::keep::give(&self.b, sv, slot)?,
                        (None, Some(_)) => release(&self.b, sv),
                        (None, None) => self.dealloc_like(i, sv)?,
                    }
                }
                match dealloc {
                    _ if !last_lane => {}
                    Some(_) => release(&self.b, p),
                    None => self.dealloc_like(i, p)?,
                }
            }
            Ok(())
        }
    }

    /// An allocation made by a function registered with
    /// `__enzyme_allocation_like` and a deallocator: free the allocation
    /// (primal `p`) and its shadow with that deallocator, given the
    /// arguments the registration names. Whether it was one.
    fn registered_dealloc(&mut self, alloc: V, p: V) -> Result<bool> {
        let callee = called_function(alloc).map(name).unwrap_or_default();
        let Some((d, idx)) = rules::registry::alloc_free(&callee) else {
            return Ok(false);
        };
        let pts: Vec<T> = params(d).iter().map(|q| type_of(*q)).collect();
        if pts.len() != idx.len() {
            return Err(crate::diag::Error::bad_call(
                alloc,
                format!(
                    "__enzyme_allocation_like: the deallocator '{}' takes {} parameters but the registration names {} ({:?})",
                    name(d),
                    pts.len(),
                    idx.len(),
                    idx
                ),
            ));
        }
        let mut extra = Vec::new();
        for (k, t) in idx.iter().zip(&pts) {
            let v = match usize::try_from(*k) {
                Ok(a) if a < call_num_args(alloc) as usize => {
                    let v = self.avail(operand(alloc, a as u32))?;
                    Some(crate::callsite::convert_arg(&self.b, v, *t).unwrap_or(v))
                }
                Err(_) if *k == -1 => None,
                _ => {
                    return Err(crate::diag::Error::bad_call(
                        alloc,
                        format!(
                        "__enzyme_allocation_like: no argument {k} of '{callee}' to pass to '{}'",
                        name(d)
                    ),
                    ))
                }
            };
            extra.push(v);
        }
        let mut ptrs = vec![p];
        if let Some(s) = self.a.shadow.get(&alloc).copied() {
            ptrs.insert(0, self.avail(s)?);
        }
        for q in ptrs {
            let mut args: Vec<V> = extra.iter().map(|v| v.unwrap_or(q)).collect();
            self.b.call_fn(d, &mut args);
        }
        Ok(true)
    }

    /// Memory a differentiated callee allocated and returned (`t =
    /// make(x)`), whose free in the primal was deferred to the reverse
    /// sweep: freed (with its shadow) after the callee's reverse, as the
    /// primal freed it.
    fn free_returned_alloc(&mut self, i: V) -> Result<()> {
        if !self.a.deferred_free.contains(&i) {
            return Ok(());
        }
        let Some(d) = self.a.free_fn.get(&i).copied() else {
            return Ok(());
        };
        let release = |b: &Builder, v: V| {
            if params(d).len() == 1 {
                b.call_fn(d, &mut [v]);
            } else {
                b.free(v);
            }
        };
        if let Some(s) = self.a.shadow.get(&i).copied() {
            let sv = self.avail(s)?;
            release(&self.b, sv);
        }
        let p = self.avail(i)?;
        release(&self.b, p);
        Ok(())
    }

    /// Free `p`, allocated like `alloc` was: C++ `new` / `new[]` memory
    /// goes back through the matching `delete`, the rest through free.
    pub(super) fn dealloc_like(&mut self, alloc: V, p: V) -> Result<()> {
        let n = called_function(alloc).map(name).unwrap_or_default();
        let aligned = n.contains("St11align_val_t");
        let del = if n.starts_with("_Znw") {
            if aligned {
                "_ZdlPvSt11align_val_t"
            } else {
                "_ZdlPv"
            }
        } else if n.starts_with("_Zna") {
            if aligned {
                "_ZdaPvSt11align_val_t"
            } else {
                "_ZdaPv"
            }
        } else {
            self.b.free(p);
            return Ok(());
        };
        let ctx = self.b.ctx;
        let mut args = vec![p];
        let mut tys = vec![ptr_type(ctx)];
        if aligned {
            let a = self.avail(operand(alloc, 1))?;
            tys.push(type_of(a));
            args.push(a);
        }
        let fty = fn_type_of(void_type(ctx), &mut tys, false);
        let f = get_or_declare(self.sess.module, del, fty);
        self.b.call(fty, f, &mut args);
        Ok(())
    }

    pub(super) fn visit_diff_call(
        &mut self,
        i: V,
        info: crate::modes::reverse::aug::CallInfo,
    ) -> Result<()> {
        let mut args = Vec::new();
        let lane = self.a.lane;
        let rev_g = info.pair.rev_of(lane);
        let rev_params = params(rev_g);
        let mut j = 0;
        for (k, a) in info.args.iter().enumerate() {
            // Arguments the reverse function never reads need not be kept.
            let used = !users(rev_params[j]).is_empty()
                || rev_g == self.rev
                || !is_declaration_complete(rev_g);
            args.push(if used {
                self.avail(*a)?
            } else {
                undef(type_of(*a))
            });
            j += 1;
            if info.key.acts[k] == Act::Dup {
                let s = match self.a.shadow.get(a).copied() {
                    Some(s) => self.avail(s)?,
                    None => self
                        .sess
                        .global_ptr_shadow(*a, crate::modes::rev_lane(lane), &|_| true)
                        .unwrap_or_else(|| zero(type_of(*a))),
                };
                // A lane's reverse function reads only its own shadows.
                for l in 0..info.key.lanes() {
                    args.push(if l == lane { s } else { undef(type_of(*a)) });
                }
                j += info.key.lanes();
            }
        }
        if info.pair.takes_seed {
            let primal = if info.pair.aug_ret == AugRet::PrimalShadow {
                return Err(self.err(i, "internal: seed for pointer result"));
            } else {
                i
            };
            let d = self.take_adjoint(primal)?;
            args.push(d);
        }
        args.push(self.tape);
        let r = self.b.call_fn(rev_g, &mut args);
        let primal = match info.pair.aug_ret {
            AugRet::PrimalShadow => users(i)
                .into_iter()
                .find(|u| opcode(*u) == Some(LLVMOpcode::LLVMExtractValue) && indices(*u) == [0]),
            _ => Some(i),
        };
        if let Some(p) = primal {
            self.free_returned_alloc(p)?;
        }
        let n = info.pair.active_params.len();
        for (slot, pi) in info.pair.active_params.iter().enumerate() {
            let d = if n == 1 {
                r
            } else {
                self.b.extract_value(r, slot as u32)
            };
            self.add_adjoint(info.args[*pi], d)?;
        }
        Ok(())
    }
}

/// The floating-point type of the data behind pointers (what loads and
/// stores through them, their GEPs, phis and selects read or write, or the
/// type an underlying alloca holds), when one is found.
pub(super) fn fp_elem_type(ptrs: &[V]) -> Option<T> {
    fn leaf(t: T) -> Option<T> {
        if is_fp_scalar(t) {
            return Some(t);
        }
        if is_vector(t) || is_array(t) {
            return leaf(elem_type(t));
        }
        if is_struct(t) {
            return struct_fields(t).into_iter().find_map(leaf);
        }
        None
    }
    let mut work: Vec<V> = ptrs.to_vec();
    for p in ptrs {
        for o in crate::analysis::activity::underlying_objects(*p) {
            if opcode(o) == Some(LLVMOpcode::LLVMAlloca) {
                if let Some(t) = leaf(allocated_type(o)) {
                    return Some(t);
                }
            }
            work.push(o);
        }
    }
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 256 {
            continue;
        }
        for u in users(v) {
            use LLVMOpcode::*;
            match opcode(u) {
                Some(LLVMLoad) => {
                    if let Some(t) = leaf(type_of(u)) {
                        return Some(t);
                    }
                }
                Some(LLVMStore) => {
                    if operand(u, 1) == v {
                        if let Some(t) = leaf(type_of(operand(u, 0))) {
                            return Some(t);
                        }
                    } else {
                        // The pointer itself is stored: follow its loads.
                        work.push(operand(u, 1));
                    }
                }
                Some(LLVMGetElementPtr) => {
                    if let Some(t) = leaf(gep_source_type(u)) {
                        if !is_int(gep_source_type(u)) {
                            return Some(t);
                        }
                    }
                    work.push(u);
                }
                Some(LLVMBitCast | LLVMAddrSpaceCast | LLVMPHI | LLVMSelect) => work.push(u),
                _ => {}
            }
        }
    }
    None
}

/// `void memcpy_adjoint(ptr dshadow, ptr sshadow, i64 bytes)`: for each
/// element (of type `et`: the float type of the copied data, double when
/// The LLVM type of a float kind.
pub(super) fn float_kind_type(ctx: LLVMContextRef, k: crate::analysis::types::FloatKind) -> T {
    use crate::analysis::types::FloatKind::*;
    match k {
        Half => half_type(ctx),
        BFloat => bfloat_type(ctx),
        Float => float_type(ctx),
        Double => double_type(ctx),
        X86Fp80 => x86_fp80_type(ctx),
        Fp128 => fp128_type(ctx),
        PpcFp128 => ppc_fp128_type(ctx),
    }
}

/// `void memcpy_adjoint(ptr dshadow, ptr sshadow, i64 bytes)`: for each
/// element (of type `et`: the float type of the copied data, double when
/// it is not known) of the copied range, t = dshadow; dshadow = 0;
/// sshadow += t. The ranges may overlap (memmove): the loop then runs
/// against the direction of the primal copy (descending when dshadow is
/// below sshadow), so each element is read before the step that the
/// primal copy would have overwritten it in is undone.
pub(super) fn memcpy_adjoint_fn(m: LLVMModuleRef, et: Option<T>) -> V {
    let ctx = module_context(m);
    let dbl = et
        .filter(|t| {
            matches!(
                kind(*t),
                LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind
            )
        })
        .unwrap_or_else(|| double_type(ctx));
    let is_f32 = kind(dbl) == LLVMTypeKind::LLVMFloatTypeKind;
    let name = if is_f32 {
        "enzyme_rs.memcpy.adjoint.f32"
    } else {
        "enzyme_rs.memcpy.adjoint.f64"
    };
    if let Some(f) = get_function(m, name) {
        return f;
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let fty = fn_type_of(void_type(ctx), &mut [p, p, i64t], false);
    let f = get_or_declare(m, name, fty);
    set_internal(f);
    // One element: t = d[k]; d[k] = 0; s[k] += t (d and s may be equal);
    // against the direction of the primal copy.
    let size = if is_f32 { 4 } else { 8 };
    crate::modes::reverse::memlayout::element_loops(f, size, false, |b, k, dst, src| {
        let dp = b.gep(dbl, dst, &mut [k]);
        let sp = b.gep(dbl, src, &mut [k]);
        let dv = b.load(dbl, dp);
        b.store(const_real(dbl, 0.0), dp);
        let sv = b.load(dbl, sp);
        b.store(b.fadd(sv, dv), sp);
    });
    f
}

impl crate::modes::mpi::Sweep for RevGen<'_> {
    fn builder(&self) -> &Builder {
        &self.b
    }
    fn user_fn(&self) -> V {
        self.a.primal
    }
    fn shadow_ptr(&mut self, p: V) -> Result<Option<V>> {
        self.shadow_avail(p)
    }
    fn value(&mut self, v: V) -> Result<V> {
        self.avail(v)
    }
}
