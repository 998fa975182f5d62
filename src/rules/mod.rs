//! The derivative rule table: for each differentiable scalar primitive (an
//! LLVM instruction, intrinsic or C math function), its local partial
//! derivatives with respect to each operand.
//!
//! Both modes drive this one table:
//! - forward (tangent):  dout = sum_i partial_i * dx_i
//! - reverse (adjoint):  dx_i += partial_i * dout
//!
//! A rule only computes the partials the caller asks for (`need[i]`), so an
//! inactive operand costs nothing. Structural instructions (load, store, phi,
//! extract/insert, shuffles, memory intrinsics, calls) are not scalar
//! primitives: each mode handles them itself (see `modes/`).
//!
//! Adding a function is one entry in [`lookup`] plus its partials function.
pub mod annotations;
pub mod blas;
pub mod classify;
pub mod gpu;
pub mod hints;
mod inactive;
pub mod mpi;
pub mod openmp;
pub mod registry;
pub mod rust_alloc;
mod special;
pub mod strictfp;
pub mod vecmem;
use crate::ir::llvm::*;
use crate::ir::Builder;
pub use classify::{classify, CallKind};
pub(crate) use inactive::is_inactive_function_name;
use special::{bessel_j1_y1, bessel_n, d_erf, digamma};

/// The derivative of the result with respect to one operand.
#[derive(Clone, Copy, Debug)]
pub enum Partial {
    /// No dependence (or an inactive operand).
    Zero,
    /// d out / d x = 1 (the driver emits no multiplication).
    One,
    /// d out / d x = -1 (the driver emits a negation).
    NegOne,
    /// A value computed in the primal context.
    Val(V),
    /// d out / d x = m / q (`m` = 1 when `None`). Forward mode applies it
    /// to a tangent t as (t / q) * m: a zero tangent gives zero where m / q
    /// overflows (x / y with a tiny y), and nested derivatives never square
    /// q. Reverse mode multiplies the adjoint by m / q, keeping the
    /// division off the adjoint's dependency chain.
    Quot(V, Option<V>),
    /// A scalar result of a vector operand (a reduction), d out / d x_k = 1
    /// for every lane k: forward mode sums the tangent's lanes, reverse
    /// mode gives every lane the result's adjoint.
    LaneSum,
    /// A scalar result of a vector operand, d out / d x_k = lane k of this
    /// vector (the operand's type).
    Lanes(V),
    /// A scalar result of a vector operand that is one of its lanes: the
    /// lane this `<N x i1>` mask holds (at most one) gets the derivative.
    Pick(V),
}

/// What a rule sees: the builder (positioned after the primal instruction),
/// the primal operands (as they are in the derivative function), the primal
/// result, and which partials are needed. The operands and the result are
/// read through [`RuleCtx::arg`] / [`RuleCtx::out`], which check the rule's
/// declared [`Reads`]: a rule reading a value it did not declare is an
/// internal error in both modes (reverse mode only keeps declared values).
pub struct RuleCtx<'a> {
    pub b: &'a Builder,
    args: &'a [V],
    out: V,
    need: &'a [bool],
    reads: (Vec<bool>, bool),
    rule: &'static str,
}

impl<'a> RuleCtx<'a> {
    /// The context for `rule` at one instruction; `args`/`out` need only
    /// hold real values where `rule.reads(need)` says so.
    pub fn new(b: &'a Builder, rule: &Rule, args: &'a [V], out: V, need: &'a [bool]) -> Self {
        RuleCtx {
            b,
            args,
            out,
            need,
            reads: (rule.reads)(need),
            rule: rule.name,
        }
    }
    /// Operand `k` (declared in the rule's reads).
    pub fn arg(&self, k: usize) -> V {
        assert!(
            self.reads.0.get(k).copied().unwrap_or(false),
            "rule '{}' reads operand {k} without declaring it",
            self.rule
        );
        self.args[k]
    }
    /// The primal result (declared in the rule's reads).
    pub fn out(&self) -> V {
        assert!(
            self.reads.1,
            "rule '{}' reads its result without declaring it",
            self.rule
        );
        self.out
    }
    pub fn arity(&self) -> usize {
        self.args.len()
    }
    fn x(&self) -> V {
        self.arg(0)
    }
    fn y(&self) -> V {
        self.arg(1)
    }
    /// A constant of the result's type (reads no value).
    fn c(&self, v: f64) -> V {
        self.b.real_like(self.out, v)
    }
    /// `p`, or 0 where `v` equals zero: the value a partial takes at a
    /// point where its formula is 0/0 or 0 x inf although the function is
    /// flat or finite there (sqrt and cbrt at 0, hypot at the origin, pow's
    /// exponent partial at base 0, its base partial at exponent 0), as
    /// Enzyme does for sqrt. Without it a zero tangent or adjoint meeting
    /// that point makes every derivative it flows into NaN.
    fn zero_where_zero(&self, v: V, p: V) -> V {
        let z = self.b.real_like(v, 0.0);
        let is0 = self.b.fcmp(LLVMRealPredicate::LLVMRealOEQ, v, z);
        self.b.select(is0, self.b.real_like(p, 0.0), p)
    }
    /// Compute partial i only when needed.
    fn when(&self, i: usize, f: impl FnOnce() -> Partial) -> Partial {
        if self.need.get(i).copied().unwrap_or(false) {
            f()
        } else {
            Partial::Zero
        }
    }
}

pub type PartialsFn = fn(&RuleCtx) -> Vec<Partial>;

/// The rules whose partial can be infinite where the result's own
/// derivative chain stays finite: exp overflowing inside a logistic
/// 1 / (1 + exp(-x)) at x = -800 has partial inf and adjoint -0, a NaN
/// gradient where the true one is 0. Their [`Rule::seed_checked`] is set:
/// their terms are applied as [`strong_zero_term`] always (a compare and a
/// select beside a libm call); every other rule's only under
/// `-enzyme-strong-zero`.
const SEED_CHECKED: &[&str] = &[
    "exp", "exp2", "exp10", "expm1", "sinh", "cosh", "tan", "asin", "acos", "atanh", "acosh",
    "log", "log2", "log10", "log1p", "pow", "tgamma",
];

/// `term` (a partial applied to `seed`, a tangent or an adjoint), or 0
/// where `seed` is 0: `-enzyme-strong-zero`'s term, for which a zero seed
/// gives zero even where the partial is infinite or NaN.
pub fn strong_zero_term(b: &Builder, seed: V, term: V) -> V {
    let z = b.real_like(seed, 0.0);
    let is0 = b.fcmp(LLVMRealPredicate::LLVMRealOEQ, seed, z);
    b.select(is0, b.real_like(term, 0.0), term)
}

/// Which primal values a rule's partials read, given which partials are
/// needed: (per operand, the result). Reverse mode keeps exactly these
/// values for the reverse sweep (recomputed or taped); forward mode checks
/// the declaration too, so a rule and its declaration cannot drift apart.
pub type Reads = fn(&[bool]) -> (Vec<bool>, bool);

/// Reads nothing (constant partials).
pub const READS_NOTHING: Reads = |n| (vec![false; n.len()], false);
/// Reads every operand (the default for most rules).
pub const READS_ARGS: Reads = |n| (vec![true; n.len()], false);
/// Reads only the result (`exp' = exp`).
pub const READS_OUT: Reads = |n| (vec![false; n.len()], true);

/// A primitive the table knows: its partials and what they read.
#[derive(Clone, Copy)]
pub struct Rule {
    pub name: &'static str,
    pub partials: PartialsFn,
    pub reads: Reads,
    /// Terms applied only where their seed is nonzero ([`SEED_CHECKED`]).
    pub seed_checked: bool,
    /// A masked memory intrinsic (`vecmem`): no partials; each mode handles
    /// it as the load or store it is, and the analyses as memory access.
    pub masked: Option<vecmem::Masked>,
}

impl Rule {
    /// A rule of a value-only primitive (no seed check, no memory).
    pub const fn plain(name: &'static str, partials: PartialsFn, reads: Reads) -> Rule {
        Rule {
            name,
            partials,
            reads,
            seed_checked: false,
            masked: None,
        }
    }

    /// Whether the rule is a function of its operands' values alone (no
    /// memory read or written).
    pub fn is_pure(&self) -> bool {
        self.masked.is_none()
    }
}

/// The operands a rule's partials see at call or instruction `i`: its
/// operands (a call's arguments) without the metadata arguments of the
/// constrained intrinsics.
pub fn rule_args(i: V) -> Vec<V> {
    let ops = if is_call(i) {
        call_args(i)
    } else {
        operands(i)
    };
    ops.into_iter()
        .filter(|a| !crate::ir::strictfp::is_metadata_value(*a))
        .collect()
}

/// Which primitive an instruction is, if any: by opcode for arithmetic and
/// casts, by callee name for intrinsics and libm.
pub fn lookup(inst: V) -> Option<Rule> {
    use LLVMOpcode::*;
    let op = opcode(inst)?;
    arith_rule(match op {
        LLVMFAdd => "fadd",
        LLVMFSub => "fsub",
        LLVMFMul => "fmul",
        LLVMFDiv => "fdiv",
        LLVMFRem => "frem",
        LLVMFNeg => "fneg",
        LLVMFPExt => "fpext",
        LLVMFPTrunc => "fptrunc",
        LLVMCall => return classify::rule_of_function(called_function(inst)?),
        _ => return None,
    })
}

/// The rules of the arithmetic instructions, by opcode name (shared with
/// their constrained intrinsics, `strictfp`).
fn arith_rule(op: &str) -> Option<Rule> {
    let r = |name, partials, reads| Some(Rule::plain(name, partials, reads));
    match op {
        "fadd" => r(
            "fadd",
            |c| vec![c.when(0, || Partial::One), c.when(1, || Partial::One)],
            READS_NOTHING,
        ),
        "fsub" => r(
            "fsub",
            |c| vec![c.when(0, || Partial::One), c.when(1, || Partial::NegOne)],
            READS_NOTHING,
        ),
        "fmul" => r(
            "fmul",
            |c| {
                vec![
                    c.when(0, || Partial::Val(c.y())),
                    c.when(1, || Partial::Val(c.x())),
                ]
            },
            |n| (vec![n[1], n[0]], false),
        ),
        "fdiv" => r("fdiv", d_fdiv, |n| (vec![false, true], n[1])),
        // frem(x, y) = x - y * trunc(x / y)
        "frem" => r("frem", d_frem, READS_ARGS),
        "fneg" => r(
            "fneg",
            |c| vec![c.when(0, || Partial::NegOne)],
            READS_NOTHING,
        ),
        "fpext" | "fptrunc" => r(
            "fpcast",
            |c| vec![c.when(0, || Partial::One)],
            READS_NOTHING,
        ),
        _ => None,
    }
}

/// The base name of a math function: `llvm.sin.f64` -> `sin`, `sinf` -> `sin`,
/// `sinl` -> `sin`. Returns None for names that are not math functions.
pub fn math_base(n: &str) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "asinh",
        "acosh",
        "atanh",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "pow",
        "powi",
        "sqrt",
        "cbrt",
        "hypot",
        "fabs",
        "fmin",
        "fmax",
        "minnum",
        "maxnum",
        "minimum",
        "maximum",
        "minimumnum",
        "maximumnum",
        "copysign",
        "fma",
        "fmuladd",
        "floor",
        "ceil",
        "trunc",
        "round",
        "roundeven",
        "rint",
        "nearbyint",
        "erf",
        "erfc",
        "fdim",
        "fmod",
        "remainder",
        "nextafter",
        "nexttoward",
        "frexp",
        "ldexp",
        "scalbn",
        "scalbln",
        "lgamma",
        "lgamma_r",
        "remquo",
        "tgamma",
        "exp10",
        "j0",
        "j1",
        "jn",
        "y0",
        "y1",
        "yn",
        "canonicalize",
    ];
    let stem = if let Some(rest) = n.strip_prefix("llvm.") {
        rest.split('.').next()?
    } else {
        let s = n.strip_prefix("__builtin_").unwrap_or(n);
        // (The reentrant lgamma's float and long double forms put their
        // suffix before the `_r`.)
        let s = match s {
            "lgammaf_r" | "lgammal_r" => "lgamma_r",
            _ => s,
        };
        if NAMES.contains(&s) {
            s
        } else if let Some(t) = s.strip_suffix('f').or_else(|| s.strip_suffix('l')) {
            t
        } else {
            return None;
        }
    };
    NAMES.iter().copied().find(|x| *x == stem)
}

pub(crate) fn lookup_callee(n: &str) -> Option<Rule> {
    if let Some(r) = vecmem::rule(n).or_else(|| strictfp::rule(n)) {
        return Some(r);
    }
    if let Some(libm) = gpu::device_math_libm_name(n) {
        return lookup_callee(&libm);
    }
    let base = math_base(n)?;
    let is_intrinsic = n.starts_with("llvm.");
    // libm names that are also intrinsic-only spellings are not C functions.
    if !is_intrinsic
        && matches!(
            base,
            "minnum"
                | "maxnum"
                | "minimum"
                | "maximum"
                | "minimumnum"
                | "maximumnum"
                | "fmuladd"
                | "powi"
                | "roundeven"
                | "canonicalize"
        )
    {
        return None;
    }
    let (partials, reads) = trig_partials(base)
        .or_else(|| exp_log_partials(base))
        .or_else(|| other_partials(base))?;
    Some(Rule {
        seed_checked: SEED_CHECKED.contains(&base),
        ..Rule::plain(base, partials, reads)
    })
}

/// Sines, cosines, tangents, their inverses and hyperbolic forms.
fn trig_partials(base: &str) -> Option<(PartialsFn, Reads)> {
    Some(match base {
        "sin" => (
            |c| vec![c.when(0, || Partial::Val(c.b.unary_intrinsic("llvm.cos", c.x())))],
            READS_ARGS,
        ),
        "cos" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fneg(c.b.unary_intrinsic("llvm.sin", c.x())))
                })]
            },
            READS_ARGS,
        ),
        // tan' = 1 + tan^2
        "tan" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fadd(c.c(1.0), c.b.square(c.out()))))],
            READS_OUT,
        ),
        // asin' = 1/sqrt(1-x^2), acos' = -asin'
        "asin" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fdiv(c.c(1.0), sqrt_one_minus_sq(c))))],
            READS_ARGS,
        ),
        "acos" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(-1.0), sqrt_one_minus_sq(c)))
                })]
            },
            READS_ARGS,
        ),
        "atan" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(1.0), c.b.fadd(c.c(1.0), c.b.square(c.x()))))
                })]
            },
            READS_ARGS,
        ),
        // atan2(y, x): d/dy = x/(x^2+y^2), d/dx = -y/(x^2+y^2)
        "atan2" => (
            |c| {
                let r2 = || c.b.fadd(c.b.square(c.x()), c.b.square(c.y()));
                vec![
                    c.when(0, || Partial::Val(c.b.fdiv(c.y(), r2()))),
                    c.when(1, || Partial::Val(c.b.fdiv(c.b.fneg(c.x()), r2()))),
                ]
            },
            READS_ARGS,
        ),
        "sinh" => (
            |c| vec![c.when(0, || Partial::Val(c.b.libm("cosh", &mut [c.x()])))],
            READS_ARGS,
        ),
        "cosh" => (
            |c| vec![c.when(0, || Partial::Val(c.b.libm("sinh", &mut [c.x()])))],
            READS_ARGS,
        ),
        "tanh" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fsub(c.c(1.0), c.b.square(c.out()))))],
            READS_OUT,
        ),
        // asinh' = 1/sqrt(x^2+1), acosh' = 1/sqrt(x^2-1), atanh' = 1/(1-x^2)
        "asinh" => (
            |c| {
                vec![c.when(0, || {
                    let s =
                        c.b.unary_intrinsic("llvm.sqrt", c.b.fadd(c.b.square(c.x()), c.c(1.0)));
                    Partial::Val(c.b.fdiv(c.c(1.0), s))
                })]
            },
            READS_ARGS,
        ),
        "acosh" => (
            |c| {
                vec![c.when(0, || {
                    let s =
                        c.b.unary_intrinsic("llvm.sqrt", c.b.fsub(c.b.square(c.x()), c.c(1.0)));
                    Partial::Val(c.b.fdiv(c.c(1.0), s))
                })]
            },
            READS_ARGS,
        ),
        "atanh" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(1.0), c.b.fsub(c.c(1.0), c.b.square(c.x()))))
                })]
            },
            READS_ARGS,
        ),
        _ => return None,
    })
}

/// Exponentials, logarithms, roots and powers.
fn exp_log_partials(base: &str) -> Option<(PartialsFn, Reads)> {
    Some(match base {
        "exp" => (|c| vec![c.when(0, || Partial::Val(c.out()))], READS_OUT),
        "exp10" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fmul(c.out(), c.c(std::f64::consts::LN_10)))
                })]
            },
            READS_OUT,
        ),
        "exp2" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fmul(c.out(), c.c(std::f64::consts::LN_2)))
                })]
            },
            READS_OUT,
        ),
        "expm1" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fadd(c.out(), c.c(1.0))))],
            READS_OUT,
        ),
        "log" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fdiv(c.c(1.0), c.x())))],
            READS_ARGS,
        ),
        "log2" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(1.0), c.b.fmul(c.x(), c.c(std::f64::consts::LN_2))))
                })]
            },
            READS_ARGS,
        ),
        "log10" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(1.0), c.b.fmul(c.x(), c.c(std::f64::consts::LN_10))))
                })]
            },
            READS_ARGS,
        ),
        "log1p" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.b.fdiv(c.c(1.0), c.b.fadd(c.x(), c.c(1.0))))
                })]
            },
            READS_ARGS,
        ),
        // sqrt' = 0.5 / out, and 0 at x = 0 (see `zero_where_zero`).
        "sqrt" => (
            |c| {
                vec![c.when(0, || {
                    Partial::Val(c.zero_where_zero(c.out(), c.b.fdiv(c.c(0.5), c.out())))
                })]
            },
            READS_OUT,
        ),
        // cbrt' = out / (3 x)
        "cbrt" => (
            |c| {
                vec![c.when(0, || {
                    let p = c.b.fdiv(c.out(), c.b.fmul(c.c(3.0), c.x()));
                    Partial::Val(c.zero_where_zero(c.x(), p))
                })]
            },
            |_| (vec![true], true),
        ),
        "pow" => (d_pow, |n| (vec![true, n[0]], n[1])),
        "fmod" => (d_frem, READS_ARGS),
        // remainder(x, y) = x - y * n, n = x / y rounded to nearest (ties
        // to even, as rint in the default rounding mode).
        "remainder" => (d_remainder, READS_ARGS),
        // remquo(x, y, &q) is remainder(x, y), with low bits of the
        // quotient through the pointer (an int, no derivative).
        "remquo" => (
            |c| {
                let mut p = d_remainder(c);
                p.push(Partial::Zero);
                p
            },
            |n| (vec![n[1], n[1], false], false),
        ),
        // nextafter(x, y): the neighbour of x towards y moves with x.
        "nextafter" | "nexttoward" => (
            |c| vec![c.when(0, || Partial::One), Partial::Zero],
            READS_NOTHING,
        ),
        // powi(x, n): n * powi(x, n-1)
        "powi" => (
            |c| {
                vec![c.when(0, || {
                    let n = c.y();
                    let nm1 = c.b.sub(n, const_int(type_of(n), 1));
                    let p = c.b.intrinsic(
                        "llvm.powi",
                        &[type_of(c.x()), type_of(n)],
                        &mut [c.x(), nm1],
                    );
                    let nf = c.b.cast(LLVMOpcode::LLVMSIToFP, n, type_of(c.x()));
                    // 0 where n = 0 (x^0 = 1), not 0 x inf at x = 0.
                    Partial::Val(c.zero_where_zero(nf, c.b.fmul(nf, p)))
                })]
            },
            READS_ARGS,
        ),
        "hypot" => (
            |c| {
                vec![
                    // x / out and y / out, 0 at the origin (0/0).
                    c.when(0, || {
                        Partial::Val(c.zero_where_zero(c.out(), c.b.fdiv(c.x(), c.out())))
                    }),
                    c.when(1, || {
                        Partial::Val(c.zero_where_zero(c.out(), c.b.fdiv(c.y(), c.out())))
                    }),
                ]
            },
            |n| (vec![n[0], n[1]], true),
        ),
        _ => return None,
    })
}

/// Absolute value, sign, min/max, fma, rounding, frexp/ldexp, gamma and error functions.
fn other_partials(base: &str) -> Option<(PartialsFn, Reads)> {
    Some(match base {
        // |x|' = sign(x) (0 at 0 is a subgradient choice; we use copysign(1, x))
        "fabs" => (
            |c| vec![c.when(0, || Partial::Val(sign_of(c, c.x())))],
            READS_ARGS,
        ),
        "copysign" => (
            |c| {
                vec![
                    c.when(0, || {
                        Partial::Val(c.b.fmul(sign_of(c, c.x()), sign_of(c, c.y())))
                    }),
                    Partial::Zero,
                ]
            },
            READS_ARGS,
        ),
        // llvm.canonicalize: the same number (a signaling NaN quieted,
        // a denormal perhaps flushed): the identity's derivative.
        "canonicalize" => (|c| vec![c.when(0, || Partial::One)], READS_NOTHING),
        "fmin" | "minnum" | "minimum" | "minimumnum" => (|c| min_max(c, false), READS_ARGS),
        "fmax" | "maxnum" | "maximum" | "maximumnum" => (|c| min_max(c, true), READS_ARGS),
        "fdim" => (
            |c| {
                // fdim(x, y) = x > y ? x - y : 0
                let gt = c.b.fcmp(LLVMRealPredicate::LLVMRealOGT, c.x(), c.y());
                vec![
                    c.when(0, || Partial::Val(c.b.select(gt, c.c(1.0), c.c(0.0)))),
                    c.when(1, || Partial::Val(c.b.select(gt, c.c(-1.0), c.c(0.0)))),
                ]
            },
            READS_ARGS,
        ),
        "fma" | "fmuladd" => (
            |c| {
                vec![
                    c.when(0, || Partial::Val(c.y())),
                    c.when(1, || Partial::Val(c.x())),
                    c.when(2, || Partial::One),
                ]
            },
            |n| (vec![n[1], n[0], false], false),
        ),
        "floor" | "ceil" | "trunc" | "round" | "roundeven" | "rint" | "nearbyint" => {
            ({ |c| vec![Partial::Zero; c.arity()] }, READS_NOTHING)
        }
        // frexp(x, &e) = x 2^-e: d/dx = 2^-e = out / x (exact: a power of
        // two), 1 at x = 0 (where e = 0). The exponent is an integer.
        "frexp" => (
            |c| {
                vec![
                    c.when(0, || {
                        let zero = c.b.fcmp(LLVMRealPredicate::LLVMRealOEQ, c.x(), c.c(0.0));
                        let q = c.b.fdiv(c.out(), c.x());
                        Partial::Val(c.b.select(zero, c.c(1.0), q))
                    }),
                    Partial::Zero,
                ]
            },
            |n| (vec![n[0], false], true),
        ),
        // ldexp(x, n) = scalbn(x, n) = x 2^n: d/dx = 2^n.
        "ldexp" | "scalbn" | "scalbln" => (
            |c| {
                vec![
                    c.when(0, || {
                        let one = c.c(1.0);
                        let n = c.y();
                        Partial::Val(c.b.libm(
                            "ldexp",
                            &mut [one, c.b.int_cast(n, i32_type(c.b.ctx), true)],
                        ))
                    }),
                    Partial::Zero,
                ]
            },
            |n| (vec![false, n[0]], false),
        ),
        // Bessel functions: j0' = -j1, j1' = (j0 - jn(2, .)) / 2,
        // jn(n, .)' = (jn(n - 1, .) - jn(n + 1, .)) / 2; y likewise.
        "j0" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fneg(c.b.libm("j1", &mut [c.x()]))))],
            READS_ARGS,
        ),
        "y0" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fneg(c.b.libm("y1", &mut [c.x()]))))],
            READS_ARGS,
        ),
        "j1" => (
            |c| vec![c.when(0, || Partial::Val(bessel_j1_y1(c, "j")))],
            READS_ARGS,
        ),
        "y1" => (
            |c| vec![c.when(0, || Partial::Val(bessel_j1_y1(c, "y")))],
            READS_ARGS,
        ),
        "jn" => (
            |c| vec![Partial::Zero, c.when(1, || Partial::Val(bessel_n(c, "jn")))],
            READS_ARGS,
        ),
        "yn" => (
            |c| vec![Partial::Zero, c.when(1, || Partial::Val(bessel_n(c, "yn")))],
            READS_ARGS,
        ),
        // lgamma' = digamma; tgamma' = tgamma * digamma.
        "lgamma" => (
            |c| vec![c.when(0, || Partial::Val(digamma(c.b, c.x())))],
            READS_ARGS,
        ),
        // lgamma_r(x, &sign): the sign of gamma(x) goes through the
        // pointer (an int, no derivative).
        "lgamma_r" => (
            |c| {
                vec![
                    c.when(0, || Partial::Val(digamma(c.b, c.x()))),
                    Partial::Zero,
                ]
            },
            |n| (vec![n[0], false], false),
        ),
        "tgamma" => (
            |c| vec![c.when(0, || Partial::Val(c.b.fmul(c.out(), digamma(c.b, c.x()))))],
            |n| (vec![n[0]], true),
        ),
        // erf' = 2/sqrt(pi) exp(-x^2); erfc' = -erf'
        "erf" => (
            |c| vec![c.when(0, || Partial::Val(d_erf(c, 1.0)))],
            READS_ARGS,
        ),
        "erfc" => (
            |c| vec![c.when(0, || Partial::Val(d_erf(c, -1.0)))],
            READS_ARGS,
        ),
        _ => return None,
    })
}

/// frem(x, y) = fmod(x, y) = x - y * trunc(x / y): d/dx = 1, d/dy = -trunc(x / y).
fn d_frem(c: &RuleCtx) -> Vec<Partial> {
    vec![
        c.when(0, || Partial::One),
        c.when(1, || {
            let q = c.b.unary_intrinsic("llvm.trunc", c.b.fdiv(c.x(), c.y()));
            Partial::Val(c.b.fneg(q))
        }),
    ]
}

fn d_fdiv(c: &RuleCtx) -> Vec<Partial> {
    // x / y: d/dx = 1/y, d/dy = -out/y, each applied as a division of the
    // seed by y (Enzyme's Integration/ForwardMode/div_range.c asks the
    // same: no y * y, which overflows or underflows for |y| beyond 1e154
    // or below 1e-154).
    vec![
        c.when(0, || Partial::Quot(c.y(), None)),
        c.when(1, || Partial::Quot(c.y(), Some(c.b.fneg(c.out())))),
    ]
}

fn d_pow(c: &RuleCtx) -> Vec<Partial> {
    // pow(x, y): d/dx = y * pow(x, y - 1), 0 where y = 0 (x^0 = 1 for
    // every x, where the formula gives 0 x inf at x = 0); d/dy = out *
    // log(x), 0 where x = 0 (0^y = 0 for every y > 0, where the formula
    // gives 0 x -inf).
    vec![
        c.when(0, || {
            let ym1 = c.b.fsub(c.y(), c.c(1.0));
            let p = c.b.binary_intrinsic("llvm.pow", c.x(), ym1);
            Partial::Val(c.zero_where_zero(c.y(), c.b.fmul(c.y(), p)))
        }),
        c.when(1, || {
            let l = c.b.unary_intrinsic("llvm.log", c.x());
            Partial::Val(c.zero_where_zero(c.x(), c.b.fmul(c.out(), l)))
        }),
    ]
}

fn sqrt_one_minus_sq(c: &RuleCtx) -> V {
    c.b.unary_intrinsic("llvm.sqrt", c.b.fsub(c.c(1.0), c.b.square(c.x())))
}

fn sign_of(c: &RuleCtx, v: V) -> V {
    c.b.binary_intrinsic("llvm.copysign", c.c(1.0), v)
}

/// fmin / fmax and LLVM's minnum, maxnum, ...: the seed goes to the
/// operand the result is. x when x is a number and y is NaN (fmin(x, NaN)
/// = x) or y is above x (min) / not above x (max), else y: at a tie fmax
/// picks x and fmin y, as Enzyme's rules do.
fn min_max(c: &RuleCtx, is_max: bool) -> Vec<Partial> {
    use LLVMRealPredicate::*;
    let (x, y) = (c.x(), c.y());
    let x_is_num = c.b.fcmp(LLVMRealORD, x, x);
    let y_nan_or_x_wins = if is_max {
        c.b.fcmp(LLVMRealUGE, x, y)
    } else {
        c.b.fcmp(LLVMRealUGT, y, x)
    };
    let first = c.b.and(x_is_num, y_nan_or_x_wins);
    vec![
        c.when(0, || Partial::Val(c.b.select(first, c.c(1.0), c.c(0.0)))),
        c.when(1, || Partial::Val(c.b.select(first, c.c(0.0), c.c(1.0)))),
    ]
}

/// remainder(x, y) = x - y * n, n = x / y rounded to nearest: d/dx 1,
/// d/dy -n.
fn d_remainder(c: &RuleCtx) -> Vec<Partial> {
    vec![
        c.when(0, || Partial::One),
        c.when(1, || {
            let n = c.b.unary_intrinsic("llvm.rint", c.b.fdiv(c.x(), c.y()));
            Partial::Val(c.b.fneg(n))
        }),
    ]
}

/// Allocation and deallocation functions (C and C++ by name here; Rust's
/// allocator entry points in [`rust_alloc`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// malloc-like: size is argument `size_arg`
    Malloc { size_arg: u32 },
    /// calloc(n, size): zeroed
    Calloc,
    /// realloc-like: pointer is argument 0, the new size argument
    /// `size_arg` (1 for C's `realloc(p, size)`, 3 for Rust's
    /// `__rust_realloc(p, old_size, align, new_size)`)
    Realloc { size_arg: u32 },
    /// free-like: pointer is argument 0
    Free,
}

/// The runtime's taking of a kept shadow block (runtime/keep_rt.c).
pub const KEEP_TAKE: &str = "__enzyme_rs_keep_take";
/// The runtime's giving back of a kept shadow block.
pub const KEEP_GIVE: &str = "__enzyme_rs_keep_give";

pub fn alloc_kind(n: &str) -> Option<AllocKind> {
    Some(match n {
        "malloc" | "_Znwm" | "_Znam" | "_ZnwmRKSt9nothrow_t" | "_ZnamRKSt9nothrow_t" => {
            AllocKind::Malloc { size_arg: 0 }
        }
        "_ZnwmSt11align_val_t" | "_ZnamSt11align_val_t" => AllocKind::Malloc { size_arg: 0 },
        "aligned_alloc" => AllocKind::Malloc { size_arg: 1 },
        "calloc" => AllocKind::Calloc,
        "realloc" => AllocKind::Realloc { size_arg: 1 },
        // Kept shadow blocks (modes/reverse/keep.rs): a fresh block of
        // operand 1's bytes, and its release (runtime/keep_rt.c).
        KEEP_TAKE => AllocKind::Malloc { size_arg: 1 },
        KEEP_GIVE => AllocKind::Free,
        "free"
        | "_ZdlPv"
        | "_ZdaPv"
        | "_ZdlPvm"
        | "_ZdaPvm"
        | "_ZdlPvSt11align_val_t"
        | "_ZdaPvSt11align_val_t"
        | "_ZdlPvmSt11align_val_t" => AllocKind::Free,
        _ => {
            // Registered with __enzyme_function_like / __enzyme_allocation_like.
            if let Some(k) = registry::alloc_like(n) {
                return Some(AllocKind::Malloc { size_arg: k });
            }
            let like = registry::like(n)?;
            if like == n {
                return None;
            }
            return alloc_kind(&like);
        }
    })
}

/// Memory transfer intrinsics and their libc spellings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    Copy,
    Move,
    Set,
}

pub fn mem_kind(n: &str) -> Option<MemKind> {
    if n.starts_with("llvm.memcpy") || n == "memcpy" {
        Some(MemKind::Copy)
    } else if n.starts_with("llvm.memmove") || n == "memmove" {
        Some(MemKind::Move)
    } else if n.starts_with("llvm.memset") || n == "memset" {
        Some(MemKind::Set)
    } else {
        None
    }
}
