//! Taped decisions in the reverse sweep: the adjoint of a running
//! selection (`m = x[i] > m ? x[i] : m`, a max/min/argmax loop) sends the
//! carried adjoint `d` to `x[i]` only on the iterations whose decision
//! picked `x[i]`. Written plainly that is `dx[i] += select(c, d, 0)` on
//! every iteration: a read-modify-write of the whole gradient for a value
//! almost always zero. After the cleanup has promoted the adjoints, each
//! such add whose decision also steers a loop-carried adjoint
//! (`d' = select(c, 0, d)`, the signature of a running selection) goes
//! under `if (c)`: the iterations that did not pick `x[i]` touch no memory.
//! A decision that flips often (a ReLU's) keeps its branch-free select.
//!
//! Exact: when the decision is false the add would store `dx[i] + 0`,
//! which is `dx[i]` (up to the sign of a zero).
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::Builder;

/// One add to guard: the store, the load and add it consumes, the
/// decision and whether the add happens when the decision is false.
struct Site {
    load: V,
    add: V,
    store: V,
    sel_pos: u32,
    value: V,
    cond: V,
    when_false: bool,
}

/// Put each selection adjoint add of `f` under a branch on its decision.
/// Returns how many were guarded.
pub fn guard_selection_adds(f: V) -> usize {
    let mut sites = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if let Some(s) = site(i) {
                sites.push(s);
            }
        }
    }
    let n = sites.len();
    let b = Builder::for_function(f);
    for s in sites {
        let cond = if s.when_false {
            b.before(s.store);
            let ctx = b.ctx;
            b.icmp(LLVMIntPredicate::LLVMIntEQ, s.cond, const_i1(ctx, false))
        } else {
            s.cond
        };
        set_operand(s.add, s.sel_pos, s.value);
        shim::guard_insts(cond, s.store, &[s.load, s.add, s.store]);
    }
    if n > 0 {
        log::debug!(
            "enzyme-rs: {}: {n} selection adjoint add(s) guarded",
            name(f)
        );
    }
    n
}

/// `store (fadd (load p), select(c, v, 0)), p` (either operand order, the
/// zero on either side) where `v` is a loop-carried adjoint that the same
/// decision also steers, and nothing between the load and the store
/// writes memory.
fn site(st: V) -> Option<Site> {
    if opcode(st) != Some(LLVMOpcode::LLVMStore) || crate::ir::omp::is_volatile_or_atomic(st) {
        return None;
    }
    let (val, ptr) = (operand(st, 0), operand(st, 1));
    if !is_fp_scalar(type_of(val)) || opcode(val) != Some(LLVMOpcode::LLVMFAdd) {
        return None;
    }
    let bb = inst_block(st);
    if inst_block(val) != bb || users(val).len() != 1 {
        return None;
    }
    let (load, sel_pos) = [0u32, 1]
        .into_iter()
        .map(|k| (operand(val, k), 1 - k))
        .find(|(l, _)| {
            opcode(*l) == Some(LLVMOpcode::LLVMLoad)
                && inst_block(*l) == bb
                && operand(*l, 0) == ptr
                && users(*l).len() == 1
                && !crate::ir::omp::is_volatile_or_atomic(*l)
        })?;
    let sel = operand(val, sel_pos);
    if opcode(sel) != Some(LLVMOpcode::LLVMSelect) {
        return None;
    }
    let (c, t, e) = (operand(sel, 0), operand(sel, 1), operand(sel, 2));
    if is_vector(type_of(c)) {
        return None;
    }
    let (value, when_false) = if is_zero(e) {
        (t, false)
    } else if is_zero(t) {
        (e, true)
    } else {
        return None;
    };
    if !is_running_selection(value, c) {
        return None;
    }
    // Nothing between the load and the store may write memory: the load
    // moves down to the store.
    let insts = instructions(bb);
    let (a, z) = (
        insts.iter().position(|i| *i == load)?,
        insts.iter().position(|i| *i == st)?,
    );
    if insts[a + 1..z].iter().any(|i| may_write(*i)) {
        return None;
    }
    Some(Site {
        load,
        add: val,
        store: st,
        sel_pos,
        value,
        cond: c,
        when_false,
    })
}

fn is_zero(v: V) -> bool {
    const_real_value(v) == Some(0.0)
}

/// `v` is a phi carrying, on some edge, the other side of decision `c`:
/// `select(c, 0, v)` when the add takes `v` on `c`, or `select(c, v, 0)`
/// when it takes it on `!c`.
fn is_running_selection(v: V, c: V) -> bool {
    if opcode(v) != Some(LLVMOpcode::LLVMPHI) {
        return false;
    }
    incoming(v).into_iter().any(|(x, _)| {
        opcode(x) == Some(LLVMOpcode::LLVMSelect)
            && operand(x, 0) == c
            && ((operand(x, 2) == v && is_zero(operand(x, 1)))
                || (operand(x, 1) == v && is_zero(operand(x, 2))))
    })
}

fn may_write(i: V) -> bool {
    matches!(
        opcode(i),
        Some(
            LLVMOpcode::LLVMStore
                | LLVMOpcode::LLVMCall
                | LLVMOpcode::LLVMInvoke
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg
                | LLVMOpcode::LLVMFence
        )
    )
}
