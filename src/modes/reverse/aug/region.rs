//! The straight-line region of an augmented sweep whose pushes share one
//! tape capacity check: the blocks reached from the entry only through
//! blocks that lie on no cycle and make no call that may push onto the
//! tape. Each such block runs at most once per call, and nothing else moves
//! the tape's top meanwhile, so the sum of their pushes bounds what the
//! region takes: the entry makes room for that sum once ([`crate::modes::reverse::tape::ENSURE`])
//! and each block then bumps the top unchecked ([`crate::modes::reverse::tape::BUMP`]).
use crate::ir::llvm::*;
use std::collections::HashSet;

/// The blocks of `f` (in reverse post-order `order`) that may push without
/// a capacity check of their own, or none when the tape object `tape_arg`
/// escapes (is used other than as a direct call argument).
pub fn unchecked_blocks(f: V, order: &[BB], tape_arg: V) -> HashSet<BB> {
    let mut out = HashSet::new();
    if users(tape_arg)
        .iter()
        .any(|u| !is_call(*u) && !is_invoke(*u))
    {
        return out;
    }
    let entry = match order.first() {
        Some(e) => *e,
        None => return out,
    };
    let mut preds: std::collections::HashMap<BB, Vec<BB>> = Default::default();
    for b in blocks(f) {
        for s in successors(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    // Visiting in reverse post-order, a block all of whose predecessors are
    // already in the region lies on no cycle (a cycle through it would go
    // back through ever earlier blocks to itself).
    for &bb in order {
        let ok = (bb == entry
            || preds
                .get(&bb)
                .is_some_and(|p| p.iter().all(|q| out.contains(q))))
            && !instructions(bb).into_iter().any(|i| may_push(i, tape_arg));
        if ok {
            out.insert(bb);
        }
    }
    out
}

/// Whether instruction `i` is a call that may move the tape's top: one
/// that is handed the tape.
fn may_push(i: V, tape_arg: V) -> bool {
    (is_call(i) || is_invoke(i)) && operands(i).contains(&tape_arg)
}

/// Whether a region of `pushing` blocks is worth one shared check (a
/// single pushing block keeps its own `reserve`).
pub fn worth_it(pushing: usize) -> bool {
    pushing >= 2
}
