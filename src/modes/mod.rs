//! The differentiation modes: drivers over the rule table and the analyses.
//! Each mode turns a request (from `callsite`) into a derivative function.
pub mod dispatch;
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
