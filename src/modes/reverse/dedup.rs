//! One cache for identical loads. In IR that was not CSE'd (clang -O0 after
//! mem2reg/sroa), `x[i] * x[i]` loads the same address twice per iteration;
//! the reverse sweep would keep both values. A simple load in a loop is
//! replaced by an earlier simple load when: same type; an address with the
//! same ScalarEvolution expression; the earlier load dominates it from the
//! same or an enclosing loop; identical non-debug metadata; and nothing in
//! between may write the memory read, nor is a fence or convergent call.
//! `-enzyme-dedup-loads=0` turns it off.
use super::memory::may_alias_objects;
use crate::analysis::activity::underlying_objects;
use crate::ir::llvm::*;
use crate::ir::shim::{Loops, Scev};
use crate::rules::{self, CallKind};
use std::collections::HashSet;

fn is_simple_load(i: V) -> bool {
    opcode(i) == Some(LLVMOpcode::LLVMLoad) && !is_volatile(i) && is_not_atomic(i)
}

/// Whether instruction `i` may write memory that `objs` point into, or is
/// a fence or a convergent call.
fn may_clobber(i: V, objs: &[V]) -> bool {
    let writes_to = |p: V| {
        underlying_objects(p)
            .into_iter()
            .any(|o| objs.iter().any(|l| may_alias_objects(o, *l)))
    };
    match opcode(i) {
        Some(LLVMOpcode::LLVMStore) => writes_to(operand(i, 1)),
        Some(LLVMOpcode::LLVMFence | LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
            true
        }
        Some(LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke) => {
            let callee = called_function(i);
            if let Some(c) = callee {
                if fn_has_attr(c, "convergent") {
                    return true;
                }
            }
            match rules::classify(i) {
                CallKind::Rule(r) if r.masked.is_some() => {
                    super::memory::masked_writes(i).into_iter().any(writes_to)
                }
                CallKind::Rule(_) => false,
                CallKind::Inactive if callee.is_some_and(is_declaration) => false,
                CallKind::MemTransfer(_) => writes_to(operand(i, 0)),
                _ => true,
            }
        }
        _ => false,
    }
}

/// Blocks on some path from `a` to `b` (both included).
fn blocks_between(a: BB, b: BB) -> HashSet<BB> {
    let reach = |start: BB| {
        let mut seen = HashSet::new();
        let mut work = vec![start];
        while let Some(x) = work.pop() {
            if seen.insert(x) {
                work.extend(successors(x));
            }
        }
        seen
    };
    let from_a = reach(a);
    from_a
        .into_iter()
        .filter(|x| *x == b || reach(*x).contains(&b))
        .collect()
}

fn nothing_writes_between(l1: V, l2: V) -> bool {
    let objs = underlying_objects(operand(l2, 0));
    let (b1, b2) = (inst_block(l1), inst_block(l2));
    if b1 == b2 {
        let insts = instructions(b1);
        let s = insts.iter().position(|x| *x == l1).unwrap();
        let e = insts.iter().position(|x| *x == l2).unwrap();
        if s < e {
            return !insts[s + 1..e].iter().any(|i| may_clobber(*i, &objs));
        }
    }
    for bb in blocks_between(b1, b2) {
        for i in instructions(bb) {
            if i == l1 || i == l2 {
                continue;
            }
            if may_clobber(i, &objs) {
                return false;
            }
        }
    }
    true
}

/// Replace duplicate loads in loops of `f`; returns how many were removed.
pub fn dedup_loads(f: V) -> usize {
    let loops = Loops::new(f);
    let scev = Scev::new(f);
    let loads: Vec<V> = rpo(f)
        .into_iter()
        .flat_map(instructions)
        .filter(|i| is_simple_load(*i))
        .collect();
    let mut removed = HashSet::new();
    for (j, &l2) in loads.iter().enumerate() {
        if loops.depth(inst_block(l2)) == 0 {
            continue;
        }
        for &l1 in loads[..j].iter() {
            if removed.contains(&l1)
                || type_of(l1) != type_of(l2)
                || !scev.equal(operand(l1, 0), operand(l2, 0))
                || !scev.dominates(l1, l2)
                || !scev.same_or_enclosing_loop(inst_block(l1), inst_block(l2))
                || all_metadata(l1) != all_metadata(l2)
                || !nothing_writes_between(l1, l2)
            {
                continue;
            }
            replace_all_uses(l2, l1);
            erase(l2);
            removed.insert(l2);
            break;
        }
    }
    drop(scev);
    drop(loops);
    removed.len()
}
