//! Forward mode: a tangent for each varied value, computed next to the primal.
//!
//! The derivative of `f` is a clone of `f` whose signature adds one shadow
//! parameter after each active parameter, and whose return is `{primal,
//! tangent}` when the return is varied. After cloning, tangent code is
//! inserted after each varied instruction, visiting blocks in reverse
//! post-order (so operands' tangents exist before their users), with phi
//! tangents filled in at the end.
use super::Session;
use crate::analysis::activity::Activity as ActivityInfo;
use crate::callsite::{self, Request};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use crate::rules::{self, AllocKind, CallKind, Partial, RuleCtx};
use std::collections::HashMap;

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
    let ctx = unsafe { LLVMGetTypeContext(type_of(f)) };
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
        Ret::Both => struct_type(ctx, &mut [ret_ty, unsafe { LLVMArrayType(ret_ty, width) }]),
    };
    (fn_type_of(new_ret_ty, &mut ptys, false), ret)
}

/// The forward derivative for `key`, synthesized on first use.
pub fn derivative(sess: &mut Session, key: &Key, user_call: Option<V>) -> Result<Derivative> {
    if let Some(d) = sess.fwd_cache.get(key) {
        return Ok(*d);
    }
    let f = key.func;
    if let Some(df) = crate::rules::registry::custom_forward(f) {
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
    // Signature: each parameter, followed by its shadows when active.
    let (fty, ret) = signature(key);
    let width = key.width.max(1) as usize;
    let ps = params(f);
    let nf = unsafe {
        let n = cstr(&if width == 1 {
            format!("enzyme_rs.fwd.{}", name(f))
        } else {
            format!("enzyme_rs.fwd{width}.{}", name(f))
        });
        let nf = LLVMAddFunction(sess.module, n.as_ptr(), fty);
        LLVMSetLinkage(nf, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        nf
    };
    let d = Derivative { func: nf, ret };
    sess.fwd_cache.insert(key.clone(), d);
    sess.created.push(nf);

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
    shim::strip_derivative_attrs(nf);
    remove_fn_attr(nf, "alwaysinline");
    make_internal(nf);
    // The clone inherits the primal's calling convention (fastcc for
    // internal functions at -O1 and above) but is called with the C one,
    // and its callers pass plain pointers for byval/sret parameters.
    unsafe { LLVMSetFunctionCallConv(nf, llvm_sys::LLVMCallConv::LLVMCCallConv as u32) };
    crate::modes::reverse::aug::lower_byval_params(nf, &primal_params);
    shim::invokes_to_calls(nf);
    crate::modes::dispatch::prepare_calls(sess, nf);

    // Activity, computed on the clone.
    let seeds: Vec<V> = shadow_of.keys().copied().collect();
    let mut act = ActivityInfo::analyse(nf, &seeds, f)?;
    if crate::modes::dispatch::dispatch_active_indirect_calls(sess, nf, |v| act.is_varied(v)) > 0 {
        act = ActivityInfo::analyse(nf, &seeds, f)?;
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
        ret,
        width,
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
    ret: Ret,
    /// Lanes (`enzyme_width`): every tangent computation is emitted once
    /// per lane, sharing the primal and the partial derivatives.
    width: usize,
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
        let s: Option<Vec<V>> = (0..self.width)
            .map(|l| {
                self.sess
                    .global_ptr_shadow(v, Some(l as u32), &|g| act.is_varied(g))
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
            .map(|l| self.sess.shadow_global_lane(g, l as u32))
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
                    let c = unsafe { LLVMInstructionClone(v) };
                    unsafe { LLVMInsertIntoBuilder(b.raw, c) };
                    b.zero_bytes(c, operand(v, size_arg));
                    lanes.push(c);
                }
                self.tan.insert(v, lanes.clone());
                return Ok(lanes);
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
            let n = unsafe { LLVMCountIncoming(p) };
            for k in 0..n {
                let (v, bb) = unsafe { (LLVMGetIncomingValue(p, k), LLVMGetIncomingBlock(p, k)) };
                let tvs = self.tangent_or_zero(v, p)?;
                for (tp, tv) in tps.iter().zip(tvs) {
                    let (mut tv, mut tb) = (tv, bb);
                    unsafe { LLVMAddIncoming(*tp, &mut tv, &mut tb, 1) };
                }
            }
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
                let src_ty = unsafe { LLVMGetGEPSourceElementType(i) };
                self.map_lanes(base, |b, sb| {
                    let g = b.gep(src_ty, sb, &mut idx.clone());
                    unsafe { LLVMSetIsInBounds(g, LLVMIsInBounds(i)) };
                    g
                })
            }
            LLVMBitCast | LLVMAddrSpaceCast => {
                let o = operand(i, 0);
                let to = type_of(i);
                self.map_lanes(o, |b, t| b.cast(op, t, to))
            }
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
            LLVMFreeze => {
                let o = operand(i, 0);
                self.tangent(o)
            }
            LLVMAlloca => {
                let ty = unsafe { LLVMGetAllocatedType(i) };
                let n = operand(i, 0);
                let mut lanes = Vec::new();
                for l in 0..w {
                    let s = if const_int_value(n) == Some(1) {
                        self.b.alloca(ty)
                    } else {
                        self.b.array_alloca(ty, n)
                    };
                    unsafe { LLVMSetAlignment(s, LLVMGetAlignment(i)) };
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
                Some(lanes)
            }
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
                    other => *other,
                })
            })
            .collect();
        let mut lanes = Vec::with_capacity(self.width);
        for l in 0..self.width {
            let mut acc: Option<V> = None;
            for (k, p) in factors.iter().enumerate() {
                let Some(p) = p else { continue };
                let t = tangents[k].as_ref().unwrap()[l];
                let t = self.b.float_to(t, out_ty);
                let term = match p {
                    Partial::Zero => continue,
                    Partial::One => t,
                    Partial::NegOne => self.b.fneg(t),
                    Partial::Val(v) => self.b.fmul(*v, t),
                };
                acc = Some(match acc {
                    None => term,
                    Some(a) => self.b.fadd(a, term),
                });
            }
            lanes.push(acc.unwrap_or_else(|| zero(out_ty)));
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
        unsafe { LLVMInstructionEraseFromParent(i) };
        Ok(())
    }

    fn visit_call(&mut self, i: V) -> Result<()> {
        let args = call_args(i);
        let any_arg_varied = args.iter().any(|a| self.varied(*a));
        let is_varied = self.act.is_varied(i);
        let kind = rules::classify(i);
        if let CallKind::Alloc(AllocKind::Free) = kind {
            // Shadows are freed with their primal, even when the freed
            // pointer itself carries no derivative.
            return self.visit_alloc(i, AllocKind::Free);
        }
        if !any_arg_varied && !is_varied {
            return Ok(());
        }
        let kind = match kind {
            CallKind::Custom(c) if c.forward.is_some() => return self.visit_diff_call(i, true),
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
                    if let Some(t) = self.apply_rule(i, &args)? {
                        self.tan.insert(i, t);
                    }
                }
                Ok(())
            }
            CallKind::Custom(_) => unreachable!("resolved above"),
            CallKind::Indirect
            | CallKind::InlineAsm
            | CallKind::Defined(_)
            | CallKind::Unknown(_) => self.visit_diff_call(i, false),
        }
    }

    /// `posix_memalign`: when the slot the allocation is returned through
    /// has tangent slots, allocate a zeroed tangent block into each.
    fn visit_alloc_out(&mut self, i: V) -> Result<()> {
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
    fn replay_on_tangents(&mut self, i: V) -> Result<()> {
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

    /// A call of a function differentiated in turn (or of its registered
    /// forward derivative when `custom`).
    fn visit_diff_call(&mut self, i: V, custom: bool) -> Result<()> {
        let callee = known_target(i);
        let cname = callee.map(name).unwrap_or_default();
        let args = call_args(i);
        let is_varied = self.act.is_varied(i);
        let callee = crate::modes::callee_to_differentiate(i, callee, self.primal_fn())?;
        if is_declaration(callee) && !custom {
            return Err(Error::new(
                ErrorKind::UnknownFunction(cname),
                self.primal,
                Some(i),
            ));
        }
        // A call to a function with a body: differentiate it in turn.
        let ps = params(callee);
        if ps.len() != args.len() || unsafe { LLVMIsFunctionVarArg(fn_type(callee)) } != 0 {
            return Err(self.err(
                i,
                format!("call to variadic function '{cname}' with active arguments"),
            ));
        }
        let shadow: Vec<bool> = args
            .iter()
            .map(|a| {
                self.varied(*a)
                    && (is_fp(type_of(*a))
                        || is_ptr(type_of(*a))
                        || may_carry_derivative(type_of(*a)))
            })
            .collect();
        let key = Key {
            func: callee,
            shadow: shadow.clone(),
            ret_tangent: is_varied,
            width: self.width as u32,
        };
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
            Ret::Void | Ret::Primal => unsafe { LLVMReplaceAllUsesWith(i, nc) },
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
                unsafe { LLVMReplaceAllUsesWith(i, p) };
                self.act.varied.insert(p);
                self.tan.insert(p, lanes);
            }
        }
        unsafe { LLVMInstructionEraseFromParent(i) };
        Ok(())
    }

    fn visit_mem(&mut self, i: V, k: rules::MemKind) -> Result<()> {
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
        let zero_byte = unsafe { LLVMConstInt(i8_type(ctx), 0, 0) };
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
    fn clone_call_after(&mut self, i: V) -> V {
        let c = unsafe { LLVMInstructionClone(i) };
        unsafe { LLVMInsertIntoBuilder(self.b.raw, c) };
        c
    }

    fn visit_alloc(&mut self, i: V, k: rules::AllocKind) -> Result<()> {
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
                    }
                }
                if let Some(sp) = sp {
                    self.b.after(i);
                    for s in sp {
                        let c = self.clone_call_after(i);
                        unsafe { LLVMSetOperand(c, 0, s) };
                    }
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
            Realloc => {
                if self.act.is_varied(i) {
                    let p = operand(i, 0);
                    let sp = self.tangent_or_zero(p, i)?;
                    self.b.after(i);
                    let mut lanes = Vec::new();
                    for s in sp {
                        let c = self.clone_call_after(i);
                        unsafe { LLVMSetOperand(c, 0, s) };
                        lanes.push(c);
                    }
                    self.tan.insert(i, lanes);
                }
            }
        }
        Ok(())
    }
}

/// Copy alignment and volatility from one memory instruction to another.
pub fn copy_mem_flags(from: V, to: V) {
    unsafe {
        LLVMSetAlignment(to, LLVMGetAlignment(from));
        LLVMSetVolatile(to, LLVMGetVolatile(from));
    }
}

pub fn indices(i: V) -> Vec<u32> {
    unsafe {
        let n = LLVMGetNumIndices(i);
        let p = LLVMGetIndices(i);
        std::slice::from_raw_parts(p, n as usize).to_vec()
    }
}

/// insertvalue with a multi-level index path.
pub fn insert_nested(b: &Builder, agg: V, v: V, idx: &[u32]) -> V {
    if idx.len() == 1 {
        return b.insert_value(agg, v, idx[0]);
    }
    let inner = b.extract_value(agg, idx[0]);
    let new_inner = insert_nested(b, inner, v, &idx[1..]);
    b.insert_value(agg, new_inner, idx[0])
}

/// The mask of a shufflevector as a constant vector.
pub fn shuffle_mask(i: V) -> V {
    unsafe {
        let n = LLVMGetNumMaskElements(i);
        let ctx = LLVMGetTypeContext(type_of(i));
        let i32t = LLVMInt32TypeInContext(ctx);
        let undef = LLVMGetUndefMaskElem();
        let mut elems: Vec<V> = (0..n)
            .map(|k| {
                let m = LLVMGetMaskValue(i, k);
                if m == undef {
                    LLVMGetUndef(i32t)
                } else {
                    LLVMConstInt(i32t, m as u64, 0)
                }
            })
            .collect();
        LLVMConstVector(elems.as_mut_ptr(), n)
    }
}

/// Internal linkage, default visibility (after cloning, which copies the
/// primal's linkage-related attributes).
pub fn make_internal(f: V) {
    unsafe {
        LLVMSetVisibility(f, llvm_sys::LLVMVisibility::LLVMDefaultVisibility);
        LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        LLVMSetDLLStorageClass(f, llvm_sys::LLVMDLLStorageClass::LLVMDefaultStorageClass);
        LLVMSetUnnamedAddress(f, llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr);
    }
}

pub fn opcode_name(op: LLVMOpcode) -> String {
    format!("{op:?}").trim_start_matches("LLVM").to_lowercase()
}

/// Whether a parameter of this type is followed by its tangent in a custom
/// forward derivative's signature.
pub fn custom_has_tangent(t: T) -> bool {
    is_fp(t) || is_ptr(t) || may_carry_derivative(t)
}

/// The error for a custom derivative whose signature does not fit.
pub fn custom_mismatch(user_call: Option<V>, msg: String) -> Error {
    Error {
        kind: ErrorKind::BadCall(msg),
        at: user_call.map(|c| crate::diag::At {
            func: inst_fn(c),
            inst: Some(c),
        }),
    }
}

pub fn fn_sig_text(f: V) -> String {
    let ps: Vec<String> = params(f).iter().map(|p| print_type(type_of(*p))).collect();
    format!("{} ({})", print_type(fn_return_type(f)), ps.join(", "))
}

/// A function registered with `__enzyme_register_derivative_NAME = {f, df}`:
/// a wrapper with the signature of `key` calls `df` once per lane.
///
/// Convention: `df` takes `f`'s parameters, each floating-point or pointer
/// parameter followed by its tangent (shadow); a parameter without a
/// tangent in this use gets a zero tangent (null shadow). `df` returns
/// `f`'s result type (the tangent) or a struct of two of them (`{primal,
/// tangent}`); for a void `f` it returns void.
fn custom_derivative(
    sess: &mut Session,
    key: &Key,
    df: V,
    user_call: Option<V>,
) -> Result<Derivative> {
    let f = key.func;
    let ps = params(f);
    let ret_ty = fn_return_type(f);
    let mut want = Vec::new();
    for p in &ps {
        let t = type_of(*p);
        want.push(t);
        if custom_has_tangent(t) {
            want.push(t);
        }
    }
    let got: Vec<T> = params(df).iter().map(|p| type_of(*p)).collect();
    let dret = fn_return_type(df);
    let both = !is_void(ret_ty) && is_struct(dret) && struct_fields(dret) == vec![ret_ty, ret_ty];
    let ret_ok = if is_void(ret_ty) {
        is_void(dret)
    } else {
        dret == ret_ty || both
    };
    if got != want || ret_ok == false || unsafe { LLVMIsFunctionVarArg(fn_type(df)) } != 0 {
        let wp: Vec<String> = want.iter().map(|t| print_type(*t)).collect();
        let wr = if is_void(ret_ty) {
            "void".to_string()
        } else {
            format!("{0} or {{{0}, {0}}}", print_type(ret_ty))
        };
        return Err(custom_mismatch(
            user_call,
            format!(
                "custom forward derivative '{}' registered for '{}' has the wrong signature: '{}' is {}, so '{}' must be {} ({}) (each float or pointer parameter followed by its tangent), but it is {}",
                name(df),
                name(f),
                name(f),
                fn_sig_text(f),
                name(df),
                wr,
                wp.join(", "),
                fn_sig_text(df)
            ),
        ));
    }
    let (fty, ret) = signature(key);
    let width = key.width.max(1) as usize;
    let nf = unsafe {
        let n = cstr(&format!("enzyme_rs.fwd.custom.{}", name(f)));
        LLVMAddFunction(sess.module, n.as_ptr(), fty)
    };
    make_internal(nf);
    let d = Derivative { func: nf, ret };
    sess.fwd_cache.insert(key.clone(), d);
    sess.created.push(nf);
    let b = Builder::new(sess.module);
    let entry = super::reverse::tape::append_block(nf, "entry");
    b.at_end(entry);
    let nps = params(nf);
    let mut primals = Vec::new();
    let mut lanes: Vec<Option<Vec<V>>> = Vec::new();
    let mut j = 0;
    for (i, _) in ps.iter().enumerate() {
        primals.push(nps[j]);
        j += 1;
        if key.shadow[i] {
            lanes.push(Some(nps[j..j + width].to_vec()));
            j += width;
        } else {
            lanes.push(None);
        }
    }
    let mut tangents = Vec::new();
    let mut primal_result = None;
    for l in 0..width {
        let mut args = Vec::new();
        for (i, p) in ps.iter().enumerate() {
            let t = type_of(*p);
            args.push(primals[i]);
            if custom_has_tangent(t) {
                args.push(match &lanes[i] {
                    Some(s) => s[l],
                    None => zero(t),
                });
            }
        }
        let r = b.call_fn(df, &mut args);
        if both {
            if l == 0 {
                primal_result = Some(b.extract_value(r, 0));
            }
            tangents.push(b.extract_value(r, 1));
        } else if !is_void(ret_ty) {
            tangents.push(r);
        }
    }
    let primal_result = match (primal_result, is_void(ret_ty)) {
        (Some(p), _) => Some(p),
        (None, false) => Some(b.call_fn(f, &mut primals.clone())),
        (None, true) => None,
    };
    match ret {
        Ret::Void => {
            b.ret_void();
        }
        Ret::Primal => {
            b.ret(primal_result.unwrap());
        }
        Ret::Both => {
            let st = fn_return_type(nf);
            let t = if width == 1 {
                tangents[0]
            } else {
                b.make_struct(struct_fields(st)[1], &tangents)
            };
            let r = b.make_struct(st, &[primal_result.unwrap(), t]);
            b.ret(r);
        }
    }
    if sess.opts.print {
        eprintln!("{}", print_value(nf));
    }
    Ok(d)
}
