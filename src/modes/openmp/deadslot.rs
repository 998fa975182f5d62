//! Region results nobody reads, dropped from the augmented sweep.
//!
//! A parallel region often computes a value only for the caller's return:
//! `s` of `#pragma omp for reduction(+ : s)` is a caller's local the
//! region stores into (each thread's partial, under the reduction's lock),
//! and the caller returns it. The augmented sweep of a gradient
//! (`__enzyme_autodiff`) does not need the primal result, but the region
//! runs on the OpenMP runtime, so LLVM cannot see that the stores are dead:
//! each thread still computes its partial (a whole loop over the data).
//!
//! Once the derivatives are inlined and cleaned up ([`drop_unread_slot_stores`],
//! after the driver's cleanup), for every `aug_fork` whose every call
//! passes, at one position, a local of the caller that nobody loads (its
//! other uses: lifetime markers, stores into it, and the tape keeping its
//! address for the reverse fork) the augmented region's stores into that
//! slot are erased, provided that what the region loads from the slot only
//! flows into those stores (the reduction's `s = s + partial`) and the
//! region's reverse never reads the slot. LLVM's own pipeline then deletes
//! the partial's loop. The critical section and its turn stay, so the
//! reverse still mirrors them.
use crate::ir::attrs;
use crate::ir::llvm::*;
use crate::ir::omp as ir;

/// Function attribute of an `aug_fork`: the name of its `rev_fork`.
pub const REV_FORK: &str = "enzyme-rs-rev-fork";
const AUG_FORK_PREFIX: &str = "enzyme_rs.omp.aug_fork.";

/// The region function a fork wrapper (`aug_fork` / `rev_fork`) runs:
/// `(inner, map)` where `map[q]` is the inner's parameter index for the
/// wrapper's parameter `q` (None when it is not passed straight through).
fn inner_of(fork_fn: V) -> Option<(V, Vec<Option<usize>>)> {
    let fork = super::fork::fork_calls(fork_fn);
    let [fork] = fork[..] else { return None };
    let wrapper = strip_casts(operand(fork, 2));
    if !is_function(wrapper) || is_declaration(wrapper) {
        return None;
    }
    let fargs = call_args(fork);
    let wps = params(wrapper);
    let inner_calls: Vec<V> = blocks(wrapper)
        .into_iter()
        .flat_map(instructions)
        .filter(|i| {
            is_call(*i)
                && called_function(*i)
                    .is_some_and(|c| !is_declaration(c) && call_num_args(*i) as usize == wps.len())
        })
        .collect();
    let [inner_call] = inner_calls[..] else {
        return None;
    };
    let inner = called_function(inner_call)?;
    let iargs = call_args(inner_call);
    let map = params(fork_fn)
        .into_iter()
        .map(|p| {
            // fork(loc, n, wrapper, args...) -> wrapper(gtid, btid, args...)
            let k = fargs.iter().skip(3).position(|a| *a == p)?;
            let wp = *wps.get(k + 2)?;
            iargs.iter().position(|a| *a == wp)
        })
        .collect();
    Some((inner, map))
}

/// Whether `a` (an argument at position `q` of call `c`) is a local of
/// the caller that nothing loads: its uses are lifetime markers, stores
/// into it, stores of its address (the tape), and `c` (once).
fn unread_local(a: V, c: V) -> bool {
    opcode(a) == Some(LLVMOpcode::LLVMAlloca)
        && call_args(c).iter().filter(|x| **x == a).count() == 1
        && users(a).into_iter().all(|u| {
            u == c
                || is_lifetime_marker(u)
                || (opcode(u) == Some(LLVMOpcode::LLVMStore) && !ir::is_volatile_or_atomic(u))
        })
}

/// Instructions through which a value loaded from the slot may flow and
/// still only reach the slot's stores (no side effect, no control flow).
fn pure_flow(u: V) -> bool {
    use LLVMOpcode::*;
    match opcode(u) {
        Some(
            LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFNeg | LLVMAdd | LLVMSub
            | LLVMMul | LLVMAnd | LLVMOr | LLVMXor | LLVMShl | LLVMLShr | LLVMAShr | LLVMFPExt
            | LLVMFPTrunc | LLVMBitCast | LLVMSIToFP | LLVMUIToFP | LLVMFPToSI | LLVMFPToUI
            | LLVMSExt | LLVMZExt | LLVMTrunc | LLVMPHI | LLVMSelect | LLVMFCmp | LLVMICmp
            | LLVMExtractValue | LLVMInsertValue | LLVMExtractElement | LLVMInsertElement
            | LLVMShuffleVector,
        ) => true,
        Some(LLVMCall) => called_function(u).is_some_and(|f| {
            let n = name(f);
            [
                "llvm.fmuladd.",
                "llvm.fma.",
                "llvm.maxnum.",
                "llvm.minnum.",
                "llvm.maximum.",
                "llvm.minimum.",
                "llvm.fabs.",
            ]
            .iter()
            .any(|p| n.starts_with(p))
        }),
        _ => false,
    }
}

/// The stores into slot parameter `p` when they are all the region does
/// with what it loads from `p` (see the module comment); None otherwise.
fn dead_stores(p: V) -> Option<Vec<V>> {
    let (mut stores, mut work) = (Vec::new(), Vec::new());
    for u in users(p) {
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) if !ir::is_volatile_or_atomic(u) => work.push(u),
            Some(LLVMOpcode::LLVMStore)
                if operand(u, 1) == p && operand(u, 0) != p && !ir::is_volatile_or_atomic(u) =>
            {
                stores.push(u)
            }
            _ => return None,
        }
    }
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in users(v) {
            if stores.contains(&u) && operand(u, 1) != v {
                continue;
            }
            if !pure_flow(u) {
                return None;
            }
            work.push(u);
        }
    }
    (!stores.is_empty()).then_some(stores)
}

/// See the module comment. Returns whether anything changed.
pub fn drop_unread_slot_stores(m: LLVMModuleRef) -> bool {
    let mut cleaned = Vec::new();
    for g in functions(m) {
        if !name(g).starts_with(AUG_FORK_PREFIX) || is_declaration(g) {
            continue;
        }
        let calls = users(g);
        if calls.is_empty()
            || !calls
                .iter()
                .all(|c| is_call(*c) && called_function(*c) == Some(g))
        {
            continue;
        }
        let Some(rev_g) = attrs::fn_string_attr(g, REV_FORK).and_then(|n| get_function(m, &n))
        else {
            continue;
        };
        let (Some((aug, amap)), Some((rev, rmap))) = (inner_of(g), inner_of(rev_g)) else {
            continue;
        };
        // Each inner region runs only from its fork wrapper.
        if users(aug).len() != 1 || params(rev_g).len() != params(g).len() {
            continue;
        }
        for q in 1..params(g).len().saturating_sub(1) {
            let (Some(ka), Some(kr)) = (amap[q], rmap[q]) else {
                continue;
            };
            let unread = calls.iter().all(|c| unread_local(call_args(*c)[q], *c));
            if !unread || has_uses(params(rev)[kr]) {
                continue;
            }
            let p = params(aug)[ka];
            if !super::slots::is_private_local(p) {
                continue;
            }
            if let Some(stores) = dead_stores(p) {
                log::debug!(
                    "enzyme-rs: {}: {} store(s) into an unread slot dropped",
                    name(aug),
                    stores.len()
                );
                for s in stores {
                    ir::erase_instruction(s);
                }
                cleaned.push(aug);
            }
        }
    }
    // The optimizer pipeline this runs before deletes no dead loops: the
    // partials' loops go here.
    cleaned.dedup();
    if let Err(e) = crate::ir::shim::run_function_pipeline(&mut cleaned, DEAD_LOOPS) {
        log::warn!("enzyme-rs: cleanup of unread region results failed: {e}");
    }
    !cleaned.is_empty()
}

const DEAD_LOOPS: &str =
    "adce,simplifycfg,loop-simplify,lcssa,loop(indvars,loop-deletion),simplifycfg,instcombine";
