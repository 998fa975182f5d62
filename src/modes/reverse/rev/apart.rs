//! Whether two addresses computed in one iteration of the augmented
//! function cannot overlap although their offsets from a common base differ
//! by a symbolic amount: the two halves of a butterfly, `out + 2k` and
//! `out + 2(k + h)` with `h >= 1` (`ENZYME_RS_APART_OFFSETS=0`: never).
//!
//! Each address is written as a linear form `c + sum a_i x_i` over the
//! integer SSA values `x_i` it is computed from, modulo a power of two
//! `2^m`: every integer operation of width `w` is exact modulo `2^w`
//! (whatever its wrap flags), an extension or truncation keeps the value
//! modulo the narrower width, and addresses wrap modulo `2^64`. No flag or
//! `inbounds` is trusted. The difference of the two forms must then leave
//! at most one value, whose signed range comes from its definition
//! (`sdiv`, `ashr`, `lshr` of a value with a known range) and from conditional
//! branches that dominate the block (`m > 1` before the loop over
//! `k < h = m / 2`). Used by `zeroed_just_before` (zeroslot.rs) for the stores
//! between the zeroing of a shadow slot and the add into it.
use crate::analysis::types::layout::Layout;
use crate::ir::llvm::*;
use crate::ir::shim::Loops;
use crate::ir::types::int_width;

/// How deep a value's definition is followed.
const MAX_DEPTH: u32 = 12;

/// `c + sum a * x` modulo `2^m` (`m <= 64`).
#[derive(Clone, Debug)]
struct Lin {
    c: u128,
    terms: Vec<(V, u128)>,
    m: u32,
}

fn mask(m: u32) -> u128 {
    (1u128 << m) - 1
}

impl Lin {
    fn konst(c: u128, m: u32) -> Lin {
        Lin {
            c,
            terms: vec![],
            m,
        }
        .norm()
    }

    fn atom(v: V, m: u32) -> Lin {
        Lin {
            c: 0,
            terms: vec![(v, 1)],
            m,
        }
        .norm()
    }

    fn norm(mut self) -> Lin {
        let k = mask(self.m);
        self.c &= k;
        for t in self.terms.iter_mut() {
            t.1 &= k;
        }
        self.terms.retain(|t| t.1 != 0);
        self
    }

    /// The value is only known modulo `2^w` (an operation of width `w`).
    fn cap(mut self, w: u32) -> Lin {
        self.m = self.m.min(w);
        self.norm()
    }

    fn add(mut self, o: Lin) -> Lin {
        self.m = self.m.min(o.m);
        self.c = self.c.wrapping_add(o.c);
        for (v, a) in o.terms {
            match self.terms.iter_mut().find(|t| t.0 == v) {
                Some(t) => t.1 = t.1.wrapping_add(a),
                None => self.terms.push((v, a)),
            }
        }
        self.norm()
    }

    /// Times `k` (taken modulo `2^64`): `x = L (mod 2^m)` gives
    /// `k x = k L (mod 2^(m + v))` with `2^v` the largest power of two
    /// dividing `k`.
    fn scale(mut self, k: u128) -> Lin {
        let k = k & mask(64);
        if k == 0 {
            return Lin::konst(0, 64);
        }
        self.m = (self.m + k.trailing_zeros()).min(64);
        self.c = self.c.wrapping_mul(k);
        for t in self.terms.iter_mut() {
            t.1 = t.1.wrapping_mul(k);
        }
        self.norm()
    }

    fn neg(self) -> Lin {
        self.scale(mask(64))
    }
}

fn int_lin(v: V, depth: u32) -> Lin {
    let t = type_of(v);
    if !is_int(t) {
        return Lin::atom(v, 64);
    }
    let w = int_width(t).min(64);
    if let Some(c) = const_int_value(v) {
        return Lin::konst(c as u64 as u128, w);
    }
    if depth > MAX_DEPTH || !is_instruction(v) {
        return Lin::atom(v, w);
    }
    let sub = |k: u32| int_lin(operand(v, k), depth + 1);
    use LLVMOpcode::*;
    match opcode(v) {
        Some(LLVMAdd) => sub(0).add(sub(1)).cap(w),
        Some(LLVMSub) => sub(0).add(sub(1).neg()).cap(w),
        Some(LLVMMul) => match (
            const_int_value(operand(v, 0)),
            const_int_value(operand(v, 1)),
        ) {
            (_, Some(c)) => sub(0).scale(c as u64 as u128).cap(w),
            (Some(c), _) => sub(1).scale(c as u64 as u128).cap(w),
            _ => Lin::atom(v, w),
        },
        Some(LLVMShl) => match const_int_value(operand(v, 1)) {
            Some(c) if (0..w as i64).contains(&c) => sub(0).scale(1u128 << c).cap(w),
            _ => Lin::atom(v, w),
        },
        Some(LLVMSExt | LLVMZExt | LLVMTrunc) => {
            let ws = int_width(type_of(operand(v, 0)));
            sub(0).cap(ws.min(w))
        }
        _ => Lin::atom(v, w),
    }
}

/// A pointer as a base and a linear byte offset from it (modulo `2^64`).
fn ptr_lin(lay: &Layout, p: V, depth: u32) -> (V, Lin) {
    if depth > MAX_DEPTH || is_vector(type_of(p)) {
        return (p, Lin::konst(0, 64));
    }
    match opcode(p) {
        Some(LLVMOpcode::LLVMGetElementPtr) => {
            let (base, mut off) = ptr_lin(lay, operand(p, 0), depth + 1);
            let mut t = gep_source_type(p);
            for (n, ix) in operands(p)[1..].iter().enumerate() {
                if is_vector(type_of(*ix)) {
                    return (p, Lin::konst(0, 64));
                }
                let size = if n == 0 {
                    lay.alloc_size(t)
                } else if is_struct(t) {
                    let Some(i) = const_int_value(*ix) else {
                        return (p, Lin::konst(0, 64));
                    };
                    off = off.add(Lin::konst(lay.field_offset(t, i as u32) as u128, 64));
                    t = struct_fields(t)[i as usize];
                    continue;
                } else {
                    t = elem_type(t);
                    lay.alloc_size(t)
                };
                // An index narrower than a pointer is sign-extended: its
                // form stays valid modulo its own width.
                off = off.add(int_lin(*ix, depth + 1).scale(size as u128)).cap(64);
            }
            (base, off)
        }
        Some(LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast) => {
            ptr_lin(lay, operand(p, 0), depth + 1)
        }
        _ => (p, Lin::konst(0, 64)),
    }
}

/// The conditional branches on an icmp that hold on every path into `bb`:
/// (condition, whether it is true there).
fn dom_conds(loops: &Loops, bb: BB) -> Vec<(V, bool)> {
    let f = block_fn(bb);
    let mut out = vec![];
    let mut d = loops.idom(bb);
    while let Some(dom) = d {
        let t = terminator(dom);
        let succ = successors(dom);
        if !t.is_null()
            && opcode(t) == Some(LLVMOpcode::LLVMBr)
            && succ.len() == 2
            && succ[0] != succ[1]
            && opcode(operand(t, 0)) == Some(LLVMOpcode::LLVMICmp)
        {
            for (k, s) in succ.iter().enumerate() {
                let only_pred = blocks(f)
                    .iter()
                    .filter(|b| successors(**b).contains(s))
                    .count()
                    == 1;
                if only_pred && loops.block_dominates(*s, bb) {
                    out.push((operand(t, 0), k == 0));
                }
            }
        }
        d = loops.idom(dom);
    }
    out
}

/// Narrow `r` by every condition of `conds` on `x` (twice: an endpoint
/// excluded by one `!=` may make another apply).
fn narrow(mut r: (i128, i128), conds: &[(V, bool)], x: V, signed: bool) -> (i128, i128) {
    for _ in 0..2 {
        for (c, holds) in conds {
            r = refine(r, *c, x, *holds, signed);
        }
    }
    r
}

/// Signed range of integer `x` where block `bb` runs.
fn range(loops: &Loops, x: V, bb: BB, depth: u32) -> (i128, i128) {
    let w = int_width(type_of(x)).min(64);
    let full = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
    if let Some(c) = const_int_value(x) {
        return (c as i128, c as i128);
    }
    if depth > MAX_DEPTH {
        return full;
    }
    let c1 = || const_int_value(operand(x, 1)).filter(|c| *c > 0 && *c < w as i64);
    let r = match opcode(x) {
        Some(LLVMOpcode::LLVMSDiv) => match const_int_value(operand(x, 1)).filter(|c| *c > 0) {
            Some(c) => {
                let (lo, hi) = range(loops, operand(x, 0), bb, depth + 1);
                (lo / c as i128, hi / c as i128)
            }
            None => full,
        },
        Some(LLVMOpcode::LLVMAShr) => match c1() {
            Some(c) => {
                let (lo, hi) = range(loops, operand(x, 0), bb, depth + 1);
                (lo >> c, hi >> c)
            }
            None => full,
        },
        Some(LLVMOpcode::LLVMLShr) => match c1() {
            Some(c) => {
                let (lo, hi) = urange(loops, operand(x, 0), bb, depth + 1);
                (lo >> c, hi >> c)
            }
            None => full,
        },
        _ => full,
    };
    narrow(r, &dom_conds(loops, bb), x, true)
}

/// Unsigned range of integer `x` where block `bb` runs.
fn urange(loops: &Loops, x: V, bb: BB, depth: u32) -> (i128, i128) {
    let w = int_width(type_of(x)).min(64);
    let (slo, shi) = range(loops, x, bb, depth);
    let r = if slo >= 0 {
        (slo, shi)
    } else {
        (0, (1i128 << w) - 1)
    };
    narrow(r, &dom_conds(loops, bb), x, false)
}

/// Narrow `r` (signed or unsigned values) by `cond` (an icmp) being
/// `holds`, where it compares `x` with a constant.
fn refine(r: (i128, i128), cond: V, x: V, holds: bool, signed: bool) -> (i128, i128) {
    use LLVMIntPredicate::*;
    let (a, b) = (operand(cond, 0), operand(cond, 1));
    let (pred, other) = if a == x {
        (icmp_predicate(cond), b)
    } else if b == x {
        let swapped = match icmp_predicate(cond) {
            LLVMIntSGT => LLVMIntSLT,
            LLVMIntSGE => LLVMIntSLE,
            LLVMIntSLT => LLVMIntSGT,
            LLVMIntSLE => LLVMIntSGE,
            LLVMIntUGT => LLVMIntULT,
            LLVMIntUGE => LLVMIntULE,
            LLVMIntULT => LLVMIntUGT,
            LLVMIntULE => LLVMIntUGE,
            p => p,
        };
        (swapped, a)
    } else {
        return r;
    };
    let Some(c) = const_int_value(other) else {
        return r;
    };
    let w = int_width(type_of(x)).min(64);
    // The constant as the range's values read it.
    let c = if signed {
        c as i128
    } else {
        (c as i128) & ((1i128 << w) - 1)
    };
    let pred = if holds {
        pred
    } else {
        match pred {
            LLVMIntSGT => LLVMIntSLE,
            LLVMIntSGE => LLVMIntSLT,
            LLVMIntSLT => LLVMIntSGE,
            LLVMIntSLE => LLVMIntSGT,
            LLVMIntUGT => LLVMIntULE,
            LLVMIntUGE => LLVMIntULT,
            LLVMIntULT => LLVMIntUGE,
            LLVMIntULE => LLVMIntUGT,
            LLVMIntEQ => LLVMIntNE,
            LLVMIntNE => LLVMIntEQ,
        }
    };
    let (lo, hi) = r;
    match (pred, signed) {
        (LLVMIntSGT, true) | (LLVMIntUGT, false) => (lo.max(c + 1), hi),
        (LLVMIntSGE, true) | (LLVMIntUGE, false) => (lo.max(c), hi),
        (LLVMIntSLT, true) | (LLVMIntULT, false) => (lo, hi.min(c - 1)),
        (LLVMIntSLE, true) | (LLVMIntULE, false) => (lo, hi.min(c)),
        (LLVMIntEQ, _) => (lo.max(c), hi.min(c)),
        (LLVMIntNE, _) if c == lo => (lo + 1, hi),
        (LLVMIntNE, _) if c == hi => (lo, hi - 1),
        _ => r,
    }
}

/// Whether `ps` bytes at `p` and `qs` bytes at `q`, two pointers of the
/// augmented function taken in the same run of a block where `bb` is
/// (`loops` of that function), cannot overlap.
pub(super) fn apart(loops: &Loops, lay: &Layout, bb: BB, p: V, ps: u64, q: V, qs: u64) -> bool {
    if !crate::options::switches::apart_offsets() {
        return false;
    }
    let ((bp, lp), (bq, lq)) = (ptr_lin(lay, p, 0), ptr_lin(lay, q, 0));
    if bp != bq {
        return false;
    }
    let d = lq.add(lp.neg());
    let big = 1i128 << d.m;
    let room = big - ps as i128 - qs as i128;
    if room < 0 {
        return false;
    }
    // q - p (mod 2^m) lies in [s, e]: apart when that stays within
    // [ps, 2^m - qs] (2^m divides 2^64, so this holds modulo 2^64 too).
    let c = d.c as i128;
    let (s, e) = match d.terms.as_slice() {
        [] => (c, c),
        [(x, a)] => {
            if !is_int(type_of(*x)) {
                return false;
            }
            let w = int_width(type_of(*x)).min(64);
            // Any representative of x modulo 2^w gives the same residue.
            if (*a << w) & mask(d.m) != 0 {
                return false;
            }
            let a = *a as i128;
            let a = if a >= big / 2 { a - big } else { a };
            let (lo, hi) = range(loops, *x, bb, 0);
            if lo > hi {
                return false;
            }
            let (u, v) = (c + a * lo, c + a * hi);
            (u.min(v), u.max(v))
        }
        _ => return false,
    };
    e - s <= room && (s - ps as i128).rem_euclid(big) + (e - s) <= room
}
