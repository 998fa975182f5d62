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
//!
//! Once the pass is done, [`drop_unused`] removes from the signature of a
//! new recursive internal function the parameters nothing reads any more (those
//! poisoned here, once the cleanup deleted what they fed; a shadow the
//! augmented sweep never touches), as LLVM's dead-argument elimination
//! would (it ran before the derivatives existed). With nine parameters,
//! `fft_rec`'s sweeps passed the last three on the stack at every
//! recursive call; with six, none (fft gradient: 392,000 fewer stores and
//! 262,000 fewer loads per call). Only functions whose every use is a
//! plain call of them. `ENZYME_RS_DROP_PARAMS=0` turns this off.
use crate::ir::globals::{call_has_attr_at, global_type, param_has_attr};
use crate::ir::llvm::*;
use crate::ir::values::{poison, set_operand};
use std::collections::HashSet;

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

/// Attributes under which a parameter keeps its place although unread.
const KEEP_ABI: [&str; 9] = [
    "byval",
    "byref",
    "sret",
    "inalloca",
    "preallocated",
    "nest",
    "swiftself",
    "swifterror",
    "swiftasync",
];

/// Remove, from each recursive internal function of `m` the pass made
/// (not in `before`; one that calls itself, where a parameter costs at
/// every level) whose every use is a plain call, the parameters nothing
/// in its body uses; repeated while a removed argument leaves another
/// one's parameter unread. Returns how many were removed.
pub fn drop_unused(m: LLVMModuleRef, before: &HashSet<V>) -> usize {
    if !crate::options::switches::drop_params() {
        return 0;
    }
    let mut total = 0;
    loop {
        let k = drop_round(m, before);
        if k == 0 {
            return total;
        }
        total += k;
    }
}

fn drop_round(m: LLVMModuleRef, before: &HashSet<V>) -> usize {
    use crate::ir::link::{linkage, Linkage};
    let mut dropped = 0;
    for f in functions(m) {
        if before.contains(&f)
            || is_declaration(f)
            || linkage(f) != Linkage::Internal
            || crate::ir::types::is_vararg(global_type(f))
        {
            continue;
        }
        let us = users(f);
        if us.is_empty()
            || !us
                .iter()
                .all(|u| is_call(*u) && called_value(*u) == f && !call_args(*u).contains(&f))
            || !us.iter().any(|u| inst_fn(*u) == f)
        {
            continue;
        }
        let ps = params(f);
        let drop: Vec<bool> = ps
            .iter()
            .enumerate()
            .map(|(j, p)| {
                users(*p).is_empty() && !KEEP_ABI.iter().any(|a| param_has_attr(f, j as u32, a))
            })
            .collect();
        let k = drop.iter().filter(|d| **d).count();
        if k == 0 {
            continue;
        }
        let fname = name(f);
        if crate::ir::shim::drop_params(f, &drop).is_some() {
            log::debug!("enzyme-rs: {fname}: {k} unread parameter(s) removed");
            dropped += k;
        }
    }
    dropped
}
