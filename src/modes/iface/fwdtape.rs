//! Split forward mode that reads the tape (`fwdsplit.rs` falls back to it
//! when running `f`'s primal again would not give the values the first run
//! had: `f` overwrites what it reads).
//!
//! The `__enzyme_augmentfwd(f, ...)` call whose tape reaches the
//! `__enzyme_fwdsplit(f, ..., tape)` call becomes a call of a *recording*
//! clone of `f`: the primal, pushing onto a tape object every value it
//! loads from memory that is not the function's own (its stack slots and
//! fresh allocations; read-only globals are left out too). The split call
//! becomes forward mode of a *replaying* clone of `f` that takes the tape
//! as a constant extra argument and, in place of each such load, pops the
//! recorded value (`enzyme_rs.fs.load.T`, whose registered forward
//! derivative pops the value and loads the tangent from the shadow
//! address, or gives zero for a null shadow). Callees with bodies get the
//! same two clones. With every value read from outside the same as in the
//! first run, the replay computes the same values, takes the same branches
//! and stores the same values again, so the caller's memory ends as the
//! augmented forward left it, and the tangents are those at `f`'s inputs.
//!
//! Refused (the call keeps fwdsplit.rs's error): a tape that does not come
//! straight from an `__enzyme_augmentfwd` of the same function (through
//! local slots, casts and the first field of a returned struct),
//! `enzyme_allocated` tapes, vector widths, results through a hidden
//! pointer, and functions that call what cannot be replayed (an unknown
//! declaration or indirect call, inline assembly, invokes, atomics on
//! outside memory, memcpy/memmove from outside memory, free of outside
//! memory, an allocation whose pointer is stored or returned).
use crate::analysis::activity::underlying_objects;
use crate::callsite::{self, resolve_function, Mode};
use crate::diag::{Error, Result};
use crate::ir::link::{add_string_fn_attr, const_ptr_array};
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use crate::modes::reverse::tape;
use crate::rules::{self, AllocKind, CallKind, MemKind};
use std::collections::{HashMap, HashSet};

/// Clones made so far in one pass run.
#[derive(Default)]
pub struct TapeSplit {
    record: HashMap<V, V>,
    replay: HashMap<V, V>,
    /// Tape objects that replaced `__enzyme_augmentfwd` results.
    tapes: HashMap<V, V>,
    loads: HashMap<T, V>,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Record,
    Replay,
}

impl TapeSplit {
    /// For `__enzyme_fwdsplit(f, ..., tape)`: rewrite the augmented forward
    /// call that made `tape` into the recording clone (once) and return the
    /// replaying clone (`f`'s parameters, then the tape). `Ok(None)` when
    /// the tape's origin is not found.
    pub fn replay_for(&mut self, call: V, f: V, tape: V) -> Result<Option<V>> {
        let Some(origin) = origin_of(tape) else {
            return Ok(None);
        };
        if !self.tapes.contains_key(&origin) {
            if !is_aug_call(origin) {
                return Ok(None);
            }
            let target = resolve_function(origin, call_args(origin)[0])?;
            if target != f {
                return Ok(None);
            }
            let mut seen = HashSet::new();
            if let Err(why) = check(f, &mut seen) {
                return Err(Error::bad_call(call, format!("__enzyme_fwdsplit of '{}': the function overwrites what it reads, so the split forward mode reads the primal values from the tape of __enzyme_augmentfwd, but it {why}", name(f))));
            }
            self.rewrite_aug(origin, f)?;
        }
        let m = module_of(f);
        Ok(Some(self.clone_of(m, f, Kind::Replay)))
    }

    fn rewrite_aug(&mut self, aug: V, f: V) -> Result<()> {
        let req = callsite::parse(aug, Mode::AugmentFwd)?;
        if req.allocated.is_some() || req.sret.is_some() || req.fn_sret.is_some() || req.width > 1 {
            return Err(Error::bad_call(aug, format!("__enzyme_augmentfwd of '{}' feeds an __enzyme_fwdsplit that reads the tape: enzyme_allocated, vector widths and results through a hidden pointer are not supported there", name(f))));
        }
        let m = module_of(f);
        let rec = self.clone_of(m, f, Kind::Record);
        let b = Builder::new(m);
        b.before(aug);
        b.set_debug_loc_from(aug);
        let ctx = b.ctx;
        let tt = tape::tape_type(ctx);
        let tp = b.malloc(const_i64(ctx, tape::TAPE_OBJECT_BYTES));
        b.store(zero(tt), tp);
        let mut args: Vec<V> = req.args.iter().map(|a| a.primal).collect();
        args.push(tp);
        let primal = b.call_fn(rec, &mut args);
        let ret_ty = fn_return_type(f);
        let declared = callsite::leaf_types(req.ret_ty);
        let mut leaves = vec![tp];
        if !is_void(ret_ty) && declared.len() > 1 {
            leaves.extend(callsite::unpack(&b, primal));
        }
        callsite::replace_call(&req, &b, &leaves)?;
        self.tapes.insert(tp, tp);
        Ok(())
    }

    /// The recording or replaying clone of `g` (the tape appended).
    fn clone_of(&mut self, m: LLVMModuleRef, g: V, kind: Kind) -> V {
        let cache = match kind {
            Kind::Record => &self.record,
            Kind::Replay => &self.replay,
        };
        if let Some(c) = cache.get(&g) {
            return *c;
        }
        let ctx = module_context(m);
        let p = ptr_type(ctx);
        let mut ptys: Vec<T> = params(g).iter().map(|x| type_of(*x)).collect();
        ptys.push(p);
        let what = if kind == Kind::Record {
            "record"
        } else {
            "replay"
        };
        let nf = add_internal_function(
            m,
            &format!("enzyme_rs.fwdsplit.{what}.{}", name(g)),
            fn_type_of(fn_return_type(g), &mut ptys, false),
        );
        match kind {
            Kind::Record => self.record.insert(g, nf),
            Kind::Replay => self.replay.insert(g, nf),
        };
        let nps = params(nf);
        let tp = nps[nps.len() - 1];
        let mut arg_map = nps[..nps.len() - 1].to_vec();
        drop(shim::clone_into(nf, g, &mut arg_map));
        let b = Builder::new(m);
        for bb in blocks(nf) {
            for i in instructions(bb) {
                match opcode(i) {
                    Some(LLVMOpcode::LLVMLoad) if !is_local(operand(i, 0)) => {
                        let t = type_of(i);
                        if kind == Kind::Record {
                            b.after(i);
                            b.set_debug_loc_from(i);
                            let size = const_i64(ctx, type_alloc_size(m, t) as i64);
                            let at = b.call_fn(tape::reserve_fn(m), &mut [tp, size]);
                            let s = b.store(i, at);
                            set_alignment(s, 1);
                        } else {
                            b.before(i);
                            b.set_debug_loc_from(i);
                            let h = self.load_helper(m, t);
                            let v = b.call_fn(h, &mut [operand(i, 0), tp]);
                            replace_all_uses(i, v);
                            erase(i);
                        }
                    }
                    Some(LLVMOpcode::LLVMCall) => {
                        if let CallKind::Defined(h) = rules::classify(i) {
                            let c = self.clone_of(m, h, kind);
                            b.before(i);
                            b.set_debug_loc_from(i);
                            let mut args = call_args(i);
                            args.push(tp);
                            let v = b.call_fn(c, &mut args);
                            if !is_void(type_of(i)) {
                                replace_all_uses(i, v);
                            }
                            erase(i);
                        }
                    }
                    _ => {}
                }
            }
        }
        nf
    }

    /// `T enzyme_rs.fs.load.T(ptr p, ptr tape)`: the next recorded value;
    /// for a type that may carry a derivative, a registered forward
    /// derivative `{T, T}(p, dp, tape, dtape)` adds the tangent at `dp`.
    fn load_helper(&mut self, m: LLVMModuleRef, t: T) -> V {
        if let Some(h) = self.loads.get(&t) {
            return *h;
        }
        let ctx = module_context(m);
        let p = ptr_type(ctx);
        let tag: String = print_type(t)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let size = const_i64(ctx, type_alloc_size(m, t) as i64);
        let next = next_fn(m);
        let h = add_internal_function(
            m,
            &format!("enzyme_rs.fs.load.{tag}"),
            fn_type_of(t, &mut [p, p], false),
        );
        add_fn_attr(h, "noinline");
        let b = Builder::new(m);
        b.at_end(append_block(h, "entry"));
        let at = b.call_fn(next, &mut [params(h)[1], size]);
        let v = b.load(t, at);
        set_alignment(v, 1);
        b.ret(v);
        if is_fp(t) || is_ptr(t) || may_carry_derivative(t) {
            let rt = struct_type(ctx, &mut [t, t]);
            let df = add_internal_function(
                m,
                &format!("enzyme_rs.fs.dload.{tag}"),
                fn_type_of(rt, &mut [p, p, p, p], false),
            );
            let ps = params(df);
            let entry = append_block(df, "entry");
            let some = append_block(df, "shadow");
            let done = append_block(df, "done");
            b.at_end(entry);
            let at = b.call_fn(next, &mut [ps[2], size]);
            let v = b.load(t, at);
            set_alignment(v, 1);
            let null = b.icmp(LLVMIntPredicate::LLVMIntEQ, ps[1], zero(p));
            b.cond_br(null, done, some);
            b.at_end(some);
            let dv = b.load(t, ps[1]);
            set_alignment(dv, 1);
            b.br(done);
            b.at_end(done);
            let phi = b.phi(t);
            add_incoming(phi, &[(zero(t), entry), (dv, some)]);
            let r = b.insert_value(undef(rt), v, 0);
            let r = b.insert_value(r, phi, 1);
            b.ret(r);
            let reg = crate::ir::link::add_global(
                m,
                &format!("__enzyme_register_derivative_rs_fsload_{tag}"),
                array_type(p, 2),
                Some(const_ptr_array(ctx, &mut [h, df])),
                true,
            );
            set_linkage(reg, LLVMLinkage::LLVMPrivateLinkage);
        } else {
            add_string_fn_attr(h, "enzyme_inactive", "");
        }
        self.loads.insert(t, h);
        h
    }
}

/// `ptr enzyme_rs.fs.next(ptr tape, i64 n)`: the address of the next n
/// recorded bytes (read front to back; the tape's last field, the tag of
/// reverse-mode tapes, is the read position).
fn next_fn(m: LLVMModuleRef) -> V {
    const NAME: &str = "enzyme_rs.fs.next";
    if let Some(f) = get_function(m, NAME) {
        return f;
    }
    let ctx = module_context(m);
    let (p, i64t) = (ptr_type(ctx), i64_type(ctx));
    let f = add_internal_function(m, NAME, fn_type_of(p, &mut [p, i64t], false));
    let ps = params(f);
    let b = Builder::new(m);
    b.at_end(append_block(f, "entry"));
    let tt = tape::tape_type(ctx);
    let pos_p = b.gep(tt, ps[0], &mut [const_i32(ctx, 0), const_i32(ctx, 3)]);
    let pos = b.load(i64t, pos_p);
    let np = b.add(pos, ps[1]);
    b.store(np, pos_p);
    let data = b.load(p, ps[0]);
    let r = b.gep(i8_type(ctx), data, &mut [pos]);
    b.ret(r);
    f
}

fn is_aug_call(v: V) -> bool {
    is_call(v)
        && callsite::unmangled_head(&name(strip_casts(called_value(v))))
            .starts_with("__enzyme_augmentfwd")
}

/// The `__enzyme_augmentfwd` call (or a tape object that replaced one)
/// a tape value comes from.
fn origin_of(tape: V) -> Option<V> {
    let mut v = tape;
    for _ in 0..32 {
        v = strip_casts(v);
        if is_aug_call(v) {
            return Some(v);
        }
        match opcode(v) {
            Some(LLVMOpcode::LLVMIntToPtr | LLVMOpcode::LLVMPtrToInt) => v = operand(v, 0),
            Some(LLVMOpcode::LLVMExtractValue) if indices(v).first() == Some(&0) => {
                v = operand(v, 0)
            }
            Some(LLVMOpcode::LLVMLoad) => {
                let s = callsite::slot_value(v);
                if s == v {
                    return None;
                }
                v = s;
            }
            Some(LLVMOpcode::LLVMCall) => return Some(v),
            _ => return None,
        }
    }
    None
}

/// The objects `p` may point into, through -O0's local slots holding a
/// pointer stored once.
fn objects(p: V) -> Vec<V> {
    let mut out = Vec::new();
    for o in underlying_objects(p) {
        let s = callsite::slot_value(o);
        if s != o && is_ptr(type_of(s)) {
            out.extend(underlying_objects(s));
        } else {
            out.push(o);
        }
    }
    out
}

fn is_fresh_alloc(o: V) -> bool {
    is_call(o)
        && matches!(
            rules::classify(o),
            CallKind::Alloc(AllocKind::Malloc { .. } | AllocKind::Calloc)
        )
}

/// Whether `p` points only into the function's own memory (its stack
/// slots, its fresh allocations) or read-only globals.
fn is_local(p: V) -> bool {
    objects(p).into_iter().all(|o| {
        opcode(o) == Some(LLVMOpcode::LLVMAlloca)
            || is_fresh_alloc(o)
            || (is_global_var(o) && is_global_constant(o))
    })
}

/// Whether `v` (an allocation) is stored into memory or returned,
/// following GEPs and casts.
fn escapes(v: V) -> bool {
    let mut work = vec![v];
    let mut seen = HashSet::new();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        for u in users(x) {
            match opcode(u) {
                Some(LLVMOpcode::LLVMStore) if operand(u, 0) == x => return true,
                Some(LLVMOpcode::LLVMRet) => return true,
                Some(
                    LLVMOpcode::LLVMGetElementPtr
                    | LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMPHI
                    | LLVMOpcode::LLVMSelect,
                ) => work.push(u),
                _ => {}
            }
        }
    }
    false
}

/// Whether `g` (and the functions it calls) can be recorded and replayed;
/// `Err` says why not.
fn check(g: V, seen: &mut HashSet<V>) -> std::result::Result<(), String> {
    if !seen.insert(g) {
        return Ok(());
    }
    if is_vararg(fn_type(g)) {
        return Err(format!("calls the variadic function '{}'", name(g)));
    }
    for bb in blocks(g) {
        for i in instructions(bb) {
            match opcode(i) {
                Some(LLVMOpcode::LLVMInvoke) => {
                    return Err(format!("has an invoke in '{}'", name(g)))
                }
                Some(LLVMOpcode::LLVMAtomicRMW | LLVMOpcode::LLVMAtomicCmpXchg)
                    if !is_local(operand(i, 0)) =>
                {
                    return Err(format!(
                        "has an atomic update of outside memory in '{}'",
                        name(g)
                    ))
                }
                Some(LLVMOpcode::LLVMCall) => check_call(i, seen)?,
                _ => {}
            }
        }
    }
    Ok(())
}

fn check_call(i: V, seen: &mut HashSet<V>) -> std::result::Result<(), String> {
    let args = call_args(i);
    let callee = || {
        called_function(i)
            .map(name)
            .unwrap_or_else(|| "a function pointer".into())
    };
    match rules::classify(i) {
        // A masked load of outside memory would need recording too.
        CallKind::Rule(r) if r.masked.is_some() => match crate::rules::vecmem::masked_access(i) {
            Some(a) if !a.op.writes() && !is_local(a.ptr) => Err(format!(
                "reads outside memory with {}, which is not recorded",
                callee()
            )),
            _ => Ok(()),
        },
        CallKind::Rule(_) | CallKind::Inactive => Ok(()),
        CallKind::Defined(h) => check(h, seen),
        CallKind::Alloc(AllocKind::Free) if !is_local(args[0]) => {
            Err("frees memory it did not allocate".into())
        }
        CallKind::Alloc(AllocKind::Realloc { .. }) => Err("calls realloc".into()),
        CallKind::Alloc(_) if escapes(i) => Err("stores or returns memory it allocates".into()),
        CallKind::Alloc(_) => Ok(()),
        CallKind::MemTransfer(MemKind::Copy | MemKind::Move) if !is_local(args[1]) => {
            Err(format!("copies outside memory with {}", callee()))
        }
        CallKind::MemTransfer(_) => Ok(()),
        _ => Err(format!("calls {}, which cannot run again", callee())),
    }
}
