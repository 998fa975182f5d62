//! Pointers to active memory that escape through integers.
//!
//! Optimized code (and sanitizer checks) can turn a pointer into an
//! integer (`ptrtoint`), merge it in integer phis, and store it or pass it
//! on: a `std::reverse_iterator` built that way at -O2 under
//! -fsanitize=alignment carried a vector's data pointer as an `i64` into a
//! call. Integers have no shadow, so the memory reached through such a
//! copy would get no derivative: a silent zero gradient. This check turns
//! that into an error at the escaping instruction instead.
use super::ptruse::{self, Flow};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::rules::{self, CallKind};
use std::collections::HashSet;
use LLVMOpcode::*;

/// Error when an integer made from a pointer in `reached` (through
/// `ptrtoint` and integer phis/selects/arithmetic) is stored to memory or
/// passed to a call that is not inactive. `primal` names the function.
/// A call that never returns (a Rust panic reporting a misaligned pointer's
/// address) ends the program: nothing is differentiated past it.
pub fn check(order: &[V], reached: &HashSet<V>, primal: V) -> Result<()> {
    for &i in order {
        if opcode(i) != Some(LLVMPtrToInt) || !reached.contains(&operand(i, 0)) {
            continue;
        }
        let mut at = None;
        ptruse::walk([i], |u, v, w| {
            match opcode(u) {
                Some(LLVMPHI | LLVMSelect | LLVMFreeze | LLVMAdd | LLVMBitCast) => w.follow(u),
                // p - constant is still a pointer; p - q is a size.
                Some(LLVMSub) if operand(u, 0) == v && is_constant(operand(u, 1)) => w.follow(u),
                Some(LLVMStore) if operand(u, 0) == v => at = Some(u),
                Some(LLVMCall | LLVMInvoke)
                    if !matches!(rules::classify(u), CallKind::Inactive | CallKind::Alloc(_))
                        && !is_intrinsic_call(u)
                        && !is_noreturn_call(u) =>
                {
                    at = Some(u)
                }
                _ => {}
            }
            if at.is_some() {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        if let Some(u) = at {
            return Err(escape(u, primal));
        }
    }
    Ok(())
}

fn is_intrinsic_call(call: V) -> bool {
    called_function(call).map_or(false, |f| name(f).starts_with("llvm."))
}

fn escape(at: V, primal: V) -> Error {
    Error::new(
        ErrorKind::Unsupported(
            "a pointer to active memory is converted to an integer (ptrtoint) and stored or passed on; the derivative cannot follow memory reached through an integer (its shadow is unknown)".into(),
        ),
        primal,
        Some(at),
    )
}
