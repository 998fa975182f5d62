//! Vector reductions and masked memory intrinsics.
//!
//! Reductions (`llvm.vector.reduce.fadd`, `fmul`, `fmax`, `fmin`,
//! `fmaximum`, `fminimum`) are rules of the table like any other: a
//! scalar result of a vector operand, whose partials with respect to the
//! vector are per lane ([`Partial::LaneSum`], [`Partial::Lanes`],
//! [`Partial::Pick`]): forward mode sums the lanes' terms, reverse mode
//! gives each lane its share of the result's adjoint.
//!
//! - `reduce.fadd(start, v)` (ordered, or any order under `reassoc`):
//!   d/dstart = 1, d/dv_k = 1.
//! - `reduce.fmul(start, v)`: d/dstart = prod v, d/dv_k = start times the
//!   product of the other lanes, from the products before and after lane
//!   k (no division: right at zeros, a single zero lane included).
//! - `reduce.fmax/fmin/fmaximum/fminimum(v)`: the first lane equal to the
//!   result gets it all (a NaN result: the first NaN lane), as for the
//!   scalar max/min rules.
//!
//! Masked memory (`llvm.masked.load`, `store`, `gather`, `scatter`) reads
//! and writes memory: the classifier calls them rules whose
//! [`Rule::masked`] says which ([`Masked`]); each mode does what it does
//! for a load or a store, lane by lane under the same mask (forward:
//! modes/forward/vecmem.rs; reverse: modes/reverse/rev/vecmem.rs), and the
//! analyses treat them as the loads and stores they are
//! ([`MaskedAccess`]: which operand is the pointer, the mask, the value).
//! A call's operands move with the LLVM version: LLVM 16 passes the
//! alignment as an `i32` operand, LLVM 22 as the pointer's `align`
//! attribute.
use super::{Partial, Rule, RuleCtx, READS_ARGS, READS_NOTHING};
use crate::ir::llvm::*;
use crate::ir::vector;

/// A masked memory intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Masked {
    /// `llvm.masked.load(ptr, [align,] mask, passthru)`
    Load,
    /// `llvm.masked.store(value, ptr, [align,] mask)`
    Store,
    /// `llvm.masked.gather(<N x ptr>, [align,] mask, passthru)`
    Gather,
    /// `llvm.masked.scatter(value, <N x ptr>, [align,] mask)`
    Scatter,
}

impl Masked {
    /// The masked intrinsic called `n`, if it is one.
    pub fn of(n: &str) -> Option<Masked> {
        let stem = n.strip_prefix("llvm.masked.")?.split('.').next()?;
        Some(match stem {
            "load" => Masked::Load,
            "store" => Masked::Store,
            "gather" => Masked::Gather,
            "scatter" => Masked::Scatter,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Masked::Load => "masked.load",
            Masked::Store => "masked.store",
            Masked::Gather => "masked.gather",
            Masked::Scatter => "masked.scatter",
        }
    }

    /// Whether it writes memory (store, scatter); else it reads.
    pub fn writes(self) -> bool {
        matches!(self, Masked::Store | Masked::Scatter)
    }

    /// Whether its addresses are a vector of pointers, one per lane
    /// (gather, scatter); else one pointer to consecutive lanes.
    pub fn per_lane_pointers(self) -> bool {
        matches!(self, Masked::Gather | Masked::Scatter)
    }
}

/// One masked memory call's operands by role, and their positions among
/// the call's arguments (for copies of the call with some replaced).
#[derive(Clone, Copy, Debug)]
pub struct MaskedAccess {
    pub op: Masked,
    /// The pointer, or the vector of pointers.
    pub ptr: V,
    pub ptr_arg: u32,
    pub mask: V,
    pub mask_arg: u32,
    /// What a store or scatter writes.
    pub value: Option<V>,
    /// The lanes a load or gather gives where the mask is off.
    pub passthru: Option<V>,
    pub passthru_arg: Option<u32>,
    /// Bytes (of one lane's address for gather and scatter).
    pub align: u32,
}

/// Arguments of the masked intrinsics with LLVM 16's alignment operand.
const ARITY_WITH_ALIGN: usize = 4;

/// The masked memory operation call `i` makes, if it makes one.
pub fn masked_access(i: V) -> Option<MaskedAccess> {
    if !is_call(i) {
        return None;
    }
    let op = Masked::of(&name(called_function(i)?))?;
    let args = call_args(i);
    let n = args.len() as u32;
    let (ptr_arg, value, mask_arg, passthru_arg) = if op.writes() {
        (1, Some(args[0]), n - 1, None)
    } else {
        (0, None, n - 2, Some(n - 1))
    };
    Some(MaskedAccess {
        op,
        ptr: args[ptr_arg as usize],
        ptr_arg,
        mask: args[mask_arg as usize],
        mask_arg,
        value,
        passthru: passthru_arg.map(|k| args[k as usize]),
        passthru_arg,
        align: vector::masked_alignment(i, ptr_arg, ARITY_WITH_ALIGN),
    })
}

/// The rule of `n`, when it is a reduction or a masked memory intrinsic.
pub(super) fn rule(n: &str) -> Option<Rule> {
    if let Some(m) = Masked::of(n) {
        return Some(Rule {
            masked: Some(m),
            ..Rule::plain(m.name(), |c| vec![Partial::Zero; c.arity()], READS_NOTHING)
        });
    }
    let stem = n.strip_prefix("llvm.vector.reduce.")?.split('.').next()?;
    let (name, partials, reads): (_, super::PartialsFn, super::Reads) = match stem {
        "fadd" => ("reduce.fadd", d_reduce_fadd, READS_NOTHING),
        "fmul" => ("reduce.fmul", d_reduce_fmul, READS_ARGS),
        "fmax" | "fmin" | "fmaximum" | "fminimum" => {
            ("reduce.fmax", d_reduce_pick, |n| (vec![n[0]], n[0]))
        }
        _ => return None,
    };
    Some(Rule::plain(name, partials, reads))
}

/// Whether `n` is a floating-point reduction the table knows.
pub fn is_reduction(n: &str) -> bool {
    n.starts_with("llvm.vector.reduce.f") && rule(n).is_some()
}

/// `reduce.fadd(start, v)`: 1 for the start and each lane.
fn d_reduce_fadd(c: &RuleCtx) -> Vec<Partial> {
    vec![c.when(0, || Partial::One), c.when(1, || Partial::LaneSum)]
}

/// `reduce.fmul(start, v)`: the product of the lanes for the start, the
/// product of the start and the other lanes for each lane.
fn d_reduce_fmul(c: &RuleCtx) -> Vec<Partial> {
    let v = c.arg(1);
    vec![
        c.when(0, || {
            let one = const_real(elem_type(type_of(v)), 1.0);
            Partial::Val(vector::reduce_fmul(c.b, one, v))
        }),
        c.when(1, || {
            let (before, after) = vector::exclusive_products(c.b, c.arg(0), v);
            Partial::Lanes(c.b.fmul(before, after))
        }),
    ]
}

/// `reduce.fmax(v)` and the other selections: the first lane equal to
/// the result (a NaN result: the first NaN lane) gets the result's
/// derivative.
fn d_reduce_pick(c: &RuleCtx) -> Vec<Partial> {
    use LLVMRealPredicate::*;
    vec![c.when(0, || {
        let (x, out) = (c.arg(0), c.out());
        let n = vector_size(type_of(x));
        let same = c.b.fcmp(LLVMRealOEQ, x, vector::splat(c.b, out, n));
        let out_nan = c.b.fcmp(LLVMRealUNO, out, out);
        let x_nan = c.b.fcmp(LLVMRealUNO, x, x);
        let nan_lane = c.b.and(x_nan, vector::splat(c.b, out_nan, n));
        Partial::Pick(vector::first_lane_only(c.b, c.b.or(same, nan_lane)))
    })]
}
