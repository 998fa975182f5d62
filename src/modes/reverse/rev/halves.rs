//! The reverse sweep of doubles moved as two 32-bit halves
//! (`analysis/halves.rs`). The adjoint of a half is the matching half of
//! the double's adjoint, held as bits (an `i32` slot), never added as a
//! float or an integer:
//! - `store i32 h, q` (q a half of a double): h's bits are the shadow's
//!   half at q, which becomes zero (the adjoint of an overwrite, moved);
//! - `h = load i32 p`: at the first of the pair of loads of the source
//!   double, the two halves' bits are joined into one double and added to
//!   the source's shadow (the second load does nothing).
//! The pairs are checked: both halves of the double, loaded or stored
//! together, each half value stored exactly once.
use super::RevGen;
use crate::analysis::halves::{self, Piece};
use crate::diag::Result;
use crate::ir::llvm::*;

impl RevGen<'_> {
    /// Which piece of a float integer value `v` is (type analysis).
    pub(super) fn float_piece(&self, v: V) -> Piece {
        match self.a.act.types.as_ref() {
            Some(t) => halves::piece(t, v),
            None => Piece::None,
        }
    }

    fn piece_error(&self, i: V, k: crate::analysis::types::FloatKind) -> crate::diag::Error {
        self.err(
            i,
            format!(
                "a {} is read or written in pieces of {} bits; only a double's two 32-bit halves can carry its derivative",
                k.name(),
                int_width(type_of(if opcode(i) == Some(LLVMOpcode::LLVMStore) { operand(i, 0) } else { i }))
            ),
        )
    }

    fn half_pair(&self, i: V) -> Result<halves::Pair> {
        let types = self
            .a
            .act
            .types
            .as_ref()
            .expect("pieces come from type analysis");
        halves::pair_of(types, i).map_err(|msg| self.err(i, msg))
    }

    /// The bit slot of half value `v` (zeroed at the entry).
    fn half_slot(&mut self, v: V) -> V {
        if let Some(s) = self.adj.get(&v) {
            return *s;
        }
        let t = type_of(v);
        let s = self.entry_alloca(t, &format!("d.bits.{}", name(v)));
        let eb = crate::ir::Builder::new(self.sess.module);
        eb.after(s);
        eb.clear_debug_loc();
        eb.store(zero(t), s);
        self.adj.insert(v, s);
        s
    }

    /// Read and clear the bits of half value `v` (zero when it is inactive).
    fn take_half(&mut self, v: V) -> V {
        if !self.varied(v) {
            return zero(type_of(v));
        }
        let slot = self.half_slot(v);
        let d = self.b.load(type_of(v), slot);
        self.b.store(zero(type_of(v)), slot);
        d
    }

    /// The reverse of a store of a varied half `v` (Ok(false): not a half).
    pub(super) fn reverse_half_store(&mut self, i: V) -> Result<bool> {
        let v = operand(i, 0);
        match self.float_piece(v) {
            Piece::None => return Ok(false),
            Piece::Other(_) if !halves::declared_float(i) => return Ok(false),
            Piece::Other(k) => return Err(self.piece_error(i, k)),
            Piece::Half => {}
        }
        if !self.varied(v) {
            return Ok(false);
        }
        if halves::is_dead_store(i) {
            // Overwritten before any read: its shadow is already zero here.
            return Ok(true);
        }
        let pair = match self.half_pair(i) {
            Ok(p) => p,
            Err(_) if !halves::declared_double(i) => return Ok(false),
            Err(e) => return Err(e),
        };
        self.check_half_value(v)?;
        for s in [pair.lo, pair.hi] {
            let w = operand(s, 0);
            if !self.varied(w) || self.float_piece(w) != Piece::Half {
                return Err(self.err(
                    s,
                    "one 32-bit half of a double is stored from a copied double's half and the other is not; the derivative of a double moves as a whole",
                ));
            }
        }
        let Some(sp) = self.shadow_avail(operand(i, 1))? else {
            return Ok(true);
        };
        let t = type_of(v);
        let bits = self.b.load(t, sp);
        copy_alignment(i, bits);
        let z = self.b.store(zero(t), sp);
        copy_alignment(i, z);
        let slot = self.half_slot(v);
        self.b.store(bits, slot);
        Ok(true)
    }

    /// A half value is copied into at most one half of another double (a
    /// store overwritten before any read aside) and used by nothing else
    /// that carries a derivative (comparisons carry none). Returns
    /// whether it is stored.
    fn check_half_value(&self, v: V) -> Result<bool> {
        let mut stores = 0;
        let mut ok = opcode(v) == Some(LLVMOpcode::LLVMLoad);
        for u in users(v) {
            if opcode(u) == Some(LLVMOpcode::LLVMStore) {
                ok &= operand(u, 0) == v && operand(u, 1) != v;
                if !halves::is_dead_store(u) {
                    stores += 1;
                }
            } else if !matches!(
                opcode(u),
                Some(LLVMOpcode::LLVMICmp | LLVMOpcode::LLVMSwitch)
            ) && self.varied(u)
            {
                ok = false;
            }
        }
        if ok && stores <= 1 {
            return Ok(stores == 1);
        }
        Err(self.err(
            v,
            "a 32-bit half of a double is used other than by being stored once into another double's half (computed on, compared, or copied twice); its derivative is half of a double's and cannot be added or computed on",
        ))
    }

    /// The reverse of a varied load of a half (Ok(false): not a half).
    pub(super) fn reverse_half_load(&mut self, i: V) -> Result<bool> {
        match self.float_piece(i) {
            Piece::None => return Ok(false),
            Piece::Other(_) if !halves::declared_float(i) => return Ok(false),
            Piece::Other(k) => return Err(self.piece_error(i, k)),
            Piece::Half => {}
        }
        let pair = match self.half_pair(i) {
            Ok(p) => p,
            Err(_) if !halves::declared_double(i) => return Ok(false),
            Err(e) => {
                if !self.check_half_value(i)? {
                    return Ok(true); // only compared: nothing moves
                }
                return Err(e);
            }
        };
        let stored = self.check_half_value(i)?;
        if pair.first != i {
            return Ok(true); // the first of the pair adds both halves
        }
        let other = if pair.lo == i { pair.hi } else { pair.lo };
        let other_stored = self.varied(other)
            && self.float_piece(other) == Piece::Half
            && self.check_half_value(other)?;
        if !stored && !other_stored {
            return Ok(true);
        }
        if self.parallel {
            return Err(self.err(
                i,
                "a double read as two 32-bit halves in a parallel region is not supported",
            ));
        }
        let Some(sp) = self.shadow_avail(operand(i, 0))? else {
            return Err(self.err(i, "load of active memory without a shadow"));
        };
        let ctx = self.b.ctx;
        let (i64t, f64t) = (i64_type(ctx), double_type(ctx));
        let lo = self.take_half(pair.lo);
        let hi = self.take_half(pair.hi);
        let lo = self.b.int_cast(lo, i64t, false);
        let hi = self.b.int_cast(hi, i64t, false);
        let hi = self.b.mul(hi, const_i64(ctx, 1 << halves::HALF_BITS));
        let d = self.b.bitcast(self.b.or(lo, hi), f64t);
        // The shadow of the double: this load's shadow, or 4 bytes before.
        let at = if i == pair.lo {
            sp
        } else {
            let back = const_i64(ctx, -((halves::HALF_BITS / 8) as i64));
            self.b.gep(i8_type(ctx), sp, &mut [back])
        };
        let old = self.b.load(f64t, at);
        let new = self.b.fadd(old, d);
        self.b.store(new, at);
        Ok(true)
    }
}
