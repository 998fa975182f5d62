//! Forward mode through a custom derivative registered with
//! `__enzyme_register_derivative_NAME = {f, df}`.
use super::{signature, Derivative, Key, Ret};
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::Builder;
use crate::modes::common::{custom_mismatch, fn_sig_text};
use crate::modes::Session;

/// Whether a parameter of this type is followed by its tangent in a custom
/// forward derivative's signature.
pub fn custom_has_tangent(t: T) -> bool {
    is_fp(t) || is_ptr(t) || may_carry_derivative(t)
}

/// A function registered with `__enzyme_register_derivative_NAME = {f, df}`:
/// a wrapper with the signature of `key` calls `df` once per lane.
///
/// Convention: `df` takes `f`'s parameters, each floating-point or pointer
/// parameter followed by its tangent (shadow); a parameter without a
/// tangent in this use gets a zero tangent (null shadow). `df` returns
/// `f`'s result type (the tangent) or a struct of two of them (`{primal,
/// tangent}`); for a void `f` it returns void.
pub(super) fn custom_derivative(
    sess: &mut Session,
    key: &Key,
    df: V,
    user_call: Option<V>,
) -> Result<Derivative> {
    let f = key.func;
    let ps = params(f);
    let ret_ty = fn_return_type(f);
    let mut want = Vec::new();
    for p in &ps {
        let t = type_of(*p);
        want.push(t);
        if custom_has_tangent(t) {
            want.push(t);
        }
    }
    let got: Vec<T> = params(df).iter().map(|p| type_of(*p)).collect();
    let dret = fn_return_type(df);
    let both = !is_void(ret_ty) && is_struct(dret) && struct_fields(dret) == vec![ret_ty, ret_ty];
    let ret_ok = if is_void(ret_ty) {
        is_void(dret)
    } else {
        dret == ret_ty || both
    };
    if got != want || ret_ok == false || is_vararg(fn_type(df)) {
        let wp: Vec<String> = want.iter().map(|t| print_type(*t)).collect();
        let wr = if is_void(ret_ty) {
            "void".to_string()
        } else {
            format!("{0} or {{{0}, {0}}}", print_type(ret_ty))
        };
        return Err(custom_mismatch(
            user_call,
            format!(
                "custom forward derivative '{}' registered for '{}' has the wrong signature: '{}' is {}, so '{}' must be {} ({}) (each float or pointer parameter followed by its tangent), but it is {}",
                name(df),
                name(f),
                name(f),
                fn_sig_text(f),
                name(df),
                wr,
                wp.join(", "),
                fn_sig_text(df)
            ),
        ));
    }
    let (fty, ret) = signature(key);
    let width = key.width.max(1) as usize;
    let nf = add_function(
        sess.module,
        &format!("enzyme_rs.fwd.custom.{}", name(f)),
        fty,
    );
    make_internal(nf);
    let d = Derivative { func: nf, ret };
    sess.fwd_cache.insert(key.clone(), d);
    sess.created.push(nf);
    let b = Builder::new(sess.module);
    let entry = append_block(nf, "entry");
    b.at_end(entry);
    let nps = params(nf);
    let mut primals = Vec::new();
    let mut lanes: Vec<Option<Vec<V>>> = Vec::new();
    let mut j = 0;
    for (i, _) in ps.iter().enumerate() {
        primals.push(nps[j]);
        j += 1;
        if key.shadow[i] {
            lanes.push(Some(nps[j..j + width].to_vec()));
            j += width;
        } else {
            lanes.push(None);
        }
    }
    let mut tangents = Vec::new();
    let mut primal_result = None;
    for l in 0..width {
        let mut args = Vec::new();
        for (i, p) in ps.iter().enumerate() {
            let t = type_of(*p);
            args.push(primals[i]);
            if custom_has_tangent(t) {
                args.push(match &lanes[i] {
                    Some(s) => s[l],
                    None => zero(t),
                });
            }
        }
        let r = b.call_fn(df, &mut args);
        if both {
            if l == 0 {
                primal_result = Some(b.extract_value(r, 0));
            }
            tangents.push(b.extract_value(r, 1));
        } else if !is_void(ret_ty) {
            tangents.push(r);
        }
    }
    let primal_result = match (primal_result, is_void(ret_ty)) {
        (Some(p), _) => Some(p),
        (None, false) => Some(b.call_fn(f, &mut primals.clone())),
        (None, true) => None,
    };
    match ret {
        Ret::Void => {
            b.ret_void();
        }
        Ret::Primal => {
            b.ret(primal_result.unwrap());
        }
        Ret::Both => {
            let st = fn_return_type(nf);
            let t = if width == 1 {
                tangents[0]
            } else {
                b.make_struct(struct_fields(st)[1], &tangents)
            };
            let r = b.make_struct(st, &[primal_result.unwrap(), t]);
            b.ret(r);
        }
    }
    if sess.opts.print {
        eprintln!("{}", print_value(nf));
    }
    Ok(d)
}
