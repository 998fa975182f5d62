//! The constrained intrinsics (`llvm.experimental.constrained.*`, clang's
//! `-ffp-model=strict` and `#pragma STDC FENV_ACCESS ON`): the rules of
//! the unconstrained operations. Their trailing metadata arguments
//! (rounding, exceptions) are no operands of the rule ([`super::rule_args`]).
//! Conversions to integers, comparisons and integer-to-float conversions
//! carry no derivative (inactive).
//!
//! In a `strictfp` function the derivative's own arithmetic is constrained
//! too, with the rounding and exception arguments of the operation it
//! differentiates (src/ir/strictfp.rs; the modes rewrite their code once
//! it is built).
use super::Rule;
use crate::ir::strictfp::PREFIX;

/// The operation a constrained intrinsic's name names (`fadd` for
/// `llvm.experimental.constrained.fadd.f64`).
fn stem(n: &str) -> Option<&str> {
    n.strip_prefix(PREFIX)?.split('.').next()
}

/// The rule of constrained intrinsic `n`: that of its operation.
pub(super) fn rule(n: &str) -> Option<Rule> {
    let op = stem(n)?;
    match op {
        "fadd" | "fsub" | "fmul" | "fdiv" | "frem" | "fpext" | "fptrunc" => super::arith_rule(op),
        _ if is_inactive(n) => None,
        _ => super::lookup_callee(&format!("llvm.{op}")),
    }
}

/// Constrained operations without a derivative: integer results,
/// comparisons, integer operands.
pub fn is_inactive(n: &str) -> bool {
    matches!(
        stem(n),
        Some(
            "fptosi"
                | "fptoui"
                | "sitofp"
                | "uitofp"
                | "fcmp"
                | "fcmps"
                | "lrint"
                | "llrint"
                | "lround"
                | "llround"
        )
    )
}

/// Whether `n` is a constrained intrinsic.
pub fn is_constrained(n: &str) -> bool {
    n.starts_with(PREFIX)
}
