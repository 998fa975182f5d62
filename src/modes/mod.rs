//! The differentiation modes: drivers over the rule table and the analyses.
//! Each mode turns a request (from `callsite`) into a derivative function.
pub mod forward;
pub mod reverse;

use crate::callsite::{Activity, Request};
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::options::Options;
use std::collections::HashMap;

/// State for one run of the pass over a module: options, the derivatives
/// made so far (memoized per function and activity), shadow globals.
pub struct Session {
    pub module: LLVMModuleRef,
    pub opts: Options,
    pub fwd_cache: HashMap<forward::Key, forward::Derivative>,
    pub rev_cache: HashMap<reverse::Key, reverse::Pair>,
    pub shadow_globals: HashMap<V, V>,
    /// Shadows of globals for vector lanes 1.. (forward vector mode).
    pub lane_shadow_globals: HashMap<(V, u32), V>,
    /// Every function this session created, for printing and cleanup.
    pub created: Vec<V>,
    /// Calls of derivatives placed at the user's `__enzyme_*` call sites,
    /// with their caller: inlined at -O1 and above.
    pub toplevel_calls: Vec<(V, V)>,
    /// Half-built functions of failed requests, deleted after reporting.
    pub doomed: Vec<V>,
    /// Per function differentiated as a callee: the type trees of its
    /// arguments at the first call site met (the callee's own type
    /// analysis starts from them, as it would see its caller's types).
    pub arg_trees: HashMap<V, Vec<crate::analysis::types::TypeTree>>,
}

impl Session {
    pub fn new(module: LLVMModuleRef, opts: Options) -> Session {
        Session {
            module,
            opts,
            fwd_cache: HashMap::new(),
            rev_cache: HashMap::new(),
            shadow_globals: HashMap::new(),
            lane_shadow_globals: HashMap::new(),
            created: Vec::new(),
            doomed: Vec::new(),
            toplevel_calls: Vec::new(),
            arg_trees: HashMap::new(),
        }
    }

    /// Delete the functions of failed requests.
    pub fn delete_doomed(&mut self) {
        for f in self.doomed.drain(..) {
            unsafe {
                LLVMReplaceAllUsesWith(f, LLVMGetPoison(type_of(f)));
                LLVMDeleteFunction(f);
            }
        }
    }

    /// The shadow of global `g` for vector lane `lane` (lane 0 is
    /// [`Session::shadow_global`]); further lanes get globals of their own.
    pub fn shadow_global_lane(&mut self, g: V, lane: u32) -> V {
        if lane == 0 {
            return self.shadow_global(g);
        }
        let key = (g, lane);
        if let Some(s) = self.lane_shadow_globals.get(&key) {
            return *s;
        }
        let ty = unsafe { LLVMGlobalGetValueType(g) };
        let n = cstr(&format!("{}_shadow{lane}", name(g)));
        let s = unsafe {
            let s = LLVMAddGlobal(self.module, ty, n.as_ptr());
            LLVMSetInitializer(s, zero(ty));
            LLVMSetLinkage(s, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            LLVMSetAlignment(s, LLVMGetAlignment(g));
            s
        };
        self.lane_shadow_globals.insert(key, s);
        s
    }

    /// The shadow of a global variable: a zero-initialized internal global
    /// of the same type, created on first use.
    pub fn shadow_global(&mut self, g: V) -> V {
        if let Some(s) = self.shadow_globals.get(&g) {
            return *s;
        }
        let ty = unsafe { LLVMGlobalGetValueType(g) };
        let n = cstr(&format!("{}_shadow", name(g)));
        let s = unsafe {
            let s = LLVMAddGlobal(self.module, ty, n.as_ptr());
            LLVMSetInitializer(s, zero(ty));
            LLVMSetLinkage(s, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            LLVMSetAlignment(s, LLVMGetAlignment(g));
            s
        };
        self.shadow_globals.insert(g, s);
        s
    }
}

/// Synthesize the derivative a request asks for and return the leaves of
/// the value the user's call returns.
pub fn run_request(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    match req.mode {
        crate::callsite::Mode::Forward => forward::run_request(sess, req),
        crate::callsite::Mode::Reverse => reverse::run_request(sess, req),
        crate::callsite::Mode::AugmentFwd
        | crate::callsite::Mode::ReverseSplit
        | crate::callsite::Mode::AugmentSize => reverse::run_split(sess, req),
    }
}

/// Whether an argument activity gives the derivative a shadow parameter.
pub fn has_shadow(a: Activity) -> bool {
    a.has_shadow()
}

/// The function a call with active arguments reaches, or the error saying
/// why the call cannot be differentiated (inline assembly, an indirect call
/// whose target is unknown). Both modes ask this before differentiating a
/// callee.
pub fn callee_to_differentiate(call: V, known: Option<V>, primal: V) -> Result<V> {
    use crate::diag::{Error, ErrorKind};
    if is_inline_asm(called_value(call)) {
        return Err(Error::new(
            ErrorKind::Unsupported(
                "inline assembly with active arguments cannot be differentiated".into(),
            ),
            primal,
            Some(call),
        ));
    }
    known.ok_or_else(|| {
        Error::new(
            ErrorKind::Unsupported(
                "an indirect call (through a function pointer whose target is unknown) has active arguments; differentiate a direct call instead".into(),
            ),
            primal,
            Some(call),
        )
    })
}

/// Calls to the compiler runtime's complex multiplication and division
/// (`__muldc3`, `__divdc3` and the float versions, emitted for
/// `std::complex` arithmetic without -ffast-math) and to `cabs` / `cexp` of
/// double complex values (`std::abs`, `std::exp`) in a function about to
/// be differentiated become the textbook formulas, which the rule table
/// covers. (The runtime versions only differ in recovering infinities and
/// NaNs, where there is no derivative.) Returns how many were lowered.
pub fn lower_complex_libcalls(f: V) -> usize {
    let mut calls = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            let Some(c) = called_function(i) else {
                continue;
            };
            let n = name(c);
            let kind = match n.as_str() {
                "__muldc3" | "__mulsc3" => 0,
                "__divdc3" | "__divsc3" => 1,
                "cabs" => 2,
                "cexp" => 3,
                _ => continue,
            };
            let nargs = if kind < 2 { 4 } else { 2 };
            let dbl = call_args(i).iter().all(|a| is_fp(type_of(*a)));
            if call_args(i).len() == nargs && dbl {
                calls.push((i, kind));
            }
        }
    }
    for &(i, kind) in &calls {
        let b = crate::ir::Builder::new(module_of(f));
        b.before(i);
        let args = call_args(i);
        let ctx = b.ctx;
        if kind >= 2 {
            // cabs(a, b) = hypot(a, b); cexp(a, b) = e^a (cos b, sin b).
            let (a, bb) = (args[0], args[1]);
            let t = type_of(a);
            let libm = |n: &str, xs: &mut [V]| {
                let mut tys = vec![t; xs.len()];
                let fty = fn_type_of(t, &mut tys, false);
                let g = get_or_declare(module_of(f), n, fty);
                b.call(fty, g, xs)
            };
            let r = if kind == 2 {
                libm("hypot", &mut [a, bb])
            } else {
                let e = libm("exp", &mut [a]);
                let re = b.fmul(e, libm("cos", &mut [bb]));
                let im = b.fmul(e, libm("sin", &mut [bb]));
                b.make_struct(type_of(i), &[re, im])
            };
            unsafe {
                LLVMReplaceAllUsesWith(i, r);
                LLVMInstructionEraseFromParent(i);
            }
            continue;
        }
        let (a, bb, c, d) = (args[0], args[1], args[2], args[3]);
        let (re, im) = if kind == 1 {
            let den = b.fadd(b.fmul(c, c), b.fmul(d, d));
            let re = b.fdiv(b.fadd(b.fmul(a, c), b.fmul(bb, d)), den);
            let im = b.fdiv(b.fsub(b.fmul(bb, c), b.fmul(a, d)), den);
            (re, im)
        } else {
            (
                b.fsub(b.fmul(a, c), b.fmul(bb, d)),
                b.fadd(b.fmul(a, d), b.fmul(bb, c)),
            )
        };
        let rt = type_of(i);
        let r = if is_vector(rt) {
            let v = b.insert_element(unsafe { LLVMGetUndef(rt) }, re, const_i32(ctx, 0));
            b.insert_element(v, im, const_i32(ctx, 1))
        } else {
            b.make_struct(rt, &[re, im])
        };
        unsafe {
            LLVMReplaceAllUsesWith(i, r);
            LLVMInstructionEraseFromParent(i);
        }
    }
    calls.len()
}
