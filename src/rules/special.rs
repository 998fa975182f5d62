//! Special functions' partials that need more than one expression:
//! Bessel functions (through the recurrences of their orders), erf, and
//! digamma (the derivative of lgamma, built once per module and type as
//! an internal function).
use super::RuleCtx;
use crate::ir::llvm::*;
use crate::ir::Builder;

/// `kind`1' = (`kind`0 - `kind`n(2, x)) / 2 (kind: "j" or "y").
pub(super) fn bessel_j1_y1(c: &RuleCtx, kind: &str) -> V {
    let x = c.x();
    let zero_order = c.b.libm(&format!("{kind}0"), &mut [x]);
    let two = const_int(i32_type(c.b.ctx), 2);
    let second = bessel_order(c.b, &format!("{kind}n"), two, x);
    c.b.fmul(c.b.fsub(zero_order, second), c.c(0.5))
}

/// jn(n, x)' = (jn(n - 1, x) - jn(n + 1, x)) / 2 (and yn).
pub(super) fn bessel_n(c: &RuleCtx, base: &str) -> V {
    let (n, x) = (c.arg(0), c.arg(1));
    let one = const_int(type_of(n), 1);
    let below = bessel_order(c.b, base, c.b.sub(n, one), x);
    let above = bessel_order(c.b, base, c.b.add(n, one), x);
    c.b.fmul(c.b.fsub(below, above), c.c(0.5))
}

/// A call `base`(n, x) (jn, yn) with libm's suffix for x's type.
fn bessel_order(b: &Builder, base: &str, n: V, x: V) -> V {
    let t = type_of(x);
    let suffix = match kind(t) {
        LLVMTypeKind::LLVMFloatTypeKind => "f",
        LLVMTypeKind::LLVMDoubleTypeKind => "",
        _ => "l",
    };
    let n = b.int_cast(n, i32_type(b.ctx), true);
    let fty = fn_type_of(t, &mut [i32_type(b.ctx), t], false);
    let f = get_or_declare(b.module, &format!("{base}{suffix}"), fty);
    b.call(fty, f, &mut [n, x])
}

pub(super) fn d_erf(c: &RuleCtx, sign: f64) -> V {
    let e = c.b.unary_intrinsic("llvm.exp", c.b.fneg(c.b.square(c.x())));
    c.b.fmul(e, c.c(sign * std::f64::consts::FRAC_2_SQRT_PI))
}

/// digamma(x) (the derivative of lgamma), by a call to an internal helper
/// built once per module and float type.
pub(super) fn digamma(b: &Builder, x: V) -> V {
    let t = type_of(x);
    if is_vector(t) {
        let mut out = undef(t);
        for lane in 0..vector_size(t) {
            let idx = const_i32(b.ctx, lane as i64);
            let r = digamma(b, b.extract_element(x, idx));
            out = b.insert_element(out, r, idx);
        }
        return out;
    }
    let f = digamma_fn(b.module, t);
    b.call_fn(f, &mut [x])
}

/// `T enzyme_rs.digamma.T(T x)`: reflection psi(x) = psi(1 - x) - pi /
/// tan(pi x) for x < 0, the recurrence psi(y) = psi(y + 1) - 1/y up to
/// y >= 10, then the asymptotic series ln y - 1/(2y) - sum B_2k / (2k
/// y^2k) to y^-14 (error below 1e-15 relative at y >= 10).
fn digamma_fn(m: LLVMModuleRef, t: T) -> V {
    let fname = format!("enzyme_rs.digamma.{}", print_type(t));
    if let Some(f) = get_function(m, &fname) {
        return f;
    }
    let b = Builder::new(m);
    let fty = fn_type_of(t, &mut [t], false);
    let f = get_or_declare(m, &fname, fty);
    set_internal(f);
    let x = params(f)[0];
    let block = |n: &str| append_block(f, n);
    let (entry, lp, tail) = (block("entry"), block("recur"), block("series"));
    let k = |v: f64| const_real(t, v);
    b.at_end(entry);
    let neg = b.fcmp(LLVMRealPredicate::LLVMRealOLT, x, k(0.0));
    let pix = b.fmul(k(std::f64::consts::PI), x);
    let tan = b.libm("tan", &mut [pix]);
    let refl = b.fdiv(k(-std::f64::consts::PI), tan);
    let refl = b.select(neg, refl, k(0.0));
    let y0 = b.select(neg, b.fsub(k(1.0), x), x);
    let small = b.fcmp(LLVMRealPredicate::LLVMRealOLT, y0, k(10.0));
    b.cond_br(small, lp, tail);
    // recur: acc -= 1/y; y += 1 while y < 10
    b.at_end(lp);
    let y = b.phi(t);
    let acc = b.phi(t);
    let acc1 = b.fsub(acc, b.fdiv(k(1.0), y));
    let y1 = b.fadd(y, k(1.0));
    let more = b.fcmp(LLVMRealPredicate::LLVMRealOLT, y1, k(10.0));
    b.cond_br(more, lp, tail);
    add_incoming(y, &[(y0, entry), (y1, lp)]);
    add_incoming(acc, &[(refl, entry), (acc1, lp)]);
    b.at_end(tail);
    let yt = b.phi(t);
    let acct = b.phi(t);
    add_incoming(yt, &[(y0, entry), (y1, lp)]);
    add_incoming(acct, &[(refl, entry), (acc1, lp)]);
    let z = b.fdiv(k(1.0), b.fmul(yt, yt));
    // -B_2k / (2k), k = 1..7, applied as a polynomial in z = 1/y^2.
    let coefs = [
        -1.0 / 12.0,
        1.0 / 120.0,
        -1.0 / 252.0,
        1.0 / 240.0,
        -1.0 / 132.0,
        691.0 / 32760.0,
        -1.0 / 12.0,
    ];
    let mut poly = k(coefs[6]);
    for c in coefs[..6].iter().rev() {
        poly = b.fadd(k(*c), b.fmul(z, poly));
    }
    let series = b.fmul(z, poly);
    let ln = b.libm("log", &mut [yt]);
    let r = b.fsub(ln, b.fdiv(k(0.5), yt));
    let r = b.fadd(b.fadd(r, series), acct);
    b.ret(r);
    f
}
