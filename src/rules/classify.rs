//! The one call classifier: what a call is, for every mode and analysis.
//!
//! Forward mode, both reverse sweeps, activity analysis, the memory and
//! load-sharing analyses and type analysis all `match` on [`CallKind`];
//! none of them looks a callee's name up in the tables itself. Adding a
//! kind of call (a runtime family, a new library) is one variant here plus
//! one arm per `match`, and the compiler lists the arms that are missing.
use super::{alloc_kind, is_inactive_function_name, lookup, mem_kind, registry};
use super::{AllocKind, MemKind, Rule};
use crate::ir::llvm::*;

/// What a call is.
#[derive(Clone, Copy)]
pub enum CallKind {
    /// Carries no derivative: I/O, timing, integer utilities, functions
    /// marked inactive (attribute, `__enzyme_inactivefn`), debug intrinsics.
    Inactive,
    /// malloc-like, calloc, realloc, free (and registered look-alikes).
    Alloc(AllocKind),
    /// `posix_memalign`: an allocation returned through memory (argument 0).
    AllocOut,
    /// memcpy / memmove / memset and their intrinsics.
    MemTransfer(MemKind),
    /// A pointer-only library function (libstdc++'s red-black tree
    /// helpers) that runs again on the shadows so shadow structures stay
    /// linked like the primal ones.
    ShadowReplay,
    /// A scalar primitive of the rule table; also a vector reduction, and a
    /// masked load or store (`Rule::masked`, not a pure value: see
    /// `rules::vecmem`).
    Rule(Rule),
    /// A user-registered derivative; `base` is what the call would be
    /// without the registration (used by a mode that has none of its own).
    Custom(Custom),
    /// Through a function pointer whose target is not known.
    Indirect,
    /// Inline assembly.
    InlineAsm,
    /// A function with a body in this module: differentiated in turn.
    Defined(V),
    /// A declaration with no rule: no derivative is known.
    Unknown(V),
    /// An MPI entry point (`rules::mpi`, derivatives in `modes::mpi`).
    Mpi(super::mpi::MpiCall),
    /// An OpenMP runtime call the modes handle (`modes/openmp`): parallel
    /// regions, barriers, critical sections. The other runtime calls are
    /// `Inactive`.
    OpenMp(super::openmp::OmpCall),
    /// A GPU barrier or unsupported device operation (`rules::gpu`,
    /// handled in `modes::gpu`); index queries are `Inactive`.
    Gpu(super::gpu::GpuCall),
    /// A BLAS routine (declaration; `rules::blas`, derivatives in
    /// `modes::blas`).
    Blas(super::blas::BlasCall),
    /// A driver of the loop runtime (`runtime/loops_rt.c`), called by the
    /// gradient of a checkpointed loop or fixed point (`modes::loops`).
    LoopDriver(LoopDriver),
}

/// Which driver of the loop runtime a call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopDriver {
    /// `ckpt_fwd` / `rerun_fwd`: the loop, snapshots stored.
    Forward,
    /// `ckpt_rev` / `rerun_rev`: the steps differentiated, last first.
    Reverse,
    /// `fp_fwd` / `fp_rev` / `fp_tangent`: a fixed point's sweeps (the
    /// last its forward mode).
    FixedPoint,
}

/// The loop runtime's driver named `n`, if it is one.
pub fn loop_driver(n: &str) -> Option<LoopDriver> {
    match n.strip_prefix("__enzyme_rs_loops_")? {
        "ckpt_fwd" | "rerun_fwd" => Some(LoopDriver::Forward),
        "ckpt_rev" | "rerun_rev" => Some(LoopDriver::Reverse),
        "fp_fwd" | "fp_rev" | "fp_tangent" => Some(LoopDriver::FixedPoint),
        _ => None,
    }
}

/// A registered custom derivative.
#[derive(Clone, Copy)]
pub struct Custom {
    /// `__enzyme_register_derivative_*`: the forward-mode function.
    pub forward: Option<V>,
    /// `__enzyme_register_gradient_*`: (augmented forward, reverse).
    pub gradient: Option<(V, V)>,
    /// The callee.
    pub func: V,
}

/// Classify call (or invoke) `call`. Any other value is `Inactive` (so
/// that a caller asking about an arbitrary value gets "no call").
pub fn classify(call: V) -> CallKind {
    if !is_call_or_invoke(call) {
        return CallKind::Inactive;
    }
    if call_marked_inactive(call) {
        return CallKind::Inactive;
    }
    let Some(f) = known_target(call) else {
        return if is_inline_asm(called_value(call)) {
            CallKind::InlineAsm
        } else {
            CallKind::Indirect
        };
    };
    let base = classify_function(f);
    match base {
        CallKind::Inactive | CallKind::Alloc(AllocKind::Free) | CallKind::ShadowReplay => base,
        _ => {
            let forward = registry::custom_forward(f);
            let gradient = registry::custom_gradient(f);
            if forward.is_some() || gradient.is_some() {
                CallKind::Custom(Custom {
                    forward,
                    gradient,
                    func: f,
                })
            } else {
                base
            }
        }
    }
}

/// What a direct call of `f` is, custom registrations aside.
pub fn classify_function(f: V) -> CallKind {
    let n = name(f);
    if let Some(k) = alloc_kind(&n).or_else(|| super::rust_alloc::rust_alloc_kind(f)) {
        return CallKind::Alloc(k);
    }
    if n == "posix_memalign" {
        return CallKind::AllocOut;
    }
    if let Some(k) = mem_kind(&n) {
        return CallKind::MemTransfer(k);
    }
    if runs_on_shadow(&n) {
        return CallKind::ShadowReplay;
    }
    if let Some(k) = super::mpi::mpi_call(&n) {
        return CallKind::Mpi(k);
    }
    if let Some(k) = loop_driver(&n) {
        return CallKind::LoopDriver(k);
    }
    // The runtime's functions (declarations; a user's function with a
    // body named omp_... is differentiated like any other) and our turns.
    let runtime = is_declaration(f) || n.starts_with("enzyme_rs.omp.");
    match super::openmp::openmp_call(&n).filter(|_| runtime) {
        Some(super::openmp::OmpCall::Inactive) => return CallKind::Inactive,
        Some(k) => return CallKind::OpenMp(k),
        None => {}
    }
    match super::gpu::gpu_call(&n).filter(|_| is_declaration(f)) {
        Some(Ok(k)) => return CallKind::Gpu(k),
        Some(Err(())) => return CallKind::Inactive,
        None => {}
    }
    if is_inactive_function(f) {
        return CallKind::Inactive;
    }
    if let Some(k) = super::blas::blas_call(&n).filter(|_| is_declaration(f)) {
        return CallKind::Blas(k);
    }
    if let Some(r) = rule_of_function(f) {
        return CallKind::Rule(r);
    }
    if is_declaration(f) {
        CallKind::Unknown(f)
    } else {
        CallKind::Defined(f)
    }
}

impl CallKind {
    /// Without its custom registration: what a mode that has no custom
    /// derivative of its own treats the call as.
    pub fn without_custom(self) -> CallKind {
        match self {
            CallKind::Custom(c) => classify_function(c.func),
            k => k,
        }
    }
    /// Calls that neither read nor write memory the analyses track, beyond
    /// their arguments' values (inactive functions and scalar rules).
    pub fn is_pure_value(&self) -> bool {
        match self {
            CallKind::Inactive => true,
            CallKind::Rule(r) => r.is_pure(),
            _ => false,
        }
    }
}

/// The rule of a call to `f`, if the table has one: by its name, or by
/// the math function it was registered to behave like
/// (`__enzyme_function_like`, `enzyme_function_like("log1p")`) when its
/// parameters and result are floating-point values.
pub fn rule_of_function(f: V) -> Option<Rule> {
    let n = name(f);
    if let Some(r) = super::lookup_callee(&n) {
        return Some(r);
    }
    let like = super::registry::like(&n)?;
    let fty = fn_type(f);
    let floats = is_fp(fn_return_type(f))
        && !params(f).is_empty()
        && params(f).iter().all(|p| is_fp(type_of(*p)))
        && !is_vararg(fty);
    if !floats || like == n {
        return None;
    }
    super::lookup_callee(&like)
}

/// Whether the rule table has an entry for instruction `i` (an arithmetic
/// opcode, or a call the classifier calls [`CallKind::Rule`]).
pub fn rule_of(i: V) -> Option<Rule> {
    lookup(i)
}

/// Library functions that only move pointers around in a linked structure
/// (libstdc++'s red-black tree for std::map / std::set).
fn runs_on_shadow(n: &str) -> bool {
    matches!(
        n,
        "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base"
            | "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base"
            | "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base"
            | "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base"
            | "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_"
            | "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_"
    )
}

/// The `"enzyme_inactive"` attribute on the call site.
fn call_marked_inactive(call: V) -> bool {
    call_has_string_attr(call, "enzyme_inactive")
}

/// Whether a call carries no derivative (see [`CallKind::Inactive`]).
pub fn is_inactive_call(call: V) -> bool {
    matches!(classify(call), CallKind::Inactive)
}

/// Whether function `f` is inactive: a known inactive library function,
/// the `"enzyme_inactive"` attribute, or listed in a `__enzyme_inactivefn`
/// global (read into the pass's registry, checked by name in
/// `is_inactive_function_name`).
pub fn is_inactive_function(f: V) -> bool {
    is_inactive_function_name(&name(f))
        || fn_has_attr(f, "enzyme_inactive")
        || super::rust_alloc::is_alloc_failure(f)
}
