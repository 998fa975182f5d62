//! One walk over the uses of a value and of what is derived from it (the
//! addresses a pointer's GEPs, casts, phis and selects make; the integers
//! a `ptrtoint` flows into), for the analyses that ask what happens to a
//! pointer: whether it is captured (`modes::reverse::memory`), written or
//! kept by a callee (`modes::reverse::distinct`), only loaded and stored
//! through (`modes::reverse::freelist`), or escapes as an integer
//! (`escape`).
//!
//! The walk is a worklist with a visited set (no depth limit: each derived
//! value is looked at once, cycles through phis end). The caller's visitor
//! sees every use `(user, value)` and says what to do with it; which uses
//! derive a new value to follow is the visitor's to decide, so each
//! analysis keeps its own rules. [`derives_address`] is the common rule for
//! pointers.
use crate::ir::llvm::*;
use std::collections::HashSet;
use LLVMOpcode::*;

/// What the visitor makes of one use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Go on with the next use.
    Continue,
    /// End the walk now ([`walk`] returns false).
    Stop,
}

/// The values still to walk, for the visitor to add to.
pub struct Walk {
    work: Vec<V>,
    seen: HashSet<V>,
}

impl Walk {
    /// Walk the uses of `v` too (once: a value already walked is not
    /// walked again).
    pub fn follow(&mut self, v: V) {
        if !self.seen.contains(&v) {
            self.work.push(v);
        }
    }
}

/// Walk the uses of `roots` and of every value the visitor follows:
/// `visit(user, value, walk)` for each use of each value, once per value.
/// Whether the walk ran to the end (no visitor said [`Flow::Stop`]).
pub fn walk(
    roots: impl IntoIterator<Item = V>,
    mut visit: impl FnMut(V, V, &mut Walk) -> Flow,
) -> bool {
    let mut w = Walk {
        work: roots.into_iter().collect(),
        seen: HashSet::new(),
    };
    while let Some(v) = w.work.pop() {
        if !w.seen.insert(v) {
            continue;
        }
        for u in users(v) {
            if visit(u, v, &mut w) == Flow::Stop {
                return false;
            }
        }
    }
    true
}

/// Whether user `u` of address `v` is an address derived from it: a GEP
/// based on it, a cast, a phi, or a select choosing it (not by it).
pub fn derives_address(u: V, v: V) -> bool {
    match opcode(u) {
        Some(LLVMGetElementPtr) => operand(u, 0) == v,
        Some(LLVMBitCast | LLVMAddrSpaceCast | LLVMPHI) => true,
        Some(LLVMSelect) => operand(u, 0) != v,
        _ => false,
    }
}

/// A call to a marker that neither reads, writes nor keeps the pointers
/// it is given (`llvm.lifetime.*`, `llvm.assume`).
pub fn is_marker_call(call: V) -> bool {
    called_function(call).is_some_and(|f| {
        let n = name(f);
        n.starts_with("llvm.lifetime.") || n.starts_with("llvm.assume")
    })
}
