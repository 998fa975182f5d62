//! Rewrites of a function's clone before either mode differentiates it:
//! library calls whose derivative follows from plain arithmetic are replaced
//! by that arithmetic, so the rule table covers them.
//!
//! - `__muldc3`/`__mulsc3` (complex multiplication, emitted by clang for
//!   `_Complex` and `std::complex` products): `(a+bi)(c+di) = (ac-bd) +
//!   (ad+bc)i`. The library call only differs when the naive result is NaN
//!   (it recovers infinities), which a derivative cannot follow anyway.
//! - `__divdc3`/`__divsc3` (complex division): `((ac+bd) + (bc-ad)i) /
//!   (c^2+d^2)`. The library scales by a power of two against overflow;
//!   for operands whose squares stay finite the value is the same.
//! - `cabs`, `carg`, `cexp`, `clog` (and the `f` versions): `hypot(a, b)`,
//!   `atan2(b, a)`, `exp(a) (cos b + i sin b)`, `log(hypot(a, b)) + i
//!   atan2(b, a)`, through the math functions the rule table knows.
use crate::ir::llvm::*;
use crate::ir::Builder;

#[derive(Clone, Copy)]
enum ComplexOp {
    Mul,
    Div,
}

fn complex_op(callee: &str) -> Option<ComplexOp> {
    match callee {
        "__muldc3" | "__mulsc3" => Some(ComplexOp::Mul),
        "__divdc3" | "__divsc3" => Some(ComplexOp::Div),
        _ => None,
    }
}

/// A complex number passed by value as the x86-64 C ABI does: two scalars
/// (double) or one `<2 x float>`.
fn complex_arg(b: &Builder, args: &[V]) -> Option<(V, V)> {
    match args {
        [re, im] if is_fp_scalar(type_of(*re)) && type_of(*re) == type_of(*im) => Some((*re, *im)),
        [v] if is_vector(type_of(*v)) && vector_size(type_of(*v)) == 2 => {
            let ctx = b.ctx;
            Some((
                b.extract_element(*v, const_i32(ctx, 0)),
                b.extract_element(*v, const_i32(ctx, 1)),
            ))
        }
        _ => None,
    }
}

/// A complex result of type `rt` (`{T, T}` or `<2 x T>`) from its parts.
fn complex_result(b: &Builder, rt: T, re: V, im: V) -> V {
    let undef = unsafe { LLVMGetUndef(rt) };
    if is_struct(rt) {
        b.insert_value(b.insert_value(undef, re, 0), im, 1)
    } else {
        let ctx = b.ctx;
        let v = b.insert_element(undef, re, const_i32(ctx, 0));
        b.insert_element(v, im, const_i32(ctx, 1))
    }
}

fn is_complex_type(t: T) -> bool {
    (is_struct(t) && struct_fields(t).len() == 2) || (is_vector(t) && vector_size(t) == 2)
}

/// Call the C math function `base` (`hypot`, `exp`, ...) in the precision
/// of `x`, declaring it if needed.
fn libm(b: &Builder, base: &str, args: &mut [V]) -> V {
    let t = type_of(args[0]);
    let n = if t == unsafe { LLVMFloatTypeInContext(b.ctx) } {
        format!("{base}f")
    } else {
        base.to_string()
    };
    let mut ps: Vec<T> = args.iter().map(|a| type_of(*a)).collect();
    let f = get_or_declare(b.module, &n, fn_type_of(t, &mut ps, false));
    b.call_fn(f, args)
}

/// Replace `cabs`/`carg`/`cexp`/`clog` calls by real math. Returns how many.
fn lower_complex_math(f: V) -> usize {
    let b = Builder::new(module_of(f));
    let mut n = 0;
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            let Some(callee) = called_function(i) else {
                continue;
            };
            let cn = name(callee);
            let base = cn.strip_suffix('f').unwrap_or(&cn);
            if !matches!(base, "cabs" | "carg" | "cexp" | "clog") {
                continue;
            }
            b.before(i);
            b.set_debug_loc_from(i);
            let args = call_args(i);
            let rt = type_of(i);
            let scalar_ret = is_fp_scalar(rt);
            if scalar_ret != matches!(base, "cabs" | "carg")
                || (!scalar_ret && !is_complex_type(rt))
            {
                continue;
            }
            let Some((re, im)) = complex_arg(&b, &args) else {
                continue;
            };
            let v = match base {
                "cabs" => libm(&b, "hypot", &mut [re, im]),
                "carg" => libm(&b, "atan2", &mut [im, re]),
                "cexp" => {
                    let e = libm(&b, "exp", &mut [re]);
                    let c = libm(&b, "cos", &mut [im]);
                    let s = libm(&b, "sin", &mut [im]);
                    complex_result(&b, rt, b.fmul(e, c), b.fmul(e, s))
                }
                _ => {
                    let m = libm(&b, "hypot", &mut [re, im]);
                    let l = libm(&b, "log", &mut [m]);
                    let a = libm(&b, "atan2", &mut [im, re]);
                    complex_result(&b, rt, l, a)
                }
            };
            unsafe {
                LLVMReplaceAllUsesWith(i, v);
                LLVMInstructionEraseFromParent(i);
            }
            n += 1;
        }
    }
    n
}

/// Replace complex library calls in `f` by real arithmetic and math
/// functions. Returns how many calls were replaced.
pub fn lower_complex_libcalls(f: V) -> usize {
    lower_complex_math(f) + lower_complex_arith(f)
}

fn lower_complex_arith(f: V) -> usize {
    let mut calls = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) || call_num_args(i) != 4 {
                continue;
            }
            let Some(op) = called_function(i).and_then(|c| complex_op(&name(c))) else {
                continue;
            };
            let rt = type_of(i);
            // {T, T} (double) or <2 x T> (float on x86-64) of four T args.
            if is_complex_type(rt) && (0..4).all(|k| is_fp_scalar(type_of(operand(i, k)))) {
                calls.push((i, op));
            }
        }
    }
    let b = Builder::new(module_of(f));
    for (i, op) in &calls {
        b.before(*i);
        b.set_debug_loc_from(*i);
        let (a, bb, c, d) = (
            operand(*i, 0),
            operand(*i, 1),
            operand(*i, 2),
            operand(*i, 3),
        );
        let (re, im) = match op {
            ComplexOp::Mul => (
                b.fsub(b.fmul(a, c), b.fmul(bb, d)),
                b.fadd(b.fmul(a, d), b.fmul(bb, c)),
            ),
            ComplexOp::Div => {
                let den = b.fadd(b.fmul(c, c), b.fmul(d, d));
                (
                    b.fdiv(b.fadd(b.fmul(a, c), b.fmul(bb, d)), den),
                    b.fdiv(b.fsub(b.fmul(bb, c), b.fmul(a, d)), den),
                )
            }
        };
        let v = complex_result(&b, type_of(*i), re, im);
        unsafe {
            LLVMReplaceAllUsesWith(*i, v);
            LLVMInstructionEraseFromParent(*i);
        }
    }
    calls.len()
}
