//! The re-run's cost model (see `rerun.rs`): re-run a loop only when
//! taping it would cost too much memory.
//!
//! The trial's tape for one outermost loop is, per block of the loop,
//! its bytes (`packed::bytes`) times the trip counts of the inner loops
//! holding it, all times the outer loop's trip count. Each trip count is
//! what LLVM's scalar evolution says in a copy of the function: a
//! constant, an expression of values the function has on entry
//! (arguments, and loads from its entry block that nothing before them
//! in that block may change: [`Trips::Run`]), or unknown (an inner loop
//! whose bounds move with the outer one: [`GUESS`] iterations).
//!
//! The total is compared with the budget (`ENZYME_RS_RERUN_BUDGET`,
//! default 32 MiB): taping a loop that fits costs no time, re-running it
//! costs the loop's forward work once or twice more (LSTM: 2.7x the
//! taped gradient's time). When the total is known at compile time the
//! choice is made then; when it needs run-time values, both pairs are
//! kept and a *dispatch pair* evaluates the total on entry, calls the
//! taped or the re-run pair, and pushes its choice (8 bytes) on the tape
//! for its reverse sweep. An outer trip count unknown on entry leaves
//! the old rule (re-run when the tape per iteration is large against the
//! loop's state).
use super::aug::Aug;
use super::{Act, AugRet, Key, Pair};
use crate::analysis::activity::underlying_objects;
use crate::diag::{Error, Result};
use crate::ir::link::is_intrinsic;
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::Builder;
use crate::rules::{self, AllocKind, CallKind};
use std::collections::HashMap;

/// On a dispatch pair's functions: the driver leaves their calls out of
/// line at every site (inlined, a copy of the choice and both calls would
/// land at each; the pairs they call are out of line anyway).
pub const DISPATCH: &str = "enzyme_rs_rerun_dispatch";

/// Iterations assumed for an inner loop whose trip count is unknown.
pub const GUESS: u64 = 16;

/// A loop's trip count, as the cost model knows it.
#[derive(Clone, Copy, Debug)]
pub enum Trips {
    Const(u64),
    /// `backedge-taken count` (an i64 in the copy's preheader), an
    /// expression of values the function has on entry.
    Run(V),
    Unknown,
}

impl Trips {
    fn guess(self) -> u64 {
        match self {
            Trips::Const(n) => n,
            _ => GUESS,
        }
    }
}

/// The tape of one outermost loop of the trial.
pub struct LoopTape {
    pub outer: Trips,
    /// Per block keeping tape: its bytes, the trip counts of the inner
    /// loops around it.
    pub terms: Vec<(u64, Vec<Trips>)>,
    /// The expressions expanded in the copy ([`LoopTape::release`]).
    expanded: Vec<V>,
}

impl LoopTape {
    /// Bytes per outer iteration, unknown inner loops at [`GUESS`] and
    /// run-time ones at [`GUESS`] too.
    pub fn per_iteration_guess(&self) -> u64 {
        self.terms
            .iter()
            .map(|(b, ts)| ts.iter().fold(*b, |acc, t| acc.saturating_mul(t.guess())))
            .sum()
    }

    fn needs_run_time(&self) -> bool {
        let run = |t: &Trips| matches!(t, Trips::Run(_));
        run(&self.outer) || self.terms.iter().any(|(_, ts)| ts.iter().any(run))
    }

    /// The total bytes, when known at compile time (unknown inner loops
    /// at [`GUESS`]).
    pub fn constant_total(&self) -> Option<u64> {
        match self.outer {
            Trips::Const(n) if !self.needs_run_time() => {
                Some(n.saturating_mul(self.per_iteration_guess()))
            }
            _ => None,
        }
    }

    /// Whether the total can be computed on entry (the outer trip count
    /// is known then).
    pub fn at_run_time(&self) -> bool {
        matches!(self.outer, Trips::Run(_))
            || (matches!(self.outer, Trips::Const(_)) && self.needs_run_time())
    }

    /// The formula, for remarks: `trips x (b1 + b2 x n2 + ...)`.
    pub fn formula(&self) -> String {
        let t = |t: &Trips| match t {
            Trips::Const(n) => n.to_string(),
            Trips::Run(_) => "n".into(),
            Trips::Unknown => format!("{GUESS}?"),
        };
        let terms: Vec<String> = self
            .terms
            .iter()
            .map(|(b, ts)| {
                let mut s = format!("{b}");
                for x in ts {
                    s += &format!(" x {}", t(x));
                }
                s
            })
            .collect();
        format!("{} x ({}) bytes", t(&self.outer), terms.join(" + "))
    }
}

/// The loop headers of `f` in block order.
fn headers(f: V, header_of: impl Fn(BB) -> Option<BB>) -> Vec<BB> {
    blocks(f)
        .into_iter()
        .filter(|b| header_of(*b) == Some(*b))
        .collect()
}

/// The tape model of the trial `a`'s outermost loop that is `top` in
/// `copy` (a copy of the same function, loops in simplified form).
/// None when the loops of the two do not match one to one.
pub fn model(a: &Aug, copy: V, loops: &shim::Loops, top: BB) -> Option<LoopTape> {
    let ah = headers(a.func, |b| a.loops.header(b));
    let ch = headers(copy, |b| loops.header(b));
    if ah.len() != ch.len()
        || ah
            .iter()
            .zip(&ch)
            .any(|(x, y)| a.loops.depth(*x) != loops.depth(*y))
    {
        return None;
    }
    let to_copy: HashMap<BB, BB> = ah.iter().copied().zip(ch.iter().copied()).collect();
    let outer = *ah.iter().zip(&ch).find(|(_, c)| **c == top)?.0;
    let scev = shim::Scev::new(copy);
    let entry = blocks(copy)[0];
    let mut trips: HashMap<BB, Trips> = HashMap::new();
    let mut expanded = Vec::new();
    let mut trips_of = |h: BB| {
        *trips
            .entry(h)
            .or_insert_with(|| trip_count(&scev, to_copy[&h], entry, &mut expanded))
    };
    let mut terms = Vec::new();
    for bb in blocks(a.func) {
        if !a.loops.contains(outer, bb) {
            continue;
        }
        let bytes = super::packed::bytes(a, bb);
        if bytes == 0 {
            continue;
        }
        let mut ts = Vec::new();
        let mut h = a.loops.header(bb)?;
        while h != outer {
            ts.push(trips_of(h));
            h = a.loops.parent_header(h)?;
        }
        terms.push((bytes, ts));
    }
    let outer = trips_of(outer);
    Some(LoopTape {
        outer,
        terms,
        expanded,
    })
}

fn trip_count(scev: &shim::Scev, h: BB, entry: BB, expanded: &mut Vec<V>) -> Trips {
    let Some(btc) = scev.expand_exit_count(h) else {
        return Trips::Unknown;
    };
    if let Some(c) = const_int_value(btc) {
        return Trips::Const((c as u64).saturating_add(1));
    }
    expanded.push(btc);
    if clonable(btc, entry, 24) {
        Trips::Run(btc)
    } else {
        Trips::Unknown
    }
}

impl LoopTape {
    /// Erase the trip-count expressions expanded in the copy, and the
    /// pure arithmetic feeding only them (after [`begin`] copied them,
    /// or when they are not used).
    pub fn release(&self) {
        use LLVMOpcode::*;
        let mut set: Vec<V> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut work = self.expanded.clone();
        while let Some(v) = work.pop() {
            let pure = is_instruction(v)
                && !matches!(
                    opcode(v),
                    Some(LLVMLoad | LLVMCall | LLVMStore | LLVMPHI | LLVMAlloca) | None
                );
            if pure && seen.insert(v) {
                set.push(v);
                work.extend(operands(v));
            }
        }
        while let Some(k) = set.iter().position(|v| users(*v).is_empty()) {
            erase(set.swap_remove(k));
        }
    }
}

/// Whether `v` can be computed again on entry to its function: built
/// from arguments, constants, pure integer and address arithmetic, and
/// loads of its entry block that nothing before them there may change.
fn clonable(v: V, entry: BB, depth: u32) -> bool {
    if is_argument(v) || is_constant(v) {
        return true;
    }
    if !is_instruction(v) || depth == 0 {
        return false;
    }
    use LLVMOpcode::*;
    let ok = match opcode(v) {
        Some(
            LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
            | LLVMXor | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMICmp | LLVMSelect | LLVMGetElementPtr
            | LLVMPtrToInt | LLVMFreeze,
        ) => true,
        Some(LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem) => {
            const_int_value(operand(v, 1)).is_some_and(|c| c != 0 && c != -1)
        }
        Some(LLVMLoad) => inst_block(v) == entry && unchanged_before(v, entry),
        Some(LLVMCall) => called_function(v).is_some_and(|c| {
            let n = name(c);
            ["llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin."]
                .iter()
                .any(|p| n.starts_with(p))
        }),
        _ => false,
    };
    ok && operands(v)
        .into_iter()
        .all(|o| is_function(o) || clonable(o, entry, depth - 1))
}

/// Whether nothing before load `ld` in the entry block may write memory
/// other than the function's own, or free any.
fn unchanged_before(ld: V, entry: BB) -> bool {
    instructions(entry)
        .into_iter()
        .take_while(|i| *i != ld)
        .all(|i| match opcode(i) {
            Some(LLVMOpcode::LLVMStore) => underlying_objects(operand(i, 1))
                .into_iter()
                .all(super::memory::is_local_object),
            Some(LLVMOpcode::LLVMCall) => match rules::classify(i) {
                CallKind::Alloc(k) => !matches!(k, AllocKind::Free | AllocKind::Realloc { .. }),
                _ => called_function(i).is_some_and(|c| {
                    is_intrinsic(c)
                        && !name(c).starts_with("llvm.mem")
                        && super::memory::masked_writes(i).is_empty()
                }),
            },
            Some(
                LLVMOpcode::LLVMInvoke
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg
                | LLVMOpcode::LLVMFence,
            ) => false,
            _ => true,
        })
}

/// A copy of `v` (see [`clonable`]) at the builder's position; `map`
/// holds the copies made so far, starting with the arguments.
fn clone_expr(b: &Builder, v: V, map: &mut HashMap<V, V>) -> V {
    if let Some(c) = map.get(&v) {
        return *c;
    }
    if !is_instruction(v) {
        return v;
    }
    let ops: Vec<V> = operands(v)
        .into_iter()
        .map(|o| clone_expr(b, o, map))
        .collect();
    let c = b.insert_clone(v);
    clear_inst_debug_loc(c);
    for (k, o) in ops.into_iter().enumerate() {
        set_operand(c, k as u32, o);
    }
    map.insert(v, c);
    c
}

/// A dispatch pair under construction: the decision is made, the calls
/// are not.
pub struct Dispatch {
    aug: V,
    rev: V,
    /// `i1`: re-run (else tape).
    decision: V,
}

/// Position of each parameter of the primal among the pair's parameters.
fn primal_positions(key: &Key) -> Vec<usize> {
    let mut out = Vec::new();
    let mut j = 0;
    for a in &key.acts {
        out.push(j);
        j += if *a == Act::Dup { 1 + key.lanes() } else { 1 };
    }
    out
}

/// Start the dispatch pair of `key` between the trial and the re-run:
/// its augmented function computes `m`'s total on entry (from `copy`'s
/// values, before the copy is changed) and compares it with `budget`.
pub fn begin(key: &Key, trial: &Pair, copy: V, m: &LoopTape, budget: u64) -> Dispatch {
    let module = module_of(copy);
    let ctx = module_context(module);
    let base = name(key.func);
    let aug = add_internal_function(
        module,
        &format!("enzyme_rs.aug.pick.{base}"),
        fn_type(trial.aug),
    );
    let rev = add_internal_function(
        module,
        &format!("enzyme_rs.rev.pick.{base}"),
        fn_type(trial.rev),
    );
    let b = Builder::new(module);
    b.at_end(crate::ir::globals::append_block(aug, "entry"));
    let aps = params(aug);
    let mut map: HashMap<V, V> = params(copy)
        .into_iter()
        .zip(primal_positions(key))
        .map(|(p, k)| (p, aps[k]))
        .collect();
    let dbl = double_type(ctx);
    let mut trips = |b: &Builder, t: &Trips| -> V {
        match t {
            Trips::Run(v) => {
                let n = clone_expr(b, *v, &mut map);
                let n = b.int_cast(n, i64_type(ctx), false);
                let f = b.cast(LLVMOpcode::LLVMUIToFP, n, dbl);
                b.fadd(f, const_real(dbl, 1.0))
            }
            t => const_real(dbl, t.guess() as f64),
        }
    };
    let mut per = const_real(dbl, 0.0);
    for (bytes, ts) in &m.terms {
        let mut term = const_real(dbl, *bytes as f64);
        for t in ts {
            let n = trips(&b, t);
            term = b.fmul(term, n);
        }
        per = b.fadd(per, term);
    }
    let n = trips(&b, &m.outer);
    let total = b.fmul(per, n);
    let decision = b.fcmp(
        LLVMRealPredicate::LLVMRealOGT,
        total,
        const_real(dbl, budget as f64),
    );
    Dispatch { aug, rev, decision }
}

/// Delete a dispatch pair that will not be used.
pub fn abandon(d: Dispatch) {
    crate::ir::globals::delete_function(d.aug);
    crate::ir::globals::delete_function(d.rev);
}

/// `if c { then(args) } else { other(args) }` at the end of `f`'s
/// current block (the builder's), returning the result.
fn branch_call(b: &Builder, f: V, c: V, then: V, other: V, args: &[V]) -> Option<V> {
    let (bt, bo, join) = (
        crate::ir::globals::append_block(f, "rerun"),
        crate::ir::globals::append_block(f, "tape"),
        crate::ir::globals::append_block(f, "join"),
    );
    b.cond_br(c, bt, bo);
    let mut results = Vec::new();
    for (bb, g) in [(bt, then), (bo, other)] {
        b.at_end(bb);
        let r = b.call_fn(g, &mut args.to_vec());
        b.br(join);
        results.push((r, bb));
    }
    b.at_end(join);
    let ty = type_of(results[0].0);
    if is_void(ty) {
        return None;
    }
    let phi = b.phi(ty);
    add_incoming(phi, &results);
    Some(phi)
}

/// Finish the dispatch pair: the augmented function calls the re-run's
/// or the trial's and pushes its choice; the reverse pops it.
pub fn finish(key: &Key, d: Dispatch, trial: &Pair, rerun: &Pair) -> Result<Pair> {
    let module = module_of(d.aug);
    let ctx = module_context(module);
    let i64t = i64_type(ctx);
    let b = Builder::new(module);
    // aug: decide, call, push the choice.
    let aps = params(d.aug);
    let tape = *aps.last().unwrap();
    b.at_end(inst_block(d.decision));
    let r = branch_call(&b, d.aug, d.decision, rerun.aug, trial.aug, &aps);
    let slot = b.call_fn(
        super::tape::reserve_fn(module),
        &mut [tape, const_i64(ctx, 8)],
    );
    let flag = b.int_cast(d.decision, i64t, false);
    b.store(flag, slot);
    match r {
        Some(v) => b.ret(v),
        None if trial.aug_ret == AugRet::Void => b.ret_void(),
        None => return Err(Error::internal("rerun: dispatch of a value-less aug")),
    };
    // rev: pop the choice, call.
    let rps = params(d.rev);
    let tape = *rps.last().unwrap();
    b.at_end(crate::ir::globals::append_block(d.rev, "entry"));
    let slot = b.call_fn(super::tape::pop_fn(module), &mut [tape, const_i64(ctx, 8)]);
    let flag = b.load(i64t, slot);
    let c = b.icmp(LLVMIntPredicate::LLVMIntNE, flag, const_i64(ctx, 0));
    match branch_call(&b, d.rev, c, rerun.rev, trial.rev, &rps) {
        Some(v) => b.ret(v),
        None => b.ret_void(),
    };
    for g in [d.aug, d.rev] {
        crate::ir::attrs::set_fn_string_attr(g, DISPATCH, "1");
        verify_function(g).map_err(|e| {
            Error::internal(format!(
                "rerun: the dispatch of '{}' fails the verifier: {e}",
                name(key.func)
            ))
        })?;
    }
    Ok(Pair {
        aug: d.aug,
        rev: d.rev,
        ..trial.clone()
    })
}
