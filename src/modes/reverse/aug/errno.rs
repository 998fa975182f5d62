//! The augmented clone without the primal's errno-only libm calls.
//!
//! With `-fmath-errno` (clang's default on Linux) a libm call whose result
//! is never used stays in the primal for its one effect, `errno`, and
//! LLVM's LibCallsShrinkWrap puts it behind a range check (`exp(x)` only
//! when `x < -745 || x > 709`): two more blocks per call. In a
//! straight-line function every such guard splits the augmented sweep,
//! and the reverse sweep gets one block per primal block, each with its
//! own tape pop and its own recomputation of the values it needs, so the
//! derivative's code (and its compile time) grows with the guards.
//!
//! A derivative's augmented sweep is not the primal call: its result
//! values matter, `errno` after a gradient does not (the reverse sweep's
//! recomputed libm calls are already errno-free intrinsics, and the
//! original Enzyme treats these functions as writing no memory). So the
//! clone drops them, and simplifycfg folds the guards they leave empty.
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::values::erase;
use crate::rules::{self, CallKind};

/// libm functions (double, and the `f`-suffixed float ones) whose only
/// effect besides their result is `errno`. Not `lgamma` (it sets
/// `signgam`), not those with pointer arguments (`frexp`, `modf`, ...).
const ERRNO_ONLY: [&str; 20] = [
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2",
    "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "hypot",
];

/// Whether `c` is a call of such a function whose result nothing uses.
fn errno_only_call(c: V) -> bool {
    let Some(f) = called_function(c) else {
        return false;
    };
    let n = name(f);
    let base = n.strip_suffix('f').filter(|b| ERRNO_ONLY.contains(b));
    (ERRNO_ONLY.contains(&n.as_str()) || base.is_some())
        && is_declaration(f)
        && matches!(rules::classify(c), CallKind::Rule(_))
        && users(c).is_empty()
        && is_fp_scalar(type_of(c))
        && call_args(c).iter().all(|a| is_fp_scalar(type_of(*a)))
}

/// Erase the errno-only libm calls of `aug` and, when there were any,
/// fold the branches around them (LibCallsShrinkWrap's guards). Returns
/// how many calls went. `ENZYME_RS_KEEP_ERRNO_CALLS=1` keeps them.
pub(super) fn drop_errno_only_calls(aug: V) -> Result<usize, String> {
    if crate::options::switches::keep_errno_calls() {
        return Ok(0);
    }
    let dead: Vec<V> = blocks(aug)
        .into_iter()
        .flat_map(instructions)
        .filter(|i| is_call(*i) && errno_only_call(*i))
        .collect();
    for c in &dead {
        erase(*c);
    }
    if !dead.is_empty() {
        // An emptied guard block is folded into its branch (the same
        // call left on both sides of a guard is hoisted above it), the
        // range check then feeds nothing (dce), and the blocks merge.
        shim::run_function_pipeline(
            &mut [aug],
            "simplifycfg<hoist-common-insts;sink-common-insts>,dce,simplifycfg",
        )?;
    }
    Ok(dead.len())
}
