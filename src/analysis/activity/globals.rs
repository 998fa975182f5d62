//! Which globals of a module may hold active floats, and the global a
//! constant pointer expression points into.
use super::underlying_objects;
use crate::ir::llvm::*;
use crate::rules::{self, CallKind};
use std::collections::HashSet;

/// Globals of the module that may hold active floats: some store (or
/// copy) anywhere in the module writes a computed float into them. Globals
/// only ever holding constants (their initializer, constant stores,
/// integer conversions) are constant. Globals holding pointers are not
/// included: they become active only where active data is stored through
/// them.
pub fn active_globals(m: LLVMModuleRef) -> HashSet<V> {
    // The scan covers the whole module: reuse it while the module has the
    // same functions and globals (analysing many functions in a row).
    thread_local! {
        static CACHE: std::cell::RefCell<Option<((LLVMModuleRef, usize, usize, V), HashSet<V>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let fs = functions(m);
    let key = (
        m,
        fs.len(),
        globals(m).len(),
        fs.first().copied().unwrap_or(std::ptr::null_mut()),
    );
    if let Some(hit) = CACHE.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }) {
        return hit;
    }
    let mut out = scan_active_globals(m);
    // Globals marked `enzyme_inactive` carry no derivative; those given a
    // shadow (`enzyme_shadow`) are active.
    out.retain(|g| !crate::rules::registry::is_inactive_global(*g));
    out.extend(crate::rules::registry::shadowed_globals());
    CACHE.with(|c| *c.borrow_mut() = Some((key, out.clone())));
    out
}

pub(super) fn scan_active_globals(m: LLVMModuleRef) -> HashSet<V> {
    let mut out = HashSet::new();
    for f in functions(m) {
        if is_declaration(f) {
            continue;
        }
        for bb in blocks(f) {
            for i in instructions(bb) {
                let (v, p) = match opcode(i) {
                    Some(LLVMOpcode::LLVMStore) => (operand(i, 0), operand(i, 1)),
                    Some(LLVMOpcode::LLVMCall) => match rules::classify(i) {
                        CallKind::MemTransfer(rules::MemKind::Copy | rules::MemKind::Move) => {
                            (operand(i, 1), operand(i, 0))
                        }
                        _ => continue,
                    },
                    _ => continue,
                };
                let writes_float = if is_ptr(type_of(v)) && opcode(i) == Some(LLVMOpcode::LLVMCall)
                {
                    true // a copy: whatever the source holds
                } else {
                    contains_fp(type_of(v))
                        && !is_constant(v)
                        && !matches!(
                            opcode(v),
                            Some(LLVMOpcode::LLVMSIToFP | LLVMOpcode::LLVMUIToFP)
                        )
                };
                if !writes_float {
                    continue;
                }
                for root in underlying_objects(p) {
                    if is_global_var(root)
                        && (opcode(i) != Some(LLVMOpcode::LLVMCall) || global_holds_float(root))
                    {
                        out.insert(root);
                    }
                }
            }
        }
    }
    out
}

pub(super) fn global_holds_float(g: V) -> bool {
    contains_fp(global_type(g))
}

/// The global a constant pointer expression (GEPs and pointer casts over a
/// global variable) points into.
pub(super) fn const_ptr_global(v: V) -> Option<V> {
    let mut v = v;
    loop {
        if is_global_var(v) {
            return Some(v);
        }
        if !matches!(
            const_opcode(v)?,
            LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast
        ) {
            return None;
        }
        v = operand(v, 0);
    }
}
