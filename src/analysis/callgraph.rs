//! Walks of the direct call graph.
use crate::ir::llvm::*;
use std::collections::HashSet;

/// Walks the functions with a body reached from `roots` through direct
/// calls (each visited once, recorded in `seen`) until `stop` holds for a
/// called function; whether it did. A worklist, not recursion: a deep call
/// chain cannot overflow the stack.
pub fn find_callee(roots: Vec<V>, seen: &mut HashSet<V>, mut stop: impl FnMut(V) -> bool) -> bool {
    let mut work = roots;
    while let Some(f) = work.pop() {
        if !seen.insert(f) || is_declaration(f) {
            continue;
        }
        for bb in blocks(f) {
            for i in instructions(bb) {
                if let Some(c) = is_call(i).then(|| called_function(i)).flatten() {
                    if stop(c) {
                        return true;
                    }
                    work.push(c);
                }
            }
        }
    }
    false
}
