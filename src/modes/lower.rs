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
use super::Session;
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

/// Whether `f`'s address is used other than as the callee of a call.
fn address_taken(f: V) -> bool {
    unsafe {
        let mut u = LLVMGetFirstUse(f);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            let is_callee = (is_call(user) || is_invoke(user)) && called_value(user) == f;
            if !is_callee {
                return true;
            }
            u = LLVMGetNextUse(u);
        }
    }
    false
}

/// Whether the modes can differentiate a call of `f`: it has a body, or
/// the rule table or a registered custom derivative covers it.
fn differentiable(f: V) -> bool {
    if !is_declaration(f) {
        return true;
    }
    let n = name(f);
    crate::rules::math_base(&n).is_some()
        || crate::rules::registry::custom_forward(f).is_some()
        || crate::rules::registry::custom_gradient(f).is_some()
}

/// The functions an indirect call of type `fty` may reach: those of this
/// module whose address is taken, whose type is `fty` and that the modes
/// can differentiate.
fn candidates(m: LLVMModuleRef, fty: T) -> Vec<V> {
    functions(m)
        .into_iter()
        .filter(|f| {
            fn_type(*f) == fty
                && differentiable(*f)
                && !name(*f).starts_with("enzyme_rs.")
                && address_taken(*f)
        })
        .collect()
}

/// `enzyme_rs.dispatch(args..., fp)`: compares `fp` with each candidate and
/// calls the one it is; any other target prints why and aborts (its
/// derivative is unknown). A closed-world assumption: a function of another
/// module (or one whose address is only computed) is not among the
/// candidates, and reaching it stops the program rather than giving a
/// derivative without its contribution.
fn dispatcher(sess: &mut Session, fty: T, cands: &[V]) -> V {
    let key = (fty, cands.to_vec());
    if let Some(d) = sess.dispatchers.get(&key) {
        return *d;
    }
    let m = sess.module;
    let b = Builder::new(m);
    let ctx = b.ctx;
    let ret = unsafe { LLVMGetReturnType(fty) };
    let n = unsafe { LLVMCountParamTypes(fty) } as usize;
    let mut ps: Vec<T> = vec![std::ptr::null_mut(); n];
    unsafe { LLVMGetParamTypes(fty, ps.as_mut_ptr()) };
    ps.push(ptr_type(ctx));
    let dty = fn_type_of(ret, &mut ps, false);
    let d = unsafe { LLVMAddFunction(m, c"enzyme_rs.dispatch".as_ptr(), dty) };
    crate::modes::forward::make_internal(d);
    let args = params(d);
    let fp = args[n];
    set_name(fp, "fnptr");
    let mut bb = crate::modes::reverse::tape::append_block(d, "entry");
    for c in cands {
        let hit = crate::modes::reverse::tape::append_block(d, &format!("call.{}", name(*c)));
        let next = crate::modes::reverse::tape::append_block(d, "next");
        b.at_end(bb);
        let eq = b.icmp(LLVMIntPredicate::LLVMIntEQ, fp, *c);
        b.cond_br(eq, hit, next);
        b.at_end(hit);
        let r = b.call(fty, *c, &mut args[..n].to_vec());
        if is_void(ret) {
            b.ret_void();
        } else {
            b.ret(r);
        }
        bb = next;
    }
    b.at_end(bb);
    let msg = "enzyme-rs: an indirect call being differentiated reached a function \
               this module does not define; its derivative is unknown";
    let s = unsafe {
        let cs = std::ffi::CString::new(msg).unwrap();
        LLVMBuildGlobalStringPtr(b.raw, cs.as_ptr(), c"enzyme_rs.dispatch.msg".as_ptr())
    };
    let i32t = i32_type(ctx);
    let puts = get_or_declare(m, "puts", fn_type_of(i32t, &mut [ptr_type(ctx)], false));
    b.call_fn(puts, &mut [s]);
    let abort = get_or_declare(m, "abort", fn_type_of(void_type(ctx), &mut [], false));
    b.call_fn(abort, &mut []);
    b.unreachable();
    sess.dispatchers.insert(key, d);
    sess.created.push(d);
    d
}

/// Indirect calls that `active` says carry derivatives become direct calls
/// of a dispatcher over the functions they may reach (`candidates`), which
/// both modes differentiate like any other callee. Calls with ABI
/// attributes on their arguments (byval, sret...) and calls no defined
/// function matches are left alone (differentiating them is an error).
/// Returns how many calls were rewritten.
pub fn dispatch_indirect_calls(sess: &mut Session, f: V, active: impl Fn(V) -> bool) -> usize {
    let mut todo = Vec::new();
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) || called_function(i).is_some() || is_inline_asm(called_value(i)) {
                continue;
            }
            let args = call_args(i);
            if !(active(i) || args.iter().any(|a| active(*a))) || has_abi_attrs(i, args.len()) {
                continue;
            }
            let fty = call_fn_type(i);
            if unsafe { LLVMIsFunctionVarArg(fty) } != 0 {
                continue;
            }
            let cands = candidates(sess.module, fty);
            if !cands.is_empty() {
                todo.push((i, fty, cands));
            }
        }
    }
    let b = Builder::new(sess.module);
    for (i, fty, cands) in &todo {
        let d = dispatcher(sess, *fty, cands);
        let mut args = call_args(*i);
        args.push(called_value(*i));
        b.before(*i);
        b.set_debug_loc_from(*i);
        let c = b.call_fn(d, &mut args);
        unsafe {
            LLVMReplaceAllUsesWith(*i, c);
            LLVMInstructionEraseFromParent(*i);
        }
    }
    todo.len()
}

/// Whether a call passes any argument with an ABI attribute (byval, sret,
/// inalloca, preallocated) the dispatcher would not repeat.
fn has_abi_attrs(call: V, nargs: usize) -> bool {
    ["byval", "sret", "inalloca", "preallocated"]
        .iter()
        .any(|a| {
            let k = enum_attr_kind(a);
            (1..=nargs as u32)
                .any(|i| unsafe { !LLVMGetCallSiteEnumAttribute(call, i, k).is_null() })
        })
}
