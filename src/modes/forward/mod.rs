//! Forward mode: a tangent for each varied value, computed next to the primal.
//!
//! The derivative of `f` is a clone of `f` whose signature adds one shadow
//! parameter after each active parameter, and whose return is `{primal,
//! tangent}` when the return is varied. After cloning, tangent code is
//! inserted after each varied instruction, visiting blocks in reverse
//! post-order (so operands' tangents exist before their users), with phi
//! tangents filled in at the end.
use super::common::lower_byval_params;
use super::Session;
use crate::analysis::activity::Activity as ActivityInfo;
use crate::callsite::{self, Request};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::strictfp::{self, FpEnv};
use crate::ir::{shim, Builder};
use crate::rules::{self, AllocKind, CallKind, Partial, RuleCtx};
use std::collections::HashMap;

mod calls;
mod custom;
mod freed;
mod noneed;
mod vecmem;
use custom::custom_derivative;

/// What a forward derivative is specialised on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub func: V,
    /// Per parameter: whether it gets a shadow/tangent parameter.
    pub shadow: Vec<bool>,
    /// Whether the caller wants the tangent of the result.
    pub ret_tangent: bool,
    /// Tangents per varied value (`enzyme_width`); 1 for scalar mode.
    pub width: u32,
    /// Per parameter: a pointer passed `enzyme_dupnoneed`, whose primal
    /// memory is not written (`noneed.rs`); empty: none.
    pub noneed: Vec<bool>,
}

/// How a derivative returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    Void,
    /// Only the primal result.
    Primal,
    /// `{primal, tangent}`; in vector mode `{primal, [N x tangent]}`.
    Both,
}

#[derive(Clone, Copy, Debug)]
pub struct Derivative {
    pub func: V,
    pub ret: Ret,
}

/// Per argument: a pointer passed `enzyme_dupnoneed` (empty when none is).
fn noneed_pointers(req: &Request) -> Vec<bool> {
    let v: Vec<bool> = req
        .args
        .iter()
        .map(|a| a.activity == callsite::Activity::DupNoNeed && is_ptr(type_of(a.primal)))
        .collect();
    if v.contains(&true) {
        v
    } else {
        Vec::new()
    }
}

pub fn run_request(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    let width = req.width as usize;
    let ret_ty = fn_return_type(req.func);
    let key = Key {
        func: req.func,
        shadow: req.args.iter().map(|a| a.activity.has_shadow()).collect(),
        ret_tangent: !is_void(ret_ty)
            && may_carry_derivative(ret_ty)
            && req.ret_active != Some(false),
        width: req.width,
        noneed: noneed_pointers(req),
    };
    let d = derivative(sess, &key, Some(req.call))?;
    let b = Builder::new(sess.module);
    // Vector mode with a hidden result buffer: the parser made one zeroed
    // shadow buffer; the other lanes get theirs here.
    let mut sret_shadows = Vec::new();
    if let (Some(st), true) = (req.fn_sret, width > 1) {
        b.at_entry_allocas(inst_fn(req.call));
        let bufs: Vec<V> = (1..width).map(|_| b.alloca(st)).collect();
        b.before(req.call);
        let size = type_alloc_size(sess.module, st);
        for s in &bufs {
            b.zero_bytes(*s, const_i64(b.ctx, size as i64));
        }
        sret_shadows = bufs;
    }
    b.before(req.call);
    b.set_debug_loc_from(req.call);
    let mut args = Vec::new();
    for (k, a) in req.args.iter().enumerate() {
        args.push(a.primal);
        if a.activity.has_shadow() {
            if k == 0 && req.fn_sret.is_some() && width > 1 {
                args.push(a.shadows[0]);
                args.extend(sret_shadows.iter().copied());
            } else {
                args.extend(a.shadows.iter().take(width).copied());
            }
        }
    }
    let r = b.call_fn(d.func, &mut args);
    sess.toplevel_calls.push((r, inst_fn(req.call)));
    let mut leaves = Vec::new();
    if let Some(st) = req.fn_sret {
        // The result came back through the buffers made by the parser.
        if req.primal_return {
            leaves.extend(callsite::unpack(&b, b.load(st, req.args[0].primal)));
        }
        leaves.extend(callsite::unpack(&b, b.load(st, req.args[0].shadows[0])));
        for s in &sret_shadows {
            leaves.extend(callsite::unpack(&b, b.load(st, *s)));
        }
        callsite::replace_call(req, &b, &leaves)?;
        return Ok(leaves);
    }
    match d.ret {
        Ret::Void => {}
        Ret::Primal => {
            if req.primal_return {
                leaves.extend(callsite::unpack(&b, r));
            }
        }
        Ret::Both => {
            if req.primal_return {
                leaves.extend(callsite::unpack(&b, b.extract_value(r, 0)));
            }
            let t = b.extract_value(r, 1);
            if width == 1 {
                leaves.extend(callsite::unpack(&b, t));
            } else {
                for lane in 0..width {
                    leaves.extend(callsite::unpack(&b, b.extract_value(t, lane as u32)));
                }
            }
        }
    }
    callsite::replace_call(req, &b, &leaves)?;
    Ok(leaves)
}

/// The type of a forward derivative for `key`: each parameter followed by
/// its `width` shadows when it has them; the result is the primal, or
/// `{primal, tangent}` (`{primal, [width x tangent]}` in vector mode).
pub fn signature(key: &Key) -> (T, Ret) {
    let f = key.func;
    let ctx = context_of(type_of(f));
    let ret_ty = fn_return_type(f);
    let width = key.width.max(1);
    let ret = if is_void(ret_ty) {
        Ret::Void
    } else if key.ret_tangent {
        Ret::Both
    } else {
        Ret::Primal
    };
    let mut ptys = Vec::new();
    for (i, p) in params(f).iter().enumerate() {
        ptys.push(type_of(*p));
        if key.shadow[i] {
            for _ in 0..width {
                ptys.push(type_of(*p));
            }
        }
    }
    let new_ret_ty = match ret {
        Ret::Void => void_type(ctx),
        Ret::Primal => ret_ty,
        Ret::Both if width == 1 => struct_type(ctx, &mut [ret_ty, ret_ty]),
        Ret::Both => struct_type(ctx, &mut [ret_ty, array_type(ret_ty, width)]),
    };
    (fn_type_of(new_ret_ty, &mut ptys, false), ret)
}

/// The forward derivative for `key`, synthesized on first use.
pub fn derivative(sess: &mut Session, key: &Key, user_call: Option<V>) -> Result<Derivative> {
    if let Some(d) = sess.fwd_cache.get(key) {
        return Ok(*d);
    }
    let f = key.func;
    let custom = match sess.registry.custom_forward(f) {
        Some(df) => Some(df),
        None => crate::modes::blas::custom_forward(sess.module, f)?,
    };
    if let Some(df) = custom {
        return custom_derivative(sess, key, df, user_call);
    }
    if is_declaration(f) {
        let at = user_call.unwrap_or(f);
        return Err(Error::new(
            ErrorKind::UnknownFunction(name(f)),
            if user_call.is_some() { inst_fn(at) } else { f },
            user_call,
        ));
    }
    crate::modes::common::check_fixed_sizes(f, user_call)?;
    // Signature: each parameter, followed by its shadows when active.
    let (fty, ret) = signature(key);
    let width = key.width.max(1) as usize;
    let ps = params(f);
    let n = if width == 1 {
        format!("enzyme_rs.fwd.{}", name(f))
    } else {
        format!("enzyme_rs.fwd{width}.{}", name(f))
    };
    let nf = add_internal_function(sess.module, &n, fty);
    let d = Derivative { func: nf, ret };
    sess.fwd_cache.insert(key.clone(), d);
    sess.created.push(nf);
    if crate::modes::loops::fwdfp::applies(key) {
        // A fixed point: its tangent iterated at the converged state.
        if let Err(e) = crate::modes::loops::fwdfp::build(sess, key, nf) {
            sess.doomed.push(nf);
            sess.fwd_cache.remove(key);
            sess.created.retain(|x| *x != nf);
            return Err(e);
        }
        return Ok(d);
    }

    // Clone the primal body, mapping old parameters to the new primal ones.
    let nps = params(nf);
    let mut primal_params = Vec::new();
    let mut shadow_of: HashMap<V, Vec<V>> = HashMap::new();
    let mut j = 0;
    for (i, _) in ps.iter().enumerate() {
        primal_params.push(nps[j]);
        set_name(nps[j], &name(ps[i]));
        let p = nps[j];
        j += 1;
        if key.shadow[i] {
            let lanes: Vec<V> = nps[j..j + width].to_vec();
            for (l, sp) in lanes.iter().enumerate() {
                let suffix = if width == 1 {
                    String::new()
                } else {
                    l.to_string()
                };
                set_name(*sp, &format!("{}'{suffix}", name(ps[i])));
            }
            shadow_of.insert(p, lanes);
            j += width;
        }
    }
    let vmap = shim::clone_into(nf, f, &mut primal_params);
    crate::modes::iface::iter::step_in_clone(nf);
    shim::strip_derivative_attrs(nf);
    remove_fn_attr(nf, "alwaysinline");
    // The forward derivative of a checkpointed loop's function is a plain
    // loop (reverse over forward tapes it like any other).
    crate::ir::attrs::remove_fn_string_attr(nf, crate::modes::loops::ATTR);
    make_internal(nf);
    // The clone inherits the primal's calling convention (fastcc for
    // internal functions at -O1 and above) but is called with the C one,
    // and its callers pass plain pointers for byval/sret parameters.
    set_c_call_conv(nf);
    lower_byval_params(nf, &primal_params);
    shim::invokes_to_calls(nf);
    strip_threadlocal_address(nf);
    let noneed: Vec<V> = key
        .noneed
        .iter()
        .zip(&primal_params)
        .filter(|(n, _)| **n)
        .map(|(_, p)| *p)
        .collect();
    if !noneed.is_empty() {
        noneed::inline_calls_given(nf, &noneed);
    }
    crate::modes::dispatch::prepare_calls(sess, nf);
    crate::modes::openmp::prepare(nf, false)?;
    crate::modes::gpu::prepare_clone(nf);

    // Activity, computed on the clone.
    let mut seeds: Vec<V> = shadow_of.keys().copied().collect();
    // A pointer result whose tangent the caller wants although no
    // parameter has one (fresh memory the caller fills with active data):
    // its sources get tangents.
    let ret_ty = fn_return_type(f);
    if key.ret_tangent && seeds.is_empty() && (is_ptr(ret_ty) || is_ptr_aggregate(ret_ty)) {
        seeds.extend(crate::modes::common::returned_sources(nf));
    }
    // What the first caller knew about the arguments, for each parameter
    // of `nf` (each lane's shadow shares its primal's tree).
    let caller_trees = sess.arg_trees.get(&f).cloned().unwrap_or_default();
    let mut arg_trees = Vec::new();
    for (k, has_shadow) in key.shadow.iter().enumerate() {
        let t = caller_trees.get(k).cloned().unwrap_or_default();
        let shadows = if *has_shadow { width } else { 0 };
        arg_trees.extend(std::iter::repeat(t).take(1 + shadows));
    }
    let mut act = ActivityInfo::analyse_args(nf, &seeds, f, &arg_trees, &sess.activity_cx())?;
    if crate::modes::dispatch::dispatch_active_indirect_calls(sess, nf, f, |v| act.is_varied(v)) > 0
    {
        act = ActivityInfo::analyse_args(nf, &seeds, f, &arg_trees, &sess.activity_cx())?;
    }
    drop(vmap);
    if sess.opts.print_type {
        let types = crate::analysis::types::TypeAnalysis::analyse(sess.module, nf, &[]);
        crate::analysis::printer::print_types(
            nf,
            &types,
            &format!("forward derivative of {}", name(f)),
        );
    }
    if sess.opts.print_activity {
        crate::analysis::printer::print_activity(
            nf,
            &act,
            &format!("forward derivative of {}", name(f)),
        );
    }

    let module = sess.module;
    let mut g = Gen {
        sess,
        primal: f,
        nf,
        act,
        tan: shadow_of,
        b: Builder::new(module),
        phis: Vec::new(),
        pending_frees: Vec::new(),
        null_cells: HashMap::new(),
        ret,
        width,
        fp_envs: HashMap::new(),
    };
    let r = g.run();
    if let Err(e) = r {
        // Deleted by the driver once the error has been reported (the
        // error may point at instructions of this function).
        g.sess.doomed.push(nf);
        g.sess.fwd_cache.remove(key);
        g.sess.created.retain(|x| *x != nf);
        return Err(e);
    }
    if !noneed.is_empty() {
        let n = noneed::drop_primal_writes(nf, &noneed);
        log::debug!(
            "enzyme-rs: {}: {n} primal write(s) through enzyme_dupnoneed pointers dropped",
            name(f)
        );
    }
    if g.sess.opts.print {
        eprintln!("{}", print_value(nf));
    }
    Ok(d)
}

struct Gen<'s> {
    sess: &'s mut Session,
    primal: V,
    nf: V,
    act: ActivityInfo,
    /// Tangents (or shadows) of each varied value in `nf`: one per lane.
    tan: HashMap<V, Vec<V>>,
    b: Builder,
    /// (primal phi, tangent phis) to fill once every block is done.
    phis: Vec<(V, Vec<V>)>,
    /// Frees whose pointer had no tangent when visited: their shadows are
    /// freed once every tangent exists (freed.rs).
    pending_frees: Vec<V>,
    /// Entry-block slots holding null, per type (freed.rs).
    null_cells: HashMap<T, V>,
    ret: Ret,
    /// Lanes (`enzyme_width`): every tangent computation is emitted once
    /// per lane, sharing the primal and the partial derivatives.
    width: usize,
    /// In a `strictfp` function: the rounding and exception arguments of
    /// the tangent code of each constrained operation.
    fp_envs: HashMap<V, FpEnv>,
}

impl Gen<'_> {
    fn primal_fn(&self) -> V {
        self.primal
    }

    fn err(&self, inst: V, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported(msg.into()), self.primal, Some(inst))
    }

    fn varied(&self, v: V) -> bool {
        self.act.is_varied(v) || self.tan.contains_key(&v)
    }

    /// The tangents of `v` (one per lane), if it has them.
    fn tangent(&mut self, v: V) -> Option<Vec<V>> {
        if let Some(t) = self.tan.get(&v) {
            return Some(t.clone());
        }
        if is_global_var(v) && self.act.is_varied(v) {
            let s = self.global_shadows(v);
            self.tan.insert(v, s.clone());
            return Some(s);
        }
        let act = &self.act;
        let w = self.width as u32;
        let s: Option<Vec<V>> = (0..self.width)
            .map(|l| {
                self.sess
                    .global_ptr_shadow(v, Some(crate::modes::fwd_lane(w, l as u32)), &|g| {
                        act.is_varied(g)
                    })
            })
            .collect();
        if let Some(s) = &s {
            self.tan.insert(v, s.clone());
        }
        s
    }

    /// One shadow global per lane.
    fn global_shadows(&mut self, g: V) -> Vec<V> {
        (0..self.width)
            .map(|l| {
                self.sess
                    .shadow_global_lane(g, crate::modes::fwd_lane(self.width as u32, l as u32))
            })
            .collect()
    }

    /// The tangents of `v`, or zeros of its type when it has none.
    /// Pointers without a shadow are only allowed when null/undef.
    fn tangent_or_zero(&mut self, v: V, at: V) -> Result<Vec<V>> {
        if let Some(t) = self.tangent(v) {
            return Ok(t);
        }
        let t = type_of(v);
        if is_ptr(t) && !is_null_or_undef(v) {
            if is_global_var(v) {
                // A global that is only read: its shadow is zero memory.
                return Ok(self.global_shadows(v));
            }
            // A heap allocation that meets active pointers (returned as a
            // duplicated result, say): zeroed shadows made right after it.
            if let CallKind::Alloc(AllocKind::Malloc { size_arg }) = rules::classify(v) {
                let b = Builder::new(self.sess.module);
                b.after(v);
                b.clear_debug_loc();
                let mut lanes = Vec::new();
                for _ in 0..self.width {
                    let c = b.insert_clone(v);
                    b.zero_bytes(c, operand(v, size_arg));
                    lanes.push(c);
                }
                self.tan.insert(v, lanes.clone());
                return Ok(lanes);
            }
            if let Some(pm) = crate::modes::common::posix_memalign_of(v) {
                // The same for a pointer `posix_memalign` returned through
                // a local slot (std's System allocator inlined by rustc):
                // the call again, into a slot of each lane's own.
                let b = Builder::new(self.sess.module);
                let ptr = type_of(v);
                let mut lanes = Vec::new();
                for _ in 0..self.width {
                    b.at_entry_allocas(self.nf);
                    let slot = b.alloca(ptr);
                    b.after(v);
                    b.clear_debug_loc();
                    b.store(zero(ptr), slot);
                    b.clone_call_with(pm, &[(0, slot)]);
                    let c = b.load(ptr, slot);
                    b.zero_bytes(c, operand(pm, 2));
                    lanes.push(c);
                }
                self.tan.insert(v, lanes.clone());
                return Ok(lanes);
            }
            if crate::modes::common::points_into_float_free_constant(v)
                || crate::modes::common::null_based(v)
            {
                // A read-only table without floats, or null moved by a GEP
                // (an empty std::vector's end): its own shadow, as in
                // reverse mode.
                return Ok(vec![v; self.width]);
            }
            return Err(self.err(
                at,
                format!(
                    "pointer {} has no shadow here but is mixed with active pointers (pass its memory with enzyme_dup)",
                    print_value(v).trim()
                ),
            ));
        }
        Ok(vec![zero(t); self.width])
    }

    /// Apply `f` to each lane of `v`'s tangents, if it has them.
    fn map_lanes(&mut self, v: V, mut f: impl FnMut(&Builder, V) -> V) -> Option<Vec<V>> {
        let t = self.tangent(v)?;
        Some(t.into_iter().map(|x| f(&self.b, x)).collect())
    }

    fn run(&mut self) -> Result<()> {
        let order = rpo(self.nf);
        // Unreachable blocks are left alone (no tangent code).
        for bb in order {
            for i in instructions(bb) {
                self.b.set_debug_loc_from(i);
                self.visit(i)?;
            }
        }
        let phis = std::mem::take(&mut self.phis);
        for (p, tps) in phis {
            for (v, bb) in incoming(p) {
                let tvs = self.tangent_or_zero(v, p)?;
                for (tp, tv) in tps.iter().zip(tvs) {
                    add_incoming(*tp, &[(tv, bb)]);
                }
            }
        }
        self.b.clear_debug_loc();
        self.free_pending_shadows();
        if strictfp::is_strictfp(self.primal) {
            // No plain floating-point operation beside constrained ones.
            add_fn_attr(self.nf, "strictfp");
            let default = strictfp::default_env(self.primal);
            strictfp::constrain_function(self.nf, &self.fp_envs, default);
        }
        verify_function(self.nf).map_err(|m| {
            Error::new(
                ErrorKind::Internal(format!(
                    "forward derivative of '{}' fails the verifier: {m}",
                    name(self.primal)
                )),
                self.primal,
                None,
            )
        })
    }

    fn lane_name(&self, i: V, l: usize) -> String {
        if self.width == 1 {
            format!("{}'", name(i))
        } else {
            format!("{}'{l}", name(i))
        }
    }

    fn visit(&mut self, i: V) -> Result<()> {
        use LLVMOpcode::*;
        let op = opcode(i).unwrap();
        let is_varied = self.act.is_varied(i);
        match op {
            LLVMRet => return self.visit_ret(i),
            LLVMStore => return self.visit_store(i),
            LLVMCall => return self.visit_call(i),
            LLVMInvoke | LLVMLandingPad | LLVMResume | LLVMCallBr | LLVMCatchPad
            | LLVMCleanupPad => {
                if is_varied || operands(i).iter().any(|o| self.varied(*o)) {
                    return Err(self.err(i, "exception handling (invoke/landingpad) with active values is not supported; compile with -fno-exceptions or keep exceptions out of the differentiated code"));
                }
                return Ok(());
            }
            _ => {}
        }
        if op == LLVMAtomicRMW && operands(i).iter().any(|o| self.varied(*o)) {
            // `omp atomic` updates.
            let sp = self.tangent_or_zero(operand(i, 0), i)?;
            let dv = self.tangent_or_zero(operand(i, 1), i)?;
            return crate::modes::openmp::forward_atomic(&self.b, i, &sp, &dv);
        }
        if !is_varied {
            // Instructions that would need a derivative but cannot get one.
            if matches!(op, LLVMAtomicRMW | LLVMAtomicCmpXchg)
                && operands(i).iter().any(|o| self.varied(*o))
            {
                return Err(self.err(i, "atomic read-modify-write of active memory is not supported in forward mode yet"));
            }
            return Ok(());
        }
        self.b.after(i);
        let w = self.width;
        let t: Option<Vec<V>> = match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMFPExt
            | LLVMFPTrunc => {
                let args = operands(i);
                self.apply_rule(i, &args)?
            }
            LLVMPHI => {
                self.b.at_first_non_phi(inst_block(i));
                let tps: Vec<V> = (0..w)
                    .map(|l| {
                        let tp = self.b.phi(type_of(i));
                        set_name(tp, &self.lane_name(i, l));
                        tp
                    })
                    .collect();
                self.phis.push((i, tps.clone()));
                Some(tps)
            }
            LLVMLoad => {
                let p = operand(i, 0);
                let ty = type_of(i);
                let ls = self
                    .map_lanes(p, |b, sp| {
                        let l = b.load(ty, sp);
                        copy_mem_flags(i, l);
                        l
                    })
                    .ok_or_else(|| {
                        self.err(i, "load from active memory without a shadow pointer")
                    })?;
                Some(ls)
            }
            LLVMGetElementPtr => {
                let base = operand(i, 0);
                let idx: Vec<V> = operands(i)[1..].to_vec();
                let src_ty = gep_source_type(i);
                self.map_lanes(base, |b, sb| {
                    let g = b.gep(src_ty, sb, &mut idx.clone());
                    copy_inbounds(i, g);
                    g
                })
            }
            LLVMBitCast | LLVMAddrSpaceCast => {
                let o = operand(i, 0);
                let to = type_of(i);
                self.map_lanes(o, |b, t| b.cast(op, t, to))
            }
            LLVMSelect | LLVMExtractValue | LLVMInsertValue | LLVMExtractElement
            | LLVMInsertElement | LLVMShuffleVector => self.aggregate_tangent(i, op)?,
            LLVMFreeze => {
                let o = operand(i, 0);
                self.tangent(o)
            }
            LLVMAlloca => Some(self.alloca_tangent(i)),
            _ => {
                return Err(self.err(
                    i,
                    format!("no forward-mode rule for instruction '{}'", opcode_name(op)),
                ));
            }
        };
        if let Some(t) = t {
            self.tan.insert(i, t);
        }
        Ok(())
    }

    /// Tangents of select and of the element/field operations on vectors and
    /// aggregates: the same operation on the operands' tangents.
    fn aggregate_tangent(&mut self, i: V, op: LLVMOpcode) -> Result<Option<Vec<V>>> {
        use LLVMOpcode::*;
        let w = self.width;
        Ok(match op {
            LLVMSelect => {
                let (c, x, y) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let tx = self.tangent_or_zero(x, i)?;
                let ty = self.tangent_or_zero(y, i)?;
                Some((0..w).map(|l| self.b.select(c, tx[l], ty[l])).collect())
            }
            LLVMExtractValue => {
                let agg = operand(i, 0);
                let idx = indices(i);
                self.map_lanes(agg, |b, ta| {
                    let mut v = ta;
                    for k in &idx {
                        v = b.extract_value(v, *k);
                    }
                    v
                })
            }
            LLVMInsertValue => {
                let (agg, v) = (operand(i, 0), operand(i, 1));
                let ta = self.tangent_or_zero(agg, i)?;
                let tv = self.tangent_or_zero(v, i)?;
                let idx = indices(i);
                Some(
                    (0..w)
                        .map(|l| insert_nested(&self.b, ta[l], tv[l], &idx))
                        .collect(),
                )
            }
            LLVMExtractElement => {
                let (vec, idx) = (operand(i, 0), operand(i, 1));
                self.map_lanes(vec, |b, t| b.extract_element(t, idx))
            }
            LLVMInsertElement => {
                let (vec, v, idx) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let tvec = self.tangent_or_zero(vec, i)?;
                let tv = self.tangent_or_zero(v, i)?;
                Some(
                    (0..w)
                        .map(|l| self.b.insert_element(tvec[l], tv[l], idx))
                        .collect(),
                )
            }
            LLVMShuffleVector => {
                let (x, y) = (operand(i, 0), operand(i, 1));
                let tx = self.tangent_or_zero(x, i)?;
                let ty = self.tangent_or_zero(y, i)?;
                let mask = shuffle_mask(i);
                Some((0..w).map(|l| self.b.shuffle(tx[l], ty[l], mask)).collect())
            }
            _ => unreachable!("aggregate_tangent of {op:?}"),
        })
    }

    /// The shadow allocations of an alloca, one per lane, zeroed: memory
    /// never written with active data has a zero derivative.
    fn alloca_tangent(&mut self, i: V) -> Vec<V> {
        let w = self.width;
        let ty = allocated_type(i);
        let n = operand(i, 0);
        let mut lanes = Vec::new();
        for l in 0..w {
            let s = if const_int_value(n) == Some(1) {
                self.b.alloca(ty)
            } else {
                self.b.array_alloca(ty, n)
            };
            copy_alignment(i, s);
            set_name(s, &self.lane_name(i, l));
            // Zero the shadow: memory never written with active data
            // has a zero derivative.
            let size = type_alloc_size(self.sess.module, ty);
            let ctx = self.b.ctx;
            let len = self.b.mul(
                const_i64(ctx, size as i64),
                self.b.int_cast(n, i64_type(ctx), false),
            );
            self.b.zero_bytes(s, len);
            lanes.push(s);
        }
        lanes
    }

    /// Tangent through the rule table: dout = sum_i partial_i * dx_i, per
    /// lane; the partials are computed once for all lanes.
    fn apply_rule(&mut self, i: V, args: &[V]) -> Result<Option<Vec<V>>> {
        let rule = rules::lookup(i).ok_or_else(|| self.err(i, "no derivative rule"))?;
        let tangents: Vec<Option<Vec<V>>> = args
            .iter()
            .map(|a| {
                if is_fp(type_of(*a)) {
                    self.tangent(*a)
                } else {
                    None
                }
            })
            .collect();
        let need: Vec<bool> = tangents.iter().map(|t| t.is_some()).collect();
        if !need.iter().any(|n| *n) {
            return Ok(None);
        }
        self.b.after(i);
        let end = next_instruction(i);
        let ctx = RuleCtx::new(&self.b, &rule, args, i, &need);
        let partials = (rule.partials)(&ctx);
        let out_ty = type_of(i);
        // Partials converted to the result type once, shared by the lanes.
        let factors: Vec<Option<Partial>> = partials
            .iter()
            .enumerate()
            .map(|(k, p)| {
                if tangents.get(k).map(|t| t.is_some()) != Some(true) {
                    return None;
                }
                Some(match p {
                    Partial::Val(v) => Partial::Val(self.b.float_to(*v, out_ty)),
                    Partial::Quot(q, m) => Partial::Quot(
                        self.b.float_to(*q, out_ty),
                        m.map(|m| self.b.float_to(m, out_ty)),
                    ),
                    other => *other,
                })
            })
            .collect();
        let strong_zero = self.sess.opts.strong_zero || rule.seed_checked;
        let mut lanes = Vec::with_capacity(self.width);
        for l in 0..self.width {
            let mut acc: Option<V> = None;
            for (k, p) in factors.iter().enumerate() {
                let Some(p) = p else { continue };
                let t = tangents[k].as_ref().unwrap()[l];
                if let Some(term) = reduction_term(&self.b, p, t, out_ty, strong_zero) {
                    acc = Some(match acc {
                        None => term,
                        Some(a) => self.b.fadd(a, term),
                    });
                    continue;
                }
                let t = self.b.float_to(t, out_ty);
                let term = match p {
                    Partial::Zero | Partial::LaneSum | Partial::Lanes(_) | Partial::Pick(_) => {
                        continue
                    }
                    Partial::One => t,
                    Partial::NegOne => self.b.fneg(t),
                    Partial::Val(v) => self.b.fmul(*v, t),
                    Partial::Quot(q, m) => {
                        let s = self.b.fdiv(t, *q);
                        match m {
                            Some(m) => self.b.fmul(s, *m),
                            None => s,
                        }
                    }
                };
                let term = match p {
                    Partial::Val(_) | Partial::Quot(..) if strong_zero => {
                        rules::strong_zero_term(&self.b, t, term)
                    }
                    _ => term,
                };
                acc = Some(match acc {
                    None => term,
                    Some(a) => self.b.fadd(a, term),
                });
            }
            lanes.push(acc.unwrap_or_else(|| zero(out_ty)));
        }
        if let Some(env) = strictfp::env_of(i) {
            // The tangent's arithmetic, constrained like `i` (`run`).
            for e in strictfp::emitted_between(Some(i), inst_block(i), end) {
                self.fp_envs.insert(e, env);
            }
        }
        Ok(Some(lanes))
    }

    fn visit_store(&mut self, i: V) -> Result<()> {
        let (v, p) = (operand(i, 0), operand(i, 1));
        let Some(sp) = self.tangent(p) else {
            // Memory the analysis reached but found useless for any output
            // (e.g. -O0's `this.addr` slot never read) needs no shadow.
            if self.varied(v) && !self.act.is_reached(p) {
                return Err(self.err(
                    i,
                    "an active value is stored into memory that has no shadow",
                ));
            }
            return Ok(());
        };
        let tv = match self.tangent(v) {
            Some(t) => t,
            None => vec![zero(type_of(v)); self.width],
        };
        self.b.after(i);
        for l in 0..self.width {
            let s = self.b.store(tv[l], sp[l]);
            copy_mem_flags(i, s);
        }
        Ok(())
    }

    fn visit_ret(&mut self, i: V) -> Result<()> {
        if self.ret == Ret::Void {
            return Ok(());
        }
        let v = operand(i, 0);
        self.b.before(i);
        let r = match self.ret {
            Ret::Primal => return Ok(()),
            Ret::Both => {
                let t = self.tangent_or_zero(v, i)?;
                let st = fn_return_type(self.nf);
                if self.width == 1 {
                    self.b.make_struct(st, &[v, t[0]])
                } else {
                    let at = struct_fields(st)[1];
                    let arr = self.b.make_struct(at, &t);
                    self.b.make_struct(st, &[v, arr])
                }
            }
            Ret::Void => unreachable!(),
        };
        self.b.ret(r);
        erase(i);
        Ok(())
    }
}

/// The tangent term of a reduction's partial (`Partial::LaneSum`,
/// `Lanes`, `Pick`) applied to vector tangent `t`: the lanes' terms summed
/// in any order into a scalar of type `out_ty`. None for other partials.
fn reduction_term(b: &Builder, p: &Partial, t: V, out_ty: T, strong_zero: bool) -> Option<V> {
    let lanes = match p {
        Partial::LaneSum => t,
        Partial::Lanes(v) => {
            let m = b.fmul(*v, t);
            if strong_zero {
                rules::strong_zero_term(b, t, m)
            } else {
                m
            }
        }
        Partial::Pick(m) => b.select(*m, t, const_real(type_of(t), -0.0)),
        _ => return None,
    };
    Some(crate::ir::vector::reduce_fadd(
        b,
        const_real(out_ty, -0.0),
        lanes,
        true,
    ))
}
