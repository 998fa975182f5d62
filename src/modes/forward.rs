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
use crate::rules::{self, Partial, RuleCtx};
use std::collections::HashMap;

/// What a forward derivative is specialised on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub func: V,
    /// Per parameter: whether it gets a shadow/tangent parameter.
    pub shadow: Vec<bool>,
    /// Whether the caller wants the tangent of the result.
    pub ret_tangent: bool,
}

/// How a derivative returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    Void,
    /// Only the primal result.
    Primal,
    /// `{primal, tangent}`
    Both,
}

#[derive(Clone, Copy, Debug)]
pub struct Derivative {
    pub func: V,
    pub ret: Ret,
}

pub fn run_request(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    if req.width != 1 {
        return Err(Error::bad_call(
            req.call,
            "vector forward mode (enzyme_width > 1) is not implemented yet in enzyme-rs",
        ));
    }
    let ret_ty = fn_return_type(req.func);
    let key = Key {
        func: req.func,
        shadow: req.args.iter().map(|a| a.activity.has_shadow()).collect(),
        ret_tangent: !is_void(ret_ty)
            && may_carry_derivative(ret_ty)
            && req.ret_active != Some(false),
    };
    let d = derivative(sess, &key, Some(req.call))?;
    let b = Builder::new(sess.module);
    b.before(req.call);
    b.set_debug_loc_from(req.call);
    let mut args = Vec::new();
    for a in &req.args {
        args.push(a.primal);
        if a.activity.has_shadow() {
            args.push(a.shadows[0]);
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
            leaves.extend(callsite::unpack(&b, b.extract_value(r, 1)));
        }
    }
    callsite::replace_call(req, &b, &leaves)?;
    Ok(leaves)
}

/// The forward derivative for `key`, synthesized on first use.
pub fn derivative(sess: &mut Session, key: &Key, user_call: Option<V>) -> Result<Derivative> {
    if let Some(d) = sess.fwd_cache.get(key) {
        return Ok(*d);
    }
    let f = key.func;
    if is_declaration(f) {
        let at = user_call.unwrap_or(f);
        return Err(Error::new(
            ErrorKind::UnknownFunction(name(f)),
            if user_call.is_some() { inst_fn(at) } else { f },
            user_call,
        ));
    }
    let ctx = unsafe { LLVMGetModuleContext(sess.module) };
    let ret_ty = fn_return_type(f);
    let ret = if is_void(ret_ty) {
        Ret::Void
    } else if key.ret_tangent {
        Ret::Both
    } else {
        Ret::Primal
    };
    // Signature: each parameter, followed by its shadow when active.
    let ps = params(f);
    let mut ptys = Vec::new();
    for (i, p) in ps.iter().enumerate() {
        ptys.push(type_of(*p));
        if key.shadow[i] {
            ptys.push(type_of(*p));
        }
    }
    let new_ret_ty = match ret {
        Ret::Void => void_type(ctx),
        Ret::Primal => ret_ty,
        Ret::Both => struct_type(ctx, &mut [ret_ty, ret_ty]),
    };
    let fty = fn_type_of(new_ret_ty, &mut ptys, false);
    let nf = unsafe {
        let n = cstr(&format!("enzyme_rs.fwd.{}", name(f)));
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
    let mut shadow_of: HashMap<V, V> = HashMap::new();
    let mut j = 0;
    for (i, _) in ps.iter().enumerate() {
        primal_params.push(nps[j]);
        set_name(nps[j], &name(ps[i]));
        j += 1;
        if key.shadow[i] {
            shadow_of.insert(nps[j - 1], nps[j]);
            set_name(nps[j], &format!("{}'", name(ps[i])));
            j += 1;
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

    // Activity, computed on the clone.
    let seeds: Vec<V> = shadow_of.keys().copied().collect();
    let act = ActivityInfo::analyse(nf, &seeds, f)?;
    drop(vmap);
    if sess.opts.print_type {
        let types = crate::analysis::types::TypeAnalysis::analyse(sess.module, nf, &[]);
        crate::analysis::printer::print_types(nf, &types, &format!("forward derivative of {}", name(f)));
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
    /// Tangent (or shadow) of each varied value in `nf`.
    tan: HashMap<V, V>,
    b: Builder,
    /// (primal phi, tangent phi) to fill once every block is done.
    phis: Vec<(V, V)>,
    ret: Ret,
}

impl Gen<'_> {
    fn err(&self, inst: V, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported(msg.into()), self.primal, Some(inst))
    }

    fn varied(&self, v: V) -> bool {
        self.act.is_varied(v) || self.tan.contains_key(&v)
    }

    /// The tangent of `v`, if it has one.
    fn tangent(&mut self, v: V) -> Option<V> {
        if let Some(t) = self.tan.get(&v) {
            return Some(*t);
        }
        if is_global_var(v) && self.act.is_varied(v) {
            let s = self.sess.shadow_global(v);
            self.tan.insert(v, s);
            return Some(s);
        }
        None
    }

    /// The tangent of `v`, or the zero of its type when it has none.
    /// Pointers without a shadow are only allowed when null/undef.
    fn tangent_or_zero(&mut self, v: V, at: V) -> Result<V> {
        if let Some(t) = self.tangent(v) {
            return Ok(t);
        }
        let t = type_of(v);
        if is_ptr(t)
            && !(unsafe { LLVMIsNull(v) } != 0 || unsafe { !LLVMIsAUndefValue(v).is_null() })
        {
            if is_global_var(v) {
                // A global that is only read: its shadow is zero memory.
                return Ok(self.sess.shadow_global(v));
            }
            return Err(self.err(
                at,
                format!(
                    "pointer {} has no shadow here but is mixed with active pointers (pass its memory with enzyme_dup)",
                    print_value(v).trim()
                ),
            ));
        }
        Ok(zero(t))
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
        for (p, tp) in phis {
            let n = unsafe { LLVMCountIncoming(p) };
            for k in 0..n {
                let (v, bb) = unsafe { (LLVMGetIncomingValue(p, k), LLVMGetIncomingBlock(p, k)) };
                let mut tv = self.tangent_or_zero(v, p)?;
                let mut tb = bb;
                unsafe { LLVMAddIncoming(tp, &mut tv, &mut tb, 1) };
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

    fn visit(&mut self, i: V) -> Result<()> {
        use LLVMOpcode::*;
        let op = opcode(i).unwrap();
        let is_varied = self.act.is_varied(i);
        match op {
            LLVMRet => return self.visit_ret(i),
            LLVMStore => return self.visit_store(i),
            LLVMCall => return self.visit_call(i),
            LLVMInvoke | LLVMLandingPad | LLVMResume | LLVMCallBr | LLVMCatchPad | LLVMCleanupPad => {
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
        let t = match op {
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMFPExt
            | LLVMFPTrunc => {
                let args = operands(i);
                self.apply_rule(i, &args)?
            }
            LLVMPHI => {
                self.b.at_first_non_phi(inst_block(i));
                let tp = self.b.phi(type_of(i));
                set_name(tp, &format!("{}'", name(i)));
                self.phis.push((i, tp));
                Some(tp)
            }
            LLVMLoad => {
                let p = operand(i, 0);
                let sp = self.tangent(p).ok_or_else(|| {
                    self.err(i, "load from active memory without a shadow pointer")
                })?;
                let l = self.b.load(type_of(i), sp);
                copy_mem_flags(i, l);
                Some(l)
            }
            LLVMGetElementPtr => {
                let base = operand(i, 0);
                match self.tangent(base) {
                    Some(sb) => {
                        let mut idx: Vec<V> = operands(i)[1..].to_vec();
                        let src_ty = unsafe { LLVMGetGEPSourceElementType(i) };
                        let g = self.b.gep(src_ty, sb, &mut idx);
                        unsafe { LLVMSetIsInBounds(g, LLVMIsInBounds(i)) };
                        Some(g)
                    }
                    None => None,
                }
            }
            LLVMBitCast | LLVMAddrSpaceCast => {
                let o = operand(i, 0);
                let to = type_of(i);
                self.tangent(o).map(|t| self.b.cast(op, t, to))
            }
            LLVMSelect => {
                let (c, x, y) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let tx = self.tangent_or_zero(x, i)?;
                let ty = self.tangent_or_zero(y, i)?;
                Some(self.b.select(c, tx, ty))
            }
            LLVMExtractValue => {
                let agg = operand(i, 0);
                match self.tangent(agg) {
                    Some(ta) => {
                        let idx = indices(i);
                        let mut v = ta;
                        for k in idx {
                            v = self.b.extract_value(v, k);
                        }
                        Some(v)
                    }
                    None => None,
                }
            }
            LLVMInsertValue => {
                let (agg, v) = (operand(i, 0), operand(i, 1));
                let ta = self.tangent_or_zero(agg, i)?;
                let tv = self.tangent_or_zero(v, i)?;
                Some(insert_nested(&self.b, ta, tv, &indices(i)))
            }
            LLVMExtractElement => {
                let (vec, idx) = (operand(i, 0), operand(i, 1));
                self.tangent(vec).map(|t| self.b.extract_element(t, idx))
            }
            LLVMInsertElement => {
                let (vec, v, idx) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let tvec = self.tangent_or_zero(vec, i)?;
                let tv = self.tangent_or_zero(v, i)?;
                Some(self.b.insert_element(tvec, tv, idx))
            }
            LLVMShuffleVector => {
                let (x, y) = (operand(i, 0), operand(i, 1));
                let tx = self.tangent_or_zero(x, i)?;
                let ty = self.tangent_or_zero(y, i)?;
                let mask = shuffle_mask(i);
                Some(self.b.shuffle(tx, ty, mask))
            }
            LLVMFreeze => {
                let o = operand(i, 0);
                self.tangent(o)
            }
            LLVMAlloca => {
                let ty = unsafe { LLVMGetAllocatedType(i) };
                let n = operand(i, 0);
                let s = if const_int_value(n) == Some(1) {
                    self.b.alloca(ty)
                } else {
                    self.b.array_alloca(ty, n)
                };
                unsafe { LLVMSetAlignment(s, LLVMGetAlignment(i)) };
                set_name(s, &format!("{}'", name(i)));
                // Zero the shadow: memory never written with active data has
                // a zero derivative.
                let size = type_alloc_size(self.sess.module, ty);
                let ctx = self.b.ctx;
                let len = self.b.mul(
                    const_i64(ctx, size as i64),
                    self.b.int_cast(n, i64_type(ctx), false),
                );
                self.b.zero_bytes(s, len);
                Some(s)
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

    /// Tangent through the rule table: dout = sum_i partial_i * dx_i.
    fn apply_rule(&mut self, i: V, args: &[V]) -> Result<Option<V>> {
        let rule = rules::lookup(i).ok_or_else(|| self.err(i, "no derivative rule"))?;
        let tangents: Vec<Option<V>> = args
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
        let ctx = RuleCtx {
            b: &self.b,
            args,
            out: i,
            need: &need,
        };
        let partials = (rule.partials)(&ctx);
        let out_ty = type_of(i);
        let mut acc: Option<V> = None;
        for (k, p) in partials.iter().enumerate() {
            let Some(t) = tangents.get(k).copied().flatten() else {
                continue;
            };
            let t = self.b.float_to(t, out_ty);
            let term = match p {
                Partial::Zero => continue,
                Partial::One => t,
                Partial::NegOne => self.b.fneg(t),
                Partial::Val(v) => self.b.fmul(self.b.float_to(*v, out_ty), t),
            };
            acc = Some(match acc {
                None => term,
                Some(a) => self.b.fadd(a, term),
            });
        }
        Ok(Some(acc.unwrap_or_else(|| zero(out_ty))))
    }

    fn visit_store(&mut self, i: V) -> Result<()> {
        let (v, p) = (operand(i, 0), operand(i, 1));
        let Some(sp) = self.tangent(p) else {
            if self.varied(v) {
                return Err(self.err(
                    i,
                    "an active value is stored into memory that has no shadow",
                ));
            }
            return Ok(());
        };
        let tv = match self.tangent(v) {
            Some(t) => t,
            None => zero(type_of(v)),
        };
        self.b.after(i);
        let s = self.b.store(tv, sp);
        copy_mem_flags(i, s);
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
                self.b.make_struct(st, &[v, t])
            }
            Ret::Void => unreachable!(),
        };
        self.b.ret(r);
        unsafe { LLVMInstructionEraseFromParent(i) };
        Ok(())
    }

    fn visit_call(&mut self, i: V) -> Result<()> {
        let callee = known_target(i);
        let cname = callee.map(name).unwrap_or_default();
        let args = call_args(i);
        let any_arg_varied = args.iter().any(|a| self.varied(*a));
        let is_varied = self.act.is_varied(i);
        if !any_arg_varied && !is_varied {
            return Ok(());
        }
        if crate::analysis::activity::is_inactive_call(i) {
            return Ok(());
        }
        if let Some(k) = rules::mem_kind(&cname) {
            return self.visit_mem(i, k);
        }
        if let Some(k) = rules::alloc_kind(&cname) {
            return self.visit_alloc(i, k);
        }
        if let Some(_rule) = rules::lookup(i) {
            if is_varied {
                let t = self.apply_rule(i, &args)?;
                if let Some(t) = t {
                    self.tan.insert(i, t);
                }
            }
            return Ok(());
        }
        if is_inline_asm(called_value(i)) {
            return Err(self.err(
                i,
                "inline assembly with active arguments cannot be differentiated",
            ));
        }
        let Some(callee) = callee else {
            return Err(self.err(i, "an indirect call (through a function pointer whose target is unknown) has active arguments; differentiate a direct call instead"));
        };
        if is_declaration(callee) {
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
        };
        let d = derivative(self.sess, &key, None)?;
        self.b.before(i);
        let mut new_args = Vec::new();
        for (k, a) in args.iter().enumerate() {
            new_args.push(*a);
            if shadow[k] {
                let t = self.tangent_or_zero(*a, i)?;
                new_args.push(t);
            }
        }
        let nc = self.b.call_fn(d.func, &mut new_args);
        match d.ret {
            Ret::Void | Ret::Primal => unsafe { LLVMReplaceAllUsesWith(i, nc) },
            Ret::Both => {
                let p = self.b.extract_value(nc, 0);
                let t = self.b.extract_value(nc, 1);
                unsafe { LLVMReplaceAllUsesWith(i, p) };
                self.act.varied.insert(p);
                self.tan.insert(p, t);
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
        match k {
            rules::MemKind::Set => {
                self.b
                    .memset(sdst, unsafe { LLVMConstInt(i8_type(ctx), 0, 0) }, len, 1);
            }
            rules::MemKind::Copy | rules::MemKind::Move => match self.tangent(operand(i, 1)) {
                Some(ssrc) => {
                    if k == rules::MemKind::Copy {
                        self.b.memcpy(sdst, ssrc, len, 1);
                    } else {
                        self.b.memmove(sdst, ssrc, len, 1);
                    }
                }
                None => {
                    self.b
                        .memset(sdst, unsafe { LLVMConstInt(i8_type(ctx), 0, 0) }, len, 1);
                }
            },
        }
        if !is_void(type_of(i)) {
            self.tan.insert(i, sdst);
        }
        Ok(())
    }

    fn visit_alloc(&mut self, i: V, k: rules::AllocKind) -> Result<()> {
        use rules::AllocKind::*;
        match k {
            Free => {
                let p = operand(i, 0);
                if let Some(sp) = self.tangent(p) {
                    self.b.after(i);
                    let c = unsafe { LLVMInstructionClone(i) };
                    unsafe { LLVMInsertIntoBuilder(self.b.raw, c) };
                    unsafe { LLVMSetOperand(c, 0, sp) };
                }
            }
            Malloc { size_arg } => {
                if self.act.is_varied(i) {
                    self.b.after(i);
                    let c = unsafe { LLVMInstructionClone(i) };
                    unsafe { LLVMInsertIntoBuilder(self.b.raw, c) };
                    set_name(c, &format!("{}'", name(i)));
                    self.b.zero_bytes(c, operand(i, size_arg));
                    self.tan.insert(i, c);
                }
            }
            Calloc => {
                if self.act.is_varied(i) {
                    self.b.after(i);
                    let c = unsafe { LLVMInstructionClone(i) };
                    unsafe { LLVMInsertIntoBuilder(self.b.raw, c) };
                    self.tan.insert(i, c);
                }
            }
            Realloc => {
                if self.act.is_varied(i) {
                    let p = operand(i, 0);
                    let sp = self.tangent_or_zero(p, i)?;
                    self.b.after(i);
                    let c = unsafe { LLVMInstructionClone(i) };
                    unsafe { LLVMInsertIntoBuilder(self.b.raw, c) };
                    unsafe { LLVMSetOperand(c, 0, sp) };
                    self.tan.insert(i, c);
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
