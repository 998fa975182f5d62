//! Complex multiplication and division at -O0 (and on the slow path at
//! -O1+) are calls to the compiler runtime: `__muldc3(a, b, c, d)` =
//! (a + bi)(c + di), `__divdc3` = (a + bi)/(c + di), and their float
//! (`sc3`) and long double (`xc3`) versions. In a function being
//! differentiated they become calls to an internal function with a body
//! that computes the same result the way compiler-rt does (for division:
//! scaled by a power of two from logb, which carries no derivative), so
//! both modes differentiate it like any callee. The runtime's recovery of
//! infinities from NaN results is kept: when both parts are NaN the body
//! returns the runtime's own result (a call marked enzyme_inactive).
//! `cabs`, `carg`, `cexp` and `clog` (double and float, in their x86-64
//! shapes) get bodies the same way: hypot(re, im), atan2(im, re),
//! e^re (cos im, sin im) and (log hypot(re, im), atan2(im, re)).
use super::Session;
use crate::ir::llvm::*;
use crate::ir::Builder;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Mul,
    Div,
    /// cabs(z) = hypot(re, im)
    Abs,
    /// cexp(z) = e^re (cos im, sin im)
    Exp,
    /// carg(z) = atan2(im, re)
    Arg,
    /// clog(z) = (log |z|, arg z)
    Log,
}

fn op_of(n: &str) -> Option<Op> {
    match n {
        "__muldc3" | "__mulsc3" | "__mulxc3" => Some(Op::Mul),
        "__divdc3" | "__divsc3" | "__divxc3" => Some(Op::Div),
        "cabs" | "cabsf" => Some(Op::Abs),
        "cexp" | "cexpf" => Some(Op::Exp),
        "carg" | "cargf" => Some(Op::Arg),
        "clog" | "clogf" => Some(Op::Log),
        _ => None,
    }
}

/// Whether `fty` is the x86-64 shape this module handles for `op`: four
/// floats for the runtime's multiply/divide; one complex value (two
/// doubles, or a <2 x float>) for the libm functions.
fn shape_ok(op: Op, fty: T) -> bool {
    let ps = param_types(fty);
    let n = ps.len();
    let float = |t: T| is_fp_scalar(t);
    match op {
        Op::Mul | Op::Div => n == 4 && ps.iter().all(|t| float(*t)),
        Op::Abs | Op::Exp | Op::Arg | Op::Log => {
            (n == 2 && float(ps[0]) && ps[1] == ps[0])
                || (n == 1
                    && is_vector(ps[0])
                    && vector_size(ps[0]) == 2
                    && float(elem_type(ps[0])))
        }
    }
}

/// Redirect the complex runtime calls of `f` to differentiable bodies.
pub fn lower_complex_calls(sess: &mut Session, f: V) -> usize {
    redirect_calls(f, |callee| {
        let op = op_of(&name(callee))?;
        shape_ok(op, global_type(callee)).then(|| body_fn(sess, callee, op))
    })
}

/// Point each direct call of `f` for which `body(callee)` gives a function
/// at that function instead; the number of calls redirected.
pub(super) fn redirect_calls(f: V, mut body: impl FnMut(V) -> Option<V>) -> usize {
    let mut n = 0;
    for bb in blocks(f) {
        for i in instructions(bb) {
            let Some(callee) = (if is_call(i) { called_function(i) } else { None }) else {
                continue;
            };
            if let Some(b) = body(callee) {
                let last = num_operands(i) - 1;
                set_operand(i, last, b);
                n += 1;
            }
        }
    }
    n
}

/// `enzyme_rs.<name>`: same signature as the runtime function.
fn body_fn(sess: &mut Session, rt: V, op: Op) -> V {
    let fname = format!("enzyme_rs.{}", name(rt));
    if let Some(f) = get_function(sess.module, &fname) {
        return f;
    }
    let fty = global_type(rt);
    let f = add_internal_function(sess.module, &fname, fty);
    sess.created.push(f);
    let b = Builder::new(sess.module);
    let entry = append_block(f, "entry");
    b.at_end(entry);
    let ps = params(f);
    let ret_t = ret_type(fty);
    if matches!(op, Op::Abs | Op::Exp | Op::Arg | Op::Log) {
        let (x, y) = if ps.len() == 2 {
            (ps[0], ps[1])
        } else {
            (
                b.extract_element(ps[0], const_i32(b.ctx, 0)),
                b.extract_element(ps[0], const_i32(b.ctx, 1)),
            )
        };
        if op == Op::Abs {
            let r = b.libm("hypot", &mut [x, y]);
            b.ret(r);
        } else if op == Op::Arg {
            let r = b.libm("atan2", &mut [y, x]);
            b.ret(r);
        } else {
            let (re, im) = if op == Op::Exp {
                let e = b.unary_intrinsic("llvm.exp", x);
                (
                    b.fmul(e, b.unary_intrinsic("llvm.cos", y)),
                    b.fmul(e, b.unary_intrinsic("llvm.sin", y)),
                )
            } else {
                let m = b.libm("hypot", &mut [x, y]);
                (
                    b.unary_intrinsic("llvm.log", m),
                    b.libm("atan2", &mut [y, x]),
                )
            };
            let mut out = undef(ret_t);
            if is_vector(ret_t) {
                out = b.insert_element(out, re, const_i32(b.ctx, 0));
                out = b.insert_element(out, im, const_i32(b.ctx, 1));
            } else {
                out = b.insert_value(out, re, 0);
                out = b.insert_value(out, im, 1);
            }
            b.ret(out);
        }
        return f;
    }
    let (a, bb, c, d) = (ps[0], ps[1], ps[2], ps[3]);
    let t = type_of(a);
    let (re, im) = match op {
        Op::Mul => (
            b.fsub(b.fmul(a, c), b.fmul(bb, d)),
            b.fadd(b.fmul(a, d), b.fmul(bb, c)),
        ),
        Op::Div => {
            // k = logb(max(|c|, |d|)) when finite, else 0; c, d scaled by
            // 2^-k; the quotient scaled back by 2^-k.
            let m = b.libm(
                "fmax",
                &mut [
                    b.unary_intrinsic("llvm.fabs", c),
                    b.unary_intrinsic("llvm.fabs", d),
                ],
            );
            let lg = b.libm("logb", &mut [m]);
            mark_inactive(lg);
            let fin = b.fcmp(
                LLVMRealPredicate::LLVMRealOLT,
                b.unary_intrinsic("llvm.fabs", lg),
                const_real(t, f64::INFINITY),
            );
            let i32t = i32_type(b.ctx);
            let k = b.cast(LLVMOpcode::LLVMFPToSI, lg, i32t);
            let k = b.select(fin, k, const_int(i32t, 0));
            let nk = b.sub(const_int(i32t, 0), k);
            let cs = b.libm("scalbn", &mut [c, nk]);
            let ds = b.libm("scalbn", &mut [d, nk]);
            let den = b.fadd(b.fmul(cs, cs), b.fmul(ds, ds));
            let r = b.fdiv(b.fadd(b.fmul(a, cs), b.fmul(bb, ds)), den);
            let i = b.fdiv(b.fsub(b.fmul(bb, cs), b.fmul(a, ds)), den);
            (
                b.libm("scalbn", &mut [r, nk]),
                b.libm("scalbn", &mut [i, nk]),
            )
        }
        Op::Abs | Op::Exp | Op::Arg | Op::Log => unreachable!(),
    };
    let pack = |x: V, y: V| -> V {
        let mut out = undef(ret_t);
        if is_vector(ret_t) {
            out = b.insert_element(out, x, const_i32(b.ctx, 0));
            b.insert_element(out, y, const_i32(b.ctx, 1))
        } else {
            out = b.insert_value(out, x, 0);
            b.insert_value(out, y, 1)
        }
    };
    let unpack = |v: V, k: u32| -> V {
        if is_vector(ret_t) {
            b.extract_element(v, const_i32(b.ctx, k as i64))
        } else {
            b.extract_value(v, k)
        }
    };
    // Both parts NaN: the runtime's result (it recovers infinities).
    let slow = b.call(fty, rt, &mut [a, bb, c, d]);
    mark_inactive(slow);
    let nan_re = b.fcmp(LLVMRealPredicate::LLVMRealUNO, re, re);
    let nan_im = b.fcmp(LLVMRealPredicate::LLVMRealUNO, im, im);
    let both = b.and(nan_re, nan_im);
    let re = b.select(both, unpack(slow, 0), re);
    let im = b.select(both, unpack(slow, 1), im);
    let r = pack(re, im);
    b.ret(r);
    f
}

/// Mark a call as carrying no derivative.
fn mark_inactive(call: V) {
    add_call_string_attr(call, "enzyme_inactive");
}
