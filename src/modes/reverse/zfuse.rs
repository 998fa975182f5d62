//! Zero fusion: the caller's zeroing of a shadow folded into the gradient
//! (issue 16, item 3).
//!
//! Enzyme's usual reverse call zeroes the shadow first and lets the
//! derivative add into it:
//! `memset(out, 0, n*8); __enzyme_autodiff(f, enzyme_dup, x, out, ...)`.
//! The derivative then reads, adds to and writes every element once
//! (`out[i] += ...`), after a full pass of the memset: three passes over
//! `out` where a hand-written gradient (`g[i] = ...`) makes one.
//!
//! 1. At the call site ([`zeroing_before`], before the calls are placed):
//!    the call has one shadow argument, a `memset(p, 0, len)` of exactly
//!    that pointer comes before it with nothing between that may write
//!    memory, no other argument points into p's underlying object, and
//!    that object is not captured in the caller (stored into memory, passed
//!    to another call). Recorded as a [`Site`].
//! 2. After the derivatives are cleaned up ([`run`], -O1 and above, before
//!    they are inlined into their callers): the code between the memset and
//!    the reverse call writes only the caller's locals, the augmented sweep
//!    never touches the shadow parameter, and the reverse function reaches
//!    the shadow's memory only through accumulations
//!    `store (load q) + v, q` (no other load, store, call or escape of a
//!    pointer derived from it). A copy of the reverse function taking the
//!    zeroing length last is then guarded (cpp/zfuse.cc, ScalarEvolution):
//!    the accumulations' stores must all be in one outermost loop L or in
//!    loops nested directly in it, run on every iteration of their loop
//!    (its one exit dominating the latch) at affine addresses of stride
//!    +-element size, and their ranges must chain from the shadow without
//!    gap or overlap, so each element is written exactly once. In a nested
//!    loop, a store's inner range either moves with L and the rows tile
//!    one range (A-bar_ij of a matrix-vector product), or is the same in
//!    every iteration of L (v-bar_j += A_ij y-bar_i): then L's first
//!    iteration, which must run the inner loop, adds to 0.0 instead of
//!    the loaded value (`select(first, 0.0, load)`), the later ones add.
//!    Where the loop is reached and the ranges' size equals the zeroing
//!    length (checked at run time), the copy writes `v` instead of
//!    `load + v` and nothing is zeroed; otherwise (a partial zeroing, a
//!    skipped loop) the copy zeroes the length itself and, before the
//!    loop, calls the original reverse function (nothing with side effects
//!    runs before the loop: checked). The caller's memset is deleted and
//!    the call goes to the copy. Anything unproven leaves the call as it
//!    was.
//!
//! Assumed, as Enzyme does: shadow memory is not primal memory the
//! function reads or writes through other arguments (a shadow argument
//! aliasing an argument whose underlying object is visibly the same is
//! refused; one reached through an unrelated pointer cannot be seen).
//!
//! A shadow-tape pair (rev/shadowtape.rs), whose augmented sweep stores
//! kept values into the shadow, is fused differently ([`fused_kept_copy`]):
//! where that store writes every element of the zeroing, the zeroing is
//! not needed; a copy of aug zeroes the shadow itself otherwise. Its
//! reverse loops' per-element range tests are versioned first
//! ([`split_kept_checks`]).
//!
//! `-Rpass=enzyme` reports each fused zeroing; `ENZYME_RS_FUSE_ZERO=0`
//! (`-enzyme-rs-fuse-zero=0`) turns this off (`ENZYME_RS_FUSE_KEPT=0`
//! only the shadow-tape pairs' fusion).
use super::super::Session;
use crate::analysis::activity::underlying_objects;
use crate::analysis::ptruse::{self, Flow};
use crate::callsite::Request;
use crate::ir::globals::add_internal_function;
use crate::ir::llvm::*;
use crate::ir::shim::{self, RemarkKind};
use crate::ir::Builder;
use std::collections::HashMap;

/// A call site whose shadow argument is zeroed just before the call.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    /// The caller's `memset(p, 0, len)`.
    pub memset: V,
    /// The zeroing length (the memset's length operand).
    pub len: V,
    /// The shadow argument's position among the aug/rev arguments.
    pub pos: usize,
    /// The calls placed for the request.
    pub aug: V,
    pub rev: V,
}

/// A call to `llvm.memset.*` storing the byte 0, not volatile.
fn zeroing_memset(i: V) -> bool {
    is_call(i)
        && called_function(i).is_some_and(|f| name(f).starts_with("llvm.memset."))
        && call_num_args(i) >= 4
        && const_int_value(operand(i, 1)) == Some(0)
        && const_int_value(operand(i, 3)) == Some(0)
}

/// Whether an instruction may write memory (conservatively: every call).
fn may_write(i: V) -> bool {
    match opcode(i) {
        Some(
            LLVMOpcode::LLVMStore
            | LLVMOpcode::LLVMAtomicRMW
            | LLVMOpcode::LLVMAtomicCmpXchg
            | LLVMOpcode::LLVMFence
            | LLVMOpcode::LLVMVAArg
            | LLVMOpcode::LLVMInvoke,
        ) => true,
        Some(LLVMOpcode::LLVMCall) => !(is_debug_intrinsic(i) || is_lifetime_marker(i)),
        _ => false,
    }
}

/// Whether a local or heap block `o` is used only through addresses that
/// load, store into it, are zeroed, or are passed to `call`.
fn uncaptured(o: V, call: V) -> bool {
    ptruse::walk([o], |u, v, w| {
        match opcode(u) {
            Some(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMBitCast
                | LLVMOpcode::LLVMAddrSpaceCast,
            ) if operand(u, 0) == v => w.follow(u),
            Some(LLVMOpcode::LLVMLoad) => {}
            Some(LLVMOpcode::LLVMStore) if operand(u, 0) != v => {}
            Some(LLVMOpcode::LLVMCall)
                if u == call
                    || zeroing_memset(u)
                    || is_lifetime_marker(u)
                    || is_debug_intrinsic(u) => {}
            _ => return Flow::Stop,
        }
        Flow::Continue
    })
}

/// Step 1: the memset zeroing the call's one shadow argument right before
/// it, and that argument's position among the derivative's arguments.
pub fn zeroing_before(sess: &Session, req: &Request, lanes: usize) -> Option<(V, usize)> {
    if !sess.opts.fuse_zero
        || sess.opts.opt_level == 0
        || lanes != 1
        || crate::modes::gpu::is_device(sess.module)
    {
        return None;
    }
    // Position in the derivative's arguments: each primal, followed by
    // its shadow.
    let mut pos = 0;
    let mut found = None;
    for a in &req.args {
        pos += 1;
        if a.activity.has_shadow() {
            if found.is_some() || a.shadows.len() != 1 {
                return None;
            }
            found = Some((a.shadows[0], pos));
            pos += 1;
        }
    }
    let (p, pos) = found?;
    if !is_ptr(type_of(p)) {
        return None;
    }
    let objs = underlying_objects(p);
    let [o] = objs[..] else { return None };
    for a in &req.args {
        if is_ptr(type_of(a.primal)) && underlying_objects(a.primal).contains(&o) {
            return None;
        }
    }
    // Not captured in the caller (for a local or heap block: anywhere; for
    // an argument or a loaded pointer: in this function), so the primal
    // cannot read the memory the memset zeroes through another argument
    // (a pointer to it stored in a struct the call receives, say).
    if !uncaptured(o, req.call) {
        return None;
    }
    let insts = instructions(inst_block(req.call));
    let at = insts.iter().position(|i| *i == req.call)?;
    for i in insts[..at].iter().rev() {
        if zeroing_memset(*i) && strip_casts(operand(*i, 0)) == strip_casts(p) {
            log::debug!("enzyme-rs: zfuse: zeroing before {}", print_value(req.call));
            return Some((*i, pos));
        }
        if may_write(*i) {
            return None;
        }
    }
    None
}

/// Whether a pointer parameter's value reaches no memory access, call or
/// escape (only address computations that go unused).
fn untouched(p: V) -> bool {
    users(p).into_iter().all(|u| {
        matches!(
            opcode(u),
            Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast)
        ) && operand(u, 0) == p
            && untouched(u)
    })
}

/// One accumulation `st: store (ld + v), q` with `ld: load q`.
pub(super) struct Acc {
    pub(super) ld: V,
    pub(super) add: V,
    pub(super) st: V,
    pub(super) v: V,
}

/// `st` as an accumulation `store (ld + v), q` with `ld: load q` one of
/// `is_load`, in `st`'s block with nothing between them that may write
/// memory; None otherwise.
pub(super) fn accumulation(st: V, is_load: impl Fn(V) -> bool) -> Option<Acc> {
    if is_volatile(st) || !is_not_atomic(st) {
        return None;
    }
    let add = operand(st, 0);
    if opcode(add) != Some(LLVMOpcode::LLVMFAdd) || users(add).len() != 1 {
        return None;
    }
    let q = operand(st, 1);
    let (a, b) = (operand(add, 0), operand(add, 1));
    let is_ld = |x: V| {
        is_load(x)
            && operand(x, 0) == q
            && users(x).len() == 1
            && !is_volatile(x)
            && is_not_atomic(x)
            && inst_block(x) == inst_block(st)
    };
    let (ld, v) = if is_ld(a) && a != b {
        (a, b)
    } else if is_ld(b) && a != b {
        (b, a)
    } else {
        return None;
    };
    let insts = instructions(inst_block(st));
    let i0 = insts.iter().position(|x| *x == ld)?;
    let i1 = insts.iter().position(|x| *x == st)?;
    if i0 > i1 || insts[i0 + 1..i1].iter().any(|x| may_write(*x)) {
        return None;
    }
    Some(Acc { ld, add, st, v })
}

/// The accumulations through which alone `s`'s memory is reached in its
/// function, or None when anything else uses a pointer derived from it.
fn accumulations(s: V) -> Option<Vec<Acc>> {
    let mut loads = Vec::new();
    let mut stores = Vec::new();
    let all_known = ptruse::walk([s], |u, v, w| {
        match opcode(u) {
            Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast) if operand(u, 0) == v => {
                w.follow(u)
            }
            Some(LLVMOpcode::LLVMLoad) => loads.push(u),
            Some(LLVMOpcode::LLVMStore) if operand(u, 1) == v && operand(u, 0) != v => {
                stores.push(u)
            }
            _ => return Flow::Stop,
        }
        Flow::Continue
    });
    if !all_known {
        return None;
    }
    let mut out = Vec::new();
    for st in stores {
        out.push(accumulation(st, |x| {
            opcode(x) == Some(LLVMOpcode::LLVMLoad)
        })?);
    }
    // Every load is one of theirs.
    if loads.len() != out.len() || !loads.iter().all(|l| out.iter().any(|a| a.ld == *l)) {
        return None;
    }
    (!out.is_empty()).then_some(out)
}

/// Whether the caller's code from the memset to the reverse call leaves
/// the zeroed memory alone: only the augmented call, instructions that
/// write nothing, and stores into the caller's own locals (the tape
/// object) or the plugin's globals.
fn caller_clear(site: &Site) -> bool {
    let bb = inst_block(site.memset);
    if inst_block(site.aug) != bb || inst_block(site.rev) != bb {
        return false;
    }
    let insts = instructions(bb);
    let (Some(m), Some(r)) = (
        insts.iter().position(|i| *i == site.memset),
        insts.iter().position(|i| *i == site.rev),
    ) else {
        return false;
    };
    let p = underlying_objects(operand(site.memset, 0));
    insts[m + 1..r].iter().all(|i| {
        *i == site.aug
            || !may_write(*i)
            || (opcode(*i) == Some(LLVMOpcode::LLVMStore) && {
                let objs = underlying_objects(operand(*i, 1));
                objs.iter().all(|o| {
                    // A local of the caller, or the plugin's own globals
                    // (the thread's tape buffer cache).
                    (opcode(*o) == Some(LLVMOpcode::LLVMAlloca)
                        || (is_global_var(*o) && name(*o).starts_with("enzyme_rs.")))
                        && !p.contains(o)
                })
            })
    })
}

/// The guarded copy of reverse function `rev` for shadow position `pos`
/// (None when the accumulations are not provably a first, complete write).
fn fused_copy(sess: &Session, rev: V, pos: usize) -> Option<V> {
    let m = sess.module;
    let fty = fn_type(rev);
    let mut ptys = param_types(fty);
    let ctx = module_context(m);
    ptys.push(i64_type(ctx));
    let nty = fn_type_of(ret_type(fty), &mut ptys, false);
    let f = add_internal_function(m, &format!("{}.zfuse", name(rev)), nty);
    let ps = params(f);
    let mut map: Vec<V> = ps[..ps.len() - 1].to_vec();
    drop(shim::clone_into(f, rev, &mut map));
    let s = ps[pos];
    let len = ps[ps.len() - 1];
    let ok = (|| {
        let Some(accs) = accumulations(s) else {
            log::debug!("enzyme-rs: zfuse: {}: shadow used otherwise", name(rev));
            return None;
        };
        let esz = type_store_size(m, type_of(accs[0].ld));
        if accs
            .iter()
            .any(|a| type_store_size(m, type_of(a.ld)) != esz || !is_fp_scalar(type_of(a.ld)))
        {
            return None;
        }
        let stores: Vec<V> = accs.iter().map(|a| a.st).collect();
        let kept = match shim::zfuse_guard(f, s, len, rev, &stores, esz as u32) {
            Ok(k) => k,
            Err(e) => {
                log::debug!("enzyme-rs: zfuse: {}: range not proven ({e})", name(rev));
                log::trace!("{}", print_value(f));
                return None;
            }
        };
        for (a, keep) in accs.into_iter().zip(kept) {
            if keep {
                // Written in every iteration of an outer loop: its first
                // iteration adds to 0.0 (cpp/zfuse.cc), the others add.
                continue;
            }
            set_operand(a.st, 0, a.v);
            erase(a.add);
            erase(a.ld);
        }
        Some(())
    })();
    if ok.is_none() {
        delete_function(f);
        return None;
    }
    if let Err(e) = verify_function(f) {
        log::warn!(
            "enzyme-rs: zfuse: copy of {} fails the verifier: {e}",
            name(rev)
        );
        delete_function(f);
        return None;
    }
    Some(f)
}

/// Marks a shadow tape's "element within the zeroing" test for
/// [`split_kept_checks`]: the branch in a reverse function
/// (rev/shadowtape.rs), the compare in a fused augmented copy
/// (cpp/zfuse.cc `ers_zfuse_kept`).
pub const KEPT_CHECK: &str = "enzyme_rs.kept_check";

/// The reverse functions of shadow-tape pairs (rev/shadowtape.rs) test per
/// element of a loop whether the element is within the caller's zeroing
/// (`idx < len / esz`). Such a loop is versioned (cpp/zfuse.cc): when the
/// first and last index of the loop are within (checked once before it),
/// a copy of the loop without the test runs, which may vectorize
/// (`dx[i] = dx[i] * inv` for logsumexp); else the loop as it was. The
/// fused augmented copies ([`fused_kept_copy`]) get the same for their
/// store's test (logsumexp's `dx[i] = exp(x[i] - m)`).
/// `ENZYME_RS_SPLIT_KEPT_CHECKS=0` turns this off.
fn split_kept_checks(sess: &Session) {
    if !sess.opts.split_kept_checks {
        return;
    }
    // Deleting a function drops its records (`Session::delete_doomed`);
    // a record naming a function no longer in the module would be a bug
    // there, and is skipped (with a warning), never read.
    let live = live_functions(sess);
    let mut fns: Vec<V> = sess
        .zeroed_pairs
        .values()
        .map(|p| p.rev)
        .filter(|f| live.contains(f) && !is_declaration(*f))
        .collect();
    fns.sort_by_key(|f| name(*f));
    fns.dedup();
    for f in fns {
        version_kept_checks(f);
    }
}

/// Versions the loop of each test of `f` marked [`KEPT_CHECK`] (a branch
/// of a reverse function, or the compare of a fused augmented copy,
/// cpp/zfuse.cc `ers_zfuse_kept`) so that the test is made once before it.
fn version_kept_checks(f: V) {
    let tests: Vec<V> = blocks(f)
        .into_iter()
        .flat_map(instructions)
        .filter(|t| has_flag(*t, KEPT_CHECK))
        .collect();
    for t in tests {
        let cond = if opcode(t) == Some(LLVMOpcode::LLVMBr) {
            operand(t, 0)
        } else {
            t
        };
        if is_constant(cond) {
            continue;
        }
        if let Err(e) = shim::run_function_pipeline(&mut [f], "loop-simplify,lcssa") {
            log::warn!("enzyme-rs: zfuse: loop-simplify on {}: {e}", name(f));
            return;
        }
        let r = shim::version_kept_check(f, t);
        log::debug!("enzyme-rs: zfuse: kept check in {}: {r}", name(f));
        if r == 1 && shim::remark_enabled(f, RemarkKind::Passed) {
            shim::remark(
                f,
                Some(t),
                RemarkKind::Passed,
                "KeptCheckSplit",
                "the loop's test whether each element is within the caller's zeroing is \
                 made once before the loop: a copy without it runs when all are",
            );
        }
    }
}

/// The functions of the session's module, after a check that every
/// recorded shadow-tape pair is among them.
fn live_functions(sess: &Session) -> std::collections::HashSet<V> {
    let live: std::collections::HashSet<V> = functions(sess.module).into_iter().collect();
    if sess
        .zeroed_pairs
        .values()
        .any(|p| !live.contains(&p.aug) || !live.contains(&p.rev))
    {
        log::warn!("enzyme-rs: zfuse: a recorded shadow-tape pair was deleted; it is skipped");
    }
    live
}

/// The one store through which an augmented function reaches the memory
/// of its parameter `dx` (addresses may pass through geps, selects and
/// phis, be compared and be stored as values on the tape), or None.
fn only_store(dx: V) -> Option<V> {
    let mut store = None;
    let only = ptruse::walk([dx], |u, v, w| {
        match opcode(u) {
            Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast) if operand(u, 0) == v => {
                w.follow(u)
            }
            Some(LLVMOpcode::LLVMSelect) if operand(u, 0) != v => w.follow(u),
            Some(LLVMOpcode::LLVMPHI) => w.follow(u),
            Some(LLVMOpcode::LLVMICmp) => {}
            // A shadow address pushed on the tape (a running
            // selection's recorded pick, pickrec.rs): only the reverse
            // sweep reads it back (shadowtape's aug_leaves_dx refused
            // any other store of the shadow before the tape was made).
            Some(LLVMOpcode::LLVMStore) if operand(u, 0) == v && operand(u, 1) != v => {}
            Some(LLVMOpcode::LLVMStore)
                if operand(u, 1) == v
                    && operand(u, 0) != v
                    && !is_volatile(u)
                    && is_not_atomic(u) =>
            {
                if store.is_some_and(|s| s != u) {
                    return Flow::Stop;
                }
                store = Some(u);
            }
            _ => return Flow::Stop,
        }
        Flow::Continue
    });
    if only {
        store
    } else {
        None
    }
}

/// Zero fusion for a shadow-tape pair (rev/shadowtape.rs): its augmented
/// function stores a kept value into every element of the zeroed shadow
/// that one loop reaches. A copy of `aug` zeroes the shadow itself unless
/// that loop writes all of it (cpp/zfuse.cc `ers_zfuse_kept`: address from
/// the shadow at stride esz on every iteration, trip count times esz
/// equal to the zeroing length at run time), so the caller's memset goes.
fn fused_kept_copy(sess: &Session, aug: V, pos: usize) -> Option<V> {
    let m = sess.module;
    let g = named_global(m, "enzyme_rs.zeroed_len")?;
    let f = add_internal_function(m, &format!("{}.zfuse", name(aug)), fn_type(aug));
    let ps = params(f);
    let mut map: Vec<V> = ps.clone();
    drop(shim::clone_into(f, aug, &mut map));
    let ok = (|| {
        let dx = *ps.get(pos)?;
        let Some(st) = only_store(dx) else {
            log::debug!(
                "enzyme-rs: zfuse: {}: shadow not reached by one store",
                name(aug)
            );
            return None;
        };
        let esz = type_store_size(m, type_of(operand(st, 0)));
        if !is_fp_scalar(type_of(operand(st, 0))) {
            return None;
        }
        let entry = *blocks(f).first()?;
        let len = instructions(entry)
            .into_iter()
            .find(|i| opcode(*i) == Some(LLVMOpcode::LLVMLoad) && operand(*i, 0) == g)?;
        shim::run_function_pipeline(&mut [f], "loop-simplify").ok()?;
        let r = shim::zfuse_kept(f, dx, len, st, esz as u32);
        log::debug!("enzyme-rs: zfuse: kept copy of {}: {r}", name(aug));
        (r == 1).then_some(())
    })();
    if ok.is_some() && sess.opts.split_kept_checks {
        version_kept_checks(f);
    }
    if ok.is_none() {
        delete_function(f);
        return None;
    }
    Some(f)
}

/// Step 2 (from `driver::cleanup`, after the derivatives' own cleanup and
/// before they are inlined): fuse each recorded site that qualifies.
pub fn run(sess: &mut Session) {
    super::inplace::run(sess);
    split_kept_checks(sess);
    let live = live_functions(sess);
    let sites = std::mem::take(&mut sess.zero_sites);
    let mut copies: HashMap<(V, usize), Option<V>> = HashMap::new();
    let mut kept_copies: HashMap<(V, usize), Option<V>> = HashMap::new();
    for site in sites {
        let Some(rev) = called_function(site.rev) else {
            continue;
        };
        let Some(aug) = called_function(site.aug) else {
            continue;
        };
        let kept_pair = sess.opts.fuse_kept
            && live.contains(&aug)
            && sess
                .zeroed_pairs
                .values()
                .any(|p| p.aug == aug && p.rev == rev);
        log::debug!(
            "enzyme-rs: zfuse: site of {} (kept pair: {kept_pair})",
            name(rev)
        );
        if kept_pair
            && sess.toplevel_calls.iter().any(|(c, _)| *c == site.rev)
            && caller_clear(&site)
        {
            let copy = *kept_copies
                .entry((aug, site.pos))
                .or_insert_with(|| fused_kept_copy(sess, aug, site.pos));
            if let Some(copy) = copy {
                if !sess.created.contains(&copy) {
                    sess.created.push(copy);
                }
                crate::ir::link::set_callee(site.aug, copy);
                let caller = inst_fn(site.aug);
                if shim::remark_enabled(caller, RemarkKind::Passed) {
                    shim::remark(
                        caller,
                        Some(site.memset),
                        RemarkKind::Passed,
                        "ZeroFusedKept",
                        "the zeroing of the shadow before the gradient call was fused into the \
                         gradient: the forward sweep's kept values write every element, or it \
                         zeroes the shadow itself",
                    );
                }
                erase(site.memset);
            }
            continue;
        }
        if !sess.toplevel_calls.iter().any(|(c, _)| *c == site.rev)
            || !caller_clear(&site)
            || params(aug).get(site.pos).is_none_or(|p| !untouched(*p))
        {
            log::debug!("enzyme-rs: zfuse: call site not clear");
            continue;
        }
        let copy = *copies
            .entry((rev, site.pos))
            .or_insert_with(|| fused_copy(sess, rev, site.pos));
        let Some(copy) = copy else {
            log::debug!("enzyme-rs: zfuse: {} not fused", name(rev));
            continue;
        };
        if !sess.created.contains(&copy) {
            sess.created.push(copy);
        }
        let b = Builder::new(sess.module);
        b.before(site.rev);
        b.set_debug_loc_from(site.rev);
        let len = b.int_cast(site.len, i64_type(b.ctx), false);
        let mut args = call_args(site.rev);
        args.push(len);
        let call = b.call_fn(copy, &mut args);
        replace_all_uses(site.rev, call);
        for e in sess.toplevel_calls.iter_mut() {
            if e.0 == site.rev {
                e.0 = call;
            }
        }
        erase(site.rev);
        let caller = inst_fn(call);
        if shim::remark_enabled(caller, RemarkKind::Passed) {
            shim::remark(
                caller,
                Some(site.memset),
                RemarkKind::Passed,
                "ZeroFused",
                "the zeroing of the shadow before the gradient call was fused into the gradient: \
                 its accumulations store the first value of each element",
            );
        }
        erase(site.memset);
    }
}
