//! Small IR-building helpers for loop transforms: copying instructions
//! under a value map, a counted loop skeleton, dropping dead instructions.
use super::llvm::*;
use super::values::{add_incoming, clone_inst, erase, set_operand};
use super::Builder;
use std::collections::HashMap;

/// Copy instruction `i` at the builder's position, its operands renamed
/// through `map` (operands not in the map are kept). Returns the copy.
pub fn clone_mapped(b: &Builder, i: V, map: &HashMap<V, V>) -> V {
    let c = clone_inst(i);
    for k in 0..num_operands(c) {
        if let Some(v) = map.get(&operand(c, k)) {
            set_operand(c, k, *v);
        }
    }
    b.insert(c);
    c
}

/// `ptrtoint p to i64`.
pub fn addr(b: &Builder, p: V) -> V {
    b.cast(LLVMOpcode::LLVMPtrToInt, p, i64_type(b.ctx))
}

/// An upward counted loop `for j in [lo, hi]` (inclusive, at least one
/// iteration) appended to function `f`, entered from the builder's block.
/// `body(b, j)` builds one iteration at the builder's position. The builder
/// ends at the end of the (new, empty) block the loop leaves to.
pub fn counted_loop(b: &Builder, f: V, name: &str, lo: V, hi: V, body: impl FnOnce(&Builder, V)) {
    let from = b.block();
    let head = append_block(f, name);
    let done = append_block(f, &format!("{name}.done"));
    b.br(head);
    b.at_end(head);
    let j = b.phi(type_of(lo));
    body(b, j);
    let next = b.add(j, const_int_like(j, 1));
    let last = b.icmp(LLVMIntPredicate::LLVMIntEQ, j, hi);
    let latch = b.block();
    b.cond_br(last, done, head);
    add_incoming(j, &[(lo, from), (next, latch)]);
    b.at_end(done);
}

fn const_int_like(v: V, x: i64) -> V {
    super::consts::const_int(type_of(v), x as u64)
}

/// Delete the instructions of `bb` that have no uses and no effect, until
/// none is left.
pub fn delete_dead(bb: BB) {
    loop {
        let mut changed = false;
        for i in instructions(bb).into_iter().rev() {
            let effect = matches!(
                opcode(i),
                Some(LLVMOpcode::LLVMStore | LLVMOpcode::LLVMBr | LLVMOpcode::LLVMPHI)
            ) || (is_call(i) && !is_pure_intrinsic(i))
                || is_void(type_of(i));
            if !effect && !has_uses(i) {
                erase(i);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// A call to an intrinsic without memory effects or traps that loop
/// transforms may copy or drop.
pub fn is_pure_intrinsic(i: V) -> bool {
    const PURE: [&str; 9] = [
        "llvm.fmuladd.",
        "llvm.fma.",
        "llvm.fabs.",
        "llvm.sqrt.",
        "llvm.copysign.",
        "llvm.minnum.",
        "llvm.maxnum.",
        "llvm.minimum.",
        "llvm.maximum.",
    ];
    is_call(i)
        && called_function(i).is_some_and(|f| {
            let n = name(f);
            PURE.iter().any(|p| n.starts_with(p))
        })
}
