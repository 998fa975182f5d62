//! Captured slots of a parallel region.
//!
//! clang captures a region's shared variables by reference: the outlined
//! function gets the address of the caller's local (`x.addr`, `c.addr`,
//! `s`) and loads the pointer or scalar from it. Seen from the outlined
//! function alone, a pointer loaded from such a slot may point anywhere,
//! so nothing read through it could be recomputed in the reverse sweep and
//! every adjoint would be added atomically. Before any analysis, each fork
//! of a function being differentiated gets its own clone of the outlined
//! function in which, for every captured local of the caller that nothing
//! but this fork can reach (its uses in the caller: loads, stores, lifetime
//! markers, the fork) and that the region only loads from or stores to:
//!
//! - a slot only read, and only for pointers, is passed by value: the
//!   caller loads it right before the fork (nobody can write it during the
//!   region) and the clone uses the parameter where it loaded it;
//! - a slot only read otherwise (a scalar like `c`) is loaded once at the
//!   clone's entry;
//! - every such slot (read or written) is marked [`FRAME_SLOT`]: memory no
//!   other pointer of the region can reach, so the memory analysis
//!   (`reverse::memory`) knows it aliases nothing else.
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::omp as ir;
use crate::ir::shim;
use crate::ir::Builder;

/// Parameter attribute: the parameter points to a caller's local that only
/// this parameter reaches during the region.
pub const FRAME_SLOT: &str = "enzyme-rs-frame-slot";
/// Parameter attribute: the caller's side of [`FRAME_SLOT`] holds (the
/// local reaches the region only through this parameter); `mark` checks
/// the region's side once reductions are folded.
/// Parameter attribute: the pointer passed by value is a `restrict`
/// (noalias) parameter of the caller: memory the region reaches through it
/// is reached through nothing else. Only the memory analysis reads it
/// (LLVM's own `noalias` would also claim other threads never touch it).
pub const RESTRICT: &str = "enzyme-rs-restrict";
const PRIVATE_LOCAL: &str = "enzyme-rs-private-local";

#[derive(Clone, Copy, PartialEq)]
enum Plan {
    Keep,
    ByValue,
    Hoist,
    Slot,
}

/// Whether argument `a` of its function is a [`FRAME_SLOT`].
pub fn is_frame_slot(a: V) -> bool {
    let f = crate::ir::values::param_parent(a);
    let k = params(f).iter().position(|p| *p == a);
    k.is_some_and(|k| ir::param_has_string_attr(f, k as u32, FRAME_SLOT))
}

/// Whether argument `a` of its function is a caller's local private to
/// the region's fork (marked [`PRIVATE_LOCAL`]).
pub fn is_private_local(a: V) -> bool {
    let f = crate::ir::values::param_parent(a);
    let k = params(f).iter().position(|p| *p == a);
    k.is_some_and(|k| ir::param_has_string_attr(f, k as u32, PRIVATE_LOCAL))
}

/// Rewrite the forks of `f` (a fresh clone) as the module comment says.
/// Function attribute of a clone whose caller may itself run in a
/// parallel region (a nested region).
pub const NESTED: &str = "enzyme-rs-nested-region";

pub fn rewrite(f: V, nested: bool) -> Result<()> {
    let forks = super::fork::fork_calls(f);
    for i in forks {
        if let Some(nf) = rewrite_fork(i) {
            if nested {
                crate::ir::link::add_string_fn_attr(nf, NESTED, "");
            }
        }
    }
    Ok(())
}

/// `(loads, stores)` of `p` used only as their address; None if `p` has
/// any other use.
fn accesses(p: V) -> Option<(Vec<V>, Vec<V>)> {
    let (mut loads, mut stores) = (Vec::new(), Vec::new());
    for u in users(p) {
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) if !ir::is_volatile_or_atomic(u) => loads.push(u),
            Some(LLVMOpcode::LLVMStore)
                if operand(u, 1) == p && operand(u, 0) != p && !ir::is_volatile_or_atomic(u) =>
            {
                stores.push(u)
            }
            _ => return None,
        }
    }
    Some((loads, stores))
}

/// Whether the caller's alloca `a` is reached by nothing but fork `i`:
/// its other uses are loads, stores into it and lifetime markers.
fn private_to_fork(a: V, i: V) -> bool {
    if opcode(a) != Some(LLVMOpcode::LLVMAlloca) {
        return false;
    }
    users(a).into_iter().all(|u| {
        u == i
            || (opcode(u) == Some(LLVMOpcode::LLVMLoad))
            || (opcode(u) == Some(LLVMOpcode::LLVMStore) && operand(u, 0) != a)
            || is_lifetime_marker(u)
    }) && call_args(i).iter().filter(|x| **x == a).count() == 1
}

/// The value of slot `a` at fork `i` when its one store is in the entry
/// block before `i` (a parameter spilled to its slot, at -O0 too).
fn stored_before(a: V, i: V) -> Option<V> {
    let stores: Vec<V> = users(a)
        .into_iter()
        .filter(|u| opcode(*u) == Some(LLVMOpcode::LLVMStore))
        .collect();
    let [st] = stores[..] else { return None };
    let f = inst_fn(i);
    let entry = blocks(f)[0];
    if inst_block(st) != entry {
        return None;
    }
    if inst_block(i) == entry {
        let insts = instructions(entry);
        let (ps, pi) = (
            insts.iter().position(|x| *x == st)?,
            insts.iter().position(|x| *x == i)?,
        );
        if ps > pi {
            return None;
        }
    }
    let v = operand(st, 0);
    (is_argument(v) || is_constant(v)).then_some(v)
}

/// Whether captured value `k` of fork `i` (once rewritten) is a caller's
/// local holding only inactive values while the region runs: nothing but
/// the fork reaches it, the region only loads it, and every store into it
/// in the caller stores a value `varied` says carries no derivative (a
/// constant scalar parameter like `c` in `y[i] = c * x[i]`). Its adjoint
/// would only be accumulated and thrown away.
pub fn inactive_slot(i: V, k: usize, varied: &dyn Fn(V) -> bool) -> bool {
    let a = call_args(i)[3 + k];
    let outlined = strip_casts(operand(i, 2));
    if !is_ptr(type_of(a))
        || !is_function(outlined)
        || is_declaration(outlined)
        || !private_to_fork(a, i)
    {
        return false;
    }
    let Some(p) = params(outlined).get(k + 2).copied() else {
        return false;
    };
    let Some((_, stores)) = accesses(p) else {
        return false;
    };
    stores.is_empty()
        && users(a)
            .into_iter()
            .filter(|u| opcode(*u) == Some(LLVMOpcode::LLVMStore))
            .all(|s| !varied(operand(s, 0)))
}

fn restrict_param(v: V) -> bool {
    if !is_argument(v) {
        return false;
    }
    let f = crate::ir::values::param_parent(v);
    let k = params(f).iter().position(|p| *p == v).unwrap_or(0) as u32;
    crate::ir::globals::param_has_attr(f, k, "noalias")
}

/// Whether argument `a` of its function is marked [`RESTRICT`].
pub fn is_restrict(a: V) -> bool {
    let f = crate::ir::values::param_parent(a);
    let k = params(f).iter().position(|p| *p == a);
    k.is_some_and(|k| ir::param_has_string_attr(f, k as u32, RESTRICT))
}

fn plan_for(i: V, outlined: V, k: usize) -> Plan {
    let a = call_args(i)[3 + k];
    if !is_ptr(type_of(a)) || !private_to_fork(a, i) {
        return Plan::Keep;
    }
    let Some((loads, stores)) = accesses(params(outlined)[k + 2]) else {
        return Plan::Slot;
    };
    if !stores.is_empty() || loads.is_empty() {
        return Plan::Slot;
    }
    if loads.iter().all(|l| is_ptr(type_of(*l))) {
        Plan::ByValue
    } else {
        Plan::Hoist
    }
}

fn rewrite_fork(i: V) -> Option<V> {
    let outlined = strip_casts(operand(i, 2));
    if !is_function(outlined) || is_declaration(outlined) {
        return None;
    }
    let ncap = call_num_args(i) as usize - 3;
    if params(outlined).len() != ncap + 2 {
        return None;
    }
    let plans: Vec<Plan> = (0..ncap).map(|k| plan_for(i, outlined, k)).collect();
    if plans.iter().all(|p| *p == Plan::Keep) {
        return None;
    }
    let m = module_of(outlined);
    let nf = ir::add_internal_function(
        m,
        &format!("enzyme_rs.omp.slots.{}", name(outlined)),
        crate::ir::globals::global_type(outlined),
    );
    let mut map = params(nf);
    drop(shim::clone_into(nf, outlined, &mut map));
    let b = Builder::new(m);
    let mut args = call_args(i)[3..].to_vec();
    for (k, plan) in plans.iter().enumerate() {
        let p = params(nf)[k + 2];
        let idx = (k + 2) as u32;
        match plan {
            Plan::Keep => continue,
            Plan::ByValue => {
                b.before(i);
                b.set_debug_loc_from(i);
                let v = stored_before(args[k], i);
                if v.is_some_and(restrict_param) {
                    ir::add_param_string_attr(nf, idx, RESTRICT);
                }
                args[k] = v.unwrap_or_else(|| b.load(ptr_type(b.ctx), args[k]));
                for l in users(p) {
                    ir::replace_all_uses(l, p);
                    ir::erase_instruction(l);
                }
                ir::clear_pointer_param_attrs(nf, idx);
                continue;
            }
            Plan::Hoist => {
                let mut first: Vec<(T, V)> = Vec::new();
                for l in users(p) {
                    let t = type_of(l);
                    let v = match first.iter().find(|(ft, _)| *ft == t) {
                        Some((_, v)) => *v,
                        None => {
                            b.at_entry_allocas(nf);
                            b.clear_debug_loc();
                            let v = b.load(t, p);
                            first.push((t, v));
                            v
                        }
                    };
                    ir::replace_all_uses(l, v);
                    ir::erase_instruction(l);
                }
            }
            Plan::Slot => {
                ir::add_param_string_attr(nf, idx, PRIVATE_LOCAL);
                continue;
            }
        }
        ir::add_param_string_attr(nf, idx, FRAME_SLOT);
    }
    let ctx = b.ctx;
    b.before(i);
    b.set_debug_loc_from(i);
    let pt = ptr_type(ctx);
    let fty = fn_type_of(void_type(ctx), &mut [pt, i32_type(ctx), pt], true);
    let fork = get_or_declare(m, "__kmpc_fork_call", fty);
    let mut all = vec![operand(i, 0), operand(i, 1), nf];
    all.extend(args);
    b.call(fty, fork, &mut all);
    ir::erase_instruction(i);
    Some(nf)
}

/// In `f` (a region's outlined clone, once `prepare` folded its
/// reductions): mark [`FRAME_SLOT`] the parameters whose caller's side
/// holds and that the region only accesses (loads, stores, atomic
/// updates), or stores only into a local nothing reads (the reduction
/// list of a folded reduction).
pub fn mark(f: V) {
    for (k, p) in params(f).into_iter().enumerate() {
        let k = k as u32;
        if !ir::param_has_string_attr(f, k, PRIVATE_LOCAL)
            || ir::param_has_string_attr(f, k, FRAME_SLOT)
        {
            continue;
        }
        if users(p).into_iter().all(|u| only_accesses(u, p)) {
            ir::add_param_string_attr(f, k, FRAME_SLOT);
        }
    }
}

fn only_accesses(u: V, p: V) -> bool {
    match opcode(u) {
        Some(LLVMOpcode::LLVMLoad) => true,
        Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
            operand(u, 0) == p && operands(u)[1..].iter().all(|o| *o != p)
        }
        Some(LLVMOpcode::LLVMStore) if operand(u, 1) == p => operand(u, 0) != p,
        Some(LLVMOpcode::LLVMStore) => {
            let t = strip_casts(operand(u, 1));
            let base = if opcode(t) == Some(LLVMOpcode::LLVMGetElementPtr) {
                operand(t, 0)
            } else {
                t
            };
            dead_local(base)
        }
        _ => false,
    }
}

/// A local only stored into (through GEPs) and never read.
fn dead_local(a: V) -> bool {
    opcode(a) == Some(LLVMOpcode::LLVMAlloca)
        && users(a).into_iter().all(|u| {
            is_lifetime_marker(u)
                || (opcode(u) == Some(LLVMOpcode::LLVMStore)
                    && operand(u, 1) == a
                    && operand(u, 0) != a)
                || (opcode(u) == Some(LLVMOpcode::LLVMGetElementPtr)
                    && operand(u, 0) == a
                    && users(u).into_iter().all(|w| {
                        opcode(w) == Some(LLVMOpcode::LLVMStore)
                            && operand(w, 1) == u
                            && operand(w, 0) != u
                    }))
        })
}
