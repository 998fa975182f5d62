//! What forward and reverse mode share beyond IR helpers: preparing a
//! cloned function's by-value parameters, and the errors and signature text
//! of custom derivatives. Both modes import this module; neither imports
//! the other.
use crate::diag::{Error, ErrorKind};
use crate::ir::llvm::*;
use crate::ir::Builder;

/// The clone keeps the primal's `byval`/`sret` parameter attributes, but its
/// callers pass plain pointers: drop them. A `byval` parameter is the
/// callee's private copy, so the clone makes that copy itself (an alloca
/// filled by memcpy): its shadow then starts at zero and the memcpy's
/// adjoint adds it back into the caller's shadow.
pub fn lower_byval_params(aug: V, primal_params: &[V]) {
    let all = params(aug);
    let b = Builder::for_function(aug);
    for p in primal_params {
        let Some(idx) = all.iter().position(|q| q == p) else {
            continue;
        };
        let ai = idx as u32 + 1;
        if has_attr_at(aug, ai, "sret") {
            remove_attr_at(aug, ai, "sret");
        }
        let Some(ty) = type_attr_at(aug, ai, "byval") else {
            continue;
        };
        remove_attr_at(aug, ai, "byval");
        b.at_entry_allocas(aug);
        b.clear_debug_loc();
        let copy = b.alloca(ty);
        set_name(copy, &format!("{}.byval", name(*p)));
        let align = alignment(copy).max(1);
        replace_all_uses(*p, copy);
        let m = b.memcpy(
            copy,
            *p,
            const_i64(b.ctx, type_alloc_size(module_of(aug), ty) as i64),
            align,
        );
        let _ = m;
    }
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
