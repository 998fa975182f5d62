//! Erase Enzyme's type annotations (`rules::hints`: `__enzyme_double`...)
//! once every derivative is built: the user declares them without a body.
use crate::ir::llvm::*;

/// Erase every call of an annotation function in `m` (and the function
/// when nothing else uses it). Returns whether anything changed.
pub fn erase_annotations(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for f in functions(m) {
        let n = name(f);
        let hint =
            crate::rules::hints::type_hint(&n).is_some() || crate::rules::hints::is_size_hint(&n);
        if !is_declaration(f) || !hint {
            continue;
        }
        for u in users(f) {
            if is_call(u) && strip_casts(called_value(u)) == f && users(u).is_empty() {
                erase(u);
                changed = true;
            }
        }
        if users(f).is_empty() {
            delete_function(f);
        }
    }
    changed
}
