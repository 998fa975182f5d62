//! Automatic re-run of a loop per iteration in the reverse sweep (the
//! checkpoint-every-iteration trade), chosen by the tape's cost model.
//!
//! After a function's pair is built (the *trial*), the bytes its tape
//! keeps per iteration of each outermost loop are estimated from the
//! min-cut's layouts (`Aug::layouts`), inner loops counted [`TRIPS`] times.
//! A loop whose estimate is large against the state one iteration needs
//! (its loop-carried values and the scratch memory it writes) is re-run
//! when that is valid:
//!
//! - it writes only memory of the function's own that nothing else can
//!   reach (uncaptured allocas and heap blocks made before the loop): its
//!   *state*, snapshotted before every iteration;
//! - everything else it reads is not written after it (by the function,
//!   or by the caller before the reverse sweep), so an iteration run again
//!   at reverse time sees what it saw;
//! - its calls are libm rules, intrinsics, or defined functions that
//!   write only their own stack;
//! - it leaves to one block.
//!
//! Then a copy of the function (`enzyme_rs.rerun.F`) is made whose loop
//! is a `__enzyme_checkpoint_while` of a step function (one iteration,
//! `iface::fixed_point::build_step`) with the runtime's re-run scheme
//! (runtime/loops_rt.c: a snapshot before every step while the state is
//! small, else one every 16 steps, each segment run once more): the
//! reverse sweep restores the state of each iteration, last first, and
//! differentiates it with a small tape of its own (`loops::pair`). The
//! pair of the copy replaces the trial's, or, when the loop's whole tape
//! is weighed against the budget only at run time, a dispatch pair calls
//! one of the two (`rerun_cost.rs`: a loop whose tape fits the budget is
//! taped). `ENZYME_RS_AUTO_RERUN=0` turns this off, `=1` re-runs every
//! loop that may be; `-Rpass=enzyme` says which loop is re-run and by
//! which figures, and `-Rpass-missed=enzyme` why a costly loop is not.
use super::aug::Aug;
use super::memory::{is_local_object, is_uncaptured, is_unknown_object, LaterWrites, Written};
use super::rerun_cost::{self, LoopTape};
use super::rerun_mem::{call_memory, local_writes};
use super::{get_pair, Key, Pair};
use crate::analysis::activity::underlying_objects;
use crate::diag::{Error, Result};
use crate::ir::attrs::{fn_string_attr, set_fn_string_attr};
use crate::ir::blocks::set_successor;
use crate::ir::globals::add_param_attr;
use crate::ir::llvm::*;
use crate::ir::shim::{self, debug_location, remark, remark_enabled, RemarkKind};
use crate::ir::Builder;
use crate::modes::loops::annotated::{Annotation, SizeHint};
use crate::modes::Session;
use crate::options::RerunMode;
use crate::rules::{self, AllocKind, CallKind};
use std::collections::HashSet;

/// Functions this never applies to (the copies it makes, their steps).
const NO_RERUN: &str = "enzyme_rs_no_rerun";
/// Iterations assumed for an inner loop in the cost estimate.
const TRIPS: u64 = 16;
/// A loop is re-run only when its estimated tape per iteration is at
/// least this many bytes ...
const MIN_TAPE: u64 = 1024;
/// ... and this many times its state's bytes (plus a snapshot's overhead).
const FACTOR: u64 = 4;
const SNAPSHOT_OVERHEAD: u64 = 64;

/// Whether a re-run may be tried for `key` at all.
pub fn may_apply(sess: &Session, key: &Key) -> bool {
    sess.opts.auto_rerun != RerunMode::Off
        && !sess.higher_order
        && key.width == 1
        && fn_string_attr(key.func, NO_RERUN).is_none()
        && !crate::modes::gpu::is_device(sess.module)
}

/// Per outermost loop of the trial's augmented function (in block order):
/// its estimated tape bytes per iteration.
pub(super) fn tape_per_outer_iteration(a: &Aug) -> Vec<(BB, u64)> {
    let bbs = blocks(a.func);
    let tops: Vec<BB> = bbs
        .iter()
        .copied()
        .filter(|b| a.loops.header(*b) == Some(*b) && a.loops.parent_header(*b).is_none())
        .collect();
    tops.iter()
        .map(|h| {
            let est: u64 = bbs
                .iter()
                .filter(|bb| a.loops.contains(*h, **bb))
                .filter(|bb| a.layouts.get(*bb).is_some_and(|l| l.total > 0))
                .map(|bb| {
                    let inner = a.loops.depth(*bb).saturating_sub(1);
                    super::packed::bytes(a, *bb).saturating_mul(TRIPS.saturating_pow(inner))
                })
                .sum();
            (*h, est)
        })
        .collect()
}

/// What [`try_rerun`] made.
pub enum Rerun {
    /// The re-run's pair, in place of the trial's.
    Replace(Pair),
    /// A pair choosing between the trial's and the re-run's at run time
    /// (`rerun_cost.rs`): the trial's stays.
    Dispatch(Pair),
}

/// How the re-run of a loop is chosen.
enum Choice {
    /// Always (the figures for the remark).
    Always(String),
    /// At run time, by the total against the budget.
    AtRunTime(rerun_cost::Dispatch, String),
}

/// The trial `a` of `key` (pair `trial`) is done: if one of its loops is
/// better re-run, build the pair of a copy that re-runs it and return it.
pub fn try_rerun(sess: &mut Session, key: &Key, a: &Aug, trial: &Pair) -> Result<Option<Rerun>> {
    // A recursive function's trial is already called by itself.
    if !users(trial.aug).is_empty() || !users(trial.rev).is_empty() {
        return Ok(None);
    }
    let force = sess.opts.auto_rerun == RerunMode::Force;
    let min_tape = if force { 1 } else { MIN_TAPE };
    let costs = tape_per_outer_iteration(a);
    if costs.iter().all(|(_, c)| *c < min_tape) {
        return Ok(None);
    }
    let f = key.func;
    let m = sess.module;
    let copy = copy_function(m, f)?;
    let (loops, tops) = outermost_loops(copy);
    let mut plan = None;
    if tops.len() == costs.len() {
        let mut order: Vec<usize> = (0..costs.len()).collect();
        order.sort_by_key(|k| std::cmp::Reverse(costs[*k].1));
        for k in order {
            let est = costs[k].1;
            if est < min_tape {
                break;
            }
            match check(copy, &loops, tops[k], key, None) {
                Ok(p) if force || est >= FACTOR * (p.state_bytes + SNAPSHOT_OVERHEAD) => {
                    plan = Some((p, est));
                    break;
                }
                Ok(p) => missed(
                    f,
                    tops[k],
                    &format!(
                        "about {est} bytes of tape per iteration against {} of state",
                        p.state_bytes
                    ),
                ),
                Err(why) => missed(f, tops[k], &why),
            }
        }
    }
    let choice = plan.as_ref().and_then(|(p, est)| {
        let model = (!force)
            .then(|| rerun_cost::model(a, copy, &loops, p.header))
            .flatten();
        let c = choose(sess, key, trial, copy, p, *est, model.as_ref());
        if let Some(m) = &model {
            m.release();
        }
        c
    });
    drop(loops);
    let (Some((p, _)), Some(choice)) = (plan, choice) else {
        crate::ir::globals::delete_function(copy);
        return Ok(None);
    };
    let at = loop_place(p.header);
    outline(m, copy, p, sess.opts.rerun_noalias, None)?;
    let ckey = Key {
        func: copy,
        ..key.clone()
    };
    let pair = get_pair(sess, &ckey, None)?;
    let (out, why) = match choice {
        Choice::Always(why) => (Rerun::Replace(pair), why),
        Choice::AtRunTime(d, why) => {
            mark_cold(&pair, copy);
            (
                Rerun::Dispatch(rerun_cost::finish(key, d, trial, &pair)?),
                why,
            )
        }
    };
    if remark_enabled(f, RemarkKind::Passed) {
        let msg = format!(
            "reverse mode of '{}': the {at} is re-run per iteration in the reverse sweep \
             {why}",
            name(f)
        );
        remark(f, None, RemarkKind::Passed, "Rerun", &msg);
    }
    log::debug!("rerun: {} re-runs its {at} {why}", name(f));
    Ok(Some(out))
}

/// The re-run pair of a run-time dispatch runs only when the tape would
/// exceed the budget, where its re-running costs several times the taped
/// sweep anyway: it and the functions made for it (their names hold the
/// copy's, `enzyme_rs.rerun.F`) are optimized for size, so LLVM does not
/// unroll and vectorize a second reverse sweep that benchmark-sized runs
/// never take (gmm, lstm: ~3,500 of ~14,000 instructions).
/// So is the runtime's re-run driver they call (`__enzyme_rs_loops_rerun_*`,
/// called from nothing else). `ENZYME_RS_RERUN_COLD` picks the attribute,
/// `=0` none.
fn mark_cold(pair: &Pair, copy: V) {
    let Some(attr) = crate::options::switches::rerun_cold() else {
        return;
    };
    let tag = name(copy);
    let mut seen: HashSet<V> = HashSet::new();
    let mut work = vec![pair.aug, pair.rev];
    while let Some(f) = work.pop() {
        let n = name(f);
        let driver = n.starts_with("__enzyme_rs_loops_rerun_");
        if !seen.insert(f) || is_declaration(f) || !(n.contains(&tag) || driver) {
            continue;
        }
        // (optsize and minsize are invalid next to optnone.)
        if !fn_has_attr(f, "optnone") {
            add_fn_attr(f, attr);
            add_fn_attr(f, "cold");
        }
        if driver {
            continue;
        }
        for bb in blocks(f) {
            for i in instructions(bb) {
                // Direct callees and functions passed on (the steps the
                // runtime calls back).
                work.extend(operands(i).into_iter().filter(|o| is_function(*o)));
            }
        }
    }
}

/// Whether (and when) loop `p` of `key`'s function, `est` bytes of tape
/// per iteration by the old estimate, is re-run: by its tape's total
/// against the budget (`model`; None with ENZYME_RS_AUTO_RERUN=1 or when
/// the trial's loops do not match the copy's). None: taped (with a missed
/// remark).
fn choose(
    sess: &Session,
    key: &Key,
    trial: &Pair,
    copy: V,
    p: &Plan,
    est: u64,
    model: Option<&LoopTape>,
) -> Option<Choice> {
    let budget = sess.opts.rerun_budget;
    let old = format!(
        "(its tape would keep about {est} bytes per iteration, inner loops counted {} times, \
         against {} bytes of state; a snapshot of its state is kept instead)",
        rerun_cost::GUESS,
        p.state_bytes
    );
    let Some(m) = model else {
        let why = if sess.opts.auto_rerun == RerunMode::Force {
            format!("{old}: ENZYME_RS_AUTO_RERUN=1")
        } else {
            old
        };
        return Some(Choice::Always(why));
    };
    let formula = m.formula();
    if let Some(total) = m.constant_total() {
        if total <= budget {
            missed(
                key.func,
                p.header,
                &format!(
                    "its tape fits the budget: {formula} = {total} bytes <= {budget} \
                     (ENZYME_RS_RERUN_BUDGET)"
                ),
            );
            return None;
        }
        return Some(Choice::Always(format!(
            "(its tape would keep {formula} = {total} bytes > the budget of {budget} \
             (ENZYME_RS_RERUN_BUDGET); a snapshot of its state is kept instead)"
        )));
    }
    if m.at_run_time() {
        let d = rerun_cost::begin(key, trial, copy, m, budget);
        return Some(Choice::AtRunTime(
            d,
            format!(
                "when its tape, {formula} (n: trip counts known on entry), exceeds the budget \
                 of {budget} bytes (ENZYME_RS_RERUN_BUDGET) at run time, else it is taped \
                 (about {} bytes per iteration with inner loops run {} times)",
                m.per_iteration_guess(),
                rerun_cost::GUESS
            ),
        ));
    }
    Some(Choice::Always(format!(
        "{old}: its trip count is not known on entry, so its tape ({formula}) cannot be \
         weighed against the budget"
    )))
}

/// The trial `trial` of `key` is done and its function has loops
/// annotated for checkpointing (`loops::annotated`): build the pair of a
/// copy that runs each annotated outermost loop as a checkpointed loop
/// with the schedule it names. A loop that cannot be (nested in another,
/// writing memory whose extent is unknown, vector or higher-order modes)
/// stays taped, with a warning: its derivative is the same either way.
pub fn try_annotated(sess: &mut Session, key: &Key, trial: &Pair) -> Result<Option<Pair>> {
    use crate::modes::loops::annotated::{self, Schedule};
    let f = key.func;
    if !annotated::any_in(f) || fn_string_attr(f, NO_RERUN).is_some() {
        return Ok(None);
    }
    let m = sess.module;
    // (Once per message: a function differentiated under several keys
    // would warn again for each.)
    let warn = |sess: &mut Session, h: BB, why: &str| {
        let at = instructions(h)
            .into_iter()
            .find(|i| debug_location(*i).is_some());
        let msg = format!(
            "reverse mode of '{}': the {} is annotated for checkpointing but is taped: {why}",
            crate::ir::demangle::demangle(&name(f)),
            loop_place(h)
        );
        if sess.warned.insert(msg.clone()) {
            shim::diagnose_warning(f, at, &msg);
        }
    };
    let unsupported = if !users(trial.aug).is_empty() || !users(trial.rev).is_empty() {
        Some("its function is recursive")
    } else if sess.higher_order {
        Some("a derivative of a derivative does not checkpoint loops")
    } else if key.width != 1 {
        Some("vector mode does not checkpoint loops")
    } else if crate::modes::gpu::is_device(m) {
        Some("device code does not checkpoint loops")
    } else {
        None
    };
    // A mode that does not checkpoint: the warnings, read off `f` itself
    // (no copy to make).
    if let Some(why) = unsupported {
        let loops = shim::Loops::new(f);
        for h in blocks(f) {
            if loops.header(h) == Some(h) && annotated::of_loop(f, &loops, h).is_some() {
                warn(sess, h, why);
            }
        }
        return Ok(None);
    }
    // (mem2reg: at -O0 too the trip counts are SCEV's to compute.)
    let copy = copy_function(m, f)?;
    let hints = annotated::take_size_hints(copy);
    let loops = shim::Loops::new(copy);
    let mut plans = Vec::new();
    for h in blocks(copy) {
        if loops.header(h) != Some(h) {
            continue;
        }
        let Some(ann) = annotated::of_loop(copy, &loops, h) else {
            continue;
        };
        let plan = if loops.parent_header(h).is_some() {
            Err("it is inside another loop (annotate the outermost one)".into())
        } else {
            check(copy, &loops, h, key, Some(&hints))
        };
        match plan {
            Ok(p) => plans.push((p, ann)),
            Err(why) => warn(sess, h, &why),
        }
    }
    drop(loops);
    if plans.is_empty() {
        crate::ir::globals::delete_function(copy);
        return Ok(None);
    }
    // Trip counts first: outlining changes the loops.
    let scev = shim::Scev::new(copy);
    let counts: Vec<Option<V>> = plans
        .iter()
        .map(|(p, _)| scev.expand_exit_count(p.header))
        .collect();
    drop(scev);
    for ((p, ann), btc) in plans.into_iter().zip(counts) {
        let at = loop_place(p.header);
        let how = match (btc, ann.schedule) {
            (Some(_), _) => "as a checkpointed for loop".to_string(),
            (None, Schedule::Revolve) => "its trip count is not known on entry: a checkpointed \
                 while loop, periodic (revolve needs the trip count)"
                .to_string(),
            (None, _) => "its trip count is not known on entry: a checkpointed while loop".into(),
        };
        outline(m, copy, p, sess.opts.rerun_noalias, Some((ann, btc)))?;
        if remark_enabled(f, RemarkKind::Passed) {
            let msg = format!(
                "reverse mode of '{}': the {at} is checkpointed ({}; {how})",
                name(f),
                ann.describe()
            );
            remark(f, None, RemarkKind::Passed, "Checkpoint", &msg);
        }
    }
    let ckey = Key {
        func: copy,
        ..key.clone()
    };
    get_pair(sess, &ckey, None).map(Some)
}

/// The scheme and its data for an annotated loop: the runtime's scheme
/// for the schedule (revolve needs the trip count: without it, periodic)
/// and a constant EnzymeCkptConfig holding the count.
fn annotated_scheme(
    b: &Builder,
    m: LLVMModuleRef,
    ann: &Annotation,
    is_for: bool,
) -> Result<(V, V)> {
    use crate::modes::loops::annotated::{scheme_fn, Schedule};
    let ctx = module_context(m);
    let schedule = match ann.schedule {
        Schedule::Revolve if !is_for => Schedule::Periodic,
        s => s,
    };
    let snapshots = match schedule {
        // Revolve's default: 16 slots.
        Schedule::Revolve => ann.count.unwrap_or(16),
        Schedule::Periodic => ann.count.unwrap_or(0),
        _ => 0,
    };
    let scheme = b.call_fn(scheme_fn(m)?, &mut [const_i32(ctx, schedule as i64)]);
    // EnzymeCkptConfig {snapshots, verbose, spill_dir, mem_budget, stats}.
    let (i64t, p) = (i64_type(ctx), ptr_type(ctx));
    let t = struct_type(ctx, &mut [i64t, i32_type(ctx), p, i64t, p]);
    let init = crate::ir::consts::const_struct_of(
        t,
        &[
            const_i64(ctx, snapshots),
            const_i32(ctx, 0),
            zero(p),
            const_i64(ctx, 0),
            zero(p),
        ],
    );
    let g = crate::ir::link::add_global(m, "enzyme_rs.ckpt_config", t, Some(init), true);
    make_internal(g);
    Ok((scheme, g))
}

/// "loop at file:line" for a loop header (the first located instruction).
pub(super) fn loop_place(h: BB) -> String {
    match instructions(h).into_iter().find_map(debug_location) {
        Some((file, l)) => format!("loop at {file}:{l}"),
        None => "loop".into(),
    }
}

fn missed(f: V, h: BB, why: &str) {
    missed_remark(
        f,
        h,
        "NoRerun",
        |at| format!("the {at} is not re-run per iteration"),
        why,
    );
}

/// A `-Rpass-missed=enzyme` remark `tag` on `f`: "reverse mode of 'f':
/// <what(loop place)>: why".
pub(super) fn missed_remark(f: V, h: BB, tag: &str, what: impl Fn(&str) -> String, why: &str) {
    if remark_enabled(f, RemarkKind::Missed) {
        let msg = format!(
            "reverse mode of '{}': {}: {why}",
            name(f),
            what(&loop_place(h))
        );
        remark(f, None, RemarkKind::Missed, tag, &msg);
    }
}

/// A private copy of `f`, loops in simplified form, its stack slots of
/// scalars promoted (at -O0 a pointer parameter read back from its slot
/// would otherwise be memory of unknown origin, and the caller's stack
/// it may point to would pass for memory that outlives the function).
fn copy_function(m: LLVMModuleRef, f: V) -> Result<V> {
    private_copy(m, f, "rerun", NO_RERUN, "mem2reg,loop-simplify")
}

/// A private copy `enzyme_rs.<what>.f` of `f`, marked with the string
/// attribute `marker` (so it is not rewritten again), with `passes` run on
/// it.
pub(super) fn private_copy(
    m: LLVMModuleRef,
    f: V,
    what: &str,
    marker: &str,
    passes: &str,
) -> Result<V> {
    let copy = add_internal_function(m, &format!("enzyme_rs.{what}.{}", name(f)), fn_type(f));
    let mut args = params(copy);
    shim::clone_into(copy, f, &mut args);
    make_internal(copy);
    set_fn_string_attr(copy, marker, "1");
    remove_fn_attr(copy, "optnone");
    shim::run_function_pipeline(&mut [copy], passes)
        .map_err(|e| Error::internal(format!("{what}: {passes} failed: {e}")))?;
    Ok(copy)
}

/// A loop that may be re-run: its blocks, where it leaves to, and its
/// state (objects it writes, with their sizes).
struct Plan {
    header: BB,
    body: HashSet<BB>,
    exit: BB,
    preheader: BB,
    state: Vec<(V, V)>,
    state_bytes: u64,
}

fn is_load_or_call(v: V) -> bool {
    is_call(v) || opcode(v) == Some(LLVMOpcode::LLVMLoad)
}

/// The loops of `f` and the headers of its outermost ones, in block order
/// (the order `tape_per_outer_iteration` reports them in).
pub(super) fn outermost_loops(f: V) -> (shim::Loops, Vec<BB>) {
    let loops = shim::Loops::new(f);
    let tops = blocks(f)
        .into_iter()
        .filter(|b| loops.header(*b) == Some(*b) && loops.parent_header(*b).is_none())
        .collect();
    (loops, tops)
}

/// The blocks of loop `h` of `f` and its one exit block, which only the
/// loop reaches; the reason when the loop has another shape.
pub(super) fn single_exit_body(
    f: V,
    loops: &shim::Loops,
    h: BB,
) -> std::result::Result<(HashSet<BB>, BB), String> {
    let body: HashSet<BB> = blocks(f)
        .into_iter()
        .filter(|b| loops.contains(h, *b))
        .collect();
    let exits: HashSet<BB> = body
        .iter()
        .flat_map(|b| successors(*b))
        .filter(|b| !body.contains(b))
        .collect();
    if exits.len() != 1 {
        return Err(format!("it leaves to {} places", exits.len()));
    }
    let exit = *exits.iter().next().unwrap();
    if blocks(f)
        .into_iter()
        .any(|b| !body.contains(&b) && successors(b).contains(&exit))
    {
        return Err("its exit block is reached from outside it".into());
    }
    Ok((body, exit))
}

/// Whether loop `h` of `f` may be re-run; the reason when not.
/// With `annotated` (an annotated loop's size hints), mutable globals it
/// writes, and memory a hint before it gives the extent of, are part of
/// its state too.
fn check(
    f: V,
    loops: &shim::Loops,
    h: BB,
    key: &Key,
    annotated: Option<&[SizeHint]>,
) -> std::result::Result<Plan, String> {
    let globals = annotated.is_some();
    let m = module_of(f);
    let (body, exit) = single_exit_body(f, loops, h)?;
    let preheader = loops.preheader(h).ok_or("it has no preheader")?;
    let mut reads: Vec<(V, V)> = Vec::new();
    let mut writes: Vec<V> = Vec::new();
    for bb in blocks(f).into_iter().filter(|b| body.contains(b)) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMLoad) => reads.push((i, operand(i, 0))),
                Some(LLVMOpcode::LLVMStore) => writes.push(operand(i, 1)),
                Some(LLVMOpcode::LLVMCall) => call_memory(i, &mut reads, &mut writes)?,
                Some(LLVMOpcode::LLVMAlloca) => {
                    return Err(format!("it has {}", print_value(i).trim()))
                }
                _ => super::moverec::unfollowable(i)?,
            }
        }
    }
    // What it reads and does not write must stay as it is.
    let ps = params(f);
    let over: Vec<V> = ps
        .iter()
        .zip(&key.overwritten)
        .filter(|(_, o)| **o)
        .map(|(p, _)| *p)
        .collect();
    let written = Written::of(f, over, key.globals_overwritten, key.others_overwritten);
    let later = LaterWrites::of_matching(f, is_load_or_call);
    let after = reachable(h);
    let local_w = local_writes(f);
    // Memory reached through loaded pointers stays while the caller leaves
    // it alone and no stack slot of the function (dead at reverse time)
    // may be it; heap blocks of the function live until the reverse sweep.
    let unknown_kept = !key.others_overwritten
        && !blocks(f)
            .into_iter()
            .flat_map(instructions)
            .any(|i| opcode(i) == Some(LLVMOpcode::LLVMAlloca) && !is_uncaptured(i));
    // The state: what the loop writes, which must be the function's own.
    let mut state: Vec<(V, V)> = Vec::new();
    let mut state_bytes = 0;
    for p in writes {
        for o in underlying_objects(p) {
            if state.iter().any(|(s, _)| *s == o) {
                continue;
            }
            if globals && is_global_var(o) && !is_global_constant(o) {
                let bytes = type_alloc_size(m, crate::ir::globals::global_type(o));
                state_bytes += bytes;
                state.push((o, const_i64(module_context(m), bytes as i64)));
                continue;
            }
            // (A hint's size as an i64 at the loop: a constant, or an
            // i64 value defined before the hint.)
            let i64t = i64_type(module_context(m));
            let hinted = annotated.unwrap_or_default().iter().find_map(|s| {
                let fits =
                    s.ptr == o && loops.block_dominates(s.block, h) && !body.contains(&s.block);
                let bytes = match const_int_value(s.bytes) {
                    Some(b) => const_i64(module_context(m), b),
                    None if type_of(s.bytes) == i64t => s.bytes,
                    None => return None,
                };
                fits.then_some(bytes)
            });
            if let Some(bytes) = hinted {
                // Its snapshots are restored in the reverse sweep: the
                // memory must still be there, as the caller left it (not
                // the caller's stack, which is gone by then).
                if !(written.persistent_object(o) || (is_unknown_object(o) && unknown_kept)) {
                    return Err(format!(
                        "the memory {} points to (of __enzyme_ptr_size_hint) may be \
                         overwritten, freed or gone before the reverse sweep (the caller \
                         writes or frees it after the call, or it is the caller's stack)",
                        print_value(o).trim()
                    ));
                }
                state_bytes += const_int_value(bytes).map_or(8 * TRIPS, |b| b.max(0) as u64);
                state.push((o, bytes));
                continue;
            }
            if !is_local_object(o) || !is_uncaptured(o) || body.contains(&inst_block(o)) {
                let mine = if globals {
                    "the function's own memory, global variables, and memory whose \
                     extent __enzyme_ptr_size_hint(pointer, bytes) gives before the loop \
                     (a snapshot holds those)"
                } else {
                    "its own scratch"
                };
                return Err(format!(
                    "it writes memory other than {mine} ({})",
                    print_value(o).trim()
                ));
            }
            let (bytes, est) = object_size(m, o)
                .ok_or_else(|| format!("the size of {} is not known", print_value(o).trim()))?;
            state_bytes += est;
            state.push((o, bytes));
        }
    }
    for (i, p) in reads {
        let objs = underlying_objects(p);
        if objs.iter().all(|o| state.iter().any(|(s, _)| s == o)) {
            continue;
        }
        let alive = objs.iter().all(|o| {
            state.iter().any(|(s, _)| s == o)
                || is_local_object(*o)
                || written.persistent_object(*o)
                || (is_unknown_object(*o) && unknown_kept)
        });
        // The function's own memory (frees are deferred to the reverse
        // sweep): written only where the loop cannot lead.
        let own: Vec<V> = objs
            .iter()
            .copied()
            .filter(|o| is_local_object(*o) && !state.iter().any(|(s, _)| s == o))
            .collect();
        if !own.is_empty() && own.len() == objs.len() {
            let at = debug_location(i)
                .map(|(file, l)| format!(" at {file}:{l}"))
                .unwrap_or_default();
            if let Some(o) = own.iter().find(|o| {
                !is_uncaptured(**o)
                    || local_w
                        .iter()
                        .any(|(w, t)| *t == **o && after.contains(&inst_block(*w)))
            }) {
                return Err(format!(
                    "memory it reads{at} ({}) is written after it or may be reached by other pointers",
                    print_value(*o).trim()
                ));
            }
            continue;
        }
        let at = debug_location(i)
            .map(|(file, l)| format!(" at {file}:{l}"))
            .unwrap_or_default();
        if !alive {
            return Err(format!(
                "memory it reads{at} may not outlive the function or may be overwritten by \
                 its caller before the reverse sweep"
            ));
        }
        if later.may_write_after(i, p) {
            return Err(format!(
                "memory it reads{at} may be overwritten after it is read"
            ));
        }
    }
    Ok(Plan {
        header: h,
        body,
        exit,
        preheader,
        state,
        state_bytes,
    })
}

/// Blocks reachable from `h` (itself included).
fn reachable(h: BB) -> HashSet<BB> {
    let mut seen = HashSet::from([h]);
    let mut work = vec![h];
    while let Some(b) = work.pop() {
        for s in successors(b) {
            if seen.insert(s) {
                work.push(s);
            }
        }
    }
    seen
}

/// Bytes of local object `o` (a value at the loop's preheader) and an
/// estimate for the cost model.
fn object_size(m: LLVMModuleRef, o: V) -> Option<(V, u64)> {
    let ctx = module_context(m);
    if opcode(o) == Some(LLVMOpcode::LLVMAlloca) {
        let n = const_int_value(operand(o, 0))?;
        let bytes = type_alloc_size(m, allocated_type(o)) * n.max(0) as u64;
        return Some((const_i64(ctx, bytes as i64), bytes));
    }
    let size = match rules::classify(o) {
        CallKind::Alloc(AllocKind::Malloc { size_arg }) => {
            call_args(o).get(size_arg as usize).copied()?
        }
        _ => return None,
    };
    if !is_int(type_of(size)) {
        return None;
    }
    let est = const_int_value(size)
        .map(|v| v.max(0) as u64)
        .unwrap_or(8 * TRIPS);
    Some((size, est))
}

/// A new entry-block slot of type `t` (part of the state).
fn slot(b: &Builder, f: V, t: T) -> V {
    b.at_entry_allocas(f);
    b.alloca(t)
}

/// Put the loop's SSA values crossing its boundary in stack slots: the
/// header's phis, the exit block's phis over the loop's values, and the
/// loop's values used after it. Returns the slots.
fn demote(m: LLVMModuleRef, f: V, p: &Plan) -> Vec<V> {
    let b = Builder::new(m);
    let mut slots = Vec::new();
    let is_phi = |i: V| opcode(i) == Some(LLVMOpcode::LLVMPHI);
    // The header's phis, then the exit's: the exit is dedicated (only the
    // loop leads to it), so its phis become loads of what the loop stored
    // last.
    for block in [p.header, p.exit] {
        for phi in instructions(block).into_iter().filter(|i| is_phi(*i)) {
            let s = slot(&b, f, type_of(phi));
            for (v, bb) in incoming(phi) {
                b.before(terminator(bb));
                b.store(v, s);
            }
            b.at_first_non_phi(block);
            let ld = b.load(type_of(phi), s);
            replace_all_uses(phi, ld);
            erase(phi);
            slots.push(s);
        }
    }
    for bb in blocks(f).into_iter().filter(|b| p.body.contains(b)) {
        for i in instructions(bb) {
            if is_void(type_of(i)) {
                continue;
            }
            let outside: Vec<V> = users(i)
                .into_iter()
                .filter(|u| is_instruction(*u) && !p.body.contains(&inst_block(*u)))
                .collect();
            if outside.is_empty() {
                continue;
            }
            let s = slot(&b, f, type_of(i));
            if is_phi(i) {
                b.at_first_non_phi(bb);
            } else {
                b.after(i);
            }
            b.store(i, s);
            for u in outside {
                for k in 0..num_operands(u) {
                    if operand(u, k) != i {
                        continue;
                    }
                    if is_phi(u) {
                        let from = incoming(u)[k as usize].1;
                        b.before(terminator(from));
                    } else {
                        b.before(u);
                    }
                    let ld = b.load(type_of(i), s);
                    set_operand(u, k, ld);
                }
            }
            slots.push(s);
        }
    }
    slots
}

/// Replace loop `p` of `f` (a private copy) by a re-run loop function;
/// `noalias`: mark the step's parameters that alone reach the state
/// ([`mark_state_params`]).
/// `sched`: an annotated loop's schedule and its backedge-taken count
/// when known on entry (then a checkpointed for loop of that many steps
/// plus one, each step one run of the header; else a while loop), driven
/// by the runtime's generic scheme driver.
fn outline(
    m: LLVMModuleRef,
    f: V,
    p: Plan,
    noalias: bool,
    sched: Option<(Annotation, Option<V>)>,
) -> Result<()> {
    let ctx = module_context(m);
    let slots = demote(m, f, &p);
    let mut state = p.state.clone();
    for s in slots {
        let bytes = type_alloc_size(m, allocated_type(s));
        state.push((s, const_i64(ctx, bytes as i64)));
    }
    let mut live_ins: Vec<V> = Vec::new();
    for bb in blocks(f).into_iter().filter(|b| p.body.contains(b)) {
        for i in instructions(bb) {
            for o in operands(i) {
                let outside =
                    (is_instruction(o) && !p.body.contains(&inst_block(o))) || is_argument(o);
                if outside && !live_ins.contains(&o) {
                    live_ins.push(o);
                }
            }
        }
    }
    let step = crate::modes::iface::fixed_point::build_step(
        m,
        f,
        p.header,
        &p.body,
        &live_ins,
        "enzyme_rs.rerun_step",
    )?;
    set_fn_string_attr(step, NO_RERUN, "1");
    if noalias {
        let n = mark_state_params(step, &state, &live_ins);
        log::debug!("rerun: {} of the step's parameters are noalias", n);
    }
    let b = Builder::new(m);
    let term = terminator(p.preheader);
    b.before(term);
    if let Some(at) = instructions(p.header)
        .into_iter()
        .find(|i| debug_location(*i).is_some())
    {
        b.set_debug_loc_from(at);
    }
    let marker = |n: &str| named_global(m, n).unwrap_or_else(|| add_global(m, i32_type(ctx), n));
    // No schedule: the loop function gets the re-run's own driver (marked
    // below; runtime/loops_rt.c), whose schedule is fixed.
    let (scheme, data, steps) = match &sched {
        Some((ann, btc)) => {
            let (s, d) = annotated_scheme(&b, m, ann, btc.is_some())?;
            let steps = btc.map(|n| b.add(n, const_i64(ctx, 1)));
            (s, d, steps)
        }
        None => (zero(ptr_type(ctx)), zero(ptr_type(ctx)), None),
    };
    let mut args = vec![step];
    if let Some(n) = steps {
        args.extend([const_i64(ctx, 0), n]);
    }
    args.extend([marker("enzyme_scheme"), scheme, data]);
    for (o, bytes) in &state {
        args.extend([marker("enzyme_checkpoint_region"), *o, *bytes]);
    }
    args.extend(live_ins.iter().copied());
    let (callee, kind) = if steps.is_some() {
        ("__enzyme_checkpoint_for", crate::modes::loops::Kind::For)
    } else {
        (
            "__enzyme_checkpoint_while",
            crate::modes::loops::Kind::While,
        )
    };
    let decl = get_or_declare(
        m,
        callee,
        fn_type_of(void_type(ctx), &mut [ptr_type(ctx)], true),
    );
    let call = b.call_fn(decl, &mut args);
    set_successor(term, 0, p.exit);
    crate::ir::omp::delete_unreachable_blocks(f);
    let lf = crate::modes::loops::lower_call(m, call, kind)?;
    if sched.is_none() {
        set_fn_string_attr(lf, crate::modes::loops::RERUN_DRIVER, "1");
    }
    verify_function(f).map_err(|e| {
        Error::internal(format!(
            "rerun: the copy of '{}' fails the verifier: {e}",
            name(f)
        ))
    })
}

/// Mark `noalias` each parameter of `step` (live-in `k` is parameter
/// `k + 1`) that is the step's only way to an object of the loop's state
/// (`state`: the function's uncaptured scratch and the demoted slots): no
/// other live-in is based on the object, and the object is still
/// uncaptured after `demote` (a slot holding a pointer into it would be
/// another way in). Nothing else can point into such an object, so a
/// store to it leaves the loads of the step's other parameters (read-only
/// inputs, tables made before the loop) available to the reverse sweep
/// (`memory::obj_kind`) instead of taped. Returns how many were marked.
fn mark_state_params(step: V, state: &[(V, V)], live_ins: &[V]) -> usize {
    let objs: Vec<Vec<V>> = live_ins
        .iter()
        .map(|l| {
            if is_ptr(type_of(*l)) {
                underlying_objects(*l)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut marked = 0;
    for (k, os) in objs.iter().enumerate() {
        let [o] = os.as_slice() else { continue };
        let alone = !objs
            .iter()
            .enumerate()
            .any(|(j, x)| j != k && x.contains(o));
        if alone && state.iter().any(|(s, _)| s == o) && is_uncaptured(*o) {
            add_param_attr(step, (k + 1) as u32, "noalias");
            marked += 1;
        }
    }
    marked
}
