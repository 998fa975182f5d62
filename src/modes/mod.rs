//! The differentiation modes: drivers over the rule table and the analyses.
//! Each mode turns a request (from `callsite`) into a derivative function.
pub mod alloc_like;
pub mod blas;
pub mod common;
pub mod complex;
pub mod dispatch;
pub mod forward;
pub mod gpu;
pub mod hints;
pub mod iface;
pub mod intptr;
pub mod libm_out;
pub mod loops;
pub mod mpi;
pub mod openmp;
pub mod reverse;

use crate::callsite::{Activity, Request};
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::options::Options;
use crate::rules::registry::Registry;
use std::collections::HashMap;
use std::rc::Rc;

/// Marks a lane of vector reverse mode in the `lane` of
/// [`Session::global_ptr_shadow`]: lanes 1.. of a reverse derivative have
/// shadow globals of their own, distinct from forward-mode tangents.
pub const REV_LANE: u32 = 1 << 31;
/// A forward lane may carry the width of its mode above this bit
/// ([`fwd_lane`]), for the shadows of globals a program queries by width.
pub const FWD_WIDTH_SHIFT: u32 = 16;
const FWD_LANE_MASK: u32 = (1 << FWD_WIDTH_SHIFT) - 1;

/// Forward lane `l` of a mode of width `width`, for
/// [`Session::shadow_global_lane`].
pub fn fwd_lane(width: u32, l: u32) -> u32 {
    (width << FWD_WIDTH_SHIFT) | l
}

/// The `lane` argument of [`Session::global_ptr_shadow`] for reverse-mode
/// vector lane `k` (lane 0 is the plain shadow).
pub fn rev_lane(k: usize) -> Option<u32> {
    (k > 0).then_some(REV_LANE | k as u32)
}

/// State for one run of the pass over a module: options, the derivatives
/// made so far (memoized per function and activity), shadow globals.
pub struct Session {
    pub module: LLVMModuleRef,
    pub opts: Options,
    /// The module's registrations (custom derivatives, inactive and
    /// function-like functions, user shadows), read once per pass run.
    pub registry: Rc<Registry>,
    /// Globals that may hold active floats, scanned once per function of
    /// the module (derivatives made later are scanned when first asked).
    pub active_globals: crate::analysis::activity::ActiveGlobals,
    pub fwd_cache: HashMap<forward::Key, forward::Derivative>,
    pub rev_cache: HashMap<reverse::Key, reverse::Pair>,
    pub shadow_globals: HashMap<V, V>,
    /// Shadows of globals for vector lanes 1.. (forward vector mode).
    pub lane_shadow_globals: HashMap<(V, u32), V>,
    /// Whether the module queries shadows of globals (`__enzyme_shadow`,
    /// `__enzyme_context`: `modes::iface::shadows`): then forward mode at
    /// width 1 uses the reverse-mode shadow, as Enzyme does, and wider
    /// forward modes a shadow per (width, lane), in `width_shadow_globals`.
    pub user_shadows: bool,
    pub width_shadow_globals: HashMap<(V, u32, u32), V>,
    /// Every function this session created, for printing and cleanup.
    pub created: Vec<V>,
    /// Calls of derivatives placed at the user's `__enzyme_*` call sites,
    /// with their caller: inlined at -O1 and above.
    pub toplevel_calls: Vec<(V, V)>,
    /// Call sites whose shadow the caller zeroes just before the call
    /// (`reverse::zfuse`), fused after the cleanup.
    pub zero_sites: Vec<crate::modes::reverse::zfuse::Site>,
    /// Pairs built for calls whose caller zeroes the shadow at the given
    /// parameter position first (`reverse/rev/shadowtape.rs`).
    pub zeroed_pairs: HashMap<(crate::modes::reverse::Key, usize), crate::modes::reverse::Pair>,
    /// In-place shadow candidates (`reverse/inplace.rs`).
    pub inplace: crate::modes::reverse::inplace::Registry,
    /// Set for the reverse function being built next when its pair is
    /// such a variant (taken by `rev::build`).
    pub zeroed_for_rev: Option<usize>,
    /// Set by `rev::build` when its variant keeps a value in the shadow.
    pub zeroed_kept: bool,
    /// Some derivative call of the module sits in a function another
    /// derivative call differentiates (forward over reverse, reverse over
    /// reverse...): its derivatives are differentiated again, so none may
    /// call the loop runtime (no automatic re-run).
    pub higher_order: bool,
    /// Variants that keep nothing (their calls take the plain pair).
    pub zeroed_plain: std::collections::HashSet<(crate::modes::reverse::Key, usize)>,
    /// Per key, the pick-record copy (`reverse/pickrec.rs`) its pairs
    /// are built from: the plain pair and a zeroed-shadow variant share
    /// one, so a variant that keeps nothing is known in vain before its
    /// trials.
    pub picks_copies: HashMap<crate::modes::reverse::Key, V>,
    /// Warnings given (each once per pass run).
    pub warned: std::collections::HashSet<String>,
    /// Half-built functions of failed requests, deleted after reporting.
    pub doomed: Vec<V>,
    /// Per function differentiated as a callee: the type trees of its
    /// arguments at the first call site met (the callee's own type
    /// analysis starts from them, as it would see its caller's types).
    pub arg_trees: HashMap<V, Vec<crate::analysis::types::TypeTree>>,
}

impl Session {
    /// Drop the records of call instructions that were erased (inlined by
    /// a lowering), so that no later step follows a dangling call.
    pub fn forget_calls(&mut self, gone: &[V]) {
        if gone.is_empty() {
            return;
        }
        self.toplevel_calls.retain(|(c, _)| !gone.contains(c));
        self.zero_sites
            .retain(|s| !gone.contains(&s.rev) && !gone.contains(&s.aug));
    }

    /// What an activity analysis of a function of this module is given:
    /// the options it honours and the globals that may hold active floats.
    pub fn activity_cx(&mut self) -> crate::analysis::activity::ModuleCx {
        crate::analysis::activity::ModuleCx {
            loose_types: self.opts.loose_types,
            globals: self.active_globals.of(self.module, &self.registry),
        }
    }

    pub fn new(module: LLVMModuleRef, opts: Options, registry: Rc<Registry>) -> Session {
        crate::modes::reverse::distinct::clear_memo();
        crate::modes::reverse::memory::clear_global_writers();
        Session {
            module,
            opts,
            registry,
            active_globals: Default::default(),
            fwd_cache: HashMap::new(),
            rev_cache: HashMap::new(),
            shadow_globals: HashMap::new(),
            lane_shadow_globals: HashMap::new(),
            user_shadows: iface::shadows::module_queries_shadows(module),
            width_shadow_globals: HashMap::new(),
            created: Vec::new(),
            doomed: Vec::new(),
            picks_copies: HashMap::new(),
            warned: Default::default(),
            toplevel_calls: Vec::new(),
            zero_sites: Vec::new(),
            zeroed_pairs: HashMap::new(),
            inplace: Default::default(),
            zeroed_for_rev: None,
            zeroed_kept: false,
            higher_order: false,
            zeroed_plain: Default::default(),
            arg_trees: HashMap::new(),
        }
    }

    /// Delete the functions of failed requests (and of trial pairs a
    /// re-run replaced, variants built in vain). Every record that names
    /// one goes first: a cached pair, a shadow-tape variant, the created
    /// list, so no later step (the cleanup, `zfuse`) reads a freed
    /// function.
    pub fn delete_doomed(&mut self) {
        if self.doomed.is_empty() {
            return;
        }
        let gone: std::collections::HashSet<V> = self.doomed.iter().copied().collect();
        let names_gone = |p: &crate::modes::reverse::Pair| {
            gone.contains(&p.aug)
                || gone.contains(&p.rev)
                || p.lane_revs.iter().any(|f| gone.contains(f))
        };
        self.rev_cache.retain(|_, p| !names_gone(p));
        self.zeroed_pairs.retain(|_, p| !names_gone(p));
        self.created.retain(|f| !gone.contains(f));
        self.picks_copies.retain(|_, c| !gone.contains(c));
        for f in self.doomed.drain(..) {
            replace_all_uses(f, poison(type_of(f)));
            delete_function(f);
        }
    }

    /// The forward-mode tangent of global `g` for vector lane `lane`: a
    /// global of its own per lane, distinct from the reverse-mode shadow
    /// ([`Session::shadow_global`]), so that tangents a forward derivative
    /// leaves there are never read as adjoints (or the other way round).
    pub fn shadow_global_lane(&mut self, g: V, lane: u32) -> V {
        // Forward lanes may carry their mode's width ([`fwd_lane`]); only a
        // module that queries shadows of globals tells widths apart.
        if lane & REV_LANE == 0 {
            let (width, l) = (lane >> FWD_WIDTH_SHIFT, lane & FWD_LANE_MASK);
            // A shadow the user declared (`enzyme_shadow` attribute) is
            // the tangent of a scalar forward mode too, as in Enzyme: the
            // user seeds it and reads it.
            if width <= 1 && l == 0 {
                if let Some(s) = self.registry.user_shadow(g) {
                    return s;
                }
            }
            if self.user_shadows {
                return iface::shadows::user_shadow_lane(self, g, width.max(1), l);
            }
            return self.shadow_global_lane_plain(g, l);
        }
        self.shadow_global_lane_plain(g, lane)
    }

    fn shadow_global_lane_plain(&mut self, g: V, lane: u32) -> V {
        let key = (g, lane);
        if let Some(s) = self.lane_shadow_globals.get(&key) {
            return *s;
        }
        let n = if lane & REV_LANE != 0 {
            format!("{}_shadow{}", name(g), lane & !REV_LANE)
        } else {
            format!("{}_tangent{lane}", name(g))
        };
        let s = add_zeroed_global_like(self.module, g, &n);
        self.lane_shadow_globals.insert(key, s);
        iface::shadows::init_descriptor_shadow(self, g, s, Some(lane));
        s
    }

    /// The shadow of a pointer into a global (reverse mode, `lane` None)
    /// or its tangent for a forward lane: the global's own when `varied`
    /// says it has one, or a constant expression (GEP, pointer cast) over
    /// such a global, rebuilt on its shadow (as clang emits
    /// `getelementptr ([4 x double], ptr @g, 0, 1)` at -O1+).
    pub fn global_ptr_shadow(
        &mut self,
        v: V,
        lane: Option<u32>,
        varied: &dyn Fn(V) -> bool,
    ) -> Option<V> {
        if is_global_var(v) {
            return varied(v).then(|| match lane {
                None => self.shadow_global(v),
                Some(l) => self.shadow_global_lane(v, l),
            });
        }
        match const_opcode(v)? {
            LLVMOpcode::LLVMGetElementPtr => {
                let base = self.global_ptr_shadow(operand(v, 0), lane, varied)?;
                let idx: Vec<V> = (1..num_operands(v)).map(|i| operand(v, i)).collect();
                let t = gep_source_type(v);
                Some(const_gep(t, base, &idx, is_inbounds(v)))
            }
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                let base = self.global_ptr_shadow(operand(v, 0), lane, varied)?;
                Some(const_pointer_cast(base, type_of(v)))
            }
            _ => None,
        }
    }

    /// The shadow of a global variable: a zero-initialized internal global
    /// of the same type, created on first use.
    pub fn shadow_global(&mut self, g: V) -> V {
        if let Some(s) = self.shadow_globals.get(&g) {
            return *s;
        }
        // A shadow the user declared (`enzyme_shadow` attribute), else a new one.
        if let Some(s) = self.registry.user_shadow(g) {
            self.shadow_globals.insert(g, s);
            return s;
        }
        let s = add_zeroed_global_like(self.module, g, &format!("{}_shadow", name(g)));
        self.shadow_globals.insert(g, s);
        iface::shadows::init_descriptor_shadow(self, g, s, None);
        s
    }
}

/// Synthesize the derivative a request asks for and return the leaves of
/// the value the user's call returns.
pub fn run_request(sess: &mut Session, req: &Request) -> Result<Vec<V>> {
    let caller = inst_fn(req.call);
    let leaves = match req.mode {
        crate::callsite::Mode::Forward => forward::run_request(sess, req),
        crate::callsite::Mode::Reverse => reverse::run_request(sess, req),
        crate::callsite::Mode::AugmentFwd
        | crate::callsite::Mode::ReverseSplit
        | crate::callsite::Mode::AugmentSize => reverse::run_split(sess, req),
    }?;
    if crate::ir::strictfp::is_strictfp(caller) {
        // The call's replacement converts floats (a float argument passed
        // as a double through `...`): constrained in a strictfp caller.
        let env = crate::ir::strictfp::default_env(caller);
        crate::ir::strictfp::constrain_function(caller, &HashMap::new(), env);
    }
    Ok(leaves)
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
                "an indirect call (through a function pointer whose target is unknown) has active arguments or a result that needs a derivative (an active value, or a pointer that needs a shadow); differentiate a direct call instead".into(),
            ),
            primal,
            Some(call),
        )
    })
}

/// A differentiated call must not get a float's bits as an integer
/// argument (`bits = bitcast double x to i64; g(bits)`): a callee's
/// integer parameter has no derivative, so it would be a silent zero.
/// `float_bits` says which values are active and typed as a float's bits.
pub fn check_no_float_bits_args(
    args: &[V],
    callee: V,
    float_bits: impl Fn(V) -> bool,
) -> std::result::Result<(), String> {
    // Only where the bits plainly come from a float: a bitcast of one, or
    // a local integer variable that a float's bytes are copied into
    // (memcpy(&bits, &x), -O0). Type analysis alone also calls some
    // integers float bits (a container's size field; Eigen's
    // std::array<long, 2> dimensions at -O0).
    let float_source = |v: V| {
        let v = strip_casts(v);
        (opcode(v) == Some(LLVMOpcode::LLVMBitCast) && contains_fp(type_of(operand(v, 0))))
            || crate::analysis::activity::underlying_objects(v)
                .iter()
                .any(|o| opcode(*o) == Some(LLVMOpcode::LLVMAlloca) && is_fp(allocated_type(*o)))
    };
    let plain = |a: V| match opcode(a) {
        Some(LLVMOpcode::LLVMBitCast) => contains_fp(type_of(operand(a, 0))),
        Some(LLVMOpcode::LLVMLoad) => {
            let slot = strip_casts(operand(a, 0));
            opcode(slot) == Some(LLVMOpcode::LLVMAlloca)
                && is_int(allocated_type(slot))
                && users(slot).into_iter().any(|u| {
                    let into = |k: u32| strip_casts(operand(u, k)) == slot;
                    match opcode(u) {
                        Some(LLVMOpcode::LLVMStore) => into(1) && float_source(operand(u, 0)),
                        Some(LLVMOpcode::LLVMCall) => {
                            matches!(
                                crate::rules::classify(u),
                                crate::rules::CallKind::MemTransfer(
                                    crate::rules::MemKind::Copy | crate::rules::MemKind::Move
                                )
                            ) && into(0)
                                && float_source(operand(u, 1))
                        }
                        _ => false,
                    }
                })
        }
        _ => false,
    };
    match args
        .iter()
        .position(|a| is_int_or_int_vector(type_of(*a)) && float_bits(*a) && plain(*a))
    {
        None => Ok(()),
        Some(k) => Err(format!(
            "argument #{} of the call to '{}' is the bits of an active floating-point value \
             passed as an integer ({}); its derivative cannot cross the call that way: pass \
             the floating-point value itself",
            k + 1,
            crate::ir::demangle::demangle(&name(callee)),
            print_type(type_of(args[k]))
        )),
    }
}

/// The positions of null (or undef) pointer arguments of a call: beside
/// shadowed arguments they are passed with their shadow, null, in every
/// mode (the callee may store them where a shadow pointer is read back).
pub fn null_pointer_args(args: &[V]) -> Vec<usize> {
    args.iter()
        .enumerate()
        .filter(|(_, a)| is_ptr(type_of(**a)) && is_null_or_undef(**a))
        .map(|(k, _)| k)
        .collect()
}

fn is_int_or_int_vector(t: T) -> bool {
    is_int(t) || (is_vector(t) && is_int(elem_type(t)))
}
