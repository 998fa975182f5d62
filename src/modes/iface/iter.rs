//! `__enzyme_iter(n, step)`: a count (a series' number of terms, say) that
//! grows by `step` with each differentiation, as in Enzyme (a truncated
//! series keeps its accuracy in its derivatives). In the function itself
//! it is `n`; every derivative function cloned from a body containing the
//! call (forward mode, the augmented forward and so the reverse sweep) has
//! `__enzyme_iter(n + step, step)` instead, so the k-th derivative (higher
//! order: derivatives of derivatives) sees `n + k*step`.
//! After differentiation each remaining call becomes its first argument.
//! The call is inactive (an integer).
use crate::callsite::unmangled_head;
use crate::ir::llvm::*;
use crate::ir::Builder;

fn is_iter_call(i: V) -> bool {
    is_call(i)
        && called_function(i).is_some_and(|f| unmangled_head(&name(f)).starts_with("__enzyme_iter"))
        && call_num_args(i) == 2
        && is_int(type_of(i))
}

/// In a derivative function `nf` just cloned from a primal body: one
/// differentiation more for each `__enzyme_iter` call.
pub fn step_in_clone(nf: V) {
    let b = Builder::new(module_of(nf));
    for bb in blocks(nf) {
        for i in instructions(bb) {
            if !is_iter_call(i) {
                continue;
            }
            let args = call_args(i);
            b.before(i);
            let step = if type_of(args[1]) == type_of(args[0]) {
                args[1]
            } else {
                b.int_cast(args[1], type_of(args[0]), false)
            };
            let n = b.add(args[0], step);
            crate::ir::values::set_operand(i, 0, n);
        }
    }
}

/// After differentiation: each `__enzyme_iter(n, step)` left is `n`.
pub fn lower_after(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for call in super::calls_named(m, "__enzyme_iter") {
        if !is_iter_call(call) {
            continue;
        }
        let n = call_args(call)[0];
        let v = if type_of(n) == type_of(call) {
            n
        } else {
            let b = Builder::new(m);
            b.before(call);
            b.int_cast(n, type_of(call), false)
        };
        replace_all_uses(call, v);
        erase(call);
        changed = true;
    }
    changed
}
