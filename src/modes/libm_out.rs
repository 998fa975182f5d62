//! libm functions that return values through pointers: `sincos(x, &s, &c)`
//! (GNU) and `modf(x, &ip)`, double and float. In a function being
//! differentiated their calls go to an internal body computing the same
//! values with what the rule table knows, so both modes differentiate the
//! stores like any callee's:
//!
//! - `sincos`: `*s = sin(x); *c = cos(x)` (glibc's sincos returns exactly
//!   sin and cos);
//! - `modf`: `*ip = trunc(x)`, returning `x - trunc(x)` (exact for finite
//!   x) with the sign of x (modf(-2.0) is -0.0), a signed 0 for an
//!   infinite x.
use super::Session;
use crate::ir::llvm::*;
use crate::ir::types::param_types;
use crate::ir::Builder;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    SinCos,
    Modf,
}

/// The operation and whether it is LLVM's intrinsic form (`llvm.modf.*`,
/// `llvm.sincos.*`: T -> {T, T}, as clang 22 emits for modf).
fn op_of(n: &str) -> Option<(Op, bool)> {
    match n {
        "sincos" | "sincosf" => Some((Op::SinCos, false)),
        "modf" | "modff" => Some((Op::Modf, false)),
        _ if n.starts_with("llvm.sincos.") => Some((Op::SinCos, true)),
        _ if n.starts_with("llvm.modf.") => Some((Op::Modf, true)),
        _ => None,
    }
}

/// Whether `fty` is the C shape of `op`: (T, ptr, ptr) -> void for sincos,
/// (T, ptr) -> T for modf, T float or double.
fn shape_ok(op: Op, intrinsic: bool, fty: T) -> bool {
    let ps = param_types(fty);
    let real = |t: T| is_fp_scalar(t) && !is_vector(t);
    if intrinsic {
        let r = ret_type(fty);
        return ps.len() == 1
            && real(ps[0])
            && is_struct(r)
            && struct_fields(r) == vec![ps[0], ps[0]];
    }
    match op {
        Op::SinCos => {
            ps.len() == 3 && real(ps[0]) && is_ptr(ps[1]) && is_ptr(ps[2]) && is_void(ret_type(fty))
        }
        Op::Modf => ps.len() == 2 && real(ps[0]) && is_ptr(ps[1]) && ret_type(fty) == ps[0],
    }
}

/// Redirect `f`'s calls of sincos and modf to differentiable bodies.
pub fn lower_pointer_output_calls(sess: &mut Session, f: V) -> usize {
    super::complex::redirect_calls(f, |callee| {
        let (op, intrinsic) = op_of(&name(callee))?;
        (is_declaration(callee) && shape_ok(op, intrinsic, global_type(callee)))
            .then(|| body_fn(sess, callee, op, intrinsic))
    })
}

/// `enzyme_rs.<name>`: same signature as the libm function.
fn body_fn(sess: &mut Session, libm: V, op: Op, intrinsic: bool) -> V {
    let fname = format!("enzyme_rs.{}", name(libm));
    if let Some(f) = get_function(sess.module, &fname) {
        return f;
    }
    let fty = global_type(libm);
    let f = crate::ir::globals::add_internal_function(sess.module, &fname, fty);
    sess.created.push(f);
    let b = Builder::new(sess.module);
    b.at_end(append_block(f, "entry"));
    let ps = params(f);
    let x = ps[0];
    // The intrinsic forms return the two values as a struct.
    let pair = |a: V, c: V| {
        let s = b.insert_value(undef(ret_type(fty)), a, 0);
        b.ret(b.insert_value(s, c, 1));
    };
    match op {
        Op::SinCos => {
            let (sin, cos) = (
                b.unary_intrinsic("llvm.sin", x),
                b.unary_intrinsic("llvm.cos", x),
            );
            if intrinsic {
                pair(sin, cos);
            } else {
                b.store(sin, ps[1]);
                b.store(cos, ps[2]);
                b.ret_void();
            }
        }
        Op::Modf => {
            // x - trunc(x) for x with its sign bit clear, -(trunc(x) - x)
            // otherwise (the same value, with modf's -0.0 for x = -2.0 or
            // -0.0): slope 1 either way, where a copysign would give -1.
            let whole = b.unary_intrinsic("llvm.trunc", x);
            if !intrinsic {
                b.store(whole, ps[1]);
            }
            let sign = b.binary_intrinsic("llvm.copysign", b.real_like(x, 1.0), x);
            let neg = b.fcmp(LLVMRealPredicate::LLVMRealOLT, sign, b.real_like(x, 0.0));
            let frac = b.select(neg, b.fneg(b.fsub(whole, x)), b.fsub(x, whole));
            let inf = b.fcmp(
                LLVMRealPredicate::LLVMRealOEQ,
                b.unary_intrinsic("llvm.fabs", x),
                b.real_like(x, f64::INFINITY),
            );
            let signed_zero = b.binary_intrinsic("llvm.copysign", b.real_like(x, 0.0), x);
            let frac = b.select(inf, signed_zero, frac);
            if intrinsic {
                pair(frac, whole);
            } else {
                b.ret(frac);
            }
        }
    }
    f
}
