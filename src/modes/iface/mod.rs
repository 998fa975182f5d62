//! Calls of Enzyme's interface that are not derivatives themselves, each
//! rewritten by the pass into ordinary code:
//!
//! - `__enzyme_virtualreverse(p)` (before differentiation): the shadow of a
//!   virtual table or function. enzyme-rs differentiates a virtual call by
//!   dispatching on the *primal* object's function pointer
//!   (`modes/dispatch.rs`) and never calls through a shadow object's
//!   vtable, so the shadow vtable is the primal one: the call returns `p`.
//!   Shadow objects made with it (or by copying the primal object) work.
//! - `__enzyme_batch(f, enzyme_width, N, args...)` (before
//!   differentiation; `batch.rs`): f evaluated on N lanes.
//! - `__enzyme_shadow`, `__enzyme_context`, `__enzyme_zero_shadows` and the
//!   `enzyme_context` marker (after differentiation; `shadows.rs`).
//! - `__enzyme_set_fixed_point(reduction, max_iters, control, [state,
//!   bytes]...)` in a loop body (`fixed_point.rs`, from `loops::lower`):
//!   the loop outlined into a step of `__enzyme_fixed_point`.
//! - `__enzyme_fwdsplit` and `__enzyme_register_splitderivative`
//!   (`fwdsplit.rs`); argument markers `enzyme_dupv`, `enzyme_dupnoneedv`,
//!   `enzyme_byref` (`markers.rs`, read by `callsite.rs`).
pub mod batch;
pub mod fixed_point;
pub mod fwdsplit;
pub mod fwdtape;
pub mod iter;
pub mod markers;
pub mod shadows;
pub mod todense;

use crate::diag::Error;
use crate::ir::llvm::*;

/// The calls in `m` of functions whose (unmangled) name starts with `prefix`.
pub fn calls_named(m: LLVMModuleRef, prefix: &str) -> Vec<V> {
    let mut out = Vec::new();
    for f in functions(m) {
        if !crate::callsite::unmangled_head(&name(f)).starts_with(prefix) {
            continue;
        }
        for u in users(f) {
            let u = if is_invoke(u) && strip_casts(called_value(u)) == f {
                crate::ir::shim::invoke_to_call(u)
            } else {
                u
            };
            if is_call(u) && strip_casts(called_value(u)) == f {
                out.push(u);
            }
        }
    }
    out
}

/// Report `e` at `call` (a compile error with its line) and drop the call.
pub fn fail(e: Error, call: V) {
    crate::driver::fail_call(&e, call, inst_fn(call));
}

/// Rewrite the calls that must become plain code before any
/// differentiation. Returns whether the module changed.
pub fn lower_before(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for call in calls_named(m, "__enzyme_virtualreverse") {
        changed = true;
        let args = call_args(call);
        let Some(p) = args.first().copied().filter(|_| args.len() == 1) else {
            fail(
                Error::bad_call(
                    call,
                    "__enzyme_virtualreverse takes one argument (a virtual table or a function)",
                ),
                call,
            );
            continue;
        };
        if type_of(p) != type_of(call) && !is_void(type_of(call)) {
            fail(
                Error::bad_call(
                    call,
                    format!(
                        "__enzyme_virtualreverse must return the type of its argument ({}), not {}",
                        print_type(type_of(p)),
                        print_type(type_of(call))
                    ),
                ),
                call,
            );
            continue;
        }
        if !is_void(type_of(call)) {
            replace_all_uses(call, p);
        }
        erase(call);
    }
    changed |= fwdsplit::lower(m);
    for call in calls_named(m, "__enzyme_batch") {
        changed = true;
        if let Err(e) = batch::lower(call) {
            fail(e, call);
        }
    }
    changed
}
