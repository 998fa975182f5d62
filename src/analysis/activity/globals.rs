//! Which globals of a module may hold active floats, and the global a
//! constant pointer expression points into.
use super::underlying_objects;
use crate::ir::llvm::*;
use crate::rules::registry::Registry;
use crate::rules::{self, CallKind};
use std::collections::HashSet;

/// Globals of a module that may hold active floats: some store (or copy)
/// anywhere in the module writes a computed float into them. Globals only
/// ever holding constants (their initializer, constant stores, integer
/// conversions) are constant. Globals holding pointers are not included:
/// they become active only where active data is stored through them.
///
/// The scan covers the whole module (a fat-LTO Rust module holds all of
/// std): the pass session keeps one of these per module and [`Self::of`]
/// scans only the functions defined since the last call (derivatives made
/// in between mirror primal stores).
#[derive(Default)]
pub struct ActiveGlobals {
    scanned: HashSet<V>,
    found: HashSet<V>,
    descriptors_scanned: bool,
}

impl ActiveGlobals {
    /// The active globals of `m` now; globals the registry marks
    /// `enzyme_inactive` carry no derivative, those given a shadow
    /// (`enzyme_shadow`) are active.
    pub fn of(&mut self, m: LLVMModuleRef, reg: &Registry) -> HashSet<V> {
        if !self.descriptors_scanned {
            self.descriptors_scanned = true;
            descriptor_targets(m, &mut self.found);
        }
        for f in functions(m) {
            if !is_declaration(f) && self.scanned.insert(f) {
                scan_function(f, &mut self.found);
            }
        }
        let mut out = self.found.clone();
        out.retain(|g| !reg.is_inactive_global(*g));
        out.extend(reg.shadowed_globals());
        out
    }
}

/// Add the globals function `f` writes computed floats into to `out`.
fn scan_function(f: V, out: &mut HashSet<V>) {
    {
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
}

/// Writable globals holding floats whose address another global's
/// initializer holds (`static double *p = a;`, a struct `{data, n}`): code
/// may write computed floats into them through that pointer, a store whose
/// underlying object is a load, so they count as active (their shadows are
/// what the descriptor's shadow points to: `modes/iface/shadows.rs`), and
/// so does the descriptor: loads through the pointers it holds are active.
fn descriptor_targets(m: LLVMModuleRef, out: &mut HashSet<V>) {
    for g in globals(m) {
        let Some(init) = crate::ir::link::initializer(g) else {
            continue;
        };
        if !contains_ptr(type_of(init)) {
            continue;
        }
        let mut stack = vec![init];
        while let Some(c) = stack.pop() {
            if is_global_var(c) {
                if c != g && !is_global_constant(c) && global_holds_float(c) {
                    out.insert(c);
                    // the descriptor's pointers lead to active memory
                    out.insert(g);
                }
            } else if is_const_struct(c) || is_const_array(c) || const_opcode(c).is_some() {
                stack.extend((0..num_operands(c)).map(|i| operand(c, i)));
            }
        }
    }
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

/// The globals `f` and the functions it calls use.
pub(super) fn globals_touched_by(f: V) -> HashSet<V> {
    let mut out = HashSet::new();
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        if !seen.insert(g) || is_declaration(g) {
            continue;
        }
        for bb in blocks(g) {
            for i in instructions(bb) {
                for o in operands(i) {
                    let b = strip_casts(o);
                    for root in underlying_objects(b) {
                        if is_global_var(root) {
                            out.insert(root);
                        }
                    }
                    if is_function(b) {
                        stack.push(b);
                    }
                }
            }
        }
    }
    out
}
