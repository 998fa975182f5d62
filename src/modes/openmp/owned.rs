//! Which shared memory one thread owns in a parallel region, so its
//! adjoints need no atomic add.
//!
//! In a region with one worksharing loop (`#pragma omp for`, static
//! schedule without chunks: one loop, not nested in another), iteration i
//! runs on exactly one thread. When every non-local float access of the
//! function is `base[i]` for that loop's own counter i (or reads a captured
//! variable directly), element i of any array is only ever touched by the
//! thread that ran iteration i, so its adjoint is that thread's alone.
//! Anything else (offsets like `x[i + 1]`, other loops, calls receiving
//! shared pointers) leaves every shared adjoint atomic.
use crate::ir::llvm::*;

/// The counter of the one worksharing loop whose iterations own their
/// elements (see the module comment), if the function `f` qualifies.
pub fn owned_counter(f: V) -> Option<V> {
    let mut inits = Vec::new();
    let mut accesses = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMCall) => {
                    let n = called_function(i).map(name).unwrap_or_default();
                    if n.starts_with("__kmpc_for_static_init")
                        || n.starts_with("__kmpc_dispatch_init")
                        || n.starts_with("__kmpc_distribute")
                    {
                        inits.push(i);
                    } else if !is_harmless_call(i, &n)
                        && call_args(i)
                            .iter()
                            .any(|a| is_ptr(type_of(*a)) && shared(*a))
                    {
                        return None;
                    }
                }
                Some(LLVMOpcode::LLVMLoad) if contains_fp(type_of(i)) => {
                    accesses.push(operand(i, 0))
                }
                Some(LLVMOpcode::LLVMStore) if contains_fp(type_of(operand(i, 0))) => {
                    accesses.push(operand(i, 1))
                }
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    accesses.push(operand(i, 0))
                }
                _ => {}
            }
        }
    }
    // One unchunked static worksharing loop.
    let [init] = inits[..] else { return None };
    let n = called_function(init).map(name).unwrap_or_default();
    if !n.starts_with("__kmpc_for_static_init") || const_int_value(operand(init, 2)) != Some(34) {
        return None;
    }
    let lower = operand(init, 4);
    let loops = crate::ir::shim::Loops::new(f);
    let counter = counter_phi(f, lower, &loops)?;
    for p in accesses {
        if !shared(p) || is_argument(p) {
            continue;
        }
        if element_index(p) != Some(counter) {
            return None;
        }
    }
    Some(counter)
}

/// Whether the element `p` points to belongs to iteration `counter`.
pub fn owned_by(p: V, counter: V) -> bool {
    element_index(p) == Some(counter)
}

/// `base[i]` (one index) -> i, through integer extensions.
fn element_index(p: V) -> Option<V> {
    if opcode(p) != Some(LLVMOpcode::LLVMGetElementPtr) || num_operands(p) != 2 {
        return None;
    }
    let mut idx = operand(p, 1);
    while matches!(
        opcode(idx),
        Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt)
    ) {
        idx = operand(idx, 0);
    }
    Some(idx)
}

/// The loop counter starting at the value loaded from `lower` (the bound
/// static_init wrote) and stepping by one, in a loop nested in no other.
fn counter_phi(f: V, lower: V, loops: &crate::ir::shim::Loops) -> Option<V> {
    for bb in blocks(f) {
        if loops.header(bb) != Some(bb) || loops.depth(bb) != 1 {
            continue;
        }
        for phi in instructions(bb) {
            if opcode(phi) != Some(LLVMOpcode::LLVMPHI) {
                break;
            }
            let ins = operands(phi);
            if ins.len() != 2 {
                continue;
            }
            let starts_at_lower = ins.iter().any(|v| {
                opcode(*v) == Some(LLVMOpcode::LLVMLoad) && operand(*v, 0) == lower
                    || matches!(
                        opcode(*v),
                        Some(LLVMOpcode::LLVMSExt | LLVMOpcode::LLVMZExt)
                    ) && opcode(operand(*v, 0)) == Some(LLVMOpcode::LLVMLoad)
                        && operand(operand(*v, 0), 0) == lower
            });
            let steps_by_one = ins.iter().any(|v| {
                opcode(*v) == Some(LLVMOpcode::LLVMAdd)
                    && operand(*v, 0) == phi
                    && const_int_value(operand(*v, 1)) == Some(1)
            });
            if starts_at_lower && steps_by_one {
                return Some(phi);
            }
        }
    }
    None
}

/// Memory other threads may see: not this function's own allocations.
fn shared(p: V) -> bool {
    super::needs_atomic(p)
}

/// Calls that cannot add into shared adjoints.
fn is_harmless_call(i: V, n: &str) -> bool {
    n.starts_with("llvm.lifetime.")
        || n.starts_with("llvm.dbg.")
        || crate::rules::openmp::openmp_call(n).is_some()
        || n.starts_with("enzyme_rs.")
        || matches!(
            crate::rules::classify::classify(i),
            crate::rules::classify::CallKind::Inactive | crate::rules::classify::CallKind::Rule(_)
        )
}
