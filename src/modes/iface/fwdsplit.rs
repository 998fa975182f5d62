//! Split forward mode: `__enzyme_fwdsplit(f, args..., tape)` and
//! `__enzyme_register_splitderivative_NAME = {f, aug_f, fwdsplit_f}`
//! (before differentiation, from `lower_before`).
//!
//! Enzyme's split forward mode computes the tangents of `f` after
//! `__enzyme_augmentfwd(f, ...)` ran its primal, reading the primal values
//! it needs from the tape. enzyme-rs recomputes them instead: the call
//! becomes forward mode (`__enzyme_fwddiff` of the same arguments) that
//! runs `f`'s primal again, followed by freeing the tape (unless
//! `enzyme_nofree`; the tape object itself stays when `enzyme_allocated`
//! gave its memory; a null tape is allowed). Running the primal again
//! gives the values the first run had only when `f` reads no memory that
//! it (or a function it calls) also writes, so such an `f` is a compile
//! error, as is one writing through a pointer it loaded; pointer arguments
//! are taken to point to distinct memory, as for `enzyme_dup`. The caller
//! must not change what `f` reads between the two calls.
//!
//! A split derivative registered for `g` is used by forward mode (also in
//! `__enzyme_fwdsplit`) for calls to `g`: a generated custom derivative
//! calls `aug_g` (`g`'s arguments, each pointer followed by its shadow;
//! returning the tape first, as a pointer or the first field of a struct)
//! and then `fwdsplit_g` (`g`'s arguments, each float or pointer followed
//! by its tangent, then the tape; returning what a custom forward
//! derivative returns).
use crate::analysis::activity::underlying_objects;
use crate::callsite::{marker_name, resolve_function};
use crate::diag::{Error, ErrorKind, Result};
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::rules::{self, CallKind};
use std::collections::{HashMap, HashSet};

const FWDDIFF: &str = "__enzyme_fwddiff_rs_fwdsplit";

/// Rewrite every `__enzyme_fwdsplit` call and register every split
/// derivative. Returns whether the module changed.
pub fn lower(m: LLVMModuleRef) -> bool {
    let mut changed = register_split_derivatives(m);
    let mut taped = super::fwdtape::TapeSplit::default();
    for call in super::calls_named(m, "__enzyme_fwdsplit") {
        changed = true;
        if let Err(e) = rewrite(m, call, &mut taped) {
            super::fail(e, call);
        }
    }
    changed
}

fn rewrite(m: LLVMModuleRef, call: V, taped: &mut super::fwdtape::TapeSplit) -> Result<()> {
    let all = call_args(call);
    if all.is_empty() || call_has_sret(call, 0) {
        return Err(Error::bad_call(call, "__enzyme_fwdsplit(f, args..., tape) needs the function first and returns the tangent by value (a result through a hidden pointer is not supported)"));
    }
    let f = resolve_function(call, all[0])?;
    let (mut keep, mut tape, mut allocated, mut nofree) = (vec![all[0]], None, false, false);
    let mut i = 1;
    while i < all.len() {
        match marker_name(all[i]).as_deref() {
            Some("enzyme_tape") if i + 1 < all.len() => {
                tape = Some(all[i + 1]);
                i += 2;
            }
            Some("enzyme_allocated") => {
                allocated = true;
                i += 2;
            }
            Some("enzyme_nofree") => {
                nofree = true;
                i += 1;
            }
            _ => {
                keep.push(all[i]);
                i += 1;
            }
        }
    }
    let mut tape = match tape {
        Some(t) => t,
        None => keep
            .pop()
            .filter(|t| keep.len() > 1 || is_ptr(type_of(*t)))
            .unwrap_or(all[0]),
    };
    if !(is_ptr(type_of(tape)) || is_int(type_of(tape))) || tape == all[0] {
        return Err(Error::bad_call(
            call,
            "__enzyme_fwdsplit needs the tape of __enzyme_augmentfwd (or null) as its last argument (or after enzyme_tape)",
        ));
    }
    if let Err(e) = check_recomputable(call, f) {
        // Read the primal values from the tape instead (fwdtape.rs); the
        // augmented forward call that made the tape is replaced then.
        let ti = all.iter().rposition(|a| *a == tape);
        let Some(replay) = taped.replay_for(call, f, tape)? else {
            return Err(e);
        };
        tape = ti.map_or(tape, |k| call_args(call)[k]);
        keep[0] = replay;
        let ctx = module_context(m);
        let marker = named_global(m, "enzyme_const")
            .unwrap_or_else(|| add_global(m, i32_type(ctx), "enzyme_const"));
        keep.push(marker);
        keep.push(if is_ptr(type_of(tape)) {
            tape
        } else {
            let b = Builder::new(m);
            b.before(call);
            b.cast(LLVMOpcode::LLVMIntToPtr, tape, ptr_type(ctx))
        });
    }
    let fty = call_fn_type(call);
    let decl = get_or_declare(m, FWDDIFF, fty);
    let b = Builder::new(m);
    b.before(call);
    b.set_debug_loc_from(call);
    let new = b.call(fty, decl, &mut keep);
    if !is_void(type_of(call)) {
        replace_all_uses(call, new);
    }
    if !nofree {
        free_tape(m, &b, tape, allocated);
    }
    erase(call);
    Ok(())
}

/// Free an enzyme-rs tape object (its buffer, then itself unless the
/// caller gave its memory); nothing for a null tape.
fn free_tape(m: LLVMModuleRef, b: &Builder, tape: V, allocated: bool) {
    let p = ptr_type(b.ctx);
    let tp = if is_ptr(type_of(tape)) {
        tape
    } else {
        b.cast(LLVMOpcode::LLVMIntToPtr, tape, p)
    };
    let null_slot = crate::ir::link::add_global(m, "enzyme_rs.null_tape", p, Some(zero(p)), true);
    set_linkage(null_slot, LLVMLinkage::LLVMPrivateLinkage);
    let is_null = b.icmp(LLVMIntPredicate::LLVMIntEQ, tp, zero(p));
    let slot = b.select(is_null, null_slot, tp);
    let data = b.load(p, slot);
    b.free(data);
    if !allocated {
        b.free(tp);
    }
}

/// What a function reads and writes, in terms of its own parameters,
/// globals and pointers of unknown origin (its locals left out).
#[derive(Default, Clone)]
struct Access {
    reads: HashSet<V>,
    writes: HashSet<V>,
    /// Writes through a pointer loaded from memory (or returned by a call).
    unknown_write: bool,
}

fn is_tracked(o: V) -> bool {
    !(opcode(o) == Some(LLVMOpcode::LLVMAlloca)
        || (is_call(o) && matches!(rules::classify(o), CallKind::Alloc(_)))
        || (is_constant(o) && (is_null_or_undef(o) || !is_global_var(o))))
}

fn add(set: &mut HashSet<V>, unknown: &mut bool, p: V) {
    for o in objects(p) {
        if is_tracked(o) {
            if !(is_argument(o) || is_global_var(o)) {
                *unknown = true;
            }
            set.insert(o);
        }
    }
}

/// The underlying objects of `p`, through -O0's local slots holding a
/// pointer stored once (an argument, say).
fn objects(p: V) -> Vec<V> {
    let mut out = Vec::new();
    for o in underlying_objects(p) {
        let s = crate::callsite::slot_value(o);
        if s != o && is_ptr(type_of(s)) {
            out.extend(underlying_objects(s));
        } else {
            out.push(o);
        }
    }
    out
}

fn access(g: V, memo: &mut HashMap<V, Access>, stack: &mut Vec<V>) -> Access {
    if let Some(a) = memo.get(&g) {
        return a.clone();
    }
    let mut a = Access::default();
    if stack.contains(&g) {
        // Recursion: nothing known; assume the worst.
        a.unknown_write = true;
        return a;
    }
    stack.push(g);
    let mut unknown_read = false;
    for bb in blocks(g) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMLoad) => add(&mut a.reads, &mut unknown_read, operand(i, 0)),
                Some(LLVMOpcode::LLVMStore) => {
                    add(&mut a.writes, &mut a.unknown_write, operand(i, 1))
                }
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg) => {
                    add(&mut a.reads, &mut unknown_read, operand(i, 0));
                    add(&mut a.writes, &mut a.unknown_write, operand(i, 0));
                }
                Some(LLVMOpcode::LLVMCall) => call_access(i, &mut a, memo, stack),
                _ => {}
            }
        }
    }
    stack.pop();
    memo.insert(g, a.clone());
    a
}

fn call_access(i: V, a: &mut Access, memo: &mut HashMap<V, Access>, stack: &mut Vec<V>) {
    let args = call_args(i);
    let ptr_args = || args.iter().copied().filter(|x| is_ptr(type_of(*x)));
    let mut ur = false;
    match rules::classify(i) {
        CallKind::Rule(r) if r.masked.is_some() => {
            if let Some(m) = crate::rules::vecmem::masked_access(i) {
                if m.op.writes() {
                    add(&mut a.writes, &mut a.unknown_write, m.ptr);
                } else {
                    add(&mut a.reads, &mut ur, m.ptr);
                }
            }
        }
        CallKind::Rule(_) | CallKind::Inactive | CallKind::Alloc(_) => {}
        CallKind::MemTransfer(_) => {
            add(&mut a.writes, &mut a.unknown_write, args[0]);
            if is_ptr(type_of(args[1])) {
                add(&mut a.reads, &mut ur, args[1]);
            }
        }
        CallKind::Defined(h) => {
            let ha = access(h, memo, stack);
            let ps = params(h);
            let map = |o: &V| {
                ps.iter()
                    .position(|p| p == o)
                    .and_then(|k| args.get(k).copied())
            };
            for o in &ha.reads {
                match map(o) {
                    Some(x) => add(&mut a.reads, &mut ur, x),
                    None => {
                        a.reads.insert(*o);
                    }
                }
            }
            for o in &ha.writes {
                match map(o) {
                    Some(x) => add(&mut a.writes, &mut a.unknown_write, x),
                    None if is_global_var(*o) => {
                        a.writes.insert(*o);
                    }
                    None => a.unknown_write = true,
                }
            }
            a.unknown_write |= ha.unknown_write;
        }
        _ => {
            for x in ptr_args() {
                add(&mut a.reads, &mut ur, x);
                add(&mut a.writes, &mut a.unknown_write, x);
            }
            if called_function(i).is_none() {
                a.unknown_write = true;
            }
        }
    }
}

/// `f`'s primal may run again (after `__enzyme_augmentfwd` ran it) only
/// when that gives the values the first run had.
fn check_recomputable(call: V, f: V) -> Result<()> {
    if is_declaration(f) {
        return Ok(());
    }
    let a = access(f, &mut HashMap::new(), &mut Vec::new());
    let why = if let Some(o) = a.reads.iter().find(|o| a.writes.contains(o)) {
        format!(
            "it reads memory it also writes ({})",
            if is_argument(*o) {
                format!("through argument {}", param_index(*o) + 1)
            } else if is_global_var(*o) {
                format!("global '{}'", name(*o))
            } else {
                "through a pointer it loaded".into()
            }
        )
    } else if a.unknown_write && !a.reads.is_empty() {
        "it writes memory through a pointer it loaded (or a call returned), which may be memory it reads".into()
    } else {
        return Ok(());
    };
    Err(Error::bad_call(call, format!("__enzyme_fwdsplit of '{}': enzyme-rs's split forward mode runs the primal again unless the tape comes straight from an __enzyme_augmentfwd of the same function (then it reads the primal values from it), which is only right for a function that does not overwrite what it reads, but {why}; pass the tape of __enzyme_augmentfwd, or use __enzyme_fwddiff before the primal runs instead", name(f))))
}

fn param_index(p: V) -> usize {
    let f = param_parent(p);
    params(f).iter().position(|x| *x == p).unwrap_or(0)
}

/// For each `__enzyme_register_splitderivative_NAME = {g, aug, fs}` a
/// custom forward derivative `{g, df}` (unless `g` has one already).
fn register_split_derivatives(m: LLVMModuleRef) -> bool {
    let mut changed = false;
    for gv in globals(m) {
        let n = name(gv);
        if !n.starts_with("__enzyme_register_splitderivative") {
            continue;
        }
        let Some(init) = global_initializer(gv) else {
            continue;
        };
        let fs: Vec<Option<V>> = operands(init)
            .into_iter()
            .map(|v| Some(strip_casts(v)).filter(|x| is_function(*x)))
            .collect();
        let [Some(g), Some(aug), Some(fsplit)] = fs.as_slice() else {
            let at = functions(m).into_iter().find(|f| !is_declaration(*f));
            if let Some(at) = at {
                let msg = format!("{n} must be {{f, augmented_f, fwdsplit_f}} (three functions)");
                Error::new(ErrorKind::BadCall(msg), at, None).emit(at);
            }
            continue;
        };
        let Some(df) = split_wrapper(m, *g, *aug, *fsplit) else {
            continue;
        };
        let mut elems = [*g, df];
        let reg = crate::ir::link::add_global(
            m,
            &format!("__enzyme_register_derivative_rs_split_{}", name(*g)),
            array_type(ptr_type(module_context(m)), 2),
            Some(crate::ir::link::const_ptr_array(
                module_context(m),
                &mut elems,
            )),
            true,
        );
        set_linkage(reg, LLVMLinkage::LLVMPrivateLinkage);
        changed = true;
    }
    changed
}

/// `df(args with tangents) { t = aug(args with shadows); return fs(args
/// with tangents, tape(t)); }`
fn split_wrapper(m: LLVMModuleRef, g: V, aug: V, fs: V) -> Option<V> {
    let mut ptys = Vec::new();
    for p in params(g) {
        let t = type_of(p);
        ptys.push(t);
        if has_tangent(t) {
            ptys.push(t);
        }
    }
    let df = add_internal_function(
        m,
        &format!("enzyme_rs.splitderivative.{}", name(g)),
        fn_type_of(fn_return_type(fs), &mut ptys, false),
    );
    let b = Builder::new(m);
    b.at_end(append_block(df, "entry"));
    let dps = params(df);
    let (mut aug_args, mut k) = (Vec::new(), 0);
    for p in params(g) {
        aug_args.push(dps[k]);
        k += 1;
        if has_tangent(type_of(p)) {
            if is_ptr(type_of(p)) {
                aug_args.push(dps[k]);
            }
            k += 1;
        }
    }
    let ap: Vec<T> = params(aug).iter().map(|p| type_of(*p)).collect();
    let fp: Vec<T> = params(fs).iter().map(|p| type_of(*p)).collect();
    let aug_ok = ap == aug_args.iter().map(|v| type_of(*v)).collect::<Vec<_>>();
    let fs_ok = fp.len() == dps.len() + 1 && fp[..dps.len()] == ptys[..];
    let aug_ret = fn_return_type(aug);
    let tape_ok = is_ptr(aug_ret)
        || (is_struct(aug_ret) && struct_fields(aug_ret).first().is_some_and(|t| is_ptr(*t)));
    if !aug_ok || !fs_ok || !tape_ok {
        let msg = format!("the split derivative of '{}': '{}' must take its arguments, each pointer followed by its shadow, and return the tape (first); '{}' its arguments, each float or pointer followed by its tangent, then the tape", name(g), name(aug), name(fs));
        b.ret(undef(fn_return_type(fs)));
        Error::new(ErrorKind::BadCall(msg), df, None).emit(df);
        return None;
    }
    let t = b.call_fn(aug, &mut aug_args);
    let tape = if is_struct(type_of(t)) {
        b.extract_value(t, 0)
    } else {
        t
    };
    let mut fs_args = dps.clone();
    fs_args.push(tape);
    let r = b.call_fn(fs, &mut fs_args);
    if is_void(type_of(r)) {
        b.ret_void();
    } else {
        b.ret(r);
    }
    Some(df)
}

/// Whether a custom forward derivative takes a tangent after a parameter
/// of this type (as `forward::custom` reads them).
fn has_tangent(t: T) -> bool {
    is_fp(t) || is_ptr(t) || may_carry_derivative(t)
}
