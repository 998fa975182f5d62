//! In-place shadow (issue 16): a kept shadow block (keep.rs) stored in its
//! primal block.
//!
//! A function that allocates a block and frees it (`X = malloc(n); ...;
//! free(X)`, the free deferred to the reverse sweep) gets a shadow block
//! dX, zeroed in the augmented sweep, freed (given back) by the reverse
//! sweep with X. When the reverse sweep reads X only while it first writes
//! dX, element by element, the two can share X's memory: dX's first write
//! of an element overwrites the primal value only after its last read, and
//! the gradient touches one block where it touched two (fft: 1 MiB less,
//! its 4 MiB-cache misses 52k -> 0.4k per call, bench/results/speed/fft.md).
//!
//! 1. While the reverse sweep is built ([`tag`]), every value it uses for
//!    such an X or dX (tape pops) is wrapped in a call of a pure
//!    declaration (`enzyme_rs.inplace.x` / `.dx`, with an id), so that after
//!    the cleanup the proof knows every pointer to either block there. Only
//!    for a block the function never stores as a value nor (its shadow)
//!    reaches otherwise (checked on the augmented function as built).
//! 2. After the cleanup ([`run`], from zfuse's `run`): in the augmented
//!    function, X reaches only loads, stores into it, the tape (X itself,
//!    no derived address) and augmented callees that push no address from
//!    it (their parameter reaches only loads, stores into it and the same
//!    parameter of their recursive calls); dX only its zeroing, the tape
//!    and parameters nothing uses. In the reverse function, X reaches only
//!    loads, its `free` and parameters nothing uses; dX only
//!    accumulations `store (load q) + v, q`, the give-back and calls.
//!    cpp/zfuse.cc `ers_inplace_guard` then proves with ScalarEvolution
//!    that the accumulations are in one loop L, each element of one range
//!    from dX's start written exactly once, that each load from X reads the
//!    element its own iteration's accumulation writes, before it, and that
//!    the calls receiving dX run after L; it zeroes the rest of the block
//!    (malloc_usable_size) before the first of those calls.
//! 3. Then the augmented function passes and pushes X for dX and zeroes
//!    nothing, the accumulations become stores, and the give-back goes (the
//!    primal's free frees the one block). Anything unproven leaves the
//!    pair as it was; the tags always go.
//!
//! Only at -O1 and above (the proof runs after the cleanup), one vector
//! lane, blocks from malloc/calloc (their usable size). `ENZYME_RS_INPLACE_SHADOW=0`
//! (`-enzyme-rs-inplace-shadow=0`) turns it off.
use crate::analysis::ptruse::{self, Flow};
use crate::ir::llvm::*;
use crate::ir::shim;
use crate::ir::Builder;
use crate::modes::reverse::aug::Aug;
use crate::modes::reverse::zfuse::accumulation;
use crate::modes::Session;
use crate::rules::{KEEP_GIVE, KEEP_TAKE};
use std::collections::{HashMap, HashSet};

const TAG_X: &str = "enzyme_rs.inplace.x";
const TAG_DX: &str = "enzyme_rs.inplace.dx";
const MARK: &str = "enzyme_rs.inplace.";

/// The session's candidates.
#[derive(Default)]
pub struct Registry {
    next: u32,
    /// (augmented function, allocation) -> id, None when refused.
    ids: HashMap<(V, V), Option<u32>>,
    /// id -> (augmented function, the shadow's keep slot).
    cands: HashMap<u32, (V, V)>,
}

fn enabled(sess: &Session) -> bool {
    sess.opts.inplace_shadow
        && sess.opts.opt_level > 0
        && !sess.opts.no_cleanup
        && !crate::modes::gpu::is_device(sess.module)
}

/// Whether a pointer `p` of the function being built is never stored as a
/// value (through addresses derived from it).
fn never_stored(p: V) -> bool {
    ptruse::walk([p], |u, v, w| {
        if ptruse::derives_address(u, v) {
            w.follow(u);
        } else if opcode(u) == Some(LLVMOpcode::LLVMStore) && operand(u, 0) == v {
            return Flow::Stop;
        }
        Flow::Continue
    })
}

/// Whether `v` is a call of a tag.
fn is_tag(v: V) -> bool {
    is_call(v)
        && called_function(v).is_some_and(|f| {
            let n = name(f);
            n == TAG_X || n == TAG_DX
        })
}

fn tag_fn(m: LLVMModuleRef, n: &str) -> V {
    if let Some(f) = get_function(m, n) {
        return f;
    }
    let ctx = module_context(m);
    let p = ptr_type(ctx);
    let ty = fn_type_of(p, &mut [p, i32_type(ctx)], false);
    let f = crate::ir::globals::add_function(m, n, ty);
    shim::mark_pure_decl(f);
    f
}

/// Step 1 (the reverse sweep's `avail`): the value `v` the reverse sweep
/// uses for augmented value `w`, wrapped in a tag when `w` is a candidate
/// block or its shadow.
pub fn tag(sess: &mut Session, a: &Aug, w: V, v: V) -> V {
    if a.kept.is_empty() || !enabled(sess) || a.lanes() != 1 || is_tag(v) {
        return v;
    }
    let (alloc, is_x) = if a.kept.contains_key(&(w, 0)) {
        (w, true)
    } else if let Some(i) = a
        .kept
        .keys()
        .map(|k| k.0)
        .find(|i| a.shadow.get(i) == Some(&w))
    {
        (i, false)
    } else {
        return v;
    };
    let key = (a.func, alloc);
    let id = match sess.inplace.ids.get(&key) {
        Some(id) => *id,
        None => {
            let fresh = called_function(alloc)
                .is_some_and(|f| matches!(name(f).as_str(), "malloc" | "calloc"));
            let ok = fresh
                && never_stored(alloc)
                && a.shadow.get(&alloc).is_some_and(|s| never_stored(*s));
            let id = ok.then(|| {
                let id = sess.inplace.next;
                sess.inplace.next += 1;
                crate::ir::metadata::set_flag(alloc, &format!("{MARK}{id}"));
                sess.inplace.cands.insert(id, (a.func, a.kept[&(alloc, 0)]));
                id
            });
            log::debug!(
                "enzyme-rs: inplace: {} in {}: {id:?}",
                print_value(alloc),
                name(a.func)
            );
            sess.inplace.ids.insert(key, id);
            id
        }
    };
    let Some(id) = id else { return v };
    if !is_instruction(v) {
        // A value not popped: the proof would not see it.
        sess.inplace.cands.remove(&id);
        return v;
    }
    let m = sess.module;
    let f = tag_fn(m, if is_x { TAG_X } else { TAG_DX });
    let b = Builder::new(m);
    b.after(v);
    let ctx = module_context(m);
    b.call_fn(f, &mut [v, const_int(i32_type(ctx), id as u64)])
}

/// The tags of one id in one function.
#[derive(Default)]
struct Tags {
    x: Vec<V>,
    dx: Vec<V>,
}

fn tag_calls(m: LLVMModuleRef) -> Vec<V> {
    [TAG_X, TAG_DX]
        .iter()
        .filter_map(|n| get_function(m, n))
        .flat_map(users)
        .filter(|u| is_call(*u))
        .collect()
}

/// Replace every tag by its operand and delete the declarations.
fn strip(m: LLVMModuleRef) {
    for c in tag_calls(m) {
        replace_all_uses(c, operand(c, 0));
        erase(c);
    }
    for n in [TAG_X, TAG_DX] {
        if let Some(f) = get_function(m, n) {
            if users(f).is_empty() {
                delete_function(f);
            }
        }
    }
}

/// A nested clone (keep::unkeep_nested): its tags go (the pair being
/// built now differentiates it; its own pair keeps the original's).
pub fn strip_in(f: V) {
    for bb in blocks(f) {
        for i in instructions(bb) {
            if is_call(i)
                && called_function(i).is_some_and(|c| {
                    let n = name(c);
                    n == TAG_X || n == TAG_DX
                })
            {
                replace_all_uses(i, operand(i, 0));
                erase(i);
            }
        }
    }
}

/// The positions at which call `u` passes `v`.
fn arg_positions(u: V, v: V) -> Vec<usize> {
    call_args(u)
        .iter()
        .enumerate()
        .filter(|(_, a)| **a == v)
        .map(|(k, _)| k)
        .collect()
}

/// Whether pointer `p` reaches no memory access, call or escape.
fn untouched(p: V) -> bool {
    ptruse::walk([p], |u, v, w| {
        if ptruse::derives_address(u, v) {
            w.follow(u);
            return Flow::Continue;
        }
        Flow::Stop
    })
}

fn callee_param(u: V, k: usize) -> Option<V> {
    let f = called_function(u)?;
    if is_declaration(f) || called_value(u) != f {
        return None;
    }
    params(f).get(k).copied()
}

/// Whether parameter `k` of augmented callee `g` (a primal block) reaches
/// only loads, stores into it, comparisons and the same parameter of `g`'s
/// own calls: `g` puts no address of it on the tape or anywhere else.
fn aug_param_ok(g: V, k: usize) -> bool {
    let Some(p) = params(g).get(k).copied() else {
        return false;
    };
    ptruse::walk([p], |u, v, w| {
        if ptruse::derives_address(u, v) {
            w.follow(u);
            return Flow::Continue;
        }
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMICmp) => Flow::Continue,
            Some(LLVMOpcode::LLVMStore) if operand(u, 0) != v => Flow::Continue,
            Some(LLVMOpcode::LLVMCall)
                if called_function(u) == Some(g)
                    && called_value(u) == g
                    && arg_positions(u, v) == vec![k] =>
            {
                Flow::Continue
            }
            _ if is_debug_intrinsic(u) => Flow::Continue,
            _ => Flow::Stop,
        }
    })
}

/// Step 2 in the augmented function `aug`: X (the flagged allocation) and
/// dX (its slot's take). Returns them and dX's zeroings.
fn aug_ok(aug: V, id: u32, slot: V) -> Option<(V, V, Vec<V>)> {
    let mark = format!("{MARK}{id}");
    let mut x = None;
    let mut dx = None;
    for bb in blocks(aug) {
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            if crate::ir::metadata::has_flag(i, &mark) {
                if x.is_some() {
                    return None;
                }
                x = Some(i);
            }
            if called_function(i).is_some_and(|f| name(f) == KEEP_TAKE) && operand(i, 0) == slot {
                if dx.is_some() {
                    return None;
                }
                dx = Some(i);
            }
        }
    }
    let (x, dx) = (x?, dx?);
    // X: loads, stores into it, itself pushed, callees that keep it.
    let x_ok = ptruse::walk([x], |u, v, w| {
        if ptruse::derives_address(u, v) {
            w.follow(u);
            return Flow::Continue;
        }
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMICmp) => Flow::Continue,
            Some(LLVMOpcode::LLVMStore) if operand(u, 0) != v => Flow::Continue,
            Some(LLVMOpcode::LLVMStore) if v == x && operand(u, 1) != v => Flow::Continue,
            Some(LLVMOpcode::LLVMCall) if !is_debug_intrinsic(u) => {
                let ks = arg_positions(u, v);
                let Some(g) = called_function(u).filter(|g| !is_declaration(*g)) else {
                    return Flow::Stop;
                };
                if called_value(u) != g || ks.len() != 1 || !aug_param_ok(g, ks[0]) {
                    return Flow::Stop;
                }
                Flow::Continue
            }
            _ if is_debug_intrinsic(u) => Flow::Continue,
            _ => Flow::Stop,
        }
    });
    if !x_ok {
        log::debug!("enzyme-rs: inplace: {}: X used otherwise", name(aug));
        return None;
    }
    let mut zeroings = Vec::new();
    let dx_ok = users(dx).into_iter().all(|u| match opcode(u) {
        Some(LLVMOpcode::LLVMStore) => operand(u, 0) == dx && operand(u, 1) != dx,
        Some(LLVMOpcode::LLVMCall) => {
            let zero = called_function(u).is_some_and(|f| name(f).starts_with("llvm.memset."))
                && operand(u, 0) == dx
                && const_int_value(operand(u, 1)) == Some(0);
            if zero {
                zeroings.push(u);
                return true;
            }
            arg_positions(u, dx)
                .into_iter()
                .all(|k| callee_param(u, k).is_some_and(untouched))
                && called_value(u) != dx
        }
        _ => false,
    });
    if !dx_ok {
        log::debug!("enzyme-rs: inplace: {}: dX used otherwise", name(aug));
        return None;
    }
    Some((x, dx, zeroings))
}

/// Step 2 and 3 for one candidate: `rev` holds its tags.
fn try_one(m: LLVMModuleRef, rev: V, tags: &Tags, aug: V, slot: V, id: u32) -> Result<(), String> {
    if tags.x.is_empty() || tags.dx.is_empty() {
        return Err("X or dX not in the reverse function".into());
    }
    // The popped values reach the rest only through their tags.
    for t in tags.x.iter().chain(&tags.dx) {
        let raw = operand(*t, 0);
        if is_tag(raw) {
            // A tag of a tag (a loop's value): one of the walks' roots.
            continue;
        }
        if !users(raw).into_iter().all(is_tag) {
            return Err("a popped value used untagged".into());
        }
    }
    let (x, dx, zeroings) = aug_ok(aug, id, slot).ok_or("augmented function")?;
    // X in rev: loads, its free, parameters nothing uses.
    let mut xloads = Vec::new();
    let mut frees = Vec::new();
    let x_ok = ptruse::walk(tags.x.iter().copied(), |u, v, w| {
        if ptruse::derives_address(u, v) {
            w.follow(u);
            return Flow::Continue;
        }
        if tags.x.contains(&u) {
            return Flow::Continue;
        }
        match opcode(u) {
            Some(LLVMOpcode::LLVMLoad) => xloads.push(u),
            Some(LLVMOpcode::LLVMCall) if !is_debug_intrinsic(u) => {
                if called_function(u).is_some_and(|f| name(f) == "free")
                    && tags.x.contains(&v)
                    && operand(u, 0) == v
                {
                    frees.push(u);
                } else if !arg_positions(u, v)
                    .into_iter()
                    .all(|k| callee_param(u, k).is_some_and(untouched))
                    || called_value(u) == v
                {
                    log::debug!("enzyme-rs: inplace: X reaches {}", print_value(u));
                    return Flow::Stop;
                }
            }
            _ if is_debug_intrinsic(u) => {}
            _ => {
                log::debug!("enzyme-rs: inplace: X reaches {}", print_value(u));
                return Flow::Stop;
            }
        }
        Flow::Continue
    });
    if !x_ok || frees.is_empty() {
        return Err("X used otherwise in the reverse function".into());
    }
    // dX in rev: accumulations, the give-back, calls.
    let mut loads = HashSet::new();
    let mut stores = Vec::new();
    let mut gives = Vec::new();
    let mut calls = Vec::new();
    let d_ok = ptruse::walk(tags.dx.iter().copied(), |u, v, w| {
        if tags.dx.contains(&u) {
            return Flow::Continue;
        }
        match opcode(u) {
            Some(LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast) if operand(u, 0) == v => {
                w.follow(u)
            }
            Some(LLVMOpcode::LLVMLoad) => {
                loads.insert(u);
            }
            Some(LLVMOpcode::LLVMStore) if operand(u, 1) == v && operand(u, 0) != v => {
                stores.push(u)
            }
            Some(LLVMOpcode::LLVMCall) if !is_debug_intrinsic(u) => {
                let direct = tags.dx.contains(&v);
                if called_function(u).is_some_and(|f| name(f) == KEEP_GIVE)
                    && direct
                    && operand(u, 0) == v
                    && operand(u, 1) == slot
                {
                    gives.push(u);
                } else if direct
                    && called_value(u) != v
                    && called_function(u).is_some_and(|f| !is_declaration(f))
                {
                    calls.push((u, v));
                } else {
                    return Flow::Stop;
                }
            }
            _ if is_debug_intrinsic(u) => {}
            _ => {
                log::debug!("enzyme-rs: inplace: dX reaches {}", print_value(u));
                return Flow::Stop;
            }
        }
        Flow::Continue
    });
    if !d_ok {
        return Err("dX used otherwise in the reverse function".into());
    }
    let mut accs = Vec::new();
    for st in &stores {
        accs.push(
            accumulation(*st, |x| loads.contains(&x))
                .ok_or("a store into dX not an accumulation")?,
        );
    }
    if accs.len() != loads.len() || accs.is_empty() {
        return Err("a load of dX outside the accumulations".into());
    }
    let esz = type_store_size(m, type_of(accs[0].ld));
    if accs
        .iter()
        .any(|a| !is_fp_scalar(type_of(a.ld)) || type_store_size(m, type_of(a.ld)) != esz)
    {
        return Err("accumulations of mixed types".into());
    }
    // Each give beside a free of X.
    for g in &gives {
        if !frees.iter().any(|f| inst_block(*f) == inst_block(*g)) {
            return Err("a give-back without the free".into());
        }
    }
    let sts: Vec<V> = accs.iter().map(|a| a.st).collect();
    let rc = shim::inplace_guard(rev, &sts, &xloads, &tags.x, &tags.dx, &calls, esz as u32);
    if rc != 1 {
        return Err(format!("not proven ({rc})"));
    }
    // Step 3.
    for a in accs {
        set_operand(a.st, 0, a.v);
        erase(a.add);
        erase(a.ld);
    }
    for g in gives {
        erase(g);
    }
    for z in zeroings {
        erase(z);
    }
    replace_all_uses(dx, x);
    erase(dx);
    Ok(())
}

/// Steps 2 and 3 (from zfuse's `run`, after the cleanup): every candidate
/// whose tags are in one live function; then every tag goes.
pub fn run(sess: &mut Session) {
    let m = sess.module;
    let reg = std::mem::take(&mut sess.inplace);
    // A tag of a tag (a value a loop reads from outside it) is that tag.
    for c in tag_calls(m) {
        if is_tag(operand(c, 0)) {
            replace_all_uses(c, operand(c, 0));
            erase(c);
        }
    }
    let calls = tag_calls(m);
    if calls.is_empty() {
        return;
    }
    let live: HashSet<V> = functions(m).into_iter().collect();
    // id -> (function, tags)
    let mut by_id: HashMap<u32, (V, Tags)> = HashMap::new();
    let mut split: HashSet<u32> = HashSet::new();
    for c in calls {
        let Some(id) = const_int_value(operand(c, 1)).map(|k| k as u32) else {
            continue;
        };
        let f = inst_fn(c);
        let e = by_id.entry(id).or_insert_with(|| (f, Tags::default()));
        if e.0 != f {
            split.insert(id);
        }
        let is_x = called_function(c).is_some_and(|g| name(g) == TAG_X);
        if is_x {
            e.1.x.push(c);
        } else {
            e.1.dx.push(c);
        }
    }
    let mut ids: Vec<u32> = by_id.keys().copied().collect();
    ids.sort();
    for id in ids {
        let (rev, tags) = &by_id[&id];
        let Some((aug, slot)) = reg.cands.get(&id).copied() else {
            continue;
        };
        if split.contains(&id) || !live.contains(&aug) || !live.contains(rev) {
            continue;
        }
        match try_one(m, *rev, tags, aug, slot, id) {
            Ok(()) => {
                log::debug!(
                    "enzyme-rs: inplace: {} keeps its shadow in the primal block",
                    name(*rev)
                );
                if shim::remark_enabled(*rev, shim::RemarkKind::Passed) {
                    shim::remark(
                        *rev,
                        None,
                        shim::RemarkKind::Passed,
                        "InplaceShadow",
                        "the shadow of a block the function allocates and frees lives in that \
                         block: the reverse sweep reads each element before it first writes its \
                         shadow",
                    );
                }
                for f in [aug, *rev] {
                    if let Err(e) = verify_function(f) {
                        log::warn!("enzyme-rs: inplace: {} fails the verifier: {e}", name(f));
                    }
                }
            }
            Err(e) => {
                log::debug!("enzyme-rs: inplace: {}: {e}", name(*rev));
                log::trace!("{}", print_value(*rev));
            }
        }
    }
    strip(m);
}
