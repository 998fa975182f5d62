//! Uses of an entry point (`__enzyme_autodiff`...) other than direct calls.
//! At -O0 an entry point kept in a local variable (`ad_t ad =
//! __enzyme_autodiff; ad(f, x)`) is called through a load of its slot:
//! those calls are made direct. Any other use (the address passed on,
//! kept in a table or a global) would leave a call nothing rewrites, a
//! link error far from its cause: it is reported where it is.
use super::resolve::slot_value;
use crate::diag::{Error, ErrorKind};
use crate::ir::llvm::*;
use crate::ir::{link, shim};

/// The calls of the entry point `f` made through a local slot stored once
/// with it, each made a direct call of `f`.
pub fn calls_through_slots(f: V) -> Vec<V> {
    let mut out = Vec::new();
    for st in users(f) {
        if opcode(st) != Some(LLVMOpcode::LLVMStore) || operand(st, 0) != f {
            continue;
        }
        let slot = strip_casts(operand(st, 1));
        if opcode(slot) != Some(LLVMOpcode::LLVMAlloca) {
            continue;
        }
        for l in users(slot) {
            if opcode(l) != Some(LLVMOpcode::LLVMLoad) || strip_casts(slot_value(l)) != f {
                continue;
            }
            for c in users(l) {
                if (is_call(c) || is_invoke(c)) && strip_casts(called_value(c)) == l {
                    set_called_value(c, f);
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The uses of the declared entry point `f` that no call of it is: kept
/// in a slot nothing calls through, passed to another function, stored in
/// memory or a global's initializer. The module's used-lists are no use.
pub fn escaped_uses(f: V) -> Vec<V> {
    if !is_declaration(f) {
        return Vec::new();
    }
    users(f)
        .into_iter()
        .filter(|u| !((is_call(*u) || is_invoke(*u)) && strip_casts(called_value(*u)) == f))
        .filter(|u| !only_in_used_lists(*u))
        .filter(|u| !is_instruction(*u) || !only_lifetime_slot_store(*u, f))
        // (An imported copy's body is dropped; its own module reports.)
        .filter(|u| {
            !is_instruction(*u) || link::linkage(inst_fn(*u)) != link::Linkage::AvailableExternally
        })
        .collect()
}

/// A store of `f` into a local slot that nothing loads (left behind once
/// the calls through it were made direct and rewritten).
fn only_lifetime_slot_store(st: V, f: V) -> bool {
    if opcode(st) != Some(LLVMOpcode::LLVMStore) || operand(st, 0) != f {
        return false;
    }
    let slot = strip_casts(operand(st, 1));
    opcode(slot) == Some(LLVMOpcode::LLVMAlloca)
        && users(slot).into_iter().all(|u| match opcode(u) {
            Some(LLVMOpcode::LLVMStore) => operand(u, 1) == slot,
            Some(LLVMOpcode::LLVMLoad) => users(u).is_empty(),
            Some(LLVMOpcode::LLVMCall) => {
                let n = called_function(u).map(name).unwrap_or_default();
                n.starts_with("llvm.lifetime.") || n.starts_with("llvm.dbg.")
            }
            _ => false,
        })
}

/// A constant reaching only `llvm.used` / `llvm.compiler.used`.
fn only_in_used_lists(u: V) -> bool {
    if is_instruction(u) {
        return false;
    }
    if is_global_var(u) {
        let n = name(u);
        return n == "llvm.used" || n == "llvm.compiler.used";
    }
    let us = users(u);
    !us.is_empty() && us.into_iter().all(only_in_used_lists)
}

/// Report each escaped use of the entry point `f` (at -O0 and after every
/// rewrite: what is left can only fail at the link).
pub fn report_escaped(m: LLVMModuleRef, f: V) -> bool {
    // Slots whose calls were all made direct still hold the address, which
    // would need the symbol at the link: they hold null now (nothing
    // reads them).
    for u in users(f) {
        if is_instruction(u) && only_lifetime_slot_store(u, f) {
            set_operand(u, 0, zero(type_of(f)));
        }
    }
    let uses = escaped_uses(f);
    for u in &uses {
        let what = name(f);
        let msg = |place: &str| {
            format!(
                "'{what}' is used other than by a direct call ({place}: its address is passed on, stored or kept in a table); enzyme-rs rewrites only calls of it (directly, or at -O0 through a local variable holding it), so this use would fail at the link. Call {what} directly"
            )
        };
        if is_instruction(*u) {
            let e = Error::new(ErrorKind::BadCall(msg("here")), inst_fn(*u), Some(*u));
            e.emit(inst_fn(*u));
        } else if let Some(anchor) = functions(m).into_iter().find(|g| !is_declaration(*g)) {
            let place = match holding_global(*u) {
                Some(g) => format!("in the initializer of global '{}'", name(g)),
                None => "in a constant".to_string(),
            };
            let e = Error {
                kind: ErrorKind::BadCall(msg(&place)),
                at: None,
            };
            shim::diagnose_error(anchor, None, &e.message());
        }
    }
    !uses.is_empty()
}

/// The global variable whose initializer holds constant `c`.
fn holding_global(c: V) -> Option<V> {
    if is_global_var(c) {
        return Some(c);
    }
    users(c).into_iter().find_map(holding_global)
}
