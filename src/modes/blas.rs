//! Derivatives of BLAS calls (`rules::blas`: ddot, daxpy, dscal, dnrm2,
//! dcopy, dswap, dasum, dger, dgemv, dgemm and their single precision
//! twins, in their CBLAS and Fortran spellings).
//!
//! The derivatives are runtime helpers (`runtime/blas_rt.c`, bitcode linked
//! into the module on first use) with the signatures of custom derivatives,
//! so a BLAS call goes through the same machinery as a user's
//! `__enzyme_register_derivative_*` / `__enzyme_register_gradient_*`
//! registration (`forward/custom.rs`, `reverse/custom.rs`): the forward
//! helper computes the tangent with BLAS calls on the tangents and runs the
//! primal; the augmented helper copies what the reverse reads (the factors,
//! the output's old value when beta is not zero) onto a tape of its own
//! and runs the primal; the reverse helper adds the adjoints into the
//! shadows with BLAS calls on them (dgemm's adjoint is two dgemm calls)
//! and returns the adjoints of by-value scalars.
//!
//! The modes ask [`check`] at each call (unsupported routines, unexpected
//! prototypes, vector modes: errors with the call's line), then
//! [`custom_forward`] / [`custom_gradient`] for the helpers.
use crate::diag::{Error, Result};
use crate::ir::llvm::*;
use crate::rules::blas::{blas_call, canonical_name, supported_list, BlasCall, Routine};

const RUNTIME: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/blas_rt.bc"));
const PREFIX: &str = "__enzyme_rs_blas_";

/// The runtime helper `PREFIX{kind}_{name}` (linking the helpers into the
/// module first).
fn helper(m: LLVMModuleRef, kind: &str, name: &str) -> Result<V> {
    let full = format!("{PREFIX}{kind}_{name}");
    if let Some(f) = get_function(m, &full).filter(|f| !is_declaration(*f)) {
        return Ok(f);
    }
    crate::ir::bitcode::link_bitcode(m, RUNTIME, PREFIX)
        .map_err(|e| Error::internal(format!("BLAS runtime: {e}")))?;
    get_function(m, &full).ok_or_else(|| Error::internal(format!("BLAS runtime has no {full}")))
}

/// The BLAS call `f` is (a declaration with a supported routine's name).
fn supported(f: V) -> Option<(BlasCall, String)> {
    if !is_declaration(f) {
        return None;
    }
    let n = name(f);
    let k = blas_call(&n).filter(|k| k.routine != Routine::Unsupported)?;
    Some((k, canonical_name(&n, k)))
}

/// The parameter types the routine's prototype must have: the forward
/// helper's parameters without the tangents (each float or pointer
/// parameter is followed by one), and the result type (the helper returns
/// `{primal, tangent}` in double precision, the tangent alone in single).
fn expected_prototype(fwd: V) -> (Vec<T>, Option<T>) {
    let mut want = Vec::new();
    let ps: Vec<T> = params(fwd).iter().map(|p| type_of(*p)).collect();
    let mut j = 0;
    while j < ps.len() {
        want.push(ps[j]);
        j += if is_fp(ps[j]) || is_ptr(ps[j]) { 2 } else { 1 };
    }
    let r = fn_return_type(fwd);
    let ret = if is_void(r) {
        None
    } else if is_struct(r) {
        Some(struct_fields(r)[0])
    } else {
        Some(r)
    };
    (want, ret)
}

fn proto_text(ps: &[T], ret: Option<T>) -> String {
    let ps: Vec<String> = ps.iter().map(|t| print_type(*t)).collect();
    format!(
        "{} ({})",
        ret.map_or("void".to_string(), print_type),
        ps.join(", ")
    )
}

/// Whether BLAS call `call` (classified `k`) can be differentiated here
/// with `width` tangents/lanes; the message of the error otherwise.
pub fn check(call: V, k: BlasCall, width: u32) -> std::result::Result<(), String> {
    let Some(f) = known_target(call) else {
        return Err("a BLAS call through a function pointer".into());
    };
    let n = name(f);
    if k.routine == Routine::Unsupported {
        return Err(format!(
            "no derivative rule for the BLAS routine '{n}' (rules exist for {})",
            supported_list()
        ));
    }
    if width > 1 {
        return Err(format!(
            "the BLAS call '{n}' in vector mode (enzyme_width {width}) is not supported yet"
        ));
    }
    let fwd = helper(module_of(f), "fwd", &canonical_name(&n, k)).map_err(|e| e.to_string())?;
    let (want, ret) = expected_prototype(fwd);
    let got: Vec<T> = params(f).iter().map(|p| type_of(*p)).collect();
    let got_ret = Some(fn_return_type(f)).filter(|t| !is_void(*t));
    if got != want || got_ret != ret || is_vararg(fn_type(f)) {
        return Err(format!(
            "the BLAS routine '{n}' is declared as {}, but its derivative rule expects {} (the reference CBLAS / Fortran BLAS prototype with 32-bit integers)",
            proto_text(&got, got_ret),
            proto_text(&want, ret)
        ));
    }
    Ok(())
}

/// The forward derivative of BLAS declaration `f` (the custom forward
/// derivative convention), or `None` when `f` is no supported BLAS call.
pub fn custom_forward(m: LLVMModuleRef, f: V) -> Result<Option<V>> {
    match supported(f) {
        Some((_, n)) => helper(m, "fwd", &n).map(Some),
        None => Ok(None),
    }
}

/// The (augmented forward, reverse) pair of BLAS declaration `f` (the
/// custom gradient convention), or `None` when `f` is no supported BLAS
/// call.
pub fn custom_gradient(m: LLVMModuleRef, f: V) -> Result<Option<(V, V)>> {
    match supported(f) {
        Some((_, n)) => Ok(Some((helper(m, "aug", &n)?, helper(m, "rev", &n)?))),
        None => Ok(None),
    }
}
