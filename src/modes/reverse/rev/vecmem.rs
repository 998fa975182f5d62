//! The reverse sweep over the masked memory intrinsics (`rules::vecmem`):
//! what a load's and a store's reverse do, for the lanes the call's mask
//! holds.
//!
//! - masked load: the passthru's adjoint gets the lanes the mask is off;
//!   the shadow the others: a masked load of the shadow, the adjoint
//!   added, a masked store back.
//! - masked store: the value's adjoint is the masked load of the shadow,
//!   which is then zeroed under the mask.
//! - gather: lane by lane under the mask, each lane's adjoint added into
//!   the shadow its pointer's shadow addresses (a scatter of the sums
//!   would lose all but one of the lanes that share an address).
//! - scatter: lane by lane from the last, each lane's adjoint read from
//!   its shadow address, which is then zeroed: of the lanes writing one
//!   address only the last one's value stays, and only it gets the
//!   adjoint.
//!
//! In a parallel region additions into shared shadows are atomic, lane by
//! lane. Vectors of pointers loaded or stored under a mask would need
//! their shadows moved by the augmented sweep, which does not: refused.
use super::{adj_type, adj_zero, RevGen};
use crate::diag::Result;
use crate::ir::llvm::*;
use crate::ir::vector::{each_masked_lane, masked_load, masked_store};
use crate::ir::Builder;
use crate::rules::vecmem::{masked_access, Masked, MaskedAccess};

impl RevGen<'_> {
    pub(super) fn reverse_masked(&mut self, i: V) -> Result<()> {
        let Some(a) = masked_access(i) else {
            return Ok(());
        };
        let (data, active) = match a.value {
            Some(v) => (type_of(v), self.varied(v)),
            None => (type_of(i), self.varied(i)),
        };
        if contains_ptr(data) {
            if active {
                return Err(self.err(
                    i,
                    "masked loads and stores of pointers that carry shadows are not supported in reverse mode",
                ));
            }
            return Ok(());
        }
        if !Self::has_adjoint_type(adj_type(data)) {
            return Ok(());
        }
        if a.op.writes() {
            self.reverse_masked_store(&a, active)
        } else if active {
            self.reverse_masked_load(i, &a)
        } else {
            Ok(())
        }
    }

    /// Masked load and gather: the adjoint goes to the passthru where the
    /// mask is off, into the shadow where it is on.
    fn reverse_masked_load(&mut self, i: V, a: &MaskedAccess) -> Result<()> {
        let at = adj_type(type_of(i));
        let d = self.take_adjoint(i)?;
        let mask = self.avail(a.mask)?;
        if let Some(p) = a.passthru.filter(|p| self.varied(*p)) {
            let dp = self.b.select(mask, adj_zero(at), d);
            self.add_adjoint(p, dp)?;
        }
        let sp = self
            .address_shadow(a)?
            .ok_or_else(|| self.err(i, "masked load of active memory without a shadow"))?;
        let atomic = self.parallel && crate::modes::openmp::needs_atomic(a.ptr);
        if a.op == Masked::Load && !atomic {
            let old = masked_load(&self.b, at, sp, a.align, mask, zero(at));
            let new = self.b.fadd(old, d);
            masked_store(&self.b, new, sp, a.align, mask);
            return Ok(());
        }
        let (et, lane_align) = self.lane_type(at, a.align);
        let per_lane = a.op.per_lane_pointers();
        let n = vector_size(at);
        let rev = self.rev;
        each_masked_lane(&self.b, rev, mask, 0..n, None, |b, k, _| {
            let p = lane_address(b, et, sp, k, per_lane);
            let dk = b.extract_element(d, k);
            if atomic {
                crate::modes::openmp::atomic_accumulate(b, p, dk);
            } else {
                let old = b.load(et, p);
                set_alignment(old, lane_align);
                let st = b.store(b.fadd(old, dk), p);
                set_alignment(st, lane_align);
            }
            None
        });
        Ok(())
    }

    /// Masked store and scatter: the value's adjoint is what the shadow
    /// holds under the mask, which is then zeroed there.
    fn reverse_masked_store(&mut self, a: &MaskedAccess, active: bool) -> Result<()> {
        let Some(sp) = self.address_shadow(a)? else {
            return Ok(());
        };
        let v = a.value.unwrap();
        let at = adj_type(type_of(v));
        let mask = self.avail(a.mask)?;
        if a.op == Masked::Store {
            if active {
                let old = masked_load(&self.b, at, sp, a.align, mask, zero(at));
                self.add_adjoint(v, old)?;
            }
            masked_store(&self.b, zero(at), sp, a.align, mask);
            return Ok(());
        }
        let (et, lane_align) = self.lane_type(at, a.align);
        let n = vector_size(at);
        let rev = self.rev;
        let init = active.then(|| adj_zero(at));
        let dv = each_masked_lane(&self.b, rev, mask, (0..n).rev(), init, |b, k, acc| {
            let p = lane_address(b, et, sp, k, true);
            let acc = acc.map(|acc| {
                let old = b.load(et, p);
                set_alignment(old, lane_align);
                b.insert_element(acc, old, k)
            });
            let st = b.store(zero(et), p);
            set_alignment(st, lane_align);
            acc
        });
        if let Some(dv) = dv {
            self.add_adjoint(v, dv)?;
        }
        Ok(())
    }

    /// The shadow of the call's address: the shadow pointer, or for gather
    /// and scatter the vector of shadow pointers.
    fn address_shadow(&mut self, a: &MaskedAccess) -> Result<Option<V>> {
        if a.op.per_lane_pointers() {
            self.pointer_vector_shadow(a.ptr)
        } else {
            self.shadow_avail(a.ptr)
        }
    }

    /// The shadow of vector of pointers `v`, built in the reverse sweep
    /// from the shadows of the pointers it is made of (the augmented sweep
    /// gives shadows to pointers, not to vectors of them): a vector GEP's
    /// over the base's shadow, lanes inserted or shuffled, selected, cast.
    fn pointer_vector_shadow(&mut self, v: V) -> Result<Option<V>> {
        use LLVMOpcode::*;
        if let Some(s) = self.a.shadow.get(&v).copied() {
            return self.avail(s).map(Some);
        }
        if is_constant(v) && is_null_or_undef(v) {
            // poison, undef, null lanes: no memory.
            return Ok(Some(v));
        }
        if !is_vector(type_of(v)) {
            return self.shadow_avail(v);
        }
        let shadow_or_same = |g: &mut Self, o: V| -> Result<Option<V>> {
            if is_ptr(type_of(o)) || is_vector(type_of(o)) && is_ptr(elem_type(type_of(o))) {
                g.pointer_vector_shadow(o)
            } else {
                g.avail(o).map(Some)
            }
        };
        // Two operands' shadows (or values), or none when either has none.
        let both = |g: &mut Self, a: usize, b: usize| -> Result<Option<(V, V)>> {
            let x = shadow_or_same(g, operand(v, a as u32))?;
            let y = shadow_or_same(g, operand(v, b as u32))?;
            Ok(x.zip(y))
        };
        let Some(op) = opcode(v) else { return Ok(None) };
        let s = match op {
            LLVMGetElementPtr => {
                let ops = operands(v);
                let Some(base) = self.pointer_vector_shadow(ops[0])? else {
                    return Ok(None);
                };
                let mut idx = Vec::new();
                for o in &ops[1..] {
                    idx.push(self.avail(*o)?);
                }
                let g = self.b.gep(gep_source_type(v), base, &mut idx);
                copy_inbounds(v, g);
                g
            }
            LLVMInsertElement => {
                let Some((vec, p)) = both(self, 0, 1)? else {
                    return Ok(None);
                };
                let k = self.avail(operand(v, 2))?;
                self.b.insert_element(vec, p, k)
            }
            LLVMShuffleVector => {
                let Some((x, y)) = both(self, 0, 1)? else {
                    return Ok(None);
                };
                self.b.shuffle(x, y, shuffle_mask(v))
            }
            LLVMSelect => {
                let Some((x, y)) = both(self, 1, 2)? else {
                    return Ok(None);
                };
                let c = self.avail(operand(v, 0))?;
                self.b.select(c, x, y)
            }
            LLVMBitCast | LLVMAddrSpaceCast => {
                let Some(x) = shadow_or_same(self, operand(v, 0))? else {
                    return Ok(None);
                };
                self.b.cast(op, x, type_of(v))
            }
            _ => return Ok(None),
        };
        Ok(Some(s))
    }

    /// The element type of adjoint vector type `at`, and the alignment of
    /// one lane's address under the call's alignment `align`.
    fn lane_type(&self, at: T, align: u32) -> (T, u32) {
        let et = elem_type(at);
        let size = type_alloc_size(self.sess.module, et).max(1) as u32;
        let lane_align = if align == 0 { size } else { gcd(align, size) };
        (et, lane_align)
    }
}

/// Lane `k`'s shadow address: an element of the vector of shadow pointers
/// (gather, scatter), or the `k`-th element after the shadow pointer.
fn lane_address(b: &Builder, et: T, sp: V, k: V, per_lane: bool) -> V {
    if per_lane {
        b.extract_element(sp, k)
    } else {
        b.gep(et, sp, &mut [k])
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
