//! What a loop considered for re-running writes and reads through its
//! calls and stores (`rerun.rs`): the writes by underlying object, and
//! calls a re-run could not repeat.

use crate::analysis::activity::underlying_objects;
use crate::ir::link::is_intrinsic;
use crate::ir::llvm::*;
use crate::rules::{self, AllocKind, CallKind};

/// Per instruction of `f` writing memory (frees aside: deferred to the
/// reverse sweep), each underlying object it may write.
pub(super) fn local_writes(f: V) -> Vec<(V, V)> {
    let mut out = Vec::new();
    for i in blocks(f).into_iter().flat_map(instructions) {
        let targets: Vec<V> = match opcode(i) {
            Some(LLVMOpcode::LLVMStore) => vec![operand(i, 1)],
            Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => vec![operand(i, 0)],
            Some(LLVMOpcode::LLVMCall) => match rules::classify(i) {
                CallKind::Rule(r) if r.masked.is_some() => super::memory::masked_writes(i),
                CallKind::Rule(_) | CallKind::Alloc(AllocKind::Free) => vec![],
                CallKind::MemTransfer(_) => vec![call_args(i)[0]],
                _ if called_function(i)
                    .is_some_and(|c| is_intrinsic(c) || super::memory::fn_only_reads(c)) =>
                {
                    vec![]
                }
                _ => call_args(i)
                    .into_iter()
                    .filter(|a| is_ptr(type_of(*a)))
                    .collect(),
            },
            _ => vec![],
        };
        for t in targets {
            for o in underlying_objects(t) {
                out.push((i, o));
            }
        }
    }
    out
}

/// The memory call `i` reads and writes; an error for calls a re-run
/// cannot repeat.
pub(super) fn call_memory(
    i: V,
    reads: &mut Vec<(V, V)>,
    writes: &mut Vec<V>,
) -> std::result::Result<(), String> {
    let ptr_args = || call_args(i).into_iter().filter(|a| is_ptr(type_of(*a)));
    match rules::classify(i) {
        CallKind::Rule(r) if r.masked.is_some() => {
            if let Some(a) = crate::rules::vecmem::masked_access(i) {
                if a.op.writes() {
                    writes.push(a.ptr);
                } else {
                    reads.push((i, a.ptr));
                }
            }
        }
        CallKind::Rule(_) => {
            if ptr_args().next().is_some() {
                return Err("it calls a math function writing through a pointer".into());
            }
        }
        CallKind::Inactive
            if called_function(i)
                .is_some_and(|c| is_intrinsic(c) || super::memory::fn_only_reads(c)) => {}
        CallKind::MemTransfer(_) => {
            let args = call_args(i);
            writes.push(args[0]);
            if is_ptr(type_of(args[1])) {
                reads.push((i, args[1]));
            }
        }
        CallKind::Defined(c) if writes_only_own_stack(c, 3) => {
            for a in ptr_args() {
                reads.push((i, a));
            }
        }
        _ => {
            let n = called_function(i)
                .map(name)
                .unwrap_or_else(|| "a pointer".into());
            return Err(format!("it calls '{n}', which a re-run would repeat"));
        }
    }
    Ok(())
}

/// Whether defined function `c` writes no memory but its own allocas and
/// calls only functions that do the same (`depth` levels deep).
fn writes_only_own_stack(c: V, depth: u32) -> bool {
    if depth == 0 || is_declaration(c) {
        return false;
    }
    blocks(c)
        .into_iter()
        .flat_map(instructions)
        .all(|i| match opcode(i) {
            Some(LLVMOpcode::LLVMStore) => underlying_objects(operand(i, 1))
                .into_iter()
                .all(|o| opcode(o) == Some(LLVMOpcode::LLVMAlloca) && inst_fn(o) == c),
            Some(LLVMOpcode::LLVMCall) => match rules::classify(i) {
                CallKind::Rule(r) if r.masked.is_some() => super::memory::masked_writes(i)
                    .into_iter()
                    .flat_map(underlying_objects)
                    .all(|o| opcode(o) == Some(LLVMOpcode::LLVMAlloca) && inst_fn(o) == c),
                CallKind::Rule(_) => !call_args(i).into_iter().any(|a| is_ptr(type_of(a))),
                CallKind::Inactive => called_function(i)
                    .is_some_and(|f| is_intrinsic(f) || super::memory::fn_only_reads(f)),
                CallKind::Defined(d) => d != c && writes_only_own_stack(d, depth - 1),
                _ => false,
            },
            Some(
                LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg
                | LLVMOpcode::LLVMInvoke
                | LLVMOpcode::LLVMFence,
            ) => false,
            _ => true,
        })
}
