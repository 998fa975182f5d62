//! BLAS calls by name: the CBLAS spelling (`cblas_dgemm`) and the Fortran
//! one (`dgemm_`, also without the underscore), for double and single
//! precision level 1-3 routines. Recognised only for declarations (a function with
//! a body of that name is the user's own, differentiated like any other).
//! The derivatives are built by `modes::blas`; the classifier calls the
//! call [`super::CallKind::Blas`].

/// What a BLAS routine computes (real, double or single precision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routine {
    /// `r = x . y`
    Dot,
    /// `y = a x + y`
    Axpy,
    /// `x = a x`
    Scal,
    /// `r = ||x||_2`
    Nrm2,
    /// `y = alpha op(A) x + beta y`
    Gemv,
    /// `C = alpha op(A) op(B) + beta C`
    Gemm,
    /// `y = x`
    Copy,
    /// `x, y = y, x`
    Swap,
    /// `r = sum |x_i|`
    Asum,
    /// `A = alpha x y^T + A`
    Ger,
    /// A BLAS routine with no derivative rule here: an error when
    /// differentiated.
    Unsupported,
}

/// The calling convention a BLAS call uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    /// CBLAS: scalars by value, an order argument for level 2-3.
    Cblas,
    /// Fortran: every argument by reference, column major.
    Fortran,
}

/// A recognised BLAS call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlasCall {
    pub routine: Routine,
    pub abi: Abi,
}

/// The routines with derivative rules, by their bare Fortran name.
const SUPPORTED: &[(&str, Routine)] = &[
    ("ddot", Routine::Dot),
    ("daxpy", Routine::Axpy),
    ("dscal", Routine::Scal),
    ("dnrm2", Routine::Nrm2),
    ("dgemv", Routine::Gemv),
    ("dgemm", Routine::Gemm),
    ("sdot", Routine::Dot),
    ("saxpy", Routine::Axpy),
    ("sscal", Routine::Scal),
    ("snrm2", Routine::Nrm2),
    ("sgemv", Routine::Gemv),
    ("sgemm", Routine::Gemm),
    ("dcopy", Routine::Copy),
    ("dswap", Routine::Swap),
    ("dasum", Routine::Asum),
    ("dger", Routine::Ger),
    ("scopy", Routine::Copy),
    ("sswap", Routine::Swap),
    ("sasum", Routine::Asum),
    ("sger", Routine::Ger),
];

/// Level 1-3 routine stems (without the precision letter) that BLAS has.
const STEMS: &[&str] = &[
    "dot", "dotu", "dotc", "dsdot", "sdot", "axpy", "scal", "nrm2", "asum", "copy", "swap", "rot",
    "rotg", "rotm", "rotmg", "gemv", "gbmv", "symv", "sbmv", "spmv", "hemv", "hbmv", "hpmv",
    "trmv", "tbmv", "tpmv", "trsv", "tbsv", "tpsv", "ger", "geru", "gerc", "syr", "syr2", "spr",
    "spr2", "her", "her2", "hpr", "hpr2", "gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k",
    "trmm", "trsm", "amax", "amin",
];

/// Whether bare name `b` (no `cblas_` prefix, no trailing underscore) is
/// a BLAS routine: a precision letter (or two, `dz`/`sc`/`cs`/`zd`, or
/// `i` + letter for amax) followed by a known stem.
fn is_blas_stem(b: &str) -> bool {
    let body = b.strip_prefix('i').filter(|r| r.len() > 1).unwrap_or(b);
    for prefix in ["dz", "sc", "cs", "zd", "ds", "s", "d", "c", "z"] {
        if let Some(stem) = body.strip_prefix(prefix) {
            if STEMS.contains(&stem) {
                return true;
            }
        }
    }
    false
}

/// The BLAS call a declared function's name is; `None` for anything else.
pub fn blas_call(n: &str) -> Option<BlasCall> {
    let (bare, abi) = if let Some(b) = n.strip_prefix("cblas_") {
        (b, Abi::Cblas)
    } else if let Some(b) = n.strip_suffix('_') {
        (b, Abi::Fortran)
    } else {
        (n, Abi::Fortran)
    };
    let routine = match SUPPORTED.iter().find(|(s, _)| *s == bare) {
        Some((_, r)) => *r,
        None if is_blas_stem(bare) => Routine::Unsupported,
        None => return None,
    };
    Some(BlasCall { routine, abi })
}

/// The name of the runtime helper family for call `k` of function `n`:
/// `cblas_dgemm` or `dgemm_` (a Fortran name without its underscore gets
/// the underscore's helpers).
pub fn canonical_name(n: &str, k: BlasCall) -> String {
    match k.abi {
        Abi::Cblas => n.to_string(),
        Abi::Fortran => format!("{}_", n.trim_end_matches('_')),
    }
}

/// The routines that have derivative rules, for error messages.
pub fn supported_list() -> String {
    let names: Vec<String> = SUPPORTED
        .iter()
        .map(|(s, _)| format!("{s} (cblas_{s}, {s}_)"))
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let gemm = blas_call("cblas_dgemm").unwrap();
        assert_eq!(gemm.routine, Routine::Gemm);
        assert_eq!(gemm.abi, Abi::Cblas);
        assert_eq!(blas_call("dgemm_").unwrap().abi, Abi::Fortran);
        assert_eq!(blas_call("ddot").unwrap().routine, Routine::Dot);
        assert_eq!(blas_call("dtrsm_").unwrap().routine, Routine::Unsupported);
        assert_eq!(blas_call("cblas_sgemm").unwrap().routine, Routine::Gemm);
        assert_eq!(blas_call("snrm2_").unwrap().routine, Routine::Nrm2);
        assert_eq!(blas_call("sdot").unwrap().routine, Routine::Dot);
        assert_eq!(
            blas_call("cblas_dsdot").unwrap().routine,
            Routine::Unsupported
        );
        assert_eq!(
            blas_call("cblas_cgemm").unwrap().routine,
            Routine::Unsupported
        );
        assert_eq!(blas_call("idamax_").unwrap().routine, Routine::Unsupported);
        assert_eq!(blas_call("dznrm2_").unwrap().routine, Routine::Unsupported);
        assert!(blas_call("sin").is_none());
        assert!(blas_call("dot").is_none());
        assert!(blas_call("my_dgemm").is_none());
        assert_eq!(canonical_name("dgemm", gemm_f()), "dgemm_");
    }

    fn gemm_f() -> BlasCall {
        BlasCall {
            routine: Routine::Gemm,
            abi: Abi::Fortran,
        }
    }
}
