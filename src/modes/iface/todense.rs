//! `__enzyme_todense(load_fn, store_fn, extra...)` (after
//! differentiation): a pointer whose memory is functions. Each load of a
//! `T` at byte offset `off` from it becomes `load_fn(off, extra...)`
//! (returning `T`), each store of `v` becomes `store_fn(v, off, extra...)`
//! (or `store_fn(off, v, extra...)` when its first parameter is the
//! integer). Given as a shadow (`enzyme_dup, x, __enzyme_todense(...)`),
//! the derivative reads its seed and writes its tangents through these
//! functions: a sparse or one-hot seed, tangents accumulated into a
//! sparse structure, as Enzyme's sparse-derivative helpers do.
//!
//! The pointer is followed through address arithmetic, phis, selects and
//! -O0's local slots; calls it reaches with a body (the derivatives the
//! differentiation made) are inlined first. Anything else it reaches (a
//! call without a body, being stored to memory, memcpy) is a compile
//! error, as is a load of a type other than `load_fn`'s result.
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::ir::{shim, Builder};
use std::collections::HashSet;

/// Lower every `__enzyme_todense` call. Returns whether the module changed;
/// the calls it inlined (and so erased: a derivative's call at the user's
/// site among them) are added to `gone`.
pub fn lower_after(m: LLVMModuleRef, gone: &mut Vec<V>) -> bool {
    let mut changed = false;
    // (`__enzyme_post_sparse_todense`, which Enzyme's automatic sparsity
    // places after its own rewriting, is the same here: enzyme-rs does not
    // rewrite for sparsity, so the two mean one thing.)
    let mut calls = super::calls_named(m, "__enzyme_todense");
    calls.extend(super::calls_named(m, "__enzyme_post_sparse_todense"));
    for call in calls {
        changed = true;
        if let Err(e) = lower(m, call, gone) {
            super::fail(e, call);
        }
    }
    changed
}

fn lower(m: LLVMModuleRef, call: V, gone: &mut Vec<V>) -> Result<()> {
    let args = call_args(call);
    let (Some(load_fn), Some(store_fn)) = (
        args.first().and_then(|a| callee_of(*a)),
        args.get(1).and_then(|a| callee_of(*a)),
    ) else {
        return Err(Error::bad_call(
            call,
            "__enzyme_todense(load_fn, store_fn, extra...) needs the two functions first",
        ));
    };
    if !is_ptr(type_of(call)) {
        return Err(Error::bad_call(
            call,
            "__enzyme_todense must return a pointer",
        ));
    }
    let extra = args[2..].to_vec();
    // Inline the functions the pointer is given to, until none is left.
    let derived = loop {
        let d = derived(call);
        let mut inlined = false;
        for &v in &d {
            for u in users(v) {
                if is_call(u)
                    && called_function(u).is_some_and(|f| !is_declaration(f))
                    && call_args(u).contains(&v)
                    && shim::inline_call(u)
                {
                    gone.push(u);
                    inlined = true;
                }
            }
            if inlined {
                break;
            }
        }
        if !inlined {
            break d;
        }
    };
    let b = Builder::new(m);
    let ctx = module_context(m);
    let i64t = i64_type(ctx);
    let mut rewrites = Vec::new();
    for &v in &derived {
        for u in users(v) {
            match opcode(u) {
                Some(LLVMOpcode::LLVMLoad) => rewrites.push(u),
                Some(LLVMOpcode::LLVMStore) if operand(u, 1) == v && !derived.contains(&operand(u, 0)) => {
                    rewrites.push(u)
                }
                Some(LLVMOpcode::LLVMStore) if is_slot(operand(u, 1)) => {}
                Some(LLVMOpcode::LLVMGetElementPtr) => set_inbounds(u, false),
                Some(
                    LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMAddrSpaceCast
                    | LLVMOpcode::LLVMPHI
                    | LLVMOpcode::LLVMSelect
                    | LLVMOpcode::LLVMICmp
                    | LLVMOpcode::LLVMPtrToInt,
                ) => {}
                Some(LLVMOpcode::LLVMCall)
                    if called_function(u).is_some_and(|f| {
                        let n = name(f);
                        n.starts_with("llvm.lifetime.")
                            || n.starts_with("llvm.dbg.")
                            || n.starts_with("llvm.objectsize.")
                    }) => {}
                _ => {
                    return Err(Error::bad_call(
                        call,
                        format!("the pointer __enzyme_todense returns reaches '{}', which enzyme-rs cannot turn into calls of its load and store functions (only loads, stores and address arithmetic, in the function or in the bodies of the calls it is given to)", print_value(u).trim()),
                    ))
                }
            }
        }
    }
    for i in rewrites {
        b.before(i);
        b.set_debug_loc_from(i);
        let p = if opcode(i) == Some(LLVMOpcode::LLVMLoad) {
            operand(i, 0)
        } else {
            operand(i, 1)
        };
        // The byte offset from the pointer __enzyme_todense returned.
        let off = b.sub(
            b.cast(LLVMOpcode::LLVMPtrToInt, p, i64t),
            b.cast(LLVMOpcode::LLVMPtrToInt, call, i64t),
        );
        if opcode(i) == Some(LLVMOpcode::LLVMLoad) {
            let t = type_of(i);
            if ret_type(load_fn.1) != t {
                return Err(Error::bad_call(
                    call,
                    format!(
                        "__enzyme_todense: '{}' returns {}, but a {} is loaded through the pointer",
                        load_fn.2,
                        print_type(ret_type(load_fn.1)),
                        print_type(t)
                    ),
                ));
            }
            let mut a = vec![off];
            a.extend(extra.iter().copied());
            let a = fit_args(&b, &load_fn, a, call)?;
            let r = b.call(load_fn.1, load_fn.0, &mut a.clone());
            replace_all_uses(i, r);
        } else {
            let v = operand(i, 0);
            let ps = param_types(store_fn.1);
            let off_first = ps.len() >= 2 && is_int(ps[0]) && !is_int(ps[1]);
            let mut a = if off_first {
                vec![off, v]
            } else {
                vec![v, off]
            };
            a.extend(extra.iter().copied());
            let a = fit_args(&b, &store_fn, a, call)?;
            b.call(store_fn.1, store_fn.0, &mut a.clone());
        }
        erase(i);
    }
    // What still uses the pointer only compares or measures it (a
    // sanitizer's null and object-size checks): an aligned, non-null
    // address nothing reads (the offsets above subtract it again).
    b.before(call);
    let nowhere = b.cast(
        LLVMOpcode::LLVMIntToPtr,
        const_i64(ctx, 4096),
        type_of(call),
    );
    replace_all_uses(call, nowhere);
    erase(call);
    Ok(())
}

/// The function (or a phi/select of functions of one type) a load or
/// store function argument names: the callee, its type and a name.
fn callee_of(a: V) -> Option<(V, T, String)> {
    let s = strip_casts(a);
    if is_function(s) {
        return Some((s, fn_type(s), name(s)));
    }
    let cands: Vec<V> = match opcode(s) {
        Some(LLVMOpcode::LLVMPHI) => incoming(s)
            .into_iter()
            .map(|(v, _)| strip_casts(v))
            .collect(),
        Some(LLVMOpcode::LLVMSelect) => {
            vec![strip_casts(operand(s, 1)), strip_casts(operand(s, 2))]
        }
        _ => return None,
    };
    let first = *cands.first()?;
    (cands
        .iter()
        .all(|c| is_function(*c) && fn_type(*c) == fn_type(first)))
    .then(|| (s, fn_type(first), name(first)))
}

/// `args` converted to the parameter types of `f` (integer widths), or an
/// error.
fn fit_args(b: &Builder, f: &(V, T, String), args: Vec<V>, call: V) -> Result<Vec<V>> {
    let ps = param_types(f.1);
    if ps.len() != args.len() || is_vararg(f.1) {
        return Err(Error::bad_call(call, format!("__enzyme_todense: '{}' takes {} parameters, but is called with {} (the offset, the value for a store, and the {} extra argument(s))", f.2, ps.len(), args.len(), args.len().saturating_sub(2))));
    }
    let mut out = Vec::new();
    for (a, tp) in args.into_iter().zip(ps) {
        let ta = type_of(a);
        out.push(if ta == tp {
            a
        } else if is_int(ta) && is_int(tp) {
            b.int_cast(a, tp, true)
        } else if is_fp(ta) && is_fp(tp) {
            b.fp_cast(a, tp)
        } else {
            return Err(Error::bad_call(
                call,
                format!(
                    "__enzyme_todense: '{}' takes {} where {} is given",
                    f.2,
                    print_type(tp),
                    print_type(ta)
                ),
            ));
        });
    }
    Ok(out)
}

/// A local slot only stored to and loaded from (-O0's variables).
fn is_slot(p: V) -> bool {
    opcode(p) == Some(LLVMOpcode::LLVMAlloca)
        && users(p).iter().all(|u| {
            matches!(
                opcode(*u),
                Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore)
            ) || (is_call(*u)
                && called_function(*u).is_some_and(|f| {
                    let n = name(f);
                    n.starts_with("llvm.lifetime.")
                        || n.starts_with("llvm.dbg.")
                        || n.starts_with("llvm.memset.")
                }))
        })
}

/// The pointers derived from `root` in its function.
fn derived(root: V) -> Vec<V> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut work = vec![root];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        out.push(v);
        for u in users(v) {
            match opcode(u) {
                Some(
                    LLVMOpcode::LLVMGetElementPtr
                    | LLVMOpcode::LLVMBitCast
                    | LLVMOpcode::LLVMAddrSpaceCast
                    | LLVMOpcode::LLVMPHI,
                ) => work.push(u),
                Some(LLVMOpcode::LLVMSelect) if operand(u, 0) != v => work.push(u),
                Some(LLVMOpcode::LLVMStore) if operand(u, 0) == v && is_slot(operand(u, 1)) => {
                    work.extend(loads_reached(u, operand(u, 1)));
                }
                _ => {}
            }
        }
    }
    out
}

/// The loads of local slot `slot` that may read what store `st` put there:
/// those reached from it before another store to the slot (`x =
/// __enzyme_todense(..., x, ...)` at -O0 loads `x` before the store, for
/// the call's own argument; that load reads the old pointer).
fn loads_reached(st: V, slot: V) -> Vec<V> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    // (block, the instructions from where to look in it)
    let mut work: Vec<(BB, Option<V>)> = vec![(inst_block(st), Some(st))];
    while let Some((bb, from)) = work.pop() {
        let insts = instructions(bb);
        let start = match from {
            Some(i) => insts.iter().position(|x| *x == i).map_or(0, |k| k + 1),
            None => {
                if !seen.insert(bb) {
                    continue;
                }
                0
            }
        };
        let mut blocked = false;
        for &i in &insts[start..] {
            match opcode(i) {
                Some(LLVMOpcode::LLVMLoad) if operand(i, 0) == slot => out.push(i),
                Some(LLVMOpcode::LLVMStore) if operand(i, 1) == slot => {
                    blocked = true;
                    break;
                }
                _ => {}
            }
        }
        if !blocked {
            for s in successors(bb) {
                work.push((s, None));
            }
        }
    }
    out
}
