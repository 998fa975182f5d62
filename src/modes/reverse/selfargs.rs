//! Parameters a new function only hands on to itself.
//!
//! A derivative of a recursive function gets every parameter of both
//! sweeps: the augmented sweep of `fft_rec(in, out, ...)` takes the
//! shadows `d_in`, `d_out` and the tape although it only passes them (or a
//! `getelementptr` of them) to its own recursive calls; the reverse sweep
//! likewise passes the primal `in` and `out` down without reading them.
//! Such a parameter cannot change what the function does: its value only
//! reaches the same parameter of the next activation. The recursive calls
//! then pass `poison` there instead, the cleanup deletes the address
//! arithmetic, and code generation sets up no register or stack slot for
//! it (the outermost call still passes the real value, which nothing
//! reads). The signature is unchanged.
//!
//! Left alone: a parameter with any other use (a load, a store, a
//! comparison, another call), one passed at another position or to
//! another function, and one whose attributes (on the function or the
//! call) make a poison value undefined behaviour or change the ABI
//! (`noundef`, `dereferenceable`, `byval`, `sret`, ...).
//! `ENZYME_RS_SELF_ARGS=0` turns this off.
use crate::ir::globals::{call_has_attr_at, global_type, param_has_attr};
use crate::ir::llvm::*;
use crate::ir::values::{poison, set_operand};

/// Attributes under which `poison` must not be passed (undefined
/// behaviour) or that change how the argument is passed.
const BLOCKING: [&str; 14] = [
    "noundef",
    "dereferenceable",
    "dereferenceable_or_null",
    "byval",
    "byref",
    "sret",
    "inalloca",
    "preallocated",
    "returned",
    "nest",
    "inreg",
    "swiftself",
    "swifterror",
    "swiftasync",
];

/// Replace, in each of `fns`, the recursive calls' arguments for
/// parameters only handed on to itself by `poison`. Returns how many
/// parameters were dropped this way.
pub fn run(fns: &[V]) -> usize {
    if !crate::options::switches::self_args() {
        return 0;
    }
    let mut dropped = 0;
    for &f in fns {
        if is_declaration(f) {
            continue;
        }
        for (j, p) in params(f).into_iter().enumerate() {
            let j = j as u32;
            if BLOCKING.iter().any(|a| param_has_attr(f, j, a)) {
                continue;
            }
            let mut calls = Vec::new();
            if !only_handed_on(f, p, j, &mut calls) || calls.is_empty() {
                continue;
            }
            for c in calls {
                set_operand(c, j, poison(type_of(p)));
            }
            log::debug!(
                "enzyme-rs: {}: parameter {j} only passed to itself",
                name(f)
            );
            dropped += 1;
        }
    }
    dropped
}

/// Whether every use of `v` (parameter `j` of `f`, or an address computed
/// from it) is argument `j` of a direct call of `f` itself, or the base of
/// a `getelementptr` whose uses are such; collects those calls.
fn only_handed_on(f: V, v: V, j: u32, calls: &mut Vec<V>) -> bool {
    let mut us = users(v);
    us.dedup();
    for u in us {
        if is_call(u) && called_value(u) == f && !crate::ir::types::is_vararg(global_type(f)) {
            let n = call_num_args(u);
            let at: Vec<u32> = (0..n).filter(|k| operand(u, *k) == v).collect();
            if at != [j]
                || called_value(u) == v
                || BLOCKING.iter().any(|a| call_has_attr_at(u, j + 1, a))
            {
                return false;
            }
            if !calls.contains(&u) {
                calls.push(u);
            }
        } else if opcode(u) == Some(LLVMOpcode::LLVMGetElementPtr)
            && operand(u, 0) == v
            && (1..num_operands(u)).all(|k| operand(u, k) != v)
        {
            if !only_handed_on(f, u, j, calls) {
                return false;
            }
        } else {
            return false;
        }
    }
    true
}
