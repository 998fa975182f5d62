//! The pass body: find `__enzyme_*` calls, hand each to its mode, replace
//! it, then clean up the new functions. Errors become diagnostics here.
use crate::callsite::{self, Mode};
use crate::diag::Error;
use crate::ir::llvm::*;
use crate::ir::outline;
use crate::ir::shim;
use crate::modes::{self, Session};
use crate::options::Options;
use newfns::{drop_dead_created, drop_dead_functions, sanitize_new_functions};

mod newfns;

/// The `__enzyme_*` calls in a module, with their mode.
fn find_calls(m: LLVMModuleRef) -> Vec<(V, Mode)> {
    let mut out = Vec::new();
    for f in functions(m) {
        let Some(mode) = Mode::from_callee(&name(f)) else {
            continue;
        };
        for u in users(f) {
            // In C++ functions with cleanups the call is an invoke (the
            // entry points never throw): make it a call.
            let u = if is_invoke(u) && strip_casts(called_value(u)) == f {
                shim::invoke_to_call(u)
            } else {
                u
            };
            if is_call(u) && strip_casts(called_value(u)) == f {
                out.push((u, mode));
            }
        }
        // -O0: the entry point kept in a local variable and called through it.
        for c in callsite::entry::calls_through_slots(f) {
            let c = if is_invoke(c) {
                shim::invoke_to_call(c)
            } else {
                c
            };
            out.push((c, mode));
        }
    }
    // Calls inside functions that are themselves differentiated must be
    // rewritten first (higher order): process callers reached by fewer
    // enzyme calls first by sorting on whether the enclosing function has
    // enzyme calls of its own reached from other requests.
    out
}

/// Whether `f` (or anything it calls) still contains an `__enzyme_*` call.
fn reaches_enzyme_call(f: V, seen: &mut std::collections::HashSet<V>) -> bool {
    crate::analysis::callgraph::find_callee(vec![f], seen, |c| {
        Mode::from_callee(&name(c)).is_some()
    })
}

/// The function a derivative call differentiates, when it is a constant.
fn call_target(call: V) -> Option<V> {
    call_args(call)
        .into_iter()
        .map(strip_casts)
        .find(|a| is_function(*a))
}

/// Whether some derivative call sits in a function that a derivative call
/// differentiates (or that one calls).
fn higher_order(calls: &[(V, Mode)]) -> bool {
    let roots: Vec<V> = calls.iter().filter_map(|(c, _)| call_target(*c)).collect();
    let mut reached = std::collections::HashSet::new();
    crate::analysis::callgraph::find_callee(roots, &mut reached, |_| false);
    calls.iter().any(|(c, _)| reached.contains(&inst_fn(*c)))
}

/// Whether `f` reaches a driver of the loop runtime (`modes/loops/pair.rs`:
/// it runs the reverse sweep of a checkpointed loop or fixed point) that a
/// derivative of it cannot run: in forward mode a fixed point's, else any.
fn reaches_loop_runtime(f: V, forward: bool) -> bool {
    use crate::rules::classify::{loop_driver, LoopDriver};
    crate::analysis::callgraph::find_callee(
        vec![f],
        &mut Default::default(),
        |c| match loop_driver(&name(c)) {
            Some(LoopDriver::FixedPoint) => true,
            Some(_) => !forward,
            None => false,
        },
    )
}

/// Whether `f` calls `target`, directly or through functions it calls.
fn calls_transitively(f: V, target: V, seen: &mut std::collections::HashSet<V>) -> bool {
    crate::analysis::callgraph::find_callee(vec![f], seen, |c| c == target)
}

/// What to do with a call that failed: report it (`Fail`), or leave it in
/// place for a later run (`Defer`, link-time differentiation: `lto.rs`).
pub enum Handling {
    Fail(Error),
    Defer,
}

/// Run the pass over a module. Returns whether the module changed.
pub fn run(m: LLVMModuleRef, opts: Options) -> bool {
    let changed = run_with(m, opts, &mut |e, _| Handling::Fail(e), &mut Vec::new());
    report_escaped_entries(m) | changed
}

/// Report the uses of entry points left that are no call (their address
/// taken): once every call is rewritten, they could only fail at the link.
pub fn report_escaped_entries(m: LLVMModuleRef) -> bool {
    let mut any = false;
    for f in functions(m) {
        if Mode::from_callee(&name(f)).is_some() {
            any |= callsite::entry::report_escaped(m, f);
        }
    }
    any
}

/// [`run`], with `on_error` deciding per failed call whether it fails or
/// waits (deferred calls are left in place and listed in `deferred`).
pub fn run_with(
    m: LLVMModuleRef,
    opts: Options,
    on_error: &mut dyn FnMut(Error, V) -> Handling,
    deferred: &mut Vec<V>,
) -> bool {
    // The functions there before: any other one the pass made.
    let before: std::collections::HashSet<V> = functions(m).into_iter().collect();
    // clang-22's OpenMP calls that an older libomp lacks (openmp::compat).
    let compat = crate::modes::openmp::compat::weak_runtime_calls(m);
    // Loops annotated in the source (already done at pipeline start under
    // clang; opt runs the pass alone).
    let compat = crate::modes::loops::annotated::mark(m) | compat;
    // Checkpointed loops and fixed points become loop functions first.
    let lowered = crate::modes::loops::lower(m) || compat;
    // __enzyme_virtualreverse and __enzyme_batch become plain code.
    let lowered = crate::modes::iface::lower_before(m) | lowered;
    // Deallocators taking the pointer elsewhere than first: thunks.
    let lowered = crate::modes::alloc_like::reorder_deallocators(m) | lowered;
    if opts.check {
        crate::selfcheck::instrument(m, opts.check_abort);
    }
    let mut calls = find_calls(m);
    if calls.is_empty() {
        // Shadow queries (`__enzyme_shadow`...) without derivatives.
        let registry = std::rc::Rc::new(crate::rules::registry::Registry::build(m));
        let queried =
            crate::modes::iface::shadows::lower_after(&mut Session::new(m, opts, registry));
        let queried = crate::modes::iface::iter::lower_after(m) | queried;
        let queried = crate::modes::iface::todense::lower_after(m, &mut Vec::new()) | queried;
        return lowered
            | queried
            | (deferred.is_empty() && crate::modes::hints::erase_annotations(m));
    }
    log::info!("enzyme-rs: {} differentiation call(s)", calls.len());
    let t0 = std::time::Instant::now();
    let registry = std::rc::Rc::new(crate::rules::registry::Registry::build(m));
    let _installed = crate::rules::registry::install(registry.clone());
    let mut sess = Session::new(m, opts, registry);
    sess.higher_order = higher_order(&calls);
    if sess.higher_order {
        log::debug!("enzyme-rs: derivatives are differentiated again: no automatic re-run");
    }
    // Innermost first: a call whose target still reaches another enzyme
    // call waits until that one is rewritten.
    while !calls.is_empty() {
        let pos = calls.iter().position(|(c, _)| {
            let target = call_target(*c);
            match target {
                Some(t) => !reaches_enzyme_call(t, &mut Default::default()),
                None => true,
            }
        });
        let Some(pos) = pos else {
            if !deferred.is_empty() {
                // The calls left wait on deferred ones: they wait too.
                deferred.extend(calls.drain(..).map(|(c, _)| c));
                break;
            }
            // Every call left differentiates a function that still reaches
            // one of them: a cycle (a function differentiating itself).
            let (call, _) = calls.remove(0);
            let target = call_target(call).map(name).unwrap_or_default();
            let e = Error::bad_call(
                call,
                format!(
                    "'{target}' cannot be differentiated here: it (or a function it calls) contains a differentiation call that needs this derivative first (a cycle)"
                ),
            );
            fail_call(&e, call, inst_fn(call));
            continue;
        };
        let (call, mode) = calls.remove(pos);
        let caller = inst_fn(call);
        let before = sess.toplevel_calls.len();
        process(&mut sess, call, mode, on_error, deferred);
        // Higher order: when the caller is itself differentiated by a
        // pending request, inline a forward derivative just placed in it,
        // so the outer derivative sees plain code (a forward derivative
        // returns a {primal, tangent} struct that reverse mode would
        // otherwise have to differentiate through). Reverse-mode pairs stay
        // calls: their tape handling is better differentiated as a call.
        let outer = mode == Mode::Forward
            && calls.iter().any(|(c, _)| {
                call_target(*c)
                    .map(|t| t == caller || calls_transitively(t, caller, &mut Default::default()))
                    .unwrap_or(false)
            });
        if outer && sess.toplevel_calls.len() > before {
            let placed: Vec<(V, V)> = sess.toplevel_calls.drain(before..).collect();
            for (d, c) in placed {
                if !shim::inline_call(d) {
                    sess.toplevel_calls.push((d, c));
                }
            }
        }
    }
    crate::modes::iface::shadows::lower_after(&mut sess);
    crate::modes::iface::iter::lower_after(m);
    let mut gone = Vec::new();
    crate::modes::iface::todense::lower_after(m, &mut gone);
    sess.forget_calls(&gone);
    if deferred.is_empty() {
        crate::modes::hints::erase_annotations(m);
    }
    define_leftover_markers(m);
    log::info!(
        "enzyme-rs: derivatives synthesized in {:.3} s",
        t0.elapsed().as_secs_f64()
    );
    let t1 = std::time::Instant::now();
    cleanup(&mut sess);
    log::info!("enzyme-rs: cleanup in {:.3} s", t1.elapsed().as_secs_f64());
    if let Some(dev) = crate::modes::gpu::device_of(m) {
        crate::modes::gpu::math::lower_device_math(m, dev);
    }
    drop(sess);
    if crate::options::switches::drop_dead() {
        drop_dead_functions(m, &before);
    }
    // Parameters of new functions nothing reads any more (after the
    // session: the functions are replaced).
    crate::modes::reverse::selfargs::drop_unused(m, &before);
    if crate::options::switches::sanitize_derivatives() {
        sanitize_new_functions(m, &before);
    }
    true
}

/// Marker globals (`enzyme_dup`...) are declared, never defined. Loads of
/// them left behind by rewritten calls (at -O0, values passed through the
/// slots of always-inlined wrappers are still stored somewhere) would not
/// link: give those a weak zero definition.
fn define_leftover_markers(m: LLVMModuleRef) {
    for g in globals(m) {
        let n = name(g);
        if !n.starts_with("enzyme_") || users(g).is_empty() {
            continue;
        }
        if global_initializer(g).is_some() {
            continue;
        }
        let ty = global_type(g);
        if !is_int(ty) {
            continue;
        }
        set_initializer(g, zero(ty));
        set_linkage(g, LLVMLinkage::LLVMWeakAnyLinkage);
    }
}

fn process(
    sess: &mut Session,
    call: V,
    mode: Mode,
    on_error: &mut dyn FnMut(Error, V) -> Handling,
    deferred: &mut Vec<V>,
) {
    let caller = inst_fn(call);
    let r = callsite::parse(call, mode).and_then(|req| {
        log::debug!(
            "enzyme-rs: {:?} of '{}' in '{}'",
            mode,
            name(req.func),
            name(caller)
        );
        if let Some(ctx) = req.context {
            crate::modes::iface::shadows::enter_context(sess, call, ctx)?;
        }
        // (Not only when `higher_order`: under LTO the inner gradient may
        // come from a module compiled before.)
        // Forward mode runs the drivers of checkpointed loops on tangents
        // (`modes::loops::tangent`); a fixed point's, and reverse mode over
        // any of them, are refused here, at the outer call's line.
        let forward = mode == Mode::Forward;
        if reaches_loop_runtime(req.func, forward) {
            let what = if forward {
                "forward mode over the gradient of a fixed point (__enzyme_fixed_point) is not supported"
            } else {
                "differentiating that gradient again in reverse mode is not supported (forward over reverse is)"
            };
            return Err(Error::unsupported(
                call,
                format!(
                    "'{}' runs the gradient of a checkpointed loop or fixed point (__enzyme_checkpoint_for, __enzyme_checkpoint_while, __enzyme_fixed_point...), whose reverse sweep the loop runtime drives through function pointers; {what}: differentiate a gradient of the plain loop instead",
                    name(req.func)
                ),
            ));
        }
        modes::run_request(sess, &req).map(|_| ())
    });
    if let Err(e) = r {
        match on_error(e, call) {
            // A self-check derivative that cannot be built is no error.
            Handling::Fail(_) if crate::selfcheck::absorb_failure(call) => {}
            Handling::Fail(e) => fail_call(&e, call, caller),
            Handling::Defer => deferred.push(call),
        }
    }
    sess.delete_doomed();
}

/// Report `e` and replace the call with a zero so the module stays valid.
pub fn fail_call(e: &Error, call: V, caller: V) {
    e.emit_for_call(call, caller);
    let t = type_of(call);
    if !is_void(t) {
        replace_all_uses(call, zero(t));
    }
    erase(call);
}

/// Lay the new functions out in control-flow order (the reverse sweeps run
/// against their layout; see ers_layout_blocks_rpo), fold the reverse sweeps' empty mirrors of branches without active work
/// (e.g. the errno guards -O2 puts around sin/exp), then cut the blocks
/// left into pieces of at most `SPLIT_LIMIT` instructions. mem2reg scans a
/// block from its top for each slot it both stores and loads there, and a
/// straight-line gradient is one block holding every adjoint slot: whole,
/// promotion is quadratic (1.8 s of 2.7 s at 4,000 statements). The later
/// simplifycfg merges the pieces again.
fn prepare_promotion(fns: &mut [V]) {
    const SPLIT_LIMIT: u32 = 256;
    let t = std::time::Instant::now();
    for f in fns.iter() {
        shim::layout_blocks_rpo(*f);
    }
    log::debug!("enzyme-rs: layout {:.3} s", t.elapsed().as_secs_f64());
    if let Err(msg) = shim::run_function_pipeline(fns, "simplifycfg") {
        log::warn!("enzyme-rs: cleanup pipeline failed: {msg}");
    }
    log::debug!("enzyme-rs: simplifycfg {:.3} s", t.elapsed().as_secs_f64());
    for f in fns.iter() {
        shim::split_large_blocks(*f, SPLIT_LIMIT);
    }
    log::debug!("enzyme-rs: split {:.3} s", t.elapsed().as_secs_f64());
}

/// Run a function pipeline; with debug logging, pass by pass with timings.
fn run_timed(fns: &mut [V], pipeline: &str) {
    let mut passes = vec![pipeline.to_string()];
    if log::log_enabled!(log::Level::Debug) {
        passes.clear();
        let (mut depth, mut cur) = (0, String::new());
        for ch in pipeline.chars() {
            match ch {
                '(' | '<' => depth += 1,
                ')' | '>' => depth -= 1,
                ',' if depth == 0 => {
                    passes.push(std::mem::take(&mut cur));
                    continue;
                }
                _ => {}
            }
            cur.push(ch);
        }
        passes.push(cur);
    }
    for p in passes {
        let (t, c) = (std::time::Instant::now(), thread_cpu_s());
        if let Err(msg) = shim::run_function_pipeline(fns, &p) {
            log::warn!("enzyme-rs: cleanup pipeline failed: {msg}");
        }
        log::debug!(
            "enzyme-rs: {p}: {:.3} s ({:.3} s CPU)",
            t.elapsed().as_secs_f64(),
            thread_cpu_s() - c
        );
    }
}

/// CPU seconds this thread has run (Linux; 0 elsewhere): the timings of
/// [`run_timed`] on a loaded machine.
fn thread_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns * 1e-9)
}

/// At -O1 and above: inline the tape helpers, inline each derivative into
/// the user's call site (so the tape lives in registers where it can), then
/// simplify the new code (the rest of LLVM's pipeline optimizes it further).
fn cleanup(sess: &mut Session) {
    if sess.opts.no_cleanup || sess.created.is_empty() {
        return;
    }
    drop_dead_created(sess);
    if sess.opts.opt_level == 0 {
        // -O0: only promote the derivatives' adjoint slots and local
        // variables to registers; unpromoted, each recursion level of a
        // derivative keeps a frame several times its primal's (a deep
        // recursion overflowed the stack under AddressSanitizer).
        // mem2reg grows faster than linearly with the slots of a huge
        // function (a 2,000-statement gradient: 8 s); those keep theirs.
        const PROMOTE_LIMIT: usize = 10_000;
        let mut fns: Vec<V> = sess
            .created
            .iter()
            .copied()
            .filter(|f| instruction_count(*f) <= PROMOTE_LIMIT)
            .collect();
        prepare_promotion(&mut fns);
        if let Err(msg) = shim::run_function_pipeline(&mut fns, "mem2reg") {
            log::warn!("enzyme-rs: -O0 cleanup failed: {msg}");
        }
        mark_for_codegen_split(&sess.created);
        return;
    }
    let helpers = [
        crate::modes::reverse::tape::RESERVE,
        crate::modes::reverse::tape::POP,
        crate::modes::reverse::tape::TAKE,
        crate::modes::reverse::tape::GIVE,
        crate::modes::reverse::tape::ENSURE,
        crate::modes::reverse::tape::BUMP,
    ];
    let inline_helpers_in = |f: V| {
        for bb in blocks(f) {
            for i in instructions(bb) {
                if let Some(c) = called_function(i) {
                    if helpers.contains(&name(c).as_str()) {
                        shim::inline_call(i);
                    }
                }
            }
        }
    };
    for f in sess.created.clone() {
        inline_helpers_in(f);
    }
    // adce before the loop passes: once the primal's unused results are
    // gone, a loop that only counts iterations is folded by indvars and
    // deleted.
    let full = "sroa,early-cse<memssa>,instcombine,simplifycfg,adce,loop-simplify,lcssa,\
                loop(indvars,loop-deletion),gvn,instcombine,simplifycfg,adce";
    // After inlining into the user's function: promote the tape, drop the
    // primal work nobody uses, fold counting loops (no GVN over user code).
    let light = "sroa,early-cse<memssa>,instcombine,simplifycfg,adce,loop-simplify,lcssa,\
                 loop(indvars,loop-deletion),instcombine,simplifycfg";
    // Huge derivatives (a straight-line gradient of thousands of
    // statements) only get their slots promoted and the obvious folded:
    // instcombine and GVN grow faster than linearly on them (8,000
    // statements: 2.4 s CPU of the cleanup's 3 s, against 0.5 s at 4,000),
    // and the rest of LLVM's pipeline runs instcombine over them anyway.
    const HUGE: usize = 20_000;
    let huge_pipeline = "sroa,early-cse<memssa>,simplifycfg,adce";
    drop_unread_results(&sess.created);
    if crate::options::switches::unread_fields() {
        drop_unread_fields(&sess.created);
    }
    // Parameters a recursive derivative only passes to itself.
    crate::modes::reverse::selfargs::run(&sess.created);
    fold_constant_args(&sess.created);
    // The tape object of sweeps in registers once SROA runs, whether or
    // not they are inlined below.
    let mut sweeps: Vec<V> = sess
        .rev_cache
        .values()
        .chain(sess.zeroed_pairs.values())
        .flat_map(|p| {
            [p.aug, p.rev]
                .into_iter()
                .chain(p.lane_revs.iter().copied())
        })
        .filter(|f| sess.created.contains(f))
        .collect();
    sweeps.sort();
    sweeps.dedup();
    crate::modes::reverse::tapelocal::run(&sweeps);
    let mut fns = sess.created.clone();
    prepare_promotion(&mut fns);
    // Cold functions (the re-run pair a dispatch calls only for tapes over
    // the budget, `rerun::mark_cold`) get the light pipeline of huge ones:
    // LLVM's own pipeline optimizes them for size anyway.
    let cold_light = crate::options::switches::cold_light_cleanup();
    let (mut huge, mut fns): (Vec<V>, Vec<V>) = fns
        .into_iter()
        .partition(|f| instruction_count(*f) > HUGE || (cold_light && fn_has_attr(*f, "cold")));
    // ENZYME_RS_CLEANUP_PIPELINE replaces the pipeline (compile-time
    // experiments, bench/compile_scaling.sh).
    let custom = crate::options::switches::cleanup_pipeline();
    run_timed(&mut fns, custom.as_deref().unwrap_or(full));
    // Scatter-accumulating loops (reverse stencils) in gather form.
    for f in &fns {
        crate::modes::reverse::gather::run(*f);
        crate::modes::reverse::decisions::guard_selection_adds(*f);
        // Reverse loops whose iterations commute, in the primal's order;
        // not in a sweep another derivative calls in a loop (its reverse
        // loop counts down: rows down and each row up walks memory slower
        // than all down, matvec 1000 +30%).
        if !crate::options::switches::forward_reverse_loops() {
            continue;
        }
        let in_derivative_loop = users(*f).into_iter().find(|u| {
            is_instruction(*u)
                && sess.created.contains(&inst_fn(*u))
                && shim::Loops::new(inst_fn(*u)).depth(inst_block(*u)) > 0
        });
        let (turned, left) = shim::forward_reverse_loops(*f, in_derivative_loop.is_none());
        if let Some(u) = in_derivative_loop {
            log::debug!(
                "enzyme-rs: reverse loops of {} count down: called in a loop of {}",
                name(*f),
                name(inst_fn(u))
            );
        }
        if turned > 0 {
            log::debug!(
                "enzyme-rs: {turned} reverse loop(s) of {} in forward order",
                name(*f)
            );
        }
        for l in left {
            log::debug!("enzyme-rs: reverse loop {l} ({}): counts down", name(*f));
        }
    }
    if !huge.is_empty() {
        log::debug!("enzyme-rs: {} huge function(s)", huge.len());
        // (Their loops keep counting down; the marks go.)
        for f in &huge {
            if crate::options::switches::forward_reverse_loops() {
                shim::forward_reverse_loops(*f, false);
            }
        }
        run_timed(&mut huge, custom.as_deref().unwrap_or(huge_pipeline));
    }
    let mut callers = Vec::new();
    // The tape take/give at each user call site are helpers too.
    let mut sites: Vec<V> = sess.toplevel_calls.iter().map(|(_, c)| *c).collect();
    sites.dedup();
    for c in sites {
        inline_helpers_in(c);
    }
    // The caller's zeroing of a shadow folded into the gradient.
    crate::modes::reverse::zfuse::run(sess);
    // Small derivatives, and any called in a loop, are inlined into the
    // user's call site (the tape then lives in registers, loops vectorize
    // across the sweep); large ones called once stay calls, which keeps the
    // compile time of big gradients down.
    // `-enzyme-inline` inlines every one; ENZYME_RS_NO_INLINE none.
    //
    // One derivative called from many sites (a benchmark harness's warm-up,
    // timed and checking calls, each already inlined by LLVM into several
    // callers) would be copied, and each copy optimized and compiled, once
    // per site. Sites in loops (the hot ones) come first and keep the rule
    // above; a site outside any loop gets a further copy only while all the
    // copies together stay within ENZYME_RS_INLINE_COPIES_BUDGET
    // instructions (else it calls the one shared derivative, whose call
    // costs nothing next to its body there).
    let no_inline = crate::options::switches::no_inline();
    let budget = crate::options::switches::inline_copies_budget();
    const INLINE_LIMIT: usize = 600;
    // The calls one site placed (the augmented call and its reverse calls)
    // sit in one block of the caller: decided together.
    struct Site {
        caller: V,
        block: BB,
        calls: Vec<V>,
        depth: u32,
    }
    let hot_sites = crate::options::switches::hot_sites();
    let mut site_list: Vec<Site> = Vec::new();
    let mut loops: Vec<(V, shim::Loops)> = Vec::new();
    for (call, caller) in std::mem::take(&mut sess.toplevel_calls) {
        let block = inst_block(call);
        // (A site's calls were pushed one after the other; the same
        // derivative again starts the next site.)
        if let Some(s) = site_list.last_mut().filter(|s| {
            s.caller == caller
                && s.block == block
                && !s
                    .calls
                    .iter()
                    .any(|c| called_function(*c) == called_function(call))
        }) {
            s.calls.push(call);
            continue;
        }
        let depth = match loops.iter().find(|(f, _)| *f == caller) {
            Some((_, l)) => l.depth(block),
            None => {
                let l = shim::Loops::new(caller);
                let d = l.depth(block);
                loops.push((caller, l));
                d
            }
        };
        site_list.push(Site {
            caller,
            block,
            calls: vec![call],
            depth,
        });
    }
    drop(loops);
    let group_size = |s: &Site| -> usize {
        s.calls
            .iter()
            .filter_map(|c| called_function(*c))
            .map(instruction_count)
            .sum()
    };
    let key_of = |s: &Site| -> Vec<V> {
        let mut key: Vec<V> = s.calls.iter().filter_map(|c| called_function(*c)).collect();
        key.sort();
        key
    };
    // A derivative that contains a loop does work per call that scales
    // with the data: a call to one shared body costs next to nothing
    // there (+13..45 instructions per call measured, bench/results/
    // compile.md "Round 3"), while every inlined copy is optimized and
    // compiled again. Such sites are "shared" (ENZYME_RS_HOT_SITES),
    // except where the caller's context changes the derivative: a site
    // zero fusion fused (its callee is the `.zfuse` copy; inlined, the
    // caller's zeroing folds into the sweep). Loop-free derivatives keep
    // the rule below (a constant seed from the caller folds much of
    // their sweep), and so do small vector forward ones (<= INLINE_LIMIT):
    // an 8-lane tangent sweep out of line loses what the caller knows of
    // its tangent pointers (stencil's +22%, ode's +19% per direction).
    let mut looped: Vec<(V, bool)> = Vec::new();
    let mut has_loop = |f: V| -> bool {
        if let Some((_, l)) = looped.iter().find(|(g, _)| *g == f) {
            return *l;
        }
        let loops = shim::Loops::new(f);
        let l = blocks(f).into_iter().any(|b| loops.depth(b) > 0);
        looped.push((f, l));
        l
    };
    // A scalar forward sweep (`enzyme_rs.fwd.*`, one tangent pointer) of
    // some size is as fast out of line (enzyme_fwd per direction, gmm's
    // faster, compile.md "Round 4"): shared like reverse derivatives.
    // Tiny ones (< ENZYME_RS_SHARE_FWD instructions, default 100) stay
    // inlined: their copies cost little to compile, and stencil's
    // 61-instruction sweep out of line was +2.9% per direction (loop
    // strength reduction picked a worse induction variable).
    let share_fwd = crate::options::switches::share_fwd();
    let inlined_forward = |s: &Site, key: &[V]| -> bool {
        let size = group_size(s);
        key.iter().any(|f| {
            let n = name(*f);
            n.starts_with("enzyme_rs.fwd")
                && !(n.starts_with("enzyme_rs.fwd.") && share_fwd.is_some_and(|m| size >= m))
        }) && size <= INLINE_LIMIT
    };
    // A fused site outside loops (a harness's warm-up or checking call)
    // calls the shared fused copy; fused sites in loops stay inlined
    // (out of line, logsumexp's fused sweep is +1.2% per call).
    // ENZYME_RS_SHARE_COLD_FUSED=0: every fused site inlined.
    let share_cold_fused = crate::options::switches::share_cold_fused();
    let share = hot_sites != crate::options::switches::HotSites::Off && !sess.opts.inline;
    let shared: Vec<bool> = site_list
        .iter()
        .map(|s| {
            let key = key_of(s);
            let fused = key.iter().any(|f| name(*f).contains(".zfuse"));
            log::debug!(
                "enzyme-rs: site in '{}': {:?} fused {fused} depth {} loop {}",
                name(s.caller),
                key.iter().map(|f| name(*f)).collect::<Vec<_>>(),
                s.depth,
                key.iter().any(|f| has_loop(*f))
            );
            share
                && (!fused || (share_cold_fused && s.depth == 0))
                && !inlined_forward(s, &key)
                && key.iter().any(|f| has_loop(*f))
        })
        .collect();
    let mut site_list: Vec<(Site, bool)> = site_list.into_iter().zip(shared).collect();
    // Sites per derivative: one alone is inlined (its body then goes).
    let mut site_count: Vec<(Vec<V>, usize)> = Vec::new();
    for (s, _) in &site_list {
        let key = key_of(s);
        match site_count.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => site_count.push((key, 1)),
        }
    }
    // A small derivative in a loop pays a call every iteration: inlined at
    // every such site. A large one in a loop, or any outside loops, is
    // copied under the budget. Hot sites first, then large ones in loops
    // (shared ones the deepest first), then the rest (stable: the order
    // of the calls otherwise).
    let hot = |s: &Site, shared: bool| !shared && s.depth > 0 && group_size(s) <= INLINE_LIMIT;
    site_list.sort_by_cached_key(|(s, sh)| {
        (
            !hot(s, *sh),
            s.depth == 0,
            std::cmp::Reverse(if *sh { s.depth } else { 0 }),
        )
    });
    let mut copies: Vec<(Vec<V>, usize)> = Vec::new();
    for (site, shared) in site_list {
        let key = key_of(&site);
        let size: usize = key.iter().map(|f| instruction_count(*f)).sum();
        let made = copies
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |(_, n)| *n);
        if shared {
            let sites = site_count
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(1, |(_, n)| *n);
            let leave = match hot_sites {
                crate::options::switches::HotSites::One => made > 0,
                _ => sites > 1,
            };
            if leave {
                log::debug!(
                    "enzyme-rs: derivative with a loop ({size} instructions, {sites} sites) left a call in '{}' (loop depth {})",
                    name(site.caller),
                    site.depth
                );
                continue;
            }
        }
        if let (Some(limit), false, false) = (budget, sess.opts.inline, hot(&site, shared)) {
            if made > 0 && size * (made + 1) > limit {
                log::debug!(
                    "enzyme-rs: derivative of {size} instructions left a call in '{}' ({made} copies inlined)",
                    name(site.caller)
                );
                continue;
            }
        }
        log::debug!(
            "enzyme-rs: site in '{}' (loop depth {}): {} call(s), {size} instructions, {made} copies so far",
            name(site.caller),
            site.depth,
            site.calls.len()
        );
        let mut inlined = false;
        for call in site.calls {
            let small = called_function(call)
                .map(|f| instruction_count(f) <= INLINE_LIMIT)
                .unwrap_or(false);
            let dispatch = called_function(call).is_some_and(|f| {
                crate::ir::attrs::fn_string_attr(f, crate::modes::reverse::rerun_cost::DISPATCH)
                    .is_some()
            });
            if dispatch && !sess.opts.inline {
                continue;
            }
            if !no_inline
                && (small || sess.opts.inline || site.depth > 0)
                && shim::inline_call(call)
            {
                inlined = true;
            }
        }
        if inlined {
            match copies.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => copies.push((key, 1)),
            }
            if !callers.contains(&site.caller) {
                callers.push(site.caller);
            }
        }
    }
    for c in &callers {
        inline_helpers_in(*c);
    }
    // Derivatives now inlined everywhere need no body of their own.
    let mut live = Vec::new();
    for f in std::mem::take(&mut sess.created) {
        if users(f).is_empty() {
            delete_function(f);
        } else {
            live.push(f);
        }
    }
    sess.created = live;
    run_timed(&mut callers, light);
    crate::modes::openmp::deadslot::drop_unread_slot_stores(sess.module);
    let mut fns = sess.created.clone();
    if chain_early() && crate::modes::gpu::device_of(sess.module).is_none() {
        for f in &sess.created {
            fns.extend(chain_for_codegen(*f, outline::chunk_calls()));
        }
    }
    mark_for_codegen_split(&fns);
}

/// Parameters of new functions that every call passes the same constant
/// (the seed 1.0 `__enzyme_autodiff` gives the reverse sweep, the context
/// global of a benchmark) are replaced by that constant, so a derivative
/// left a call (not inlined) folds it as an inlined copy would; LLVM's
/// interprocedural constant propagation ran before the derivatives
/// existed. Only functions used by direct calls alone; repeated while a
/// folded argument makes another call's argument constant.
/// `ENZYME_RS_CONST_ARGS=0` turns this off.
fn fold_constant_args(fns: &[V]) {
    if !crate::options::switches::const_args() {
        return;
    }
    let plain_const = |v: V| {
        const_real_value(v).is_some()
            || const_int_value(v).is_some()
            || is_global_var(v)
            || is_function(v)
    };
    loop {
        let mut changed = false;
        for f in fns {
            let calls = users(*f);
            if calls.is_empty()
                || blocks(*f).is_empty()
                || !calls
                    .iter()
                    .all(|u| is_call(*u) && called_value(*u) == *f && !call_args(*u).contains(f))
            {
                continue;
            }
            for (i, p) in params(*f).into_iter().enumerate() {
                let first = operand(calls[0], i as u32);
                if users(p).is_empty()
                    || !plain_const(first)
                    || !calls.iter().all(|u| operand(*u, i as u32) == first)
                {
                    continue;
                }
                log::debug!(
                    "enzyme-rs: {} parameter {i} is a constant at every call",
                    name(*f)
                );
                replace_all_uses(p, first);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// New functions whose result no call reads (an augmented sweep's primal
/// value, which `__enzyme_autodiff` drops) return poison instead, so the
/// cleanup deletes the work only that value needed: a derivative left a
/// call (not inlined) then no longer computes its primal result for
/// nothing. Repeated while one function's change frees another's result
/// (a dispatcher returning what the sweep it picks returns).
fn drop_unread_results(fns: &[V]) {
    let unread = |f: V| {
        !is_void(fn_return_type(f))
            && users(f)
                .into_iter()
                .all(|u| is_call(u) && called_value(u) == f && !has_uses(u))
    };
    let mut done: Vec<V> = Vec::new();
    loop {
        let todo: Vec<V> = fns
            .iter()
            .copied()
            .filter(|f| !done.contains(f) && unread(*f))
            .collect();
        if todo.is_empty() {
            return;
        }
        for f in todo {
            let t = fn_return_type(f);
            for bb in blocks(f) {
                let r = terminator(bb);
                if opcode(r) == Some(LLVMOpcode::LLVMRet) && num_operands(r) == 1 {
                    crate::ir::values::set_operand(r, 0, crate::ir::values::poison(t));
                }
            }
            done.push(f);
        }
    }
}

/// Fields of a struct result that no call reads (a forward derivative
/// returns `{primal, tangent}`, `__enzyme_fwddiff` reads the tangent
/// alone) are returned as poison, so the cleanup deletes the work only
/// they needed: a forward sweep left a call (not inlined) no longer
/// computes the primal result for nothing (sumsq's scalar forward: 2 of
/// 4 floating-point operations per element).
/// Only functions whose every use is a direct call (not also passing
/// the function) whose every use is an `extractvalue`.
/// `ENZYME_RS_UNREAD_FIELDS=0` turns this off.
fn drop_unread_fields(fns: &[V]) {
    for &f in fns {
        let t = fn_return_type(f);
        if !is_struct(t) {
            continue;
        }
        let fields = struct_fields(t);
        let mut read = vec![false; fields.len()];
        let calls = users(f);
        let all_extracts = !calls.is_empty()
            && calls.iter().all(|&c| {
                is_call(c)
                    && called_value(c) == f
                    && operands(c).iter().filter(|o| **o == f).count() == 1
                    && users(c).into_iter().all(|e| {
                        opcode(e) == Some(LLVMOpcode::LLVMExtractValue)
                            && match crate::ir::values::indices(e).first() {
                                Some(&i) if (i as usize) < read.len() => {
                                    read[i as usize] = true;
                                    true
                                }
                                _ => false,
                            }
                    })
            });
        if !all_extracts || read.iter().all(|r| *r) {
            continue;
        }
        let b = crate::ir::Builder::for_function(f);
        for bb in blocks(f) {
            let r = terminator(bb);
            if opcode(r) != Some(LLVMOpcode::LLVMRet) || num_operands(r) != 1 {
                continue;
            }
            // Built up from poison with the read fields alone (inserting
            // poison over a field would fold back to the old value).
            b.before(r);
            let old = operand(r, 0);
            let mut v = crate::ir::values::poison(t);
            for (i, _) in fields.iter().enumerate().filter(|(i, _)| read[*i]) {
                let x = b.extract_value(old, i as u32);
                v = b.insert_value(v, x, i as u32);
            }
            crate::ir::values::set_operand(r, 0, v);
        }
        log::debug!(
            "enzyme-rs: '{}' returns {} of {} fields unread: poison",
            name(f),
            read.iter().filter(|r| !**r).count(),
            read.len()
        );
    }
}

/// Whether huge derivatives are cut into a chain right after the enzyme
/// pass (before the late optimizer: the SLP vectorizer is superlinear in
/// them too) rather than only at the end of the optimizer
/// (`ENZYME_RS_CHAIN_EARLY=0`: only at the end).
fn chain_early() -> bool {
    crate::options::switches::chain_early()
}

/// The longest block [`split_for_codegen`] leaves; 0 (from
/// `ENZYME_RS_CODEGEN_BLOCK_LIMIT`) leaves blocks whole.
fn codegen_block_limit() -> u32 {
    crate::options::switches::codegen_block_limit()
}

/// Mark the new functions that hold a block longer than the limit, or
/// more calls than `ir::outline::chunk_calls`, for [`split_for_codegen`].
/// A straight-line gradient is a few huge blocks (the reverse sweep of N
/// statements is one), and LLVM's code generator is quadratic in the length
/// of a block: at 6,000 statements LLVM 16's two-address pass alone took
/// 3.5 s of the reverse function's 5.2 s, 0.4 s once cut. The cut waits for
/// the end of the pipeline: before that, instcombine sinks values into the
/// pieces that use them and simplifycfg deletes the pieces emptied.
fn mark_for_codegen_split(fns: &[V]) {
    let limit = codegen_block_limit() as usize;
    let calls = outline::chunk_calls();
    for f in fns {
        let long = limit > 0
            && blocks(*f)
                .into_iter()
                .any(|b| instructions(b).len() > limit);
        if long || (calls > 0 && outline::count_calls(*f) > calls) {
            crate::ir::pin::mark(*f);
        }
    }
}

/// At the end of the optimizer (before code generation): cut the blocks
/// of the functions [`mark_for_codegen_split`] marked into pieces of at
/// most the limit, kept apart until code generation (`ir::pin`); then cut
/// those with more calls (or instructions) than `ir::outline::chunk_calls`
/// allows into a chain of functions (`ir::outline`). GPU targets keep their
/// functions whole (they cannot take a block's address). Returns whether
/// the module changed.
pub fn split_for_codegen(m: LLVMModuleRef) -> bool {
    let marked = crate::ir::pin::take_marked(m);
    let limit = codegen_block_limit();
    let calls = outline::chunk_calls();
    if marked.is_empty() || (limit == 0 && calls == 0) || crate::modes::gpu::device_of(m).is_some()
    {
        return !marked.is_empty();
    }
    for f in marked {
        // InstCombine sinks the arithmetic of a whole straight-line sweep
        // into the returning block, far from the values it reads.
        // ENZYME_RS_UNSINK=1 moves it back (1,192 -> 84 values live at
        // once at 8,000 statements), but interleaved with the sweep's libm
        // calls it costs code generation more than it saves (N=16,000:
        // slower), so it is off by default (bench/results/compile_scaling.md).
        let t = std::time::Instant::now();
        let moved = if crate::options::switches::unsink() {
            shim::hoist_sunk_into_returns(f)
        } else {
            0
        };
        log::debug!(
            "enzyme-rs: {moved} instruction(s) hoisted back in {:.3} s",
            t.elapsed().as_secs_f64()
        );
        let before: std::collections::HashSet<BB> = blocks(f).into_iter().collect();
        let pieces: Vec<BB> = if limit > 0 && shim::split_large_blocks(f, limit) > 0 {
            blocks(f)
                .into_iter()
                .filter(|b| !before.contains(b))
                .collect()
        } else {
            Vec::new()
        };
        let chained = chain_for_codegen(f, calls);
        // The pieces now lie in `f` and in its chain: pin each in its own.
        for g in std::iter::once(f).chain(chained) {
            let own: Vec<BB> = pieces
                .iter()
                .copied()
                .filter(|b| block_fn(*b) == g)
                .collect();
            crate::ir::pin::pin_blocks(g, &own);
        }
    }
    true
}

/// Cut `f` into a chain of functions of at most `calls` calls (and
/// `calls * INSTS_PER_CALL` instructions) each when it holds more
/// (`ir::outline`; 0: never). Its blocks are cut first, so that a single
/// huge block has places to cut at. Returns the new functions.
fn chain_for_codegen(f: V, calls: u32) -> Vec<V> {
    if calls == 0 {
        return Vec::new();
    }
    let max_insts = calls.saturating_mul(outline::INSTS_PER_CALL);
    let n_calls = outline::count_calls(f);
    let n_insts = instruction_count(f);
    if n_calls <= calls && n_insts <= max_insts as usize {
        return Vec::new();
    }
    let t = std::time::Instant::now();
    // Places to cut at: blocks of at most a sixteenth of a chunk (and
    // of the codegen limit).
    let limit = match codegen_block_limit() {
        0 => 256,
        l => l,
    };
    shim::split_large_blocks(f, limit.min((max_insts / 16).max(8)));
    let made = outline::chain(f, calls, max_insts);
    log::debug!(
        "enzyme-rs: {} ({n_calls} calls, {n_insts} instructions) cut into a chain of {} function(s) in {:.3} s",
        name(f),
        made.len(),
        t.elapsed().as_secs_f64()
    );
    made
}
