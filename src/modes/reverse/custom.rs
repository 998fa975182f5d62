//! Custom gradients: `void* __enzyme_register_gradient_NAME[] = {f, aug_f,
//! rev_f};`. The pair for `f` becomes two thin wrappers with the usual
//! (aug, rev) signatures that call the user's functions; the tape value
//! `aug_f` returns is pushed on the enzyme-rs tape by the aug wrapper and
//! popped by the rev wrapper, so custom gradients nest inside any
//! differentiated code (loops, recursion) like synthesized ones.
//!
//! Conventions (the activity is the one `f` is differentiated with; inside
//! differentiated code: floating-point parameters are active, pointer
//! parameters duplicated, a missing shadow is passed as null):
//!
//! - `aug_f` takes `f`'s parameters, each duplicated one followed by its
//!   shadow (active scalars alone). It returns
//!   - for a void `f`: void (no tape) or the tape (any type, e.g. `void*`);
//!   - otherwise `{tape, result}` (a two-field struct whose second field
//!     has `f`'s result type, also through an `sret` first parameter), or
//!     just the result (no tape), or just a tape of another type, or void
//!     (no tape; in both cases the primal result is computed by calling `f`);
//!   - for an `f` returning a pointer whose shadow is needed (duplicated
//!     pointer arguments): `{result, shadow}` or `{tape, result, shadow}`
//!     (the shadow is, e.g., an object whose vtable pointer is
//!     `__enzyme_virtualreverse` of the primal's).
//! - `rev_f` takes the same parameters as `aug_f`, then the adjoint of the
//!   result when `f` returns an active float, then the tape when `aug_f`
//!   returns one. It returns the adjoints of the active scalar parameters:
//!   void, one value, or a struct/array of them in parameter order.
use super::tape;
use super::{AugRet, Key, Pair};
use crate::callsite;
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::common::{custom_mismatch, fn_sig_text};
use crate::modes::Session;

fn types_text(ts: &[T]) -> String {
    ts.iter()
        .map(|t| print_type(*t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How `aug_f` returns.
struct AugShape {
    /// Through an sret first parameter of this struct type.
    sret: Option<T>,
    /// The returned value's type (the sret struct when sret).
    ret: T,
    /// Field index of the tape within the result, or the whole result.
    tape: Option<Option<u32>>,
    /// Field index of the primal within the result, or the whole result.
    primal: Option<Option<u32>>,
    /// Field index of the returned pointer's shadow within the result.
    shadow: Option<u32>,
}

/// The error for a custom gradient of `f` that does not fit.
fn mismatch(f: V, user_call: Option<V>, what: String) -> crate::diag::Error {
    custom_mismatch(
        user_call,
        format!(
            "custom gradient for '{}' ({}) does not fit: {what}",
            name(f),
            fn_sig_text(f)
        ),
    )
}

/// Build the wrapper pair for `f` with custom gradient (`aug_f`, `rev_f`).
/// `ptys` are the parameter types shared by aug and rev (primal parameters
/// with shadows); `pair` has the wrapper declarations.
pub fn build(
    sess: &mut Session,
    key: &Key,
    pair: &Pair,
    ptys: &[T],
    custom: (V, V),
    user_call: Option<V>,
) -> Result<()> {
    let f = key.func;
    let (aug_f, rev_f) = custom;
    let shape = aug_shape(f, aug_f, ptys, pair.aug_ret, user_call)?;
    let tape_ty = shape.tape.map(|idx| match idx {
        None => shape.ret,
        Some(k) => struct_fields(shape.ret)[k as usize],
    });
    check_rev(f, rev_f, pair, ptys, tape_ty, user_call)?;
    let module = sess.module;
    let tape_size = tape_ty.map(|t| type_alloc_size(module, t).div_ceil(8) * 8);
    build_aug_wrapper(module, key, pair, aug_f, &shape, tape_size);
    build_rev_wrapper(module, pair, rev_f, tape_ty, tape_size);
    if sess.opts.print {
        eprintln!("{}", print_value(pair.aug));
        eprintln!("{}", print_value(pair.rev));
    }
    Ok(())
}

/// How the user's augmented function returns, checking its parameters.
fn aug_shape(
    f: V,
    aug_f: V,
    ptys: &[T],
    aug_ret: AugRet,
    user_call: Option<V>,
) -> Result<AugShape> {
    let ret_ty = fn_return_type(f);
    let aps: Vec<T> = params(aug_f).iter().map(|p| type_of(*p)).collect();
    let sret = if aps.is_empty() {
        None
    } else {
        type_attr_at(aug_f, 1, "sret")
    };
    let has_sret = sret.is_some();
    let user_aps = &aps[has_sret as usize..];
    if user_aps != ptys || is_vararg(fn_type(aug_f)) {
        return Err(mismatch(f, user_call, format!(
            "the augmented forward function '{}' must take ({}) ('{}' parameters, each duplicated one followed by its shadow), but it is {}",
            name(aug_f),
            types_text(ptys),
            name(f),
            fn_sig_text(aug_f)
        )));
    }
    let aret = sret.unwrap_or_else(|| fn_return_type(aug_f));
    if aug_ret == AugRet::PrimalShadow {
        return primal_shadow_shape(f, aug_f, sret, aret, user_call);
    }
    Ok(if is_void(ret_ty) {
        AugShape {
            sret,
            ret: aret,
            tape: (!is_void(aret)).then_some(None),
            primal: None,
            shadow: None,
        }
    } else if aret == ret_ty {
        AugShape {
            sret,
            ret: aret,
            tape: None,
            primal: Some(None),
            shadow: None,
        }
    } else if is_struct(aret) && struct_fields(aret).len() == 2 && struct_fields(aret)[1] == ret_ty
    {
        AugShape {
            sret,
            ret: aret,
            tape: Some(Some(0)),
            primal: Some(Some(1)),
            shadow: None,
        }
    } else {
        // A tape of another type, or void (no tape): the primal result
        // comes from calling `f` itself.
        AugShape {
            sret,
            ret: aret,
            tape: (!is_void(aret)).then_some(None),
            primal: None,
            shadow: None,
        }
    })
}

/// How `aug_f` returns the primal pointer and its shadow: `{result,
/// shadow}` or `{tape, result, shadow}`.
fn primal_shadow_shape(
    f: V,
    aug_f: V,
    sret: Option<T>,
    aret: T,
    user_call: Option<V>,
) -> Result<AugShape> {
    let ret_ty = fn_return_type(f);
    let fields = if is_struct(aret) {
        struct_fields(aret)
    } else {
        Vec::new()
    };
    let (tape, first) = match fields.len() {
        2 => (None, 0),
        3 => (Some(Some(0)), 1),
        _ => (None, u32::MAX),
    };
    let fits = first != u32::MAX
        && fields[first as usize] == ret_ty
        && fields[first as usize + 1] == ret_ty;
    if !fits {
        return Err(mismatch(f, user_call, format!(
            "'{}' returns a pointer that has a shadow here, so the augmented forward function '{}' must return {{result, shadow}} or {{tape, result, shadow}} ({} fields), but it returns {}",
            name(f),
            name(aug_f),
            print_type(ret_ty),
            print_type(aret)
        )));
    }
    Ok(AugShape {
        sret,
        ret: aret,
        tape,
        primal: Some(Some(first)),
        shadow: Some(first + 1),
    })
}

/// Check the user's reverse function's signature.
fn check_rev(
    f: V,
    rev_f: V,
    pair: &Pair,
    ptys: &[T],
    tape_ty: Option<T>,
    user_call: Option<V>,
) -> Result<()> {
    let ret_ty = fn_return_type(f);
    let mut want_rev: Vec<T> = ptys.to_vec();
    if pair.takes_seed {
        want_rev.push(ret_ty);
    }
    if let Some(t) = tape_ty {
        want_rev.push(t);
    }
    let rps: Vec<T> = params(rev_f).iter().map(|p| type_of(*p)).collect();
    let rev_ret = fn_return_type(pair.rev);
    let user_rev_ret = fn_return_type(rev_f);
    let leaves_ok = callsite::leaf_types(rev_ret).len() == callsite::leaf_types(user_rev_ret).len()
        && is_void(rev_ret) == is_void(user_rev_ret)
        && callsite::leaf_types(user_rev_ret).iter().all(|t| is_fp(*t));
    if rps != want_rev || !leaves_ok || is_vararg(fn_type(rev_f)) {
        let mut why = format!(
            "the reverse function '{}' must take ({}) (the augmented function's parameters{}{}) and return {}",
            name(rev_f),
            types_text(&want_rev),
            if pair.takes_seed { ", the result's adjoint" } else { "" },
            if tape_ty.is_some() { ", the tape" } else { "" },
            if is_void(rev_ret) {
                "void".to_string()
            } else {
                format!("{} (the adjoints of the active parameters)", print_type(rev_ret))
            }
        );
        why.push_str(&format!(", but it is {}", fn_sig_text(rev_f)));
        return Err(mismatch(f, user_call, why));
    }
    Ok(())
}

/// The aug wrapper: call aug_f, push the tape, return the primal.
fn build_aug_wrapper(
    module: LLVMModuleRef,
    key: &Key,
    pair: &Pair,
    aug_f: V,
    shape: &AugShape,
    tape_size: Option<u64>,
) {
    let f = key.func;
    let b = Builder::new(module);
    let ctx = b.ctx;
    let g = pair.aug;
    let entry = append_block(g, "entry");
    b.at_end(entry);
    let gps = params(g);
    let (tape_arg, user_args) = gps.split_last().unwrap();
    let mut args = Vec::new();
    let buf = shape.sret.map(|st| b.alloca(st));
    if let Some(p) = buf {
        args.push(p);
    }
    args.extend(user_args.iter().copied());
    let r = b.call_fn(aug_f, &mut args);
    if let (Some(_), Some(st)) = (buf, shape.sret) {
        add_call_type_attr(r, 1, "sret", st);
    }
    let r = match (buf, shape.sret) {
        (Some(p), Some(st)) => b.load(st, p),
        _ => r,
    };
    if let (Some(idx), Some(size)) = (shape.tape, tape_size) {
        let t = match idx {
            None => r,
            Some(k) => b.extract_value(r, k),
        };
        let slot = b.call_fn(
            tape::reserve_fn(module),
            &mut [*tape_arg, const_i64(ctx, size as i64)],
        );
        let s = b.store(t, slot);
        set_alignment(s, 8);
    }
    match pair.aug_ret {
        AugRet::Void => {
            b.ret_void();
        }
        AugRet::PrimalShadow => {
            // `primal_shadow_shape` set both fields.
            let p = b.extract_value(r, shape.primal.flatten().unwrap_or(0));
            let s = b.extract_value(r, shape.shadow.unwrap_or(1));
            let out = b.insert_value(undef(fn_return_type(g)), p, 0);
            let out = b.insert_value(out, s, 1);
            b.ret(out);
        }
        AugRet::Primal => {
            let p = match shape.primal {
                Some(None) => r,
                Some(Some(k)) => b.extract_value(r, k),
                None => {
                    // Only the primal parameters (skip shadows).
                    let mut pargs = Vec::new();
                    let mut j = 0;
                    for a in key.acts.iter() {
                        pargs.push(user_args[j]);
                        j += 1;
                        if *a == super::Act::Dup {
                            j += 1;
                        }
                    }
                    b.call_fn(f, &mut pargs)
                }
            };
            b.ret(p);
        }
    }
    make_internal(g);
}

/// The rev wrapper: pop the tape, call rev_f, repack its result.
fn build_rev_wrapper(
    module: LLVMModuleRef,
    pair: &Pair,
    rev_f: V,
    tape_ty: Option<T>,
    tape_size: Option<u64>,
) {
    let b = Builder::new(module);
    let ctx = b.ctx;
    let rev_ret = fn_return_type(pair.rev);
    let user_rev_ret = fn_return_type(rev_f);
    let g = pair.rev;
    let entry = append_block(g, "entry");
    b.at_end(entry);
    let gps = params(g);
    let (tape_arg, user_args) = gps.split_last().unwrap();
    let mut args: Vec<V> = user_args.to_vec();
    if let (Some(t), Some(size)) = (tape_ty, tape_size) {
        let slot = b.call_fn(
            tape::pop_fn(module),
            &mut [*tape_arg, const_i64(ctx, size as i64)],
        );
        let l = b.load(t, slot);
        set_alignment(l, 8);
        args.push(l);
    }
    let r = b.call_fn(rev_f, &mut args);
    if is_void(rev_ret) {
        b.ret_void();
    } else if user_rev_ret == rev_ret {
        b.ret(r);
    } else {
        let leaves = callsite::unpack(&b, r);
        let v = callsite::pack(&b, rev_ret, &leaves).unwrap();
        b.ret(v);
    }
    make_internal(g);
}
