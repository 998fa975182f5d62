//! OpenMP (what clang `-fopenmp` emits, on the LLVM OpenMP runtime libomp).
//!
//! - `__kmpc_fork_call(loc, n, outlined, captured...)` runs `outlined` on a
//!   team of threads. Forward mode forks the outlined function's forward
//!   derivative with the captured pointers' shadows added. Reverse mode
//!   (`fork.rs`) forks the augmented sweep with a tape per thread, and in
//!   its reverse sweep forks the reverse of the outlined function on a team
//!   of the same size: each thread pops its own tape, so it replays exactly
//!   the iterations it ran (static or dynamic schedules alike, since the
//!   bounds each thread got are on its tape).
//! - Runtime queries and worksharing bookkeeping (`__kmpc_for_static_init_*`,
//!   `omp_get_thread_num`, ...) carry no derivative.
//! - Barriers run again at the mirrored point of the reverse sweep.
//! - Critical sections (and reductions, which `prepare` turns into critical
//!   sections, the way libomp's critical method does) take a turn number
//!   inside the lock; the reverse sweep runs them in the opposite order by
//!   waiting for its turn, so non-commutative updates (`*`, max, min) get
//!   exact adjoints.
//! - In functions that run inside a parallel region, adjoints accumulated
//!   into memory other threads may share are added atomically.
//! - Tasks, `ordered`, target offload and the like are compile errors.
pub mod compat;
pub mod deadslot;
pub mod fork;
pub mod owned;
pub mod slots;

use crate::analysis::activity::underlying_objects;
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::omp as ir;
use crate::ir::Builder;
use std::collections::HashSet;

pub use crate::rules::openmp::{openmp_call, OmpCall, TURN_TAKE};
const TURN_WAIT: &str = crate::rules::openmp::TURN_WAIT;
const TURN_RELEASE: &str = crate::rules::openmp::TURN_RELEASE;

/// Rewrite a fresh clone `f` (before any analysis) so that both modes can
/// differentiate it: unsupported constructs are errors; reductions become
/// critical sections (`__kmpc_reduce*` returns 1, the combining branch runs
/// under the reduction lock); for the reverse sweep, each critical section
/// takes a turn number before it ends.
pub fn prepare(f: V, reverse: bool) -> Result<()> {
    prepare_in(f, reverse, false)
}

/// [`prepare`] for a clone of a function that `nested` says may itself
/// run inside a parallel region (its regions are then nested ones).
pub fn prepare_in(f: V, reverse: bool, nested: bool) -> Result<()> {
    let mut calls = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if let Some(k) = is_call(i)
                .then(|| called_function(i))
                .flatten()
                .and_then(|c| openmp_call(&name(c)))
            {
                calls.push((i, k));
            }
        }
    }
    if calls.is_empty() {
        return Ok(());
    }
    fork::capture_floats_by_reference(f)?;
    slots::rewrite(f, nested)?;
    let m = module_of(f);
    let b = Builder::new(m);
    let ctx = b.ctx;
    let mut folded = false;
    for (i, k) in calls {
        match k {
            OmpCall::Unsupported(what) => {
                return Err(Error::unsupported(
                    i,
                    format!("OpenMP {what} is not supported in differentiated code"),
                ));
            }
            OmpCall::Reduce { .. } => {
                // (loc, gtid, nvars, size, data, reduce_func, lock)
                b.before(i);
                b.set_debug_loc_from(i);
                let (loc, gtid, lck) = (operand(i, 0), operand(i, 1), operand(i, 6));
                runtime_call(&b, "__kmpc_critical", &mut [loc, gtid, lck]);
                for u in users(i) {
                    if ir::is_switch(u) {
                        fold_switch(&b, u);
                    }
                }
                ir::replace_all_uses(i, const_i32(ctx, 1));
                ir::erase_instruction(i);
                folded = true;
            }
            OmpCall::EndReduce { nowait } => {
                b.before(i);
                b.set_debug_loc_from(i);
                let (loc, gtid, lck) = (operand(i, 0), operand(i, 1), operand(i, 2));
                let end = runtime_call(&b, "__kmpc_end_critical", &mut [loc, gtid, lck]);
                if !nowait {
                    runtime_call(&b, "__kmpc_barrier", &mut [loc, gtid]);
                }
                if reverse {
                    take_turn(&b, end, lck)?;
                }
                ir::erase_instruction(i);
            }
            OmpCall::EndCritical if reverse => {
                take_turn(&b, i, operand(i, 2))?;
            }
            _ => {}
        }
    }
    if folded {
        ir::delete_unreachable_blocks(f);
        promote_reduction_privates(f)?;
    }
    slots::mark(f);
    Ok(())
}

/// Once the reduction calls are gone, the list of the reduced variables'
/// private copies (`.omp.reduction.red_list`) is only stored into: drop
/// those stores, so that the private copies no longer escape, and promote
/// them to registers. Otherwise the private accumulator stays in memory
/// (its address escaped, and `sin`/`exp` may write memory), and the
/// reverse sweep loads and clears its adjoint in memory every iteration.
fn promote_reduction_privates(f: V) -> Result<()> {
    let Some(entry) = blocks(f).first().copied() else {
        return Ok(());
    };
    // The allocas first: the loop below erases stores, which may sit in
    // the entry block too (at -O0).
    let allocas: Vec<V> = instructions(entry)
        .into_iter()
        .filter(|i| opcode(*i) == Some(LLVMOpcode::LLVMAlloca))
        .collect();
    for a in allocas {
        let us = users(a);
        let only_stored = us.iter().all(|u| {
            is_lifetime_marker(*u)
                || (opcode(*u) == Some(LLVMOpcode::LLVMStore)
                    && operand(*u, 1) == a
                    && operand(*u, 0) != a)
        });
        if !only_stored {
            continue;
        }
        for u in us {
            if opcode(u) == Some(LLVMOpcode::LLVMStore) {
                ir::erase_instruction(u);
            }
        }
    }
    crate::ir::shim::run_function_pipeline(&mut [f], "mem2reg").map_err(Error::internal)
}

/// Replace a `switch` on the reduce call's result by a branch to case 1.
fn fold_switch(b: &Builder, sw: V) {
    let dest = ir::switch_target(sw, 1);
    b.before(sw);
    b.br(dest);
    ir::erase_instruction(sw);
}

/// Before `end` (an end of critical section on lock `lck`): take a turn.
fn take_turn(b: &Builder, end: V, lck: V) -> Result<()> {
    let ctr = turn_counter(b.module, lck).ok_or_else(|| {
        Error::unsupported(end, "critical section on a lock that is not a global")
    })?;
    b.before(end);
    b.set_debug_loc_from(end);
    let f = turn_fns(b.module).0;
    b.call_fn(f, &mut [ctr]);
    Ok(())
}

/// The turn counter of a critical section's lock (a global).
fn turn_counter(m: LLVMModuleRef, lck: V) -> Option<V> {
    let g = strip_casts(lck);
    is_global_var(g).then(|| ir::internal_i64_global(m, &format!("enzyme_rs.omp.turn.{}", name(g))))
}

/// Call a runtime function returning void with the argument types given.
fn runtime_call(b: &Builder, n: &str, args: &mut [V]) -> V {
    let mut tys: Vec<T> = args.iter().map(|a| type_of(*a)).collect();
    let fty = fn_type_of(void_type(b.ctx), &mut tys, false);
    let f = get_or_declare(b.module, n, fty);
    b.call(fty, f, args)
}

/// `(take, wait, release)`: the turn helpers.
///   take(ctr) -> t      (inside the lock) t = *ctr; *ctr = t + 1
///   wait(ctr, t)        spin (yielding) until *ctr == t + 1
///   release(ctr)        *ctr -= 1
fn turn_fns(m: LLVMModuleRef) -> (V, V, V) {
    if let (Some(a), Some(w), Some(r)) = (
        get_function(m, TURN_TAKE),
        get_function(m, TURN_WAIT),
        get_function(m, TURN_RELEASE),
    ) {
        return (a, w, r);
    }
    let b = Builder::new(m);
    let ctx = b.ctx;
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let one = const_i64(ctx, 1);
    let take = ir::add_internal_function(m, TURN_TAKE, fn_type_of(i64t, &mut [p], false));
    b.at_end(fork::append_block(take, "entry"));
    let ctr = params(take)[0];
    let t = ir::load_acquire(&b, i64t, ctr);
    ir::store_release(&b, b.add(t, one), ctr);
    b.ret(t);

    let wait = ir::add_internal_function(
        m,
        TURN_WAIT,
        fn_type_of(void_type(ctx), &mut [p, i64t], false),
    );
    let (ctr, t) = (params(wait)[0], params(wait)[1]);
    let entry = fork::append_block(wait, "entry");
    let spin = fork::append_block(wait, "spin");
    let done = fork::append_block(wait, "done");
    b.at_end(entry);
    let want = b.add(t, one);
    b.br(spin);
    b.at_end(spin);
    let v = ir::load_acquire(&b, i64t, ctr);
    let ok = b.icmp(LLVMIntPredicate::LLVMIntEQ, v, want);
    let yield_ = fork::append_block(wait, "yield");
    b.cond_br(ok, done, yield_);
    b.at_end(yield_);
    let yty = fn_type_of(i32_type(ctx), &mut [], false);
    let sy = get_or_declare(m, "sched_yield", yty);
    b.call(yty, sy, &mut []);
    b.br(spin);
    b.at_end(done);
    b.ret_void();

    let release =
        ir::add_internal_function(m, TURN_RELEASE, fn_type_of(void_type(ctx), &mut [p], false));
    b.at_end(fork::append_block(release, "entry"));
    let ctr = params(release)[0];
    let v = ir::load_acquire(&b, i64t, ctr);
    ir::store_release(&b, b.sub(v, one), ctr);
    b.ret_void();
    (take, wait, release)
}

/// What the reverse sweep emits for an OpenMP call `i` of the augmented
/// sweep, given its operands made available (`args`): a barrier again, the
/// wait for a critical section's turn, the release of the turn. `None`:
/// nothing to emit.
pub fn reverse_mirror(b: &Builder, i: V, args: &[V]) -> Option<V> {
    let k = called_function(i).and_then(|c| openmp_call(&name(c)))?;
    let m = b.module;
    match k {
        OmpCall::Barrier => Some(runtime_call(b, "__kmpc_barrier", &mut [args[0], args[1]])),
        OmpCall::TurnTake => {
            let wait = turn_fns(m).1;
            Some(b.call_fn(wait, &mut [args[0], args[1]]))
        }
        OmpCall::Critical => {
            let ctr = turn_counter(m, operand(i, 2))?;
            let release = turn_fns(m).2;
            Some(b.call_fn(release, &mut [ctr]))
        }
        _ => None,
    }
}

/// The operands `reverse_mirror` needs from the augmented sweep (the
/// reverse sweep makes them available first): for a barrier its location
/// and thread number; for a turn, the counter and the turn taken.
pub fn reverse_mirror_operands(i: V) -> Vec<V> {
    match called_function(i).and_then(|c| openmp_call(&name(c))) {
        Some(OmpCall::Barrier) => vec![operand(i, 0), operand(i, 1)],
        Some(OmpCall::TurnTake) => vec![operand(i, 0), i],
        _ => vec![],
    }
}

/// Whether function `f` may run inside a parallel region: it is an
/// outlined region of a `__kmpc_fork_call` in this module, or is called
/// (directly) from one. Its reverse sweep then adds adjoints into shared
/// memory atomically.
pub fn runs_in_parallel(m: LLVMModuleRef, f: V) -> bool {
    let Some(fork) = get_function(m, "__kmpc_fork_call") else {
        return false;
    };
    let mut work: Vec<V> = users(fork)
        .into_iter()
        .filter(|u| is_call(*u) && call_num_args(*u) > 2)
        .map(|u| strip_casts(operand(u, 2)))
        .filter(|g| is_function(*g))
        .collect();
    let mut seen: HashSet<V> = HashSet::new();
    while let Some(g) = work.pop() {
        if !seen.insert(g) || is_declaration(g) {
            continue;
        }
        if g == f {
            return true;
        }
        for bb in blocks(g) {
            for i in instructions(bb) {
                if is_call(i) {
                    if let Some(c) = called_function(i) {
                        work.push(c);
                    }
                }
            }
        }
    }
    false
}

/// Whether outlined region `f` only runs from code outside any parallel
/// region (so no other team runs it at the same time: what `owned.rs`
/// proves about its iterations holds for all threads touching its data).
pub fn top_level_region(m: LLVMModuleRef, f: V) -> bool {
    !ir::fn_has_string_attr(f, slots::NESTED)
        && users(f)
            .into_iter()
            .all(|u| is_instruction(u) && !runs_in_parallel(m, inst_fn(u)))
}

/// Whether adding into the shadow of memory at `p` (a pointer of a
/// function running in a parallel region) must be atomic: anything but
/// this thread's own locals may be shared.
pub fn needs_atomic(p: V) -> bool {
    !underlying_objects(p).into_iter().all(|o| {
        opcode(o) == Some(LLVMOpcode::LLVMAlloca)
            || (is_call(o)
                && called_function(o).is_some_and(|c| crate::rules::alloc_kind(&name(c)).is_some()))
    })
}

/// `*sp += d` atomically (per lane for vectors). False when the type has
/// no atomic add (the caller then reports an error).
pub fn atomic_accumulate(b: &Builder, sp: V, d: V) -> bool {
    let t = type_of(d);
    if is_fp_scalar(t) {
        ir::atomic_fadd_aligned(b, sp, d);
        return true;
    }
    if is_vector(t) && is_fp_scalar(elem_type(t)) {
        let et = elem_type(t);
        for k in 0..vector_size(t) {
            let idx = const_i64(b.ctx, k as i64);
            let p = b.gep(et, sp, &mut [idx]);
            let x = b.extract_element(d, idx);
            ir::atomic_fadd_aligned(b, p, x);
        }
        return true;
    }
    false
}

/// `omp atomic` updates of active memory (`atomicrmw fadd/fsub`), forward
/// mode: the same update of the shadow by the tangent, per lane. `i`'s
/// result must be unused (no `capture`).
pub fn forward_atomic(b: &Builder, i: V, shadows: &[V], tangents: &[V]) -> Result<()> {
    let sign = atomic_sign(i)?;
    b.after(i);
    for (sp, dv) in shadows.iter().zip(tangents) {
        let dv = if sign < 0.0 { b.fneg(*dv) } else { *dv };
        ir::atomic_fadd_aligned(b, *sp, dv);
    }
    Ok(())
}

/// The sign of an `atomicrmw fadd` (+1) / `fsub` (-1) whose result is
/// unused; anything else is an error.
pub fn atomic_sign(i: V) -> Result<f64> {
    let s = ir::atomic_fadd_sign(i).ok_or_else(|| {
        Error::unsupported(
            i,
            "atomic update of active memory other than += / -= (an atomic compare-exchange loop or exchange)",
        )
    })?;
    if has_uses(i) {
        return Err(Error::unsupported(
            i,
            "atomic capture (the old value read back) of active memory",
        ));
    }
    Ok(s)
}

/// Reverse of `*p (+|-)= v` (atomic): the adjoint of `v` is (minus) the
/// shadow's, read atomically; the shadow keeps its adjoint.
pub fn reverse_atomic(b: &Builder, i: V, sp: V) -> Result<V> {
    let sign = atomic_sign(i)?;
    let t = type_of(operand(i, 1));
    let d = ir::load_monotonic(b, t, sp);
    Ok(if sign < 0.0 { b.fneg(d) } else { d })
}
