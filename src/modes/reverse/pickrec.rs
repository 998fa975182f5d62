//! A record of the last pick of a running selection (issue 16).
//!
//! A *running selection* is a loop-carried float `m` (a header phi) whose
//! next value is a tree of selects and phis inside the loop with leaves
//! that are either `m` itself or loads made in the loop: a max/min loop
//! (`if (x[i] > m) m = x[i];`), an argmax's value, whatever the
//! comparison (float or integer, strict or not): the tree is the primal's
//! own, so ties are decided as the primal decides them. Its reverse sends
//! the adjoint of the final `m` to the one element picked last, yet as
//! written it needs the decision of every iteration (taped or replayed)
//! and a reverse loop over all of them.
//!
//! When the loop writes no memory and nothing in it but the selection's
//! own selects/phis and comparisons uses `m`, a copy of the function
//! (`enzyme_rs.picks.F`) carries, beside each value of the tree, the
//! address it was loaded from (a pointer select/phi mirroring the tree;
//! null for the value `m` had on entry). After the loop the selection's
//! value is loaded again from that address (nothing wrote it since), or
//! is the entry value when the address is null: `m` keeps no active use in
//! the loop, which then needs no reverse sweep at all, and the reverse of
//! the reload adds the adjoint once to the picked element. The tape holds
//! one pointer per loop run instead of a decision per iteration.
//! When every value of the tree and the entry value are loads from one
//! array (`base + idx`, one index; nothing written between the entry
//! value's load and the loop), the copy carries the index instead of the
//! address ([`IndexPick`]): one integer select per select, where addresses
//! cost a primal and a shadow pointer select each, and the element at the
//! index is reloaded with no null test (`ENZYME_RS_PICK_INDEX=0`: addresses).
//! `ENZYME_RS_PICK_RECORD=0` turns this off; `-Rpass=enzyme` says which
//! loop records its pick, `-Rpass-missed=enzyme` why a loop with a
//! running selection does not.
use crate::diag::{Error, Result};
use crate::ir::attrs::fn_string_attr;
use crate::ir::blocks::set_successor;
use crate::ir::llvm::*;
use crate::ir::shim::{self, remark, remark_enabled, RemarkKind};
use crate::ir::values::{
    add_incoming, erase, incoming, is_not_atomic, is_volatile, replace_all_uses,
};
use crate::ir::Builder;
use crate::modes::Session;
use std::collections::{HashMap, HashSet};

use super::Key;

/// Functions this never applies to (the copies it makes).
const NO_PICKS: &str = "enzyme_rs_no_picks";

/// Whether a pick record may be tried for `key` at all.
pub fn may_apply(sess: &Session, key: &Key) -> bool {
    sess.opts.pick_record
        && key.width == 1
        && fn_string_attr(key.func, NO_PICKS).is_none()
        && !is_declaration(key.func)
        // LLVM 22's debug records after mem2reg of an optnone clone
        // trip its verifier (as in moverec.rs).
        && !(cfg!(feature = "llvm22-1") && fn_has_attr(key.func, "optnone"))
        && !crate::modes::gpu::is_device(sess.module)
        && has_candidate(key.func)
}

/// A cheap filter before copying: a float compared, and a float phi or
/// select (or, at -O0, a float kept in a local).
fn has_candidate(f: V) -> bool {
    let mut cmp = false;
    let mut carried = false;
    for bb in blocks(f) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMFCmp | LLVMOpcode::LLVMICmp) => cmp = true,
                Some(LLVMOpcode::LLVMPHI | LLVMOpcode::LLVMSelect) => {
                    carried |= is_fp_scalar(type_of(i))
                }
                Some(LLVMOpcode::LLVMStore) => carried |= is_fp_scalar(type_of(operand(i, 0))),
                _ => {}
            }
        }
    }
    cmp && carried
}

/// One running selection: the header phi, the values of its tree (with
/// the header phi), and the outside uses to reroute.
struct Sel {
    phi: V,
    tree: Vec<V>,
    outside: Vec<(V, V)>,
    /// Carry indices instead of addresses ([`index_plan`]).
    index: Option<IndexPick>,
}

/// Every value of a selection's tree, its entry value included, is loaded
/// from `base + idx` (one index of one type into elements of `elty`, the
/// same loop-invariant `base`), and nothing writes memory between the
/// entry value's load and the loop: the tree then carries the index (an
/// integer select per select, no shadow) and the selection is reloaded
/// from `base + idx` after the loop, with no null test for the entry
/// value (its own index). `ENZYME_RS_PICK_INDEX=0` keeps addresses.
struct IndexPick {
    base: V,
    elty: T,
    entry_idx: V,
}

/// If `f` has loops with a running selection that can be recorded, a
/// rewritten copy of it and where (for the remarks); else `None`.
pub fn try_picks(sess: &Session, key: &Key) -> Result<Option<(V, Vec<String>)>> {
    let f = key.func;
    let copy =
        super::rerun::private_copy(sess.module, f, "picks", NO_PICKS, "mem2reg,loop-simplify")?;
    let loops = shim::Loops::new(copy);
    let headers: Vec<BB> = blocks(copy)
        .into_iter()
        // Outermost loops only: an inner loop's selection is left to the
        // outer loop's re-run (rerun.rs), which the rewrite would block.
        .filter(|b| loops.header(*b) == Some(*b) && loops.parent_header(*b).is_none())
        .collect();
    let mut plans = Vec::new();
    for h in headers {
        let phis: Vec<V> = instructions(h)
            .into_iter()
            .take_while(|i| opcode(*i) == Some(LLVMOpcode::LLVMPHI))
            .filter(|i| is_fp_scalar(type_of(*i)))
            .collect();
        if phis.is_empty() {
            continue;
        }
        match check(copy, &loops, h, &phis) {
            Ok(Some(p)) => plans.push(p),
            Ok(None) => {}
            Err(why) => super::rerun::missed_remark(
                f,
                h,
                "NoPickRecord",
                |at| format!("the running selection of the {at} is not recorded"),
                &why,
            ),
        }
    }
    drop(loops);
    if plans.is_empty() {
        crate::ir::globals::delete_function(copy);
        return Ok(None);
    }
    let mut places = Vec::new();
    for p in plans {
        places.push(super::rerun::loop_place(p.header));
        rewrite(copy, p);
    }
    verify_function(copy).map_err(|e| {
        Error::internal(format!(
            "picks: the copy of '{}' fails the verifier: {e}",
            name(f)
        ))
    })?;
    for at in &places {
        if remark_enabled(f, RemarkKind::Passed) {
            let msg = format!(
                "reverse mode of '{}': the {at} keeps a running selection (max/min): the \
                 address of its last pick is kept (one pointer per run of the loop, not a \
                 decision per iteration), its adjoint is added once to that element and the \
                 loop needs no reverse sweep",
                name(f)
            );
            remark(f, None, RemarkKind::Passed, "PickRecord", &msg);
        }
        log::debug!("picks: {} records the pick of its {at}", name(f));
    }
    Ok(Some((copy, places)))
}

/// The running selections of the loop at `h` to rewrite.
struct Plan {
    header: BB,
    latch: BB,
    exiting: BB,
    exit: BB,
    body: HashSet<BB>,
    sels: Vec<Sel>,
}

/// Grow the tree of `v` (a value feeding the header phi `phi` through
/// the latch): `Err` when a value of it is neither the phi, a select/phi
/// of the tree in the loop, nor a load in the loop.
fn grow(v: V, phi: V, body: &HashSet<BB>, seen: &mut Vec<V>) -> std::result::Result<(), String> {
    if v == phi || seen.contains(&v) {
        return Ok(());
    }
    if !is_instruction(v) || !body.contains(&inst_block(v)) {
        return Err("it selects a value not loaded in the loop".into());
    }
    match opcode(v) {
        Some(LLVMOpcode::LLVMLoad) => {
            if is_volatile(v) || !is_not_atomic(v) {
                return Err("it selects a volatile or atomic load".into());
            }
            seen.push(v);
            Ok(())
        }
        Some(LLVMOpcode::LLVMSelect) => {
            seen.push(v);
            grow(operand(v, 1), phi, body, seen)?;
            grow(operand(v, 2), phi, body, seen)
        }
        Some(LLVMOpcode::LLVMPHI) => {
            seen.push(v);
            for (x, _) in incoming(v) {
                grow(x, phi, body, seen)?;
            }
            Ok(())
        }
        _ => Err(format!(
            "it selects a computed value ({})",
            print_value(v).trim()
        )),
    }
}

fn is_instruction(v: V) -> bool {
    opcode(v).is_some()
}

/// Whether the loop at `h` has running selections among `phis` that can
/// be recorded: `Ok(None)` when none of them is one at all, `Err(why)`
/// when one is but cannot be recorded.
fn check(
    f: V,
    loops: &shim::Loops,
    h: BB,
    phis: &[V],
) -> std::result::Result<Option<Plan>, String> {
    let preheader = loops.preheader(h);
    let body: HashSet<BB> = blocks(f)
        .into_iter()
        .filter(|b| loops.contains(h, *b))
        .collect();
    let latches: Vec<BB> = body
        .iter()
        .copied()
        .filter(|b| successors(*b).contains(&h))
        .collect();
    // The selections: header phis whose latch value is a tree of
    // selects/phis over the phi and loads in the loop.
    let mut sels = Vec::new();
    let mut why = None;
    for &phi in phis {
        let inc = incoming(phi);
        if inc.len() != 2 || latches.len() != 1 {
            continue;
        }
        let Some(&(next, _)) = inc.iter().find(|(_, b)| *b == latches[0]) else {
            continue;
        };
        let mut tree = Vec::new();
        if next == phi {
            continue;
        }
        if let Err(w) = grow(next, phi, &body, &mut tree) {
            // A tree with no load at all is no selection (an accumulator).
            if opcode(next) == Some(LLVMOpcode::LLVMSelect)
                || opcode(next) == Some(LLVMOpcode::LLVMPHI)
            {
                why.get_or_insert(w);
            }
            continue;
        }
        let mut vals: Vec<V> = tree
            .iter()
            .copied()
            .filter(|v| opcode(*v) != Some(LLVMOpcode::LLVMLoad))
            .collect();
        if vals.is_empty() {
            // `m = x[i]`: a last element, not a selection.
            continue;
        }
        vals.insert(0, phi);
        // Inside the loop, the tree's values serve only each other and
        // comparisons; outside, they are rerouted.
        let mut outside = Vec::new();
        let mut ok = true;
        for &v in &vals {
            for u in users(v) {
                if !is_instruction(u) {
                    ok = false;
                    break;
                }
                if !body.contains(&inst_block(u)) {
                    outside.push((v, u));
                    continue;
                }
                let cmp = matches!(opcode(u), Some(LLVMOpcode::LLVMFCmp));
                let tree_use = vals.contains(&u)
                    && !(opcode(u) == Some(LLVMOpcode::LLVMSelect) && operand(u, 0) == v);
                if !cmp && !tree_use {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            why.get_or_insert("its running selection is used by other work in the loop".into());
            continue;
        }
        if outside.is_empty() {
            continue;
        }
        sels.push(Sel {
            phi,
            index: None,
            tree: vals
                .into_iter()
                .chain(
                    tree.into_iter()
                        .filter(|v| opcode(*v) == Some(LLVMOpcode::LLVMLoad)),
                )
                .collect(),
            outside,
        });
    }
    if sels.is_empty() {
        return match why {
            Some(w) => Err(w),
            None => Ok(None),
        };
    }
    preheader.ok_or("it has no preheader")?;
    let latch = latches[0];
    let (_, exit) = super::rerun::single_exit_body(f, loops, h)?;
    let exiting: Vec<BB> = body
        .iter()
        .copied()
        .filter(|b| successors(*b).contains(&exit))
        .collect();
    if exiting.len() != 1 {
        return Err(format!("it leaves from {} places", exiting.len()));
    }
    let exiting = exiting[0];
    // Nothing in the loop writes memory, so a picked element still holds
    // its value after the loop.
    for bb in blocks(f).into_iter().filter(|b| body.contains(b)) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMStore) => return Err(format!("it writes memory{}", at(i))),
                Some(LLVMOpcode::LLVMCall) => {
                    if !super::moverec::touches_no_memory(i) {
                        return Err(format!("it has a call{}", at(i)));
                    }
                }
                _ => super::moverec::unfollowable(i)?,
            }
        }
    }
    // Exit phis must be trivial (one way in), so the exit can take a new
    // predecessor; outside uses must be in blocks the exit dominates.
    for i in instructions(exit) {
        if opcode(i) == Some(LLVMOpcode::LLVMPHI) && incoming(i).len() != 1 {
            return Err("its exit block joins several paths".into());
        }
    }
    for s in &sels {
        for (v, u) in &s.outside {
            // A phi uses its value at the end of the incoming block.
            let places: Vec<BB> = if opcode(*u) == Some(LLVMOpcode::LLVMPHI) {
                incoming(*u)
                    .into_iter()
                    .filter(|(x, _)| x == v)
                    .map(|(_, bb)| bb)
                    .collect()
            } else {
                vec![inst_block(*u)]
            };
            if !places.iter().all(|bb| loops.block_dominates(exit, *bb)) {
                return Err("its result is used where its exit does not lead".into());
            }
        }
    }
    if crate::options::switches::pick_index() {
        for s in sels.iter_mut() {
            s.index = index_plan(f, h, latch, &body, s);
        }
    }
    Ok(Some(Plan {
        header: h,
        latch,
        exiting,
        exit,
        body,
        sels,
    }))
}

/// `base + idx` of a load's address: a GEP with one index (or `base`
/// itself, index 0 of type `ity` when given).
fn gep_parts(ld: V, ity: Option<T>) -> Option<(V, T, V)> {
    let p = operand(ld, 0);
    if opcode(p) == Some(LLVMOpcode::LLVMGetElementPtr) {
        if num_operands(p) != 2 || !crate::ir::values::is_inbounds(p) {
            return None;
        }
        let idx = operand(p, 1);
        if !is_int(type_of(idx)) {
            return None;
        }
        return Some((operand(p, 0), crate::ir::values::gep_source_type(p), idx));
    }
    ity.map(|t| (p, type_of(ld), crate::ir::consts::const_int(t, 0)))
}

/// Whether `i` may write memory (or do anything [`rewrite`]'s reload
/// could not see past).
pub(crate) fn may_write(i: V) -> bool {
    match opcode(i) {
        Some(LLVMOpcode::LLVMStore) => true,
        Some(LLVMOpcode::LLVMCall) => !super::moverec::touches_no_memory(i),
        _ => super::moverec::unfollowable(i).is_err(),
    }
}

/// The index form of selection `s` of the loop at `h`, when it applies
/// (see [`IndexPick`]).
fn index_plan(f: V, h: BB, latch: BB, body: &HashSet<BB>, s: &Sel) -> Option<IndexPick> {
    let mut shape: Option<(V, T, T)> = None;
    for &v in &s.tree {
        if opcode(v) != Some(LLVMOpcode::LLVMLoad) {
            continue;
        }
        let (base, elty, idx) = gep_parts(v, None)?;
        let here = (base, elty, type_of(idx));
        if shape.is_some_and(|x| x != here) {
            return None;
        }
        shape = Some(here);
    }
    let (base, elty, ity) = shape?;
    if opcode(base).is_some() && body.contains(&inst_block(base)) {
        return None;
    }
    // The entry value: a load of the same array, nothing written between
    // it and the loop.
    let (ev, _) = incoming(s.phi).into_iter().find(|(_, bb)| *bb != latch)?;
    if opcode(ev) != Some(LLVMOpcode::LLVMLoad)
        || is_volatile(ev)
        || !is_not_atomic(ev)
        || type_of(ev) != type_of(s.phi)
    {
        return None;
    }
    let (eb, ety, eidx) = gep_parts(ev, Some(ity))?;
    if eb != base || ety != elty || type_of(eidx) != ity {
        return None;
    }
    let lb = inst_block(ev);
    let after: Vec<V> = instructions(lb)
        .into_iter()
        .skip_while(|i| *i != ev)
        .skip(1)
        .collect();
    if after.iter().any(|i| may_write(*i)) {
        return None;
    }
    // Blocks on a path from the load's block to the loop (not through
    // it): reached from the load's block and reaching the header.
    let mut preds: HashMap<BB, Vec<BB>> = HashMap::new();
    for b in blocks(f) {
        for t in successors(b) {
            preds.entry(t).or_default().push(b);
        }
    }
    let walk = |from: Vec<BB>, next: &dyn Fn(BB) -> Vec<BB>| {
        let mut seen: HashSet<BB> = HashSet::new();
        let mut stack = from;
        while let Some(b) = stack.pop() {
            if b == h || !seen.insert(b) {
                continue;
            }
            stack.extend(next(b));
        }
        seen
    };
    let fwd = walk(successors(lb), &|b| successors(b));
    let back = walk(
        preds
            .get(&h)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|b| !body.contains(b))
            .collect(),
        &|b| preds.get(&b).cloned().unwrap_or_default(),
    );
    for b in fwd.intersection(&back) {
        if instructions(*b).into_iter().any(may_write) {
            return None;
        }
    }
    if !back.contains(&lb) {
        return None;
    }
    Some(IndexPick {
        base,
        elty,
        entry_idx: eidx,
    })
}

fn at(i: V) -> String {
    shim::debug_location(i)
        .map(|(file, l)| format!(" at {file}:{l}"))
        .unwrap_or_default()
}

/// Carry the address of each tree value beside it, then reload the
/// selection after the loop.
fn rewrite(f: V, p: Plan) {
    let b = Builder::for_function(f);
    let ctx = b.ctx;
    let pty = ptr_type(ctx);
    let null = zero(pty);
    // Trivial exit phis go (their value is available after the loop).
    for i in instructions(p.exit) {
        if opcode(i) == Some(LLVMOpcode::LLVMPHI) {
            let (v, _) = incoming(i)[0];
            replace_all_uses(i, v);
            erase(i);
        }
    }
    let mut last = p.exiting;
    let mut reroutes: Vec<(V, V)> = Vec::new();
    for s in &p.sels {
        // Address (or index) of each value of the tree.
        let (aty, entry_addr) = match &s.index {
            Some(ix) => (type_of(ix.entry_idx), ix.entry_idx),
            None => (pty, null),
        };
        let undef_a = zero(aty);
        let mut addr: HashMap<V, V> = HashMap::new();
        for &v in &s.tree {
            match opcode(v) {
                Some(LLVMOpcode::LLVMLoad) => {
                    let a = if s.index.is_some() {
                        operand(operand(v, 0), 1)
                    } else {
                        operand(v, 0)
                    };
                    addr.insert(v, a);
                }
                Some(LLVMOpcode::LLVMPHI) => {
                    b.before(v);
                    let ph = b.phi(aty);
                    addr.insert(v, ph);
                }
                _ => {}
            }
        }
        for &v in &s.tree {
            if opcode(v) == Some(LLVMOpcode::LLVMSelect) {
                b.after(v);
                let sel = b.select(operand(v, 0), undef_a, undef_a);
                addr.insert(v, sel);
            }
        }
        // Selects may use each other out of order: fill them after.
        resolve_selects(s, &addr);
        for &v in &s.tree {
            if opcode(v) == Some(LLVMOpcode::LLVMPHI) {
                let ph = addr[&v];
                let inc: Vec<(V, BB)> = incoming(v)
                    .into_iter()
                    .map(|(x, bb)| {
                        if v == s.phi && bb != p.latch {
                            (entry_addr, bb)
                        } else {
                            (addr[&x], bb)
                        }
                    })
                    .collect();
                add_incoming(ph, &inc);
            }
        }
        // After the loop: null -> the entry value, else reload.
        let entry_val = incoming(s.phi)
            .into_iter()
            .find(|(_, bb)| *bb != p.latch)
            .unwrap()
            .0;
        let mut byval: HashMap<V, V> = HashMap::new();
        for (v, _) in &s.outside {
            if byval.contains_key(v) {
                continue;
            }
            if let Some(ix) = &s.index {
                // The element at the picked index (the entry value's own
                // index when nothing was picked in the loop).
                let load = append_block(f, "pick.load");
                retarget(last, p.exit, load);
                b.at_end(load);
                let at = b.inbounds_gep(ix.elty, ix.base, &mut [addr[v]]);
                let ld = b.load(type_of(*v), at);
                b.br(p.exit);
                byval.insert(*v, ld);
                reroutes.push((*v, ld));
                last = load;
                continue;
            }
            let test = append_block(f, "pick.test");
            let load = append_block(f, "pick.load");
            let join = append_block(f, "pick.join");
            retarget(last, p.exit, test);
            b.at_end(test);
            let a = addr[v];
            let isnull = b.icmp(LLVMIntPredicate::LLVMIntEQ, a, null);
            b.cond_br(isnull, join, load);
            b.at_end(load);
            let t = type_of(*v);
            let ld = b.load(t, a);
            b.br(join);
            b.at_end(join);
            let ph = b.phi(t);
            add_incoming(ph, &[(entry_val, test), (ld, load)]);
            b.br(p.exit);
            byval.insert(*v, ph);
            reroutes.push((*v, ph));
            last = join;
        }
    }
    for (v, ph) in reroutes {
        for u in users(v) {
            if is_instruction(u) && !p.body.contains(&inst_block(u)) && u != ph {
                for k in 0..num_operands(u) {
                    if operand(u, k) == v {
                        crate::ir::values::set_operand(u, k, ph);
                    }
                }
            }
        }
    }
}

/// Send `from`'s edges to `exit` to `to` instead.
fn retarget(from: BB, exit: BB, to: BB) {
    let term = terminator(from);
    for (k, succ) in successors(from).into_iter().enumerate() {
        if succ == exit {
            set_successor(term, k as u32, to);
        }
    }
}

/// Set each address select's operands now that all addresses exist.
fn resolve_selects(s: &Sel, addr: &HashMap<V, V>) {
    for &v in &s.tree {
        if opcode(v) == Some(LLVMOpcode::LLVMSelect) {
            let sel = addr[&v];
            for k in [1u32, 2] {
                crate::ir::values::set_operand(sel, k, addr[&operand(v, k)]);
            }
        }
    }
}
