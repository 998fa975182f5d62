//! Constrained floating point, for `strictfp` functions (clang's
//! `-ffp-model=strict`, `#pragma STDC FENV_ACCESS ON`): the rounding and
//! exception arguments of `llvm.experimental.constrained.*` calls, and
//! plain floating-point instructions and intrinsic calls rewritten into
//! their constrained forms with given arguments.
//!
//! LLVM's verifier (16 and 22) accepts plain floating-point instructions in
//! a `strictfp` function, but the LangRef forbids mixing them with
//! constrained ones there: plain operations may be reordered across
//! `fesetround` or folded in the default rounding mode. The inliner does
//! the same rewriting when it inlines plain code into a `strictfp` caller.
use super::llvm::*;
use super::Builder;
use crate::ir::sys::core::*;
use std::collections::HashMap;

/// The prefix of the constrained intrinsics.
pub const PREFIX: &str = "llvm.experimental.constrained.";

/// The rounding and exception arguments of constrained calls (metadata
/// strings as values). `round` is None for an operation that takes none
/// (fpext, the comparisons, min/max): code derived from it rounds as the
/// function's other code does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpEnv {
    pub round: Option<V>,
    pub except: V,
}

/// Whether function `f` is `strictfp`.
pub fn is_strictfp(f: V) -> bool {
    fn_has_attr(f, "strictfp")
}

/// Whether `v` is a metadata operand (a constrained call's arguments).
pub fn is_metadata_value(v: V) -> bool {
    kind(type_of(v)) == LLVMTypeKind::LLVMMetadataTypeKind
}

/// `metadata !"s"` as a value.
pub fn md_str(ctx: LLVMContextRef, s: &str) -> V {
    unsafe {
        let md = LLVMMDStringInContext2(ctx, s.as_ptr() as *const _, s.len());
        LLVMMetadataAsValue(ctx, md)
    }
}

/// The constrained form's name of a call of `callee` (`llvm.sqrt.f64` ->
/// `sqrt`), when it has one in LLVM 16 and later, and whether it takes a
/// rounding argument.
fn constrained_intrinsic(callee: &str) -> Option<(&'static str, bool)> {
    const ROUNDED: &[&str] = &[
        "sqrt",
        "pow",
        "powi",
        "sin",
        "cos",
        "exp",
        "exp2",
        "log",
        "log10",
        "log2",
        "rint",
        "nearbyint",
        "fma",
        "fmuladd",
    ];
    const EXACT: &[&str] = &[
        "maxnum",
        "minnum",
        "maximum",
        "minimum",
        "ceil",
        "floor",
        "round",
        "roundeven",
        "trunc",
    ];
    let stem = callee.strip_prefix("llvm.")?.split('.').next()?;
    if let Some(s) = ROUNDED.iter().find(|s| **s == stem) {
        return Some((s, true));
    }
    EXACT.iter().find(|s| **s == stem).map(|s| (*s, false))
}

/// The rounding and exception arguments of constrained call `call`.
pub fn env_of(call: V) -> Option<FpEnv> {
    let f = called_function(call)?;
    if !name(f).starts_with(PREFIX) {
        return None;
    }
    let md: Vec<V> = call_args(call)
        .into_iter()
        .filter(|a| is_metadata_value(*a))
        .collect();
    let except = *md.last()?;
    let round = match md.len() {
        // fcmp's first metadata is its predicate.
        n if n >= 2 && !name(f)[PREFIX.len()..].starts_with("fcmp") => Some(md[n - 2]),
        _ => None,
    };
    Some(FpEnv { round, except })
}

/// The arguments for the derivative code of `strictfp` function `f` that no
/// constrained operation gives: those of its first constrained call taking
/// a rounding argument, else `round.dynamic` and `fpexcept.strict` (clang's
/// `-ffp-model=strict`).
pub fn default_env(f: V) -> FpEnv {
    for bb in blocks(f) {
        for i in instructions(bb) {
            if !is_call(i) {
                continue;
            }
            let Some(c) = called_function(i) else {
                continue;
            };
            let n = name(c);
            let md = call_args(i)
                .into_iter()
                .filter(|a| is_metadata_value(*a))
                .count();
            if n.starts_with(PREFIX) && md == 2 && !n[PREFIX.len()..].starts_with("fcmp") {
                if let Some(e) = env_of(i).filter(|e| e.round.is_some()) {
                    return e;
                }
            }
        }
    }
    let ctx = context_of(type_of(f));
    FpEnv {
        round: Some(md_str(ctx, "round.dynamic")),
        except: md_str(ctx, "fpexcept.strict"),
    }
}

/// The instructions after `first` up to (not including) `end` (the end of
/// the block when `None`): what a builder positioned there emitted.
pub fn emitted_between(first: Option<V>, block: BB, end: Option<V>) -> Vec<V> {
    let mut out = Vec::new();
    let mut cur = match first {
        Some(i) => next_instruction(i),
        None => first_instruction(block),
    };
    while let Some(i) = cur {
        if Some(i) == end {
            break;
        }
        out.push(i);
        cur = next_instruction(i);
    }
    out
}

/// The predicate's name as constrained fcmp spells it (None: `true` and
/// `false`, which it has no spelling for).
fn predicate_name(p: LLVMRealPredicate) -> Option<&'static str> {
    use LLVMRealPredicate::*;
    Some(match p {
        LLVMRealOEQ => "oeq",
        LLVMRealOGT => "ogt",
        LLVMRealOGE => "oge",
        LLVMRealOLT => "olt",
        LLVMRealOLE => "ole",
        LLVMRealONE => "one",
        LLVMRealORD => "ord",
        LLVMRealUNO => "uno",
        LLVMRealUEQ => "ueq",
        LLVMRealUGT => "ugt",
        LLVMRealUGE => "uge",
        LLVMRealULT => "ult",
        LLVMRealULE => "ule",
        LLVMRealUNE => "une",
        _ => return None,
    })
}

/// Mark call `c` `strictfp` (as clang marks the calls of a `strictfp`
/// function: no folding in the default environment).
pub fn mark_call(c: V) {
    unsafe {
        let ctx = context_of(type_of(c));
        let a = LLVMCreateEnumAttribute(ctx, enum_attr_kind("strictfp"), 0);
        LLVMAddCallSiteAttribute(c, crate::ir::sys::LLVMAttributeFunctionIndex, a);
    }
}

/// Plain floating-point instruction or intrinsic call `i` rewritten into its
/// constrained form with `env` (the old one erased; `round.dynamic` when
/// `env` has no rounding argument); other calls are only marked
/// `strictfp`. Returns the new instruction, if any.
pub fn constrain(i: V, env: FpEnv) -> Option<V> {
    use LLVMOpcode::*;
    let op = opcode(i)?;
    let ctx = context_of(type_of(i));
    let round = env.round.unwrap_or_else(|| md_str(ctx, "round.dynamic"));
    let b = Builder::for_function(inst_fn(i));
    b.before(i);
    b.set_debug_loc_from(i);
    let ty = type_of(i);
    let ops = operands(i);
    let binop = |n: &str| -> V {
        let name = format!("{PREFIX}{n}");
        b.intrinsic(&name, &[ty], &mut [ops[0], ops[1], round, env.except])
    };
    let cast = |n: &str, rounded: bool| -> V {
        let name = format!("{PREFIX}{n}");
        let from = type_of(ops[0]);
        if rounded {
            b.intrinsic(&name, &[ty, from], &mut [ops[0], round, env.except])
        } else {
            b.intrinsic(&name, &[ty, from], &mut [ops[0], env.except])
        }
    };
    let new = match op {
        LLVMFAdd => binop("fadd"),
        LLVMFSub => binop("fsub"),
        LLVMFMul => binop("fmul"),
        LLVMFDiv => binop("fdiv"),
        LLVMFRem => binop("frem"),
        LLVMFPTrunc => cast("fptrunc", true),
        LLVMFPExt => cast("fpext", false),
        LLVMSIToFP => cast("sitofp", true),
        LLVMUIToFP => cast("uitofp", true),
        LLVMFPToSI => cast("fptosi", false),
        LLVMFPToUI => cast("fptoui", false),
        LLVMFCmp => {
            let p = predicate_name(unsafe { LLVMGetFCmpPredicate(i) })?;
            let name = format!("{PREFIX}fcmp");
            let from = type_of(ops[0]);
            b.intrinsic(
                &name,
                &[from],
                &mut [ops[0], ops[1], md_str(ctx, p), env.except],
            )
        }
        LLVMCall => {
            let callee = called_function(i)?;
            let cn = name(callee);
            let Some((base, rounded)) = constrained_intrinsic(&cn) else {
                mark_call(i);
                return None;
            };
            let mut args = call_args(i);
            if rounded {
                args.push(round);
            }
            args.push(env.except);
            b.intrinsic(&format!("{PREFIX}{base}"), &[ty], &mut args)
        }
        _ => return None,
    };
    mark_call(new);
    replace_and_erase(i, new);
    Some(new)
}

/// Every plain floating-point instruction and intrinsic call of function
/// `f` in constrained form: with the arguments `envs` lists for it (those
/// of the primal operation it differentiates), else `default`. Returns
/// how many were rewritten.
pub fn constrain_function(f: V, envs: &HashMap<V, FpEnv>, default: FpEnv) -> usize {
    let mut n = 0;
    for bb in blocks(f) {
        for i in instructions(bb) {
            let fp =
                is_call(i) || is_fp(type_of(i)) || operands(i).iter().any(|o| is_fp(type_of(*o)));
            if !fp || is_call(i) && called_function(i).is_some_and(|c| name(c).starts_with(PREFIX))
            {
                continue;
            }
            let env = match envs.get(&i) {
                Some(e) => FpEnv {
                    round: e.round.or(default.round),
                    except: e.except,
                },
                None => default,
            };
            n += constrain(i, env).is_some() as usize;
        }
    }
    n
}
