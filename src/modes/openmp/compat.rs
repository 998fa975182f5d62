//! Running clang-22's OpenMP code on an older libomp.
//!
//! apt's `libomp-22-dev` conflicts with `libomp-16-dev`, so programs built
//! with clang-22 link the libomp that is installed (its `__kmpc_*` entry
//! points are ABI-stable). clang-22 calls one entry point libomp 16 does
//! not have: `__kmpc_dispatch_deinit` after a dynamic/guided worksharing
//! loop (libomp 16 finishes the loop's bookkeeping in
//! `__kmpc_dispatch_next` itself). Its calls go through a helper that
//! calls it only when the runtime defines it (a weak reference), so the
//! program links and runs with either libomp.
use crate::ir::link::{set_linkage, Linkage};
use crate::ir::llvm::*;
use crate::ir::omp as ir;
use crate::ir::values::set_operand;
use crate::ir::Builder;

/// Runtime entry points clang-22 may call that older libomps lack.
const NEWER_ENTRY_POINTS: &[&str] = &["__kmpc_dispatch_deinit"];

/// The helper's name prefix (`openmp_call` classifies it as inactive).
pub const WEAK_CALL_PREFIX: &str = "enzyme_rs.omp.weak.";

/// Route calls of the runtime functions above through guarded helpers.
/// Returns whether the module changed.
pub fn weak_runtime_calls(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for n in NEWER_ENTRY_POINTS {
        let Some(decl) = get_function(m, n) else {
            continue;
        };
        if !is_declaration(decl) {
            continue;
        }
        let calls: Vec<V> = users(decl)
            .into_iter()
            .filter(|u| is_call(*u) && called_function(*u) == Some(decl))
            .collect();
        if calls.is_empty() {
            continue;
        }
        set_linkage(decl, Linkage::ExternWeak);
        let helper = guarded_helper(m, decl, n);
        for c in calls {
            set_operand(c, num_operands(c) - 1, helper);
        }
        changed = true;
    }
    changed
}

/// `helper(args...) { if (&decl != null) decl(args...); }` (void `decl`).
fn guarded_helper(m: LLVMModuleRef, decl: V, n: &str) -> V {
    let hn = format!("{WEAK_CALL_PREFIX}{n}");
    if let Some(h) = get_function(m, &hn) {
        return h;
    }
    let fty = fn_type(decl);
    let h = ir::add_internal_function(m, &hn, fty);
    let b = Builder::new(m);
    let entry = super::fork::append_block(h, "entry");
    let call = super::fork::append_block(h, "call");
    let done = super::fork::append_block(h, "done");
    b.at_end(entry);
    b.clear_debug_loc();
    let absent = b.icmp(LLVMIntPredicate::LLVMIntEQ, decl, zero(type_of(decl)));
    b.cond_br(absent, done, call);
    b.at_end(call);
    let mut args = params(h);
    b.call(fty, decl, &mut args);
    b.br(done);
    b.at_end(done);
    b.ret_void();
    h
}
